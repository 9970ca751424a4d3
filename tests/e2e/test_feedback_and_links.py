"""Readable scores, feedback and source_id links over a real gRPC server, real LanceDB and the real embedder."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import grpc
import lancedb
import pytest

from memoryd.rpc.client import MemoryServiceStub, pb
from tests.conftest import LiveServer, tenant

T = tenant("acme")
WHEN = datetime.now(UTC) - timedelta(days=1)  # one shared time: rankings differ by salience alone


def memorize(stub: MemoryServiceStub, content: str, agent: str = "a1", **kw) -> pb.Memory:
    item = pb.MemoryInput(content=content, **kw)
    item.occurred_at.FromDatetime(WHEN)
    return stub.Memorize(pb.MemorizeRequest(agent_id=agent, memory=item), metadata=T).memory


def recall(stub: MemoryServiceStub, query: str, agent: str = "a1", **kw) -> list[pb.RecallHit]:
    return list(stub.Recall(pb.RecallRequest(agent_id=agent, query=query, **kw), metadata=T).hits)


def get(stub: MemoryServiceStub, memory_id: str, agent: str = "a1") -> pb.GetMemoryResponse:
    return stub.GetMemory(pb.GetMemoryRequest(agent_id=agent, memory_id=memory_id), metadata=T)


def feedback(stub: MemoryServiceStub, memory_id: str, signal: Any, agent: str = "a1", **kw) -> pb.FeedbackResponse:
    request = pb.FeedbackRequest(agent_id=agent, memory_id=memory_id, signal=signal, **kw)
    return stub.Feedback(request, metadata=T)


def refused(call, code: grpc.StatusCode, field: str) -> None:
    with pytest.raises(grpc.RpcError) as err:
        call()
    assert err.value.code() == code and field in (err.value.details() or "")


def archive_version(live_server: LiveServer) -> int:
    return int(lancedb.connect(live_server._settings.storage.uri).open_table("memories_acme").version)


def test_relevance_scores_lie_in_0_1_and_min_score_thresholds_them(stub: MemoryServiceStub) -> None:
    memorize(stub, "Caroline went to the LGBTQ support group on Tuesday")
    memorize(stub, "Melanie painted a sunset over the lake")
    memorize(stub, "The quarterly budget review moved to March")
    hits = recall(stub, "When did Caroline go to the LGBTQ support group?", limit=3)
    assert len(hits) == 3 and all(0.0 <= h.score <= 1.0 for h in hits)
    top = hits[0]
    assert "Caroline" in top.memory.content and top.score >= 0.8
    assert top.parts.full_text_evidence == pytest.approx(4 / 5)  # caroline, lgbtq, support, group of 5 terms
    assert top.parts.fused == pytest.approx(top.parts.vector_contribution + top.parts.full_text_contribution)
    assert top.score == pytest.approx(1 - (1 - top.parts.vector_evidence) * (1 - top.parts.full_text_evidence))
    assert max(h.score for h in hits[1:]) < 0.5
    kept = recall(stub, "When did Caroline go to the LGBTQ support group?", limit=3, min_score=0.5)
    assert [h.memory.id for h in kept] == [top.memory.id]
    assert recall(stub, "lattice quantum chromodynamics", limit=3, min_score=0.5) == []


def test_salience_decay_mode_ranks_by_the_composite_and_filters(stub: MemoryServiceStub) -> None:
    low = memorize(stub, "project alpha kickoff notes", salience=0.1)
    high = memorize(stub, "project alpha budget notes", salience=0.9)
    mode = pb.RANKING_MODE_SALIENCE_DECAY
    hits = recall(stub, "project alpha", limit=2, ranking=mode)
    assert [h.memory.id for h in hits] == [high.id, low.id]
    assert all(h.score == pytest.approx(h.parts.composite) and 0 < h.score <= 1 for h in hits)
    assert recall(stub, "project alpha", limit=2, ranking=mode, min_score=0.999) == []
    for ranking in (pb.RANKING_MODE_RELEVANCE, mode):
        assert [h.memory.id for h in recall(stub, "project alpha", limit=2, ranking=ranking, min_salience=0.5)] == [
            high.id
        ]


def test_feedback_is_counted_beside_the_row_and_never_reorders_relevance(
    stub: MemoryServiceStub, live_server: LiveServer
) -> None:
    first = memorize(stub, "project alpha kickoff notes")
    second = memorize(stub, "project alpha budget notes")
    before = [h.memory.id for h in recall(stub, "project alpha", limit=2)]
    by_salience = recall(stub, "project alpha", limit=2, ranking=pb.RANKING_MODE_SALIENCE_DECAY)
    assert [h.memory.id for h in by_salience] == [second.id, first.id]  # a tie: the newer id first
    version = archive_version(live_server)
    for _ in range(5):
        reply = feedback(stub, first.id, pb.FEEDBACK_SIGNAL_EXPLICIT_POSITIVE)
    feedback(stub, first.id, pb.FEEDBACK_SIGNAL_USEFUL)
    reply = feedback(stub, first.id, pb.FEEDBACK_SIGNAL_WRONG)
    fb = reply.memory.feedback
    assert (fb.explicit_positive, fb.useful, fb.wrong) == (5, 1, 1)
    assert fb.salience_shift == pytest.approx(0.25 - 0.10)  # capped at +0.25 as signals arrive, then WRONG
    assert fb.last_feedback_at.seconds > 0 and reply.memory.salience == pytest.approx(0.3)
    assert get(stub, first.id).memory.feedback.explicit_positive == 5
    assert archive_version(live_server) == version  # the memory's row was not rewritten
    assert [h.memory.id for h in recall(stub, "project alpha", limit=2)] == before
    shifted = recall(stub, "project alpha", limit=2, ranking=pb.RANKING_MODE_SALIENCE_DECAY)
    assert [h.memory.id for h in shifted] == [first.id, second.id]


def test_feedback_refuses_bad_input_and_records_nothing(stub: MemoryServiceStub) -> None:
    m = memorize(stub, "the staging database is in Frankfurt")
    refused(lambda: feedback(stub, m.id[:8], pb.FEEDBACK_SIGNAL_USEFUL), grpc.StatusCode.INVALID_ARGUMENT, "memory_id")
    refused(lambda: feedback(stub, m.id, pb.FEEDBACK_SIGNAL_UNSPECIFIED), grpc.StatusCode.INVALID_ARGUMENT, "signal")
    refused(lambda: feedback(stub, m.id, pb.FEEDBACK_SIGNAL_USED), grpc.StatusCode.INVALID_ARGUMENT, "signal")
    refused(lambda: feedback(stub, m.id, 99), grpc.StatusCode.INVALID_ARGUMENT, "signal")
    refused(lambda: feedback(stub, m.id, pb.FEEDBACK_SIGNAL_CORRECTION), grpc.StatusCode.INVALID_ARGUMENT, "correction")
    refused(
        lambda: feedback(stub, m.id, pb.FEEDBACK_SIGNAL_USEFUL, correction="x"),
        grpc.StatusCode.INVALID_ARGUMENT,
        "correction",
    )
    refused(lambda: feedback(stub, "0" * 32, pb.FEEDBACK_SIGNAL_USEFUL), grpc.StatusCode.NOT_FOUND, "0" * 32)
    refused(lambda: feedback(stub, m.id, pb.FEEDBACK_SIGNAL_USEFUL, agent="a2"), grpc.StatusCode.NOT_FOUND, m.id)
    assert not get(stub, m.id).memory.HasField("feedback")


def test_correction_memorizes_the_new_fact_and_supersedes_the_old(stub: MemoryServiceStub) -> None:
    old = memorize(stub, "The deploy window is Friday at 4pm", tags=["ops"], subject="deploys")
    refused(
        lambda: feedback(stub, old.id, pb.FEEDBACK_SIGNAL_CORRECTION, correction="the deploy window is Friday at 4pm!"),
        grpc.StatusCode.INVALID_ARGUMENT,
        "correction",
    )
    reply = feedback(stub, old.id, pb.FEEDBACK_SIGNAL_CORRECTION, correction="The deploy window is Thursday at 4pm")
    new = reply.correction
    assert new.content == "The deploy window is Thursday at 4pm" and new.id != old.id
    assert list(new.tags) == ["ops"] and new.subject == "deploys" and new.scope == pb.SCOPE_PRIVATE
    assert reply.memory.status == pb.MEMORY_STATUS_SUPERSEDED and reply.memory.superseded_by == new.id
    assert reply.memory.feedback.corrections == 1
    assert [h.memory.id for h in recall(stub, "deploy window", limit=5)] == [new.id]
    restored = stub.RestoreMemory(pb.RestoreMemoryRequest(agent_id="a1", memory_id=old.id), metadata=T).memory
    assert restored.status == pb.MEMORY_STATUS_ACTIVE  # undoable


def test_correcting_a_note_whose_source_was_forgotten_still_works(stub: MemoryServiceStub) -> None:
    """The link is inherited only while its memory exists: a forgotten source never blocks a correction."""
    source = memorize(stub, "the staging cluster runs in eu-west", agent="a2", scope=pb.SCOPE_SHARED)
    note = memorize(stub, "staging deploys take 20 minutes", source_id=source.id)
    stub.Forget(pb.ForgetRequest(agent_id="a2", memory_id=source.id), metadata=T)
    reply = feedback(stub, note.id, pb.FEEDBACK_SIGNAL_CORRECTION, correction="staging deploys take 35 minutes")
    assert reply.correction.content == "staging deploys take 35 minutes" and reply.correction.source_id == ""
    assert reply.memory.source_id == source.id and reply.memory.superseded_by == reply.correction.id


def test_correction_of_a_memory_the_caller_may_not_change_writes_nothing(stub: MemoryServiceStub) -> None:
    theirs = memorize(stub, "The office closes at 6pm", agent="a2", scope=pb.SCOPE_SHARED)
    refused(
        lambda: feedback(stub, theirs.id, pb.FEEDBACK_SIGNAL_CORRECTION, agent="a1", correction="It closes at 7pm"),
        grpc.StatusCode.PERMISSION_DENIED,
        "",
    )
    listed = stub.ListMemories(pb.ListMemoriesRequest(agent_id="a1", page_size=10), metadata=T).memories
    assert [m.id for m in listed] == [theirs.id]
    assert get(stub, theirs.id).memory.status == pb.MEMORY_STATUS_ACTIVE


def test_auto_feedback_records_used_and_unused_all_or_nothing(stub: MemoryServiceStub) -> None:
    a = memorize(stub, "the team lunch is on Fridays")
    b = memorize(stub, "the printer on floor 2 is broken")

    def auto(*results: tuple[str, bool]) -> pb.AutoFeedbackResponse:
        items = [pb.UsedResult(id=i, used=u) for i, u in results]
        return stub.AutoFeedback(pb.AutoFeedbackRequest(agent_id="a1", results=items), metadata=T)

    assert auto((a.id, True), (b.id, False)).recorded == 2
    assert get(stub, a.id).memory.feedback.used == 1 and get(stub, b.id).memory.feedback.unused == 1
    assert get(stub, a.id).memory.feedback.salience_shift == pytest.approx(0.01)
    refused(lambda: auto((a.id, True), (a.id, False)), grpc.StatusCode.INVALID_ARGUMENT, "results[1].id")
    refused(lambda: auto((a.id, True), (b.id[:10], True)), grpc.StatusCode.INVALID_ARGUMENT, "results[1].id")
    refused(lambda: auto((a.id, True), ("f" * 32, True)), grpc.StatusCode.NOT_FOUND, "results[1].id")
    refused(lambda: auto(), grpc.StatusCode.INVALID_ARGUMENT, "results")
    assert get(stub, a.id).memory.feedback.used == 1  # the refused calls recorded nothing


def test_source_id_links_are_validated_filterable_and_discoverable(stub: MemoryServiceStub) -> None:
    topic = memorize(stub, "FlashAttention-3 uses asynchronous tiling on H100")
    note = memorize(stub, "no speedup on A100: the async tiles need Hopper", source_id=topic.id)
    other = memorize(stub, "PagedAttention reduces KV cache waste")
    assert note.source_id == topic.id
    assert list(get(stub, topic.id).annotated_by) == [note.id] and list(get(stub, other.id).annotated_by) == []
    flt = pb.RecallFilter(source_id=topic.id)
    listed = stub.ListMemories(pb.ListMemoriesRequest(agent_id="a1", filter=flt), metadata=T).memories
    assert [m.id for m in listed] == [note.id]
    assert [h.memory.id for h in recall(stub, "attention speedup", limit=5, filter=flt)] == [note.id]
    shared = memorize(stub, "the GPU cluster moves to H200 in May", scope=pb.SCOPE_SHARED)
    private_note = memorize(stub, "ask finance about the H200 budget", source_id=shared.id)
    assert list(get(stub, shared.id).annotated_by) == [private_note.id]
    assert list(get(stub, shared.id, agent="a2").annotated_by) == []  # links show only what the caller sees
    refused(
        lambda: memorize(stub, "a note", source_id="entity-42"), grpc.StatusCode.INVALID_ARGUMENT, "memory.source_id"
    )
    private = memorize(stub, "a2's private plan", agent="a2")
    refused(lambda: memorize(stub, "a note", source_id=private.id), grpc.StatusCode.NOT_FOUND, "memory.source_id")
    items = [pb.MemoryInput(content="fine", source_id=topic.id), pb.MemoryInput(content="bad", source_id=private.id)]
    refused(
        lambda: stub.MemorizeBatch(pb.MemorizeBatchRequest(agent_id="a1", items=items), metadata=T),
        grpc.StatusCode.NOT_FOUND,
        "items[1].source_id",
    )
    refused(
        lambda: recall(stub, "x", filter=pb.RecallFilter(source_id="nope")),
        grpc.StatusCode.INVALID_ARGUMENT,
        "filter.source_id",
    )
    listed = stub.ListMemories(pb.ListMemoriesRequest(agent_id="a1", page_size=50), metadata=T).memories
    assert len(listed) == 5  # topic, note, other, shared, private_note: the refusals stored nothing
