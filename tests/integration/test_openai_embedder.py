"""The OpenAI-compatible embedder against the scriptable provider (a real HTTP server)."""

from __future__ import annotations

import math
from collections.abc import Iterator

import openai
import pytest

from memoryd.adapters.openai.embedder import OpenAIEmbedder
from memoryd.core.errors import NotReady, Unavailable
from memoryd.testing.provider import FakeProvider


@pytest.fixture
def provider() -> Iterator[FakeProvider]:
    with FakeProvider(dimension=64) as p:
        yield p


def embedder(provider: FakeProvider, dimension: int = 64) -> OpenAIEmbedder:
    client = openai.AsyncOpenAI(base_url=provider.base_url, api_key="test", max_retries=0, timeout=2.0)
    return OpenAIEmbedder(client, "fake-embed", dimension, send_dimensions=True, batch_size=2)


async def test_embeds_in_batches_and_normalises(provider: FakeProvider) -> None:
    vectors = await embedder(provider).embed(["espresso machine", "green tea", "espresso beans"])
    assert len(vectors) == 3 and all(len(v) == 64 for v in vectors)
    assert all(math.isclose(sum(x * x for x in v), 1.0, rel_tol=1e-5) for v in vectors)
    assert provider.calls["/v1/embeddings"] == 2  # batch_size 2
    assert provider.requests[0]["body"]["dimensions"] == 64


@pytest.mark.parametrize("behaviour", ["500", "503", "429:1", "drop"])
async def test_transient_failures_are_unavailable(provider: FakeProvider, behaviour: str) -> None:
    provider.script(behaviour)
    with pytest.raises(Unavailable):
        await embedder(provider).embed(["x"])


async def test_timeout_is_unavailable(provider: FakeProvider) -> None:
    provider.script("sleep:3")
    with pytest.raises(Unavailable):
        await embedder(provider).embed(["x"])


async def test_bad_request_and_wrong_dimension_are_not_ready(provider: FakeProvider) -> None:
    provider.script("400")
    with pytest.raises(NotReady, match="400"):
        await embedder(provider).embed(["x"])
    provider.dimension = 32
    client = openai.AsyncOpenAI(base_url=provider.base_url, api_key="test", max_retries=0)
    with pytest.raises(NotReady, match="shape"):
        await OpenAIEmbedder(client, "fake-embed", 64, send_dimensions=False).embed(["x"])
