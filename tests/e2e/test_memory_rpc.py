"""The MemoryService over a real gRPC server, real LanceDB and the real embedder."""

from __future__ import annotations

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from memoryd.rpc.client import MemoryServiceStub, pb
from tests.conftest import LiveServer, tenant
from tests.e2e.helpers import snapshot

T = tenant("acme")


def memorize(stub: MemoryServiceStub, content: str, agent: str = "a1", **kw) -> pb.Memory:
    end_user = kw.pop("end_user_id", "")
    return stub.Memorize(
        pb.MemorizeRequest(agent_id=agent, end_user_id=end_user, memory=pb.MemoryInput(content=content, **kw)),
        metadata=T,
    ).memory


def test_memorize_then_recall_returns_hit_with_parts_and_provenance(stub: MemoryServiceStub) -> None:
    m = memorize(
        stub, "Caroline went to the LGBTQ support group on Tuesday", source_context="conversation c1", tags=["events"]
    )
    memorize(stub, "Melanie painted a sunset over the lake")
    query = "When did Caroline go to the LGBTQ support group?"
    reply = stub.Recall(pb.RecallRequest(agent_id="a1", query=query, limit=5), metadata=T)
    top = reply.hits[0]
    assert top.memory.id == m.id and top.memory.source_context == "conversation c1"
    assert top.parts.vector_rank == 1 and top.parts.full_text_rank == 1
    assert top.parts.fused == pytest.approx(top.parts.vector_contribution + top.parts.full_text_contribution)
    assert 0.0 < top.score <= 1.0
    assert top.memory.agent_id == "a1" and top.memory.scope == pb.SCOPE_PRIVATE
    assert top.memory.created_at.seconds > 0 and top.memory.embedding_model == "all-MiniLM-L6-v2-int8"


def test_memorize_fills_type_defaults(stub: MemoryServiceStub) -> None:
    episodic = memorize(stub, "had lunch with Sam")
    semantic = memorize(stub, "Sam is vegetarian", memory_type=pb.MEMORY_TYPE_SEMANTIC)
    assert episodic.salience == pytest.approx(0.3) and episodic.decay_factor == pytest.approx(0.02)
    assert semantic.salience == pytest.approx(0.5) and semantic.decay_factor == pytest.approx(0.005)


def test_memorize_near_duplicate_updates_existing(stub: MemoryServiceStub, live_server: LiveServer) -> None:
    first = memorize(stub, "The deploy window is Friday at 4pm", tags=["ops"])
    again = stub.Memorize(
        pb.MemorizeRequest(
            agent_id="a1", memory=pb.MemoryInput(content="The deploy window is Friday at 4pm.", tags=["release"])
        ),
        metadata=T,
    )
    assert again.deduplicated and again.memory.id == first.id
    assert list(again.memory.tags) == ["ops", "release"]
    assert len(snapshot(live_server._settings.storage.uri, "acme")) == 1


def test_quoted_question_still_matches_its_words(stub: MemoryServiceStub) -> None:
    m = memorize(stub, "Caroline researched adoption agencies last week")
    memorize(stub, "The weather was rainy all weekend")
    for q in ['"What did Caroline research?"', "adoption AND -agencies", "adopt* (Caroline)", "'agenc'"]:
        hits = stub.Recall(pb.RecallRequest(agent_id="a1", query=q), metadata=T).hits
        assert hits and hits[0].memory.id == m.id, q
        assert hits[0].parts.full_text_rank == 1, q


def test_prefix_of_a_word_matches_in_full_text(stub: MemoryServiceStub) -> None:
    m = memorize(stub, "We bought an espresso machine")
    hits = stub.Recall(pb.RecallRequest(agent_id="a1", query="espres"), metadata=T).hits
    assert [h.memory.id for h in hits if h.parts.full_text_rank] == [m.id]


def test_and_tier_ranks_all_term_matches_first(stub: MemoryServiceStub) -> None:
    both = memorize(stub, "Jon opened a dance studio downtown")
    memorize(stub, "the studio apartment was small and dusty and old and studio")
    memorize(stub, "dance dance dance all night at the dance party")
    hits = stub.Recall(pb.RecallRequest(agent_id="a1", query="dance studio"), metadata=T).hits
    assert hits[0].memory.id == both.id and hits[0].parts.full_text_rank == 1


