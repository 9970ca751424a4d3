"""A remote embedder going down degrades Recall loudly instead of emptying it (real daemon, scripted provider)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import grpc
import openai
import pytest

from memoryd.adapters.openai.embedder import OpenAIEmbedder
from memoryd.rpc.client import MemoryServiceStub, pb
from memoryd.testing.provider import FakeProvider, hashed_embedding
from tests.conftest import LiveServer, make_settings, tenant

T = tenant("acme")
DIMENSION = 64


@pytest.fixture
def provider() -> Iterator[FakeProvider]:
    with FakeProvider(dimension=DIMENSION) as p:
        yield p


@pytest.fixture
def remote(provider: FakeProvider, tmp_path: Path) -> Iterator[tuple[MemoryServiceStub, LiveServer]]:
    """A daemon on the scriptable provider's embeddings; its backfill runs only when a test says."""
    client = openai.AsyncOpenAI(base_url=provider.base_url, api_key="test", max_retries=0, timeout=2.0)
    embedder = OpenAIEmbedder(client, "fake-embed", DIMENSION, send_dimensions=True)
    server = LiveServer(make_settings(tmp_path / "data", embedding={"backfill_seconds": 3600}), embedder)
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            yield MemoryServiceStub(channel), server
    finally:
        server.stop()


@pytest.fixture
def remote_stub(remote: tuple[MemoryServiceStub, LiveServer]) -> MemoryServiceStub:
    return remote[0]


def backfill(server: LiveServer) -> int:
    """One backfill pass in the daemon's own loop."""
    assert server.app is not None
    return asyncio.run_coroutine_threadsafe(server.app.memory.backfill.run_once(), server._loop).result(timeout=30)


def test_recall_answers_from_full_text_and_says_so_while_the_embedder_is_down(
    remote_stub: MemoryServiceStub, provider: FakeProvider
) -> None:
    stub = remote_stub
    for text in ("espresso machine on the third floor", "the green tea is in the kitchen"):
        stub.Memorize(pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content=text)), metadata=T)
    healthy = stub.Recall(pb.RecallRequest(agent_id="a1", query="espresso machine"), metadata=T)
    assert not healthy.degraded and healthy.degraded_reason == ""

    provider.script("503")
    down = stub.Recall(pb.RecallRequest(agent_id="a1", query="espresso machine"), metadata=T)
    assert down.degraded and "embedder" in down.degraded_reason
    assert [h.memory.content for h in down.hits] == ["espresso machine on the third floor"]
    assert down.hits[0].parts.vector_rank == 0 and down.hits[0].parts.full_text_rank == 1

    provider.script("drop")
    with pytest.raises(grpc.RpcError) as err:
        stub.Recall(pb.RecallRequest(agent_id="a1", query="espresso", arms=pb.RECALL_ARMS_VECTOR), metadata=T)
    assert err.value.code() == grpc.StatusCode.UNAVAILABLE

    provider.script("503")  # a caller's own query vector needs no embedder: not degraded
    vector = hashed_embedding("espresso machine", DIMENSION)
    own = stub.Recall(pb.RecallRequest(agent_id="a1", query="espresso machine", query_embedding=vector), metadata=T)
    assert not own.degraded and own.hits[0].memory.content == "espresso machine on the third floor"
    listed = stub.ListMemories(pb.ListMemoriesRequest(agent_id="a1"), metadata=T).memories  # plain reads unaffected
    assert len(listed) == 2


def test_memorize_during_an_outage_is_stored_pending_found_by_text_and_embedded_later(
    remote: tuple[MemoryServiceStub, LiveServer], provider: FakeProvider
) -> None:
    stub, server = remote
    stub.Memorize(pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="the espresso grinder")), metadata=T)
    provider.script("503")
    reply = stub.Memorize(
        pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="espresso machine on the third floor")),
        metadata=T,
    )
    pending = reply.memory
    assert pending.embedding_pending and pending.embedding_model == "" and not reply.deduplicated
    assert stub.GetMemory(pb.GetMemoryRequest(agent_id="a1", memory_id=pending.id), metadata=T).memory.embedding_pending

    text = stub.Recall(pb.RecallRequest(agent_id="a1", query="espresso machine"), metadata=T)
    assert not text.degraded and text.hits[0].memory.id == pending.id  # full text finds it at once
    vector_only = pb.RecallRequest(agent_id="a1", query="espresso machine", arms=pb.RECALL_ARMS_VECTOR)
    assert pending.id not in [h.memory.id for h in stub.Recall(vector_only, metadata=T).hits]  # zeros are not a vector

    provider.script("503")
    assert backfill(server) == 0  # the embedder is still down: nothing filled, nothing lost
    assert server.app is not None and server.app.memory.backfill.pending == 1
    assert backfill(server) == 1
    after = stub.GetMemory(pb.GetMemoryRequest(agent_id="a1", memory_id=pending.id), metadata=T).memory
    assert not after.embedding_pending and after.embedding_model == "fake-embed"
    assert after.content == pending.content and server.app.memory.backfill.pending == 0
    hits = stub.Recall(vector_only, metadata=T).hits
    assert hits[0].memory.id == pending.id and hits[0].parts.vector_rank == 1
    assert backfill(server) == 0  # converged


def test_a_correction_retried_during_an_outage_is_stored_once(
    remote: tuple[MemoryServiceStub, LiveServer], provider: FakeProvider
) -> None:
    stub, _ = remote
    old = stub.Memorize(
        pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="the deploy window is Friday")), metadata=T
    ).memory
    fix = pb.FeedbackRequest(
        agent_id="a1", memory_id=old.id, signal=pb.FEEDBACK_SIGNAL_CORRECTION, correction="the deploy window is Monday"
    )
    provider.script("503", "503")  # no vector: deduplication cannot recognise the retry
    first = stub.Feedback(fix, metadata=T)
    retry = stub.Feedback(fix, metadata=T)  # as after a lost reply
    assert first.correction.embedding_pending and retry.correction.id == first.correction.id
    listed = stub.ListMemories(
        pb.ListMemoriesRequest(agent_id="a1", filter=pb.RecallFilter(statuses=[pb.MEMORY_STATUS_ACTIVE])), metadata=T
    ).memories
    assert [m.content for m in listed] == ["the deploy window is Monday"]
