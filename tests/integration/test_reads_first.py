"""With the local model, a write's group waits for a pause in the Recalls under way (bounded), then commits."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder, QueryEmbedder
from memoryd.app import build_app
from memoryd.core.embed_roles import EmbedRole
from memoryd.core.models import Actor, ListQuery, MemoryDraft, RecallQuery
from memoryd.services.reads_in_flight import ReadsInFlight
from tests.conftest import make_settings

A1 = Actor("acme", "a1")


def held_queries(monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Recall's query embeddings wait for the returned event: a Recall stays under way until it is set."""
    release = asyncio.Event()
    embed = QueryEmbedder.embed

    async def held(self: QueryEmbedder, texts: Sequence[str], role: EmbedRole = EmbedRole.QUERY) -> list[list[float]]:
        await release.wait()
        return await embed(self, texts, role)

    monkeypatch.setattr(QueryEmbedder, "embed", held)
    return release


@pytest.mark.parametrize("reads_first_ms", [60_000, 300])
async def test_a_write_waits_for_the_recall_under_way_at_most_reads_first_ms(
    tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder, monkeypatch: pytest.MonkeyPatch, reads_first_ms: int
) -> None:
    settings = make_settings(tmp_path / "data", memorize={"reads_first_ms": reads_first_ms})
    async with build_app(settings, embedder=onnx_embedder) as app:
        await app.memory.memorize.memorize(A1, MemoryDraft("Maria flew to Lisbon in May"))
        release = held_queries(monkeypatch)
        recall = asyncio.ensure_future(app.memory.recall.answer(RecallQuery(A1, "when did Maria go to Lisbon?")))
        await asyncio.sleep(0.05)
        write = asyncio.ensure_future(app.memory.memorize.memorize(A1, MemoryDraft("Maria's sister lives in Porto")))
        done, _ = await asyncio.wait([write], timeout=3.0)
        if reads_first_ms > 3_000:  # still waiting for the Recall: nothing committed yet
            assert not done and len((await app.memory.archive.list_memories(ListQuery(A1))).memories) == 1
            release.set()
            answer = await recall
            assert (await write).memory.content == "Maria's sister lives in Porto"
        else:  # waited its 300 ms, then committed while the Recall is still under way
            assert done and not recall.done()
            release.set()
            answer = await recall
        assert answer.hits[0].memory.content == "Maria flew to Lisbon in May"
        assert len((await app.memory.archive.list_memories(ListQuery(A1))).memories) == 2


async def test_a_pause_ends_at_once_without_reads_and_when_the_last_read_ends() -> None:
    reads = ReadsInFlight(60.0)
    await asyncio.wait_for(reads.pause(), 1.0)
    with reads.reading(), reads.reading():
        pause = asyncio.ensure_future(reads.pause())
        await asyncio.sleep(0.02)
        assert reads.count == 2 and not pause.done()
    await asyncio.wait_for(pause, 1.0)  # the last read's end ends it
    assert reads.count == 0