def test_filters_apply_in_both_arms(stub: MemoryServiceStub) -> None:
    keep = memorize(stub, "Bought hiking boots", category="shopping", tags=["gear", "outdoor"])
    memorize(stub, "Went hiking with boots on the ridge", category="trips", tags=["outdoor"])
    reply = stub.Recall(
        pb.RecallRequest(agent_id="a1", query="hiking boots", filter=pb.RecallFilter(category="shopping")), metadata=T
    )
    assert [h.memory.id for h in reply.hits] == [keep.id]
    reply = stub.Recall(
        pb.RecallRequest(
            agent_id="a1",
            query="hiking boots",
            filter=pb.RecallFilter(tags=["gear", "outdoor"], tag_mode=pb.TAG_MODE_ALL),
        ),
        metadata=T,
    )
    assert [h.memory.id for h in reply.hits] == [keep.id]


def test_hostile_filter_values_cannot_escape_the_predicate(stub: MemoryServiceStub) -> None:
    memorize(stub, "secret of agent two", agent="a2")
    mine = memorize(stub, "my own note", subject="x' OR '1'='1")
    for value in ["x' OR '1'='1", "' OR scope = 'private' OR '", "\\' OR 1=1 --", "x'); DROP TABLE m; --"]:
        for flt in (pb.RecallFilter(subject=value), pb.RecallFilter(category=value), pb.RecallFilter(tags=[value])):
            hits = stub.Recall(pb.RecallRequest(agent_id="a1", query="secret note agent", filter=flt), metadata=T).hits
            assert all(h.memory.agent_id == "a1" for h in hits)
            assert {h.memory.id for h in hits} <= {mine.id}
    hits = stub.Recall(
        pb.RecallRequest(agent_id="a1", query="note", filter=pb.RecallFilter(subject="x' OR '1'='1")), metadata=T
    ).hits
    assert [h.memory.id for h in hits] == [mine.id]


def test_get_update_forget_roundtrip(stub: MemoryServiceStub) -> None:
    m = memorize(stub, "Sam's birthday is in March")
    got = stub.GetMemory(pb.GetMemoryRequest(agent_id="a1", memory_id=m.id), metadata=T).memory
    assert got == m
    updated = stub.UpdateMemory(
        pb.UpdateMemoryRequest(
            agent_id="a1",
            memory_id=m.id,
            content="Sam's birthday is in May",
            tags=pb.TagList(values=["people"]),
            salience=0.8,
        ),
        metadata=T,
    ).memory
    assert (updated.content, list(updated.tags), updated.salience) == ("Sam's birthday is in May", ["people"], 0.8)
    hits = stub.Recall(pb.RecallRequest(agent_id="a1", query="birthday May"), metadata=T).hits
    assert hits[0].memory.content == "Sam's birthday is in May"
    assert stub.Forget(pb.ForgetRequest(agent_id="a1", memory_id=m.id), metadata=T).memory_id == m.id
    with pytest.raises(grpc.RpcError) as err:
        stub.GetMemory(pb.GetMemoryRequest(agent_id="a1", memory_id=m.id), metadata=T)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
    assert stub.Recall(pb.RecallRequest(agent_id="a1", query="birthday May"), metadata=T).hits == []


def test_list_pages_with_opaque_tokens(stub: MemoryServiceStub) -> None:
    batch = stub.MemorizeBatch(
        pb.MemorizeBatchRequest(
            agent_id="a1",
            skip_deduplication=True,
            items=[
                pb.MemoryInput(content=f"note number {i}", category="even" if i % 2 == 0 else "odd") for i in range(7)
            ],
        ),
        metadata=T,
    )
    ids = [r.memory.id for r in batch.results]
    seen, token = [], ""
    while True:
        page = stub.ListMemories(pb.ListMemoriesRequest(agent_id="a1", page_size=3, page_token=token), metadata=T)
        seen += [m.id for m in page.memories]
        token = page.next_page_token
        if not token:
            break
    assert seen == ids
    evens = stub.ListMemories(
        pb.ListMemoriesRequest(agent_id="a1", filter=pb.RecallFilter(category="even")), metadata=T
    )
    assert [m.id for m in evens.memories] == ids[0::2]


