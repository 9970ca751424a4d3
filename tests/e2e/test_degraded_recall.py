"""A remote embedder going down degrades Recall loudly instead of emptying it (real daemon, scripted provider)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc
import openai
import pytest

from memoryd.adapters.openai_embedder import OpenAIEmbedder
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
def remote_stub(provider: FakeProvider, tmp_path: Path) -> Iterator[MemoryServiceStub]:
    client = openai.AsyncOpenAI(base_url=provider.base_url, api_key="test", max_retries=0, timeout=2.0)
    embedder = OpenAIEmbedder(client, "fake-embed", DIMENSION, send_dimensions=True)
    server = LiveServer(make_settings(tmp_path / "data"), embedder)
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            yield MemoryServiceStub(channel)
    finally:
        server.stop()


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
