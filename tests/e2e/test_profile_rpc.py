"""ProfileService over a real gRPC server and real LanceDB."""

from __future__ import annotations

import threading
from pathlib import Path

import grpc
import pytest

from memoryd.core.routing import ROUTING_RULE
from memoryd.rpc.client import ProfileServiceStub, ppb
from tests.conftest import LiveServer, tenant

T = tenant("acme")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def profiles(channel: grpc.Channel) -> ProfileServiceStub:
    return ProfileServiceStub(channel)


def edit(stub: ProfileServiceStub, rev: int, agent: str = "a1", **op) -> ppb.Profile:
    return stub.EditProfile(ppb.EditProfileRequest(agent_id=agent, expected_revision=rev, **op), metadata=T).profile


def test_new_profile_is_revision_zero(profiles: ProfileServiceStub) -> None:
    p = profiles.GetProfile(ppb.GetProfileRequest(agent_id="a1"), metadata=T).profile
    assert (p.revision, p.document, p.token_count, p.budget_tokens, p.encoding) == (0, "", 0, 1500, "o200k_base")


def test_edits_write_revisions_and_a_stable_prompt_block(profiles: ProfileServiceStub) -> None:
    p1 = edit(profiles, 0, append=ppb.AppendLine(section="Preferences", line="- likes espresso"))
    p2 = edit(profiles, 1, append=ppb.AppendLine(line="Never share API keys", pinned=True))
    p3 = edit(profiles, 2, replace_section=ppb.ReplaceSection(section="Work", content="- ships memoryd\n- on call"))
    p4 = edit(profiles, 3, remove_line=ppb.RemoveLine(line="- on call"))
    assert [p.revision for p in (p1, p2, p3, p4)] == [1, 2, 3, 4]
    assert p4.document == (
        "## Pinned\nNever share API keys\n\n## Preferences\n- likes espresso\n\n## Work\n- ships memoryd\n"
    )
    assert p4.token_count > 0 and p4.source == "edit"
    again = profiles.GetProfile(ppb.GetProfileRequest(agent_id="a1"), metadata=T).profile
    assert again.prompt_block == p4.prompt_block and again.prompt_block.encode() == p4.prompt_block.encode()
    assert p4.document in again.prompt_block
    listed = profiles.ListProfileRevisions(ppb.ListProfileRevisionsRequest(agent_id="a1", page_size=3), metadata=T)
    assert [r.revision for r in listed.revisions] == [4, 3, 2] and listed.next_page_token
    rest = profiles.ListProfileRevisions(
        ppb.ListProfileRevisionsRequest(agent_id="a1", page_size=3, page_token=listed.next_page_token), metadata=T
    )
    assert [r.revision for r in rest.revisions] == [1] and not rest.next_page_token
    old = profiles.GetProfileRevision(ppb.GetProfileRevisionRequest(agent_id="a1", revision=1), metadata=T).profile
    assert old.document == "## Preferences\n- likes espresso\n"


def test_bad_edits_change_nothing(profiles: ProfileServiceStub) -> None:
    edit(profiles, 0, append=ppb.AppendLine(section="Notes", line="first"))
    edit(profiles, 1, set_budget=ppb.SetBudget(budget_tokens=12))
    cases = [
        (
            dict(expected_revision=1, append=ppb.AppendLine(section="Notes", line="stale")),
            grpc.StatusCode.ABORTED,
            "revision 2",
        ),
        (
            dict(expected_revision=2, append=ppb.AppendLine(section="Notes", line="word " * 40)),
            grpc.StatusCode.FAILED_PRECONDITION,
            "budget is 12",
        ),
        (dict(expected_revision=2, remove_line=ppb.RemoveLine(line="absent")), grpc.StatusCode.NOT_FOUND, "absent"),
        (
            dict(expected_revision=2, append=ppb.AppendLine(section="Notes", line="two\nlines")),
            grpc.StatusCode.INVALID_ARGUMENT,
            "append.line",
        ),
        (
            dict(expected_revision=2, append=ppb.AppendLine(section="", line="x")),
            grpc.StatusCode.INVALID_ARGUMENT,
            "append.section",
        ),
        (
            dict(expected_revision=2, replace_section=ppb.ReplaceSection(section="Notes", content="## Evil")),
            grpc.StatusCode.INVALID_ARGUMENT,
            "replace_section.content",
        ),
        (
            dict(expected_revision=2, set_budget=ppb.SetBudget(budget_tokens=0)),
            grpc.StatusCode.INVALID_ARGUMENT,
            "set_budget.budget_tokens",
        ),
        (dict(expected_revision=2), grpc.StatusCode.INVALID_ARGUMENT, "edit"),
        (
            dict(expected_revision=2, restore_revision=ppb.RestoreRevision(revision=0)),
            grpc.StatusCode.INVALID_ARGUMENT,
            "restore_revision.revision",
        ),
        (
            dict(expected_revision=2, restore_revision=ppb.RestoreRevision(revision=7)),
            grpc.StatusCode.NOT_FOUND,
            "no revision 7",
        ),
        (dict(expected_revision=2, agent_id="bad agent"), grpc.StatusCode.INVALID_ARGUMENT, "agent_id"),
    ]
    unseen = [("Notes", "\u200b\ufeff", "append.line"), ("\u200d", "x", "append.section")]  # nobody could read them
    cases += [
        (dict(expected_revision=2, append=ppb.AppendLine(section=s, line=line)), grpc.StatusCode.INVALID_ARGUMENT, f)
        for s, line, f in unseen
    ]
    before = profiles.GetProfile(ppb.GetProfileRequest(agent_id="a1"), metadata=T).profile
    for kwargs, code, needle in cases:
        request = ppb.EditProfileRequest(**{"agent_id": "a1", **kwargs})  # type: ignore[arg-type, dict-item]  # a table of cases
        with pytest.raises(grpc.RpcError) as err:
            profiles.EditProfile(request, metadata=T)
        assert err.value.code() == code and needle in (err.value.details() or ""), (kwargs, err.value.details())
        assert profiles.GetProfile(ppb.GetProfileRequest(agent_id="a1"), metadata=T).profile == before
    with pytest.raises(grpc.RpcError) as err:
        profiles.GetProfileRevision(ppb.GetProfileRevisionRequest(agent_id="a1", revision=9), metadata=T)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
    for token in ("x!", "²", "٣"):  # digits to str.isdigit, not to int()'s base 10 (the second)
        with pytest.raises(grpc.RpcError) as err:
            profiles.ListProfileRevisions(ppb.ListProfileRevisionsRequest(agent_id="a1", page_token=token), metadata=T)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "page_token" in (err.value.details() or "")
    with pytest.raises(grpc.RpcError) as err:
        profiles.GetProfile(ppb.GetProfileRequest(agent_id="a1"))
    assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED
    with pytest.raises(grpc.RpcError) as err:
        profiles.RegenerateProfile(ppb.RegenerateProfileRequest(agent_id="a1"), metadata=T)
    assert err.value.code() == grpc.StatusCode.UNAVAILABLE and "job queue" in (err.value.details() or "")