def test_retrieval_count_is_recorded_write_behind(stub: MemoryServiceStub, live_server: LiveServer) -> None:
    m = memorize(stub, "the espresso machine needs descaling")
    stub.Recall(pb.RecallRequest(agent_id="a1", query="espresso descaling"), metadata=T)
    stub.Recall(pb.RecallRequest(agent_id="a1", query="espresso machine"), metadata=T)
    assert live_server.app is not None
    live_server.run(live_server.app.memory.retrievals.flush())
    got = stub.GetMemory(pb.GetMemoryRequest(agent_id="a1", memory_id=m.id), metadata=T).memory
    assert got.retrieval_count == 2 and got.HasField("last_retrieved_at")


def test_shared_memory_is_visible_to_other_agents_with_author(stub: MemoryServiceStub) -> None:
    memorize(stub, "The VPN moved to vpn2.example.net", agent="ops", scope=pb.SCOPE_SHARED)
    memorize(stub, "private ops note about vpn keys", agent="ops")
    hits = stub.Recall(pb.RecallRequest(agent_id="assistant", query="VPN"), metadata=T).hits
    assert [(h.memory.agent_id, h.memory.scope) for h in hits] == [("ops", pb.SCOPE_SHARED)]


def test_health_and_reflection(channel: grpc.Channel) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    status = health.Check(health_pb2.HealthCheckRequest(service="memoryd.v1.MemoryService")).status
    assert status == health_pb2.HealthCheckResponse.SERVING
    refl = reflection_pb2_grpc.ServerReflectionStub(channel)
    [resp] = list(refl.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")])))
    names = {s.name for s in resp.list_services_response.service}
    assert {"memoryd.v1.MemoryService", "grpc.health.v1.Health"} <= names


def test_recall_can_run_one_arm_alone(stub: MemoryServiceStub) -> None:
    memorize(stub, "Caroline researched adoption agencies last week")
    memorize(stub, "Melanie is thinking about adopting a puppy")
    q = "Who looked into adoption agencies?"
    vec = stub.Recall(pb.RecallRequest(agent_id="a1", query=q, arms=pb.RECALL_ARMS_VECTOR), metadata=T).hits
    txt = stub.Recall(pb.RecallRequest(agent_id="a1", query=q, arms=pb.RECALL_ARMS_FULL_TEXT), metadata=T).hits
    both = stub.Recall(pb.RecallRequest(agent_id="a1", query=q), metadata=T).hits
    assert vec and all(h.parts.full_text_rank == 0 and h.parts.vector_rank for h in vec)
    assert txt and all(h.parts.vector_rank == 0 and h.parts.full_text_rank for h in txt)
    assert any(h.parts.vector_rank and h.parts.full_text_rank for h in both)


def test_since_and_memory_type_filters(stub: MemoryServiceStub) -> None:
    from datetime import UTC, datetime

    old = pb.MemoryInput(content="Sam adopted a cat named Miso", memory_type=pb.MEMORY_TYPE_EPISODIC)
    old.occurred_at.FromDatetime(datetime(2024, 1, 5, tzinfo=UTC))
    first = stub.Memorize(pb.MemorizeRequest(agent_id="a1", memory=old), metadata=T).memory
    recent = memorize(stub, "Sam's cat Miso likes tuna", memory_type=pb.MEMORY_TYPE_SEMANTIC)
    since = pb.RecallFilter()
    since.since.FromDatetime(datetime(2025, 1, 1, tzinfo=UTC))
    hits = stub.Recall(pb.RecallRequest(agent_id="a1", query="Sam cat Miso", filter=since), metadata=T).hits
    assert [h.memory.id for h in hits] == [recent.id]
    typed = pb.RecallFilter(memory_type=pb.MEMORY_TYPE_EPISODIC)
    hits = stub.Recall(pb.RecallRequest(agent_id="a1", query="Sam cat Miso", filter=typed), metadata=T).hits
    assert [h.memory.id for h in hits] == [first.id]


def test_full_text_matches_the_date_a_memory_happened(stub: MemoryServiceStub) -> None:
    from datetime import UTC, datetime

    items = []
    for day in (datetime(2023, 5, 8, tzinfo=UTC), datetime(2023, 9, 2, tzinfo=UTC)):
        item = pb.MemoryInput(content="Caroline went to the support group")
        item.occurred_at.FromDatetime(day)
        items.append(item)
    reply = stub.MemorizeBatch(pb.MemorizeBatchRequest(agent_id="a1", items=items, skip_deduplication=True), metadata=T)
    may, september = (r.memory.id for r in reply.results)
    assert may != september
    for query, expected in (("support group in September 2023", september), ("support group 8 May", may)):
        hits = stub.Recall(pb.RecallRequest(agent_id="a1", query=query, arms=pb.RECALL_ARMS_FULL_TEXT), metadata=T).hits
        assert [h.memory.id for h in hits] == [expected, september if expected == may else may], query
        assert hits[0].memory.content == "Caroline went to the support group"  # indexed, not stored


def test_collections_file_memories_by_purpose_and_filter_recall_and_list(stub: MemoryServiceStub) -> None:
    items = [
        pb.MemoryInput(content="Ticket 812: the printer on floor 3 jams", collection="support_tickets"),
        pb.MemoryInput(content="Caroline prefers tickets by e-mail", collection="user_preferences"),
        pb.MemoryInput(content="Ticket 813: the printer driver crashed"),
    ]
    stored = stub.MemorizeBatch(pb.MemorizeBatchRequest(agent_id="a1", items=items), metadata=T).results
    assert [r.memory.collection for r in stored] == ["support_tickets", "user_preferences", ""]
    support = pb.RecallFilter(collection="support_tickets")
    hits = stub.Recall(pb.RecallRequest(agent_id="a1", query="printer tickets", filter=support), metadata=T).hits
    assert [h.memory.id for h in hits] == [stored[0].memory.id]
    listed = stub.ListMemories(pb.ListMemoriesRequest(agent_id="a1", filter=support), metadata=T).memories
    assert [m.id for m in listed] == [stored[0].memory.id]
    everything = stub.Recall(pb.RecallRequest(agent_id="a1", query="printer tickets"), metadata=T).hits
    assert len(everything) == 3
    for call, field in (
        (
            lambda: stub.Memorize(
                pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="x", collection="no spaces")),
                metadata=T,
            ),
            "memory.collection",
        ),
        (
            lambda: stub.Recall(
                pb.RecallRequest(agent_id="a1", query="x", filter=pb.RecallFilter(collection="a/b")), metadata=T
            ),
            "filter.collection",
        ),
        (
            lambda: stub.UpdateMemory(
                pb.UpdateMemoryRequest(agent_id="a1", memory_id=stored[2].memory.id, collection="a b"), metadata=T
            ),
            "collection",
        ),
    ):
        with pytest.raises(grpc.RpcError) as err:
            call()
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and field in (err.value.details() or "")
    assert len(stub.ListMemories(pb.ListMemoriesRequest(agent_id="a1"), metadata=T).memories) == 3
    # Filed where it belongs after the fact: the filter finds it, and its history says where it was.
    moved = pb.UpdateMemoryRequest(agent_id="a1", memory_id=stored[2].memory.id, collection="support_tickets")
    assert stub.UpdateMemory(moved, metadata=T).memory.collection == "support_tickets"
    listed = stub.ListMemories(pb.ListMemoriesRequest(agent_id="a1", filter=support), metadata=T).memories
    assert {m.id for m in listed} == {stored[0].memory.id, stored[2].memory.id}
    history = stub.GetMemoryHistory(
        pb.GetMemoryHistoryRequest(agent_id="a1", memory_id=stored[2].memory.id), metadata=T
    )
    assert [dict(e.detail) for e in history.events if e.kind == "updated"] == [{"collection": ""}]
