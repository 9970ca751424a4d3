"""Regressions for data-safety bugs: corrections kept, scopes owned by authors, dedup respects sharing."""

from __future__ import annotations

import grpc
import pytest

from memoryd.rpc.client import DataServiceStub, MemoryServiceStub, dpb, pb
from tests.conftest import LiveServer, tenant
from tests.e2e.helpers import snapshot

T = tenant("acme")


def memorize(stub: MemoryServiceStub, content: str, agent: str = "a1", end_user: str = "", **kw) -> pb.MemorizeResponse:
    return stub.Memorize(
        pb.MemorizeRequest(agent_id=agent, end_user_id=end_user, memory=pb.MemoryInput(content=content, **kw)),
        metadata=T,
    )


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Bob is allergic to peanuts", "Bob is not allergic to peanuts"),
        ("The customer's order number is 48213", "The customer's order number is 99017"),
        ("The standup is on Monday at 10am", "The standup is on Friday at 3pm"),
        ("Noah's phone number is 555-0142", "Noah's phone number is 555-0199"),
    ],
)
def test_a_correction_is_stored_as_a_new_memory(
    stub: MemoryServiceStub, live_server: LiveServer, first: str, second: str
) -> None:
    a = memorize(stub, first)
    b = memorize(stub, second)
    assert not b.deduplicated and b.memory.id != a.memory.id and b.memory.content == second
    assert sorted(r["content"] for r in snapshot(live_server._settings.storage.uri, "acme")) == sorted([first, second])


def test_an_agent_cannot_widen_another_contacts_memory(stub: MemoryServiceStub) -> None:
    secret = memorize(stub, "u0's door code is 4512", agent="a0", end_user="u0", scope=pb.SCOPE_END_USER).memory
    with pytest.raises(grpc.RpcError) as err:
        stub.UpdateMemory(
            pb.UpdateMemoryRequest(agent_id="a1", end_user_id="u0", memory_id=secret.id, scope=pb.SCOPE_SHARED),
            metadata=T,
        )
    assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED and "author" in (err.value.details() or "")
    with pytest.raises(grpc.RpcError) as err:  # not even its author moves it out of the contact
        stub.UpdateMemory(
            pb.UpdateMemoryRequest(agent_id="a0", end_user_id="u0", memory_id=secret.id, scope=pb.SCOPE_TENANT),
            metadata=T,
        )
    assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED and "SCOPE_END_USER" in (err.value.details() or "")
    with pytest.raises(grpc.RpcError) as err:
        stub.GetMemory(pb.GetMemoryRequest(agent_id="a2", end_user_id="u1", memory_id=secret.id), metadata=T)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
    # Content stays editable by the agents serving that contact; the scope does not move.
    edited = stub.UpdateMemory(
        pb.UpdateMemoryRequest(agent_id="a1", end_user_id="u0", memory_id=secret.id, content="u0's door code is 4513"),
        metadata=T,
    ).memory
    assert edited.scope == pb.SCOPE_END_USER and edited.end_user_id == "u0"


def test_only_the_author_may_hide_a_tenant_memory(stub: MemoryServiceStub) -> None:
    rule = memorize(stub, "Refunds above 500 euros need a manager", agent="a0", scope=pb.SCOPE_TENANT).memory
    with pytest.raises(grpc.RpcError) as err:
        stub.UpdateMemory(pb.UpdateMemoryRequest(agent_id="a1", memory_id=rule.id, scope=pb.SCOPE_PRIVATE), metadata=T)
    assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert stub.GetMemory(pb.GetMemoryRequest(agent_id="a2", memory_id=rule.id), metadata=T).memory.id == rule.id


def test_sharing_a_fact_held_privately_promotes_it(stub: MemoryServiceStub) -> None:
    mine = memorize(stub, "The VPN needs a hardware key").memory
    shared = memorize(stub, "The VPN needs a hardware key.", scope=pb.SCOPE_SHARED)
    assert shared.deduplicated and shared.memory.id == mine.id and shared.memory.scope == pb.SCOPE_SHARED
    seen = stub.GetMemory(pb.GetMemoryRequest(agent_id="a2", memory_id=mine.id), metadata=T).memory
    assert seen.scope == pb.SCOPE_SHARED