def test_an_earlier_revision_can_be_made_current_again(profiles: ProfileServiceStub) -> None:
    first = edit(profiles, 0, append=ppb.AppendLine(section="Preferences", line="- likes espresso"))
    edit(profiles, 1, replace_section=ppb.ReplaceSection(section="Preferences", content="- drinks tea now"))
    edit(profiles, 2, append=ppb.AppendLine(line="Never share API keys", pinned=True))
    restored = edit(profiles, 3, restore_revision=ppb.RestoreRevision(revision=1))
    assert (restored.revision, restored.document, restored.source) == (4, first.document, "restore:1")
    assert restored.prompt_block == first.prompt_block and restored.budget_tokens == first.budget_tokens
    again = edit(profiles, 4, restore_revision=ppb.RestoreRevision(revision=3))  # the restore is undone alike
    assert "Never share API keys" in again.document and "- drinks tea now" in again.document
    listed = profiles.ListProfileRevisions(ppb.ListProfileRevisionsRequest(agent_id="a1"), metadata=T).revisions
    assert [r.revision for r in listed] == [5, 4, 3, 2, 1]  # nothing was rewritten in place


def test_over_budget_message_names_both_counts(profiles: ProfileServiceStub) -> None:
    edit(profiles, 0, set_budget=ppb.SetBudget(budget_tokens=5))
    with pytest.raises(grpc.RpcError) as err:
        edit(profiles, 1, append=ppb.AppendLine(section="A", line="one two three four five six seven"))
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "budget is 5" in (err.value.details() or "") and "tokens" in (err.value.details() or "")


def test_twenty_concurrent_edits_lose_no_update(live_server: LiveServer) -> None:
    outcomes: list[tuple[str, int]] = []
    lock = threading.Lock()

    def worker(i: int) -> None:
        with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as ch:
            stub = ProfileServiceStub(ch)
            rev = stub.GetProfile(ppb.GetProfileRequest(agent_id="a1"), metadata=T).profile.revision
            try:
                p = edit(stub, rev, append=ppb.AppendLine(section="Log", line=f"entry {i}"))
                result = ("ok", p.revision)
            except grpc.RpcError as err:
                assert err.code() == grpc.StatusCode.ABORTED, err.details()
                result = ("aborted", 0)
            with lock:
                outcomes.append((f"entry {i}", result[1]) if result[0] == "ok" else ("", 0))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    accepted = sorted((rev, line) for line, rev in outcomes if rev)
    assert len(outcomes) == 20 and accepted
    assert [rev for rev, _ in accepted] == list(range(1, len(accepted) + 1))  # consecutive, no gaps
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as ch:
        final = ProfileServiceStub(ch).GetProfile(ppb.GetProfileRequest(agent_id="a1"), metadata=T).profile
    assert final.revision == len(accepted)
    assert final.document.splitlines()[1:] == [line for _, line in accepted]  # every accepted line, in order


def test_routing_rule_is_stated_identically_everywhere() -> None:
    from memoryd.core import prompts

    def comment_of(proto: str, rpc: str) -> str:
        lines = (ROOT / "proto" / "memoryd" / "v1" / proto).read_text().splitlines()
        end = next(i for i, line in enumerate(lines) if line.strip().startswith(f"rpc {rpc}("))
        start = end
        while lines[start - 1].strip().startswith("//"):
            start -= 1
        return " ".join(line.strip().removeprefix("//").strip() for line in lines[start:end])

    assert ROUTING_RULE in comment_of("memory.proto", "Memorize")
    assert ROUTING_RULE in comment_of("profile.proto", "EditProfile")
    assert ROUTING_RULE in prompts.BOOTSTRAP_PROMPT and ROUTING_RULE in prompts.MAINTENANCE_PROMPT
