"""Pure job rules: the retry schedule, keys, and validation of model answers."""

from __future__ import annotations

import pytest

from memoryd.core.errors import ModelOutputInvalid
from memoryd.core.job_records import (
    JobKind,
    JobRecord,
    JobState,
    backoff_seconds,
    batch_check,
    bootstrap_key,
    regenerate_key,
    retry_delay,
    tally_batch,
)
from memoryd.core.model_output import profile_proposal


def test_backoff_grows_exponentially_under_the_cap_with_full_jitter() -> None:
    ceilings = [backoff_seconds(n, 2.0, 60.0, 0.999999) for n in range(1, 8)]
    assert ceilings[:5] == pytest.approx([2, 4, 8, 16, 32], rel=1e-5)
    assert ceilings[5:] == pytest.approx([60, 60], rel=1e-5)
    assert backoff_seconds(3, 2.0, 60.0, 0.5) == pytest.approx(4.0)
    assert backoff_seconds(3, 2.0, 60.0, 0.0) == pytest.approx(0.2)  # never a zero wait (no held loop)


def test_retry_after_wins_over_backoff() -> None:
    assert retry_delay(1, 2.0, 60.0, 0.0, 30.0) == pytest.approx(30.0)
    assert 30.0 <= retry_delay(1, 2.0, 60.0, 0.9, 30.0) < 30.3
    assert retry_delay(2, 2.0, 60.0, 0.5, None) == pytest.approx(2.0)
    assert retry_delay(2, 2.0, 60.0, 0.5, 0) == pytest.approx(2.0)


def test_a_batch_looks_again_when_its_parts_pace_says_the_last_one_ends() -> None:
    wait, first = batch_check(1000, 0, 1000.0, {}, ceiling=1.0)
    assert wait == 1.0  # the first check: no pace yet
    # 800 parts in 4 s since the first check (200 a second), 50 left: a quarter of a second
    earlier = {**first, "checked_finished": 700}
    wait, near = batch_check(50, 800, 1004.0, earlier, ceiling=1.0)
    assert wait == pytest.approx(0.25)
    assert batch_check(900, 800, 1004.0, earlier, ceiling=1.0)[0] == 1.0  # far from the end: the ceiling
    assert batch_check(1, 800, 1004.0, earlier, ceiling=1.0)[0] == 0.1  # never more often than the floor
    # nothing finished since the last check (a straggler, a provider down): 1.5 times the last wait, up to the ceiling
    wait, stalled = batch_check(50, 800, 1004.25, near, ceiling=1.0)
    assert wait == pytest.approx(0.375)
    for _ in range(3):
        wait, stalled = batch_check(50, 800, 1005.0, stalled, ceiling=1.0)
    assert wait == 1.0
    # a batch's tally: dead parts count as failed, every other state as remaining
    states = {JobState.SUCCEEDED: 5, JobState.FAILED: 1, JobState.DEAD: 2, JobState.RETRYING: 1}
    at = tally_batch(states, 12, 1004.0, earlier, ceiling=1.0)
    assert (at.succeeded, at.failed, at.remaining, at.finished) == (5, 3, 4, 8)
    assert at.summary["agents"] == 12 and at.summary["remaining"] == 4 and at.summary["checked_finished"] == 8


def test_keys_are_business_identities() -> None:
    assert bootstrap_key("acme", "bot", 3) == "bootstrap:acme:bot:v3"
    assert regenerate_key("acme", "bot", 7) == "regenerate:acme:bot:r7"
    record = JobRecord("k", JobKind.BOOTSTRAP, "acme", run=3)
    assert record.message_id == "k#3" and record.live
    assert not JobRecord("k", JobKind.BOOTSTRAP, "acme", state=JobState.DEAD).live


def test_profile_proposals_are_validated_before_anything_is_written() -> None:
    ok = profile_proposal({"profile": "## A\n- x", "demoted": ["- old", "  "]})
    assert ok.profile == "## A\n- x" and ok.demoted == ("- old",)
    assert profile_proposal({"profile": "## A\n- x"}).demoted == ()
    cases: list[tuple[dict[str, object], str]] = [
        ({}, "'profile'"),
        ({"profile": ""}, "'profile'"),
        ({"profile": 3}, "'profile'"),
        ({"profile": "x", "demoted": "y"}, "'demoted'"),
        ({"profile": "x", "demoted": [1]}, "'demoted'"),
        ({"profile": "x", "demoted": ["l"] * 201}, "at most"),
    ]
    for bad, words in cases:
        with pytest.raises(ModelOutputInvalid, match=words):
            profile_proposal(bad)
