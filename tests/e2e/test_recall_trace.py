"""Recall's trace (explain): every candidate and its end, why an expected memory was left out, for operators."""

from __future__ import annotations

import grpc
import pytest

from memoryd.core.keys import Role
from memoryd.rpc.client import MemoryServiceStub, bearer, pb
from tests.conftest import LiveServer, tenant

T = tenant("acme")


def _memorize(stub: MemoryServiceStub, agent: str, content: str, **fields: object) -> str:
    request = pb.MemorizeRequest(agent_id=agent, memory=pb.MemoryInput(content=content, **fields))  # type: ignore[arg-type]
    return str(stub.Memorize(request, metadata=T).memory.id)


def test_a_traced_recall_accounts_for_every_candidate_and_each_expected_memory(stub: MemoryServiceStub) -> None:
    tea = _memorize(stub, "a1", "Dana drinks green tea every morning")
    coffee = _memorize(stub, "a1", "Dana drinks black coffee after lunch")
    tagged = _memorize(stub, "a1", "Dana drinks mint tea at night", tags=["evening"])
    hidden = _memorize(stub, "a2", "Dana drinks jasmine tea with a2")  # another agent's private memory
    unrelated = _memorize(stub, "a1", "The quarterly report is due on the fifth")
    plain = pb.RecallRequest(agent_id="a1", query="What tea does Dana drink?", limit=1, min_score=0)
    untraced = stub.Recall(plain, metadata=T)
    assert not untraced.HasField("trace")  # nothing built unless asked
    asked = pb.RecallRequest()
    asked.CopyFrom(plain)
    asked.explain = True
    asked.explain_ids.extend([tea, coffee, hidden, unrelated, tagged])
    traced = stub.Recall(asked, metadata=T)
    assert [h.memory.id for h in traced.hits] == [h.memory.id for h in untraced.hits]  # the same answer
    trace = traced.trace
    assert trace.limit == 1 and trace.depth >= 1 and trace.coverage_rerank and trace.full_text_candidates >= 2
    by_id = {c.memory_id: c for c in trace.candidates}
    served = traced.hits[0].memory.id
    assert by_id[served].outcome == "hit" and by_id[served].position == 1
    assert abs(by_id[served].score - traced.hits[0].score) < 1e-9
    assert [c.position for c in trace.candidates if c.position] == list(range(1, 1 + len(by_id)))
    assert all(c.outcome == "below the cut" for c in trace.candidates if c.memory_id != served)
    assert hidden not in by_id  # never a candidate: not visible to a1
    why = dict((e.memory_id, e.outcome) for e in trace.explained)
    assert list(why) == [tea, coffee, hidden, unrelated, tagged]
    assert why[served].startswith("hit (place 1")
    assert why[hidden].startswith("not visible to this agent")
    # visible, but no arm found it: the trace says how far it was (its similarity, the words it holds)
    assert why[unrelated].startswith("not a candidate: its similarity ") and "under the floor" in why[unrelated]
    assert why[unrelated].endswith("it holds none of the query's words")
    filtered = pb.RecallRequest()
    filtered.CopyFrom(asked)
    filtered.filter.CopyFrom(pb.RecallFilter(tags=["evening"]))
    narrowed = stub.Recall(filtered, metadata=T).trace
    outcomes = dict((e.memory_id, e.outcome) for e in narrowed.explained)
    assert outcomes[tagged].startswith("hit") and outcomes[coffee].startswith("filtered out")


def test_explain_is_for_operators_and_names_its_fields(live_server: LiveServer) -> None:
    agent = live_server.key("acme", Role.AGENT, "", "agent")[1]
    operator = live_server.key("acme", Role.OPERATOR, "", "operator")[1]
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as channel:
        stub = MemoryServiceStub(channel)
        ask = pb.RecallRequest(agent_id="a1", query="tea", explain=True)
        with pytest.raises(grpc.RpcError) as denied:
            stub.Recall(ask, metadata=(bearer(agent),))
        assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED and "explain" in (denied.value.details() or "")
        assert stub.Recall(ask, metadata=(bearer(operator),)).HasField("trace")
        for request, field in (
            (pb.RecallRequest(agent_id="a1", query="tea", explain_ids=["0" * 32]), "explain_ids"),
            (pb.RecallRequest(agent_id="a1", query="tea", explain=True, explain_ids=["not an id"]), "explain_ids"),
            (pb.RecallRequest(agent_id="a1", query="tea", explain=True, explain_ids=["0" * 32] * 21), "explain_ids"),
        ):
            with pytest.raises(grpc.RpcError) as bad:
                stub.Recall(request, metadata=(bearer(operator),))
            assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT and field in (bad.value.details() or "")


def test_the_trace_carries_each_candidates_text(stub: MemoryServiceStub) -> None:
    first = _memorize(stub, "a1", "Dana's locker is number 14")
    second = _memorize(stub, "a1", "Dana's locker code changed in May")
    reply = stub.Recall(pb.RecallRequest(agent_id="a1", query="Dana locker", limit=1, explain=True), metadata=T)
    texts = {c.memory_id: c.content for c in reply.trace.candidates}
    assert texts == {first: "Dana's locker is number 14", second: "Dana's locker code changed in May"}
