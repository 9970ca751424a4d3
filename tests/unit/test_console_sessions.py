"""The console's sessions: opaque ids, CSRF compared exactly, idle expiry, a bounded table, renewal on sign-in."""

from __future__ import annotations

import time

import pytest

from memoryd.facades.console.sessions import Caller, Sessions
from memoryd.facades.console.web import label, link
from memoryd.rpc.client import jpb, kpb, pb


def test_a_session_is_found_by_its_id_only_and_idles_out(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])  # the sessions read it through the module
    table = Sessions(idle_seconds=60)
    made = table.new()
    assert len(made.session_id) >= 40 and made.session_id != made.csrf
    assert table.get(made.session_id) is made and table.get("forged") is None and table.get(None) is None
    clock[0] += 59
    assert table.get(made.session_id) is made  # used: its idle time starts again
    clock[0] += 61
    assert table.get(made.session_id) is None


def test_the_csrf_token_must_match_exactly() -> None:
    session = Sessions().new()
    assert session.csrf_ok(session.csrf)
    assert (
        not session.csrf_ok("") and not session.csrf_ok(session.csrf[:-1]) and not session.csrf_ok(session.csrf + "x")
    )


def test_signing_in_renews_the_id_and_the_table_stays_bounded() -> None:
    table = Sessions(max_sessions=3)
    planted = table.new()  # an id an attacker made the victim's browser carry
    signed_in = table.renew(planted)
    assert table.get(planted.session_id) is None and signed_in.session_id != planted.session_id
    assert signed_in.csrf != planted.csrf
    kept = [table.new() for _ in range(5)]
    assert table.get(signed_in.session_id) is None  # the least recently used went first
    assert all(table.get(s.session_id) is s for s in kept[-3:])


def test_roles_include_the_ones_below() -> None:
    operator = Caller("acme", "operator", "k1", "", False)
    assert operator.may("agent") and operator.may("operator") and not operator.may("admin")


def test_links_keep_only_the_values_given_and_labels_drop_the_enum_prefix() -> None:
    assert link("/memories", agent="a1", contact="", q="tea & milk") == "/memories?agent=a1&q=tea+%26+milk"
    assert link("/jobs") == "/jobs"
    assert label(pb.Scope, pb.SCOPE_END_USER) == "end_user"
    assert label(jpb.JobState, jpb.JOB_STATE_WAITING_FOR_PROVIDER) == "waiting_for_provider"
    assert label(kpb.KeyRole, kpb.KEY_ROLE_ADMIN) == "admin"