def test_a_private_restatement_never_rewrites_another_agents_shared_memory(stub: MemoryServiceStub) -> None:
    theirs = memorize(stub, "Deploys freeze on Fridays", agent="a2", scope=pb.SCOPE_SHARED, tags=["ops"]).memory
    again = memorize(stub, "Deploys freeze on Fridays", tags=["release"])
    assert not again.deduplicated and again.memory.agent_id == "a1"
    after = stub.GetMemory(pb.GetMemoryRequest(agent_id="a2", memory_id=theirs.id), metadata=T).memory
    assert list(after.tags) == ["ops"] and after.updated_at == theirs.updated_at


def test_min_salience_filters_in_every_ranking_mode(stub: MemoryServiceStub) -> None:
    salient = memorize(stub, "The garden hose leaks at the tap", salience=0.9).memory
    memorize(stub, "The garden hose is green", salience=0.1)
    for ranking in (pb.RANKING_MODE_RELEVANCE, pb.RANKING_MODE_SALIENCE_DECAY):
        hits = stub.Recall(
            pb.RecallRequest(agent_id="a1", query="garden hose", min_salience=0.5, ranking=ranking), metadata=T
        ).hits
        assert [h.memory.id for h in hits] == [salient.id], ranking


def test_min_score_applies_to_the_0_1_score_in_every_ranking_mode(stub: MemoryServiceStub) -> None:
    memorize(stub, "The garden hose leaks at the tap", salience=0.9)
    memorize(stub, "Quarterly taxes are due in April", salience=0.9)
    for ranking in (pb.RANKING_MODE_RELEVANCE, pb.RANKING_MODE_SALIENCE_DECAY):
        every = stub.Recall(pb.RecallRequest(agent_id="a1", query="garden hose", ranking=ranking), metadata=T).hits
        assert len(every) == 2 and all(0.0 <= h.score <= 1.0 for h in every)
        kept = stub.Recall(
            pb.RecallRequest(agent_id="a1", query="garden hose", min_score=0.5, ranking=ranking), metadata=T
        ).hits
        assert [h.memory.content for h in kept] == ["The garden hose leaks at the tap"], ranking
        assert all(h.score >= 0.5 for h in kept)
        assert (
            not stub.Recall(
                pb.RecallRequest(agent_id="a1", query="garden hose", min_score=1.0, ranking=ranking), metadata=T
            ).hits
            or ranking == pb.RANKING_MODE_RELEVANCE
        )  # relevance reaches 1.0 when every query word is present


def test_a_retried_batch_with_its_request_id_is_stored_once(stub: MemoryServiceStub, live_server: LiveServer) -> None:
    items = [pb.MemoryInput(content=f"transcript turn {i}") for i in range(50)]
    request = pb.MemorizeBatchRequest(agent_id="a1", items=items, skip_deduplication=True, request_id="import-7")
    first = stub.MemorizeBatch(request, metadata=T)
    retry = stub.MemorizeBatch(request, metadata=T)  # as after UNAVAILABLE: the first call had committed
    assert [r.memory.id for r in retry.results] == [r.memory.id for r in first.results]
    assert not any(r.deduplicated for r in retry.results)
    assert len(snapshot(live_server._settings.storage.uri, "acme")) == 50
    other = stub.MemorizeBatch(
        pb.MemorizeBatchRequest(agent_id="a1", items=items, skip_deduplication=True, request_id="import-8"), metadata=T
    )
    assert len(snapshot(live_server._settings.storage.uri, "acme")) == 100 and other.results[0].memory.id not in {
        r.memory.id for r in first.results
    }


def test_a_request_id_reused_for_another_request_is_refused(stub: MemoryServiceStub, live_server: LiveServer) -> None:
    stub.Memorize(
        pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="first text"), request_id="r1"), metadata=T
    )
    before = snapshot(live_server._settings.storage.uri, "acme")
    with pytest.raises(grpc.RpcError) as err:
        stub.Memorize(
            pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="other text"), request_id="r1"), metadata=T
        )
    assert err.value.code() == grpc.StatusCode.ALREADY_EXISTS and "request_id" in (err.value.details() or "")
    with pytest.raises(grpc.RpcError) as err:
        stub.Memorize(
            pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="x"), request_id="bad id!"), metadata=T
        )
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "request_id" in (err.value.details() or "")
    assert snapshot(live_server._settings.storage.uri, "acme") == before
    # Keys are per agent: another agent's r1 is its own request.
    stub.Memorize(
        pb.MemorizeRequest(agent_id="a2", memory=pb.MemoryInput(content="other text"), request_id="r1"), metadata=T
    )


def _refused(call: object, request: object) -> str:
    with pytest.raises(grpc.RpcError) as err:
        call(request, metadata=T)  # type: ignore[operator]
    assert err.value.code() == grpc.StatusCode.ALREADY_EXISTS, err.value.details()
    return err.value.details() or ""


def test_a_request_id_reused_with_anything_stored_changed_is_refused(
    stub: MemoryServiceStub, live_server: LiveServer
) -> None:
    same = pb.MemoryInput(content="The build server reboots on Sundays")
    first = stub.Memorize(pb.MemorizeRequest(agent_id="a1", memory=same, request_id="r-scope"), metadata=T)
    again = stub.Memorize(pb.MemorizeRequest(agent_id="a1", memory=same, request_id="r-scope"), metadata=T)
    assert again.memory.id == first.memory.id  # a true retry: the first answer
    shared = pb.MemoryInput(content="The build server reboots on Sundays", scope=pb.SCOPE_SHARED)
    tagged = pb.MemoryInput(content="The build server reboots on Sundays", tags=["ops"])
    filed = pb.MemoryInput(content="The build server reboots on Sundays", collection="infra")
    for changed in (shared, tagged, filed):
        details = _refused(stub.Memorize, pb.MemorizeRequest(agent_id="a1", memory=changed, request_id="r-scope"))
        assert "request_id" in details
    contact = pb.MemorizeRequest(agent_id="a1", end_user_id="u2", memory=same, request_id="r-scope")
    _refused(stub.Memorize, contact)
    items = [pb.MemoryInput(content=f"Release {i} ships on day {i}") for i in range(3)]
    batch = pb.MemorizeBatchRequest(agent_id="a1", items=items, request_id="r-batch")
    stored = stub.MemorizeBatch(batch, metadata=T)
    before = snapshot(live_server._settings.storage.uri, "acme")
    _refused(stub.MemorizeBatch, pb.MemorizeBatchRequest(agent_id="a1", items=items[:2], request_id="r-batch"))
    more = [*items, pb.MemoryInput(content="Release 9 ships on day 9")]
    _refused(stub.MemorizeBatch, pb.MemorizeBatchRequest(agent_id="a1", items=more, request_id="r-batch"))
    _refused(stub.MemorizeBatch, pb.MemorizeBatchRequest(agent_id="a1", items=items[::-1], request_id="r-batch"))
    assert snapshot(live_server._settings.storage.uri, "acme") == before  # nothing written by a refused retry
    retry = stub.MemorizeBatch(batch, metadata=T)
    assert [r.memory.id for r in retry.results] == [r.memory.id for r in stored.results]


def test_what_two_contacts_each_said_is_two_memories_and_one_erasure_keeps_the_other(
    stub: MemoryServiceStub, live_server: LiveServer
) -> None:
    omar = memorize(stub, "user: I'm vegetarian", end_user="omar")  # filed privately, serving each contact
    ida = memorize(stub, "user: I'm vegetarian", end_user="ida")
    assert not ida.deduplicated and ida.memory.end_user_id == "ida"  # was merged into Omar's row
    again = memorize(stub, "user: I'm vegetarian", end_user="ida")
    assert again.deduplicated and again.memory.id == ida.memory.id  # one contact saying it twice: one memory
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as ch:
        DataServiceStub(ch).EraseEndUser(dpb.EraseEndUserRequest(end_user_id="omar"), metadata=T)
    rows = snapshot(live_server._settings.storage.uri, "acme")
    assert [r["id"] for r in rows if r["content"] == "user: I'm vegetarian"] == [ida.memory.id]  # Ida's stays
    assert omar.memory.id not in {r["id"] for r in rows}
