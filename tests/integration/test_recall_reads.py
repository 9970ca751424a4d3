"""Recall ranks its candidates by the texts the arms read, and reads the records of the winners only."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest

from memoryd.adapters.clock import SystemClock
from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import build_app
from memoryd.config import Settings
from memoryd.core.models import Actor, ArmHit, MemoryDraft, RecallHit, RecallQuery
from memoryd.core.ports import MemoryStore, RetrievalStats
from memoryd.core.validation import Limits
from memoryd.services.recall import RecallService
from memoryd.services.retrievals import RetrievalLog
from tests.conftest import make_settings
from tests.lance_stores import WholeLanceArchive

ME = Actor("acme", "a1")
TEXTS = [
    *(f"Caroline went hiking near the lake with friend {i}" for i in range(12)),
    *(f"Melanie painted a sunset over the lake in week {i}" for i in range(12)),
    "Caroline keeps her hiking boots by the door",
    "The lake froze early that winter",
]


class Observed:
    """The real store, with its record reads counted; ``texts=False`` makes its arms read no texts."""

    def __init__(self, store: WholeLanceArchive, *, texts: bool = True) -> None:
        self._store = store
        self._texts = texts
        self.fetched: list[list[str]] = []
        self.vanish: set[str] = set()
        """Ids deleted just before the next record read asks for them (a Forget racing the Recall)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def get_many(self, actor: Actor, memory_ids: Any, **options: Any) -> Any:
        self.fetched.append(list(memory_ids))
        for memory_id in self.vanish & set(memory_ids):
            assert await self._store.delete(actor, memory_id)
        self.vanish -= set(memory_ids)
        return await self._store.get_many(actor, memory_ids, **options)

    async def nearest(self, *args: Any, **options: Any) -> list[ArmHit]:
        return self._stripped(await self._store.nearest(*args, **options))

    async def full_text(self, *args: Any, **options: Any) -> list[ArmHit]:
        return self._stripped(await self._store.full_text(*args, **options))

    async def full_text_tiers(self, *args: Any, **options: Any) -> list[ArmHit]:
        return self._stripped(await self._store.full_text_tiers(*args, **options))

    def _stripped(self, hits: list[ArmHit]) -> list[ArmHit]:
        return hits if self._texts else [h._replace(content=None) for h in hits]


def summary(hits: list[RecallHit]) -> list[tuple[str, float, float, float]]:
    return [(h.memory.memory_id, h.score, h.parts.fused, h.parts.full_text_evidence) for h in hits]


def recall_over(store: Observed, settings: Settings, embedder: OnnxMiniLMEmbedder) -> RecallService:
    """Recall as the daemon wires it, over the observed store."""
    return RecallService(
        cast(MemoryStore, store),
        embedder,
        SystemClock(),
        RetrievalLog(cast(RetrievalStats, store), SystemClock()),
        Limits(),
        settings.recall.tuning(),
    )


@pytest.mark.parametrize("copy_rows", [10_000, 0], ids=["in-memory copy", "lancedb"])
async def test_recall_reads_the_winners_records_only_and_ranks_as_with_every_record(
    tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder, copy_rows: int
) -> None:
    settings = make_settings(tmp_path / "data", storage={"maintenance_enabled": False})
    async with build_app(settings, embedder=onnx_embedder) as app:
        await app.memory.memorize.memorize_batch(ME, [MemoryDraft(t) for t in TEXTS], skip_deduplication=False)
    db = await LanceDatabase.open(settings.storage.uri, onnx_embedder.model_name, onnx_embedder.dimension)
    lance = WholeLanceArchive(db, onnx_embedder.dimension, copy_max_rows=copy_rows)
    with_texts, without = Observed(lance), Observed(lance, texts=False)
    asked = (("Where did Caroline go hiking?", 3), ("lake sunset", 5), ("boots", 4))
    answers = {
        store._texts: [
            (await recall_over(store, settings, onnx_embedder).answer(RecallQuery(ME, q, limit))).hits
            for q, limit in asked
        ]
        for store in (with_texts, without)
    }
    # the same hits, order, scores and evidence as when every candidate's record is read
    assert [summary(h) for h in answers[True]] == [summary(h) for h in answers[False]]
    assert [len(h) for h in answers[True]] == [3, 5, 4]
    assert [len(ids) for ids in with_texts.fetched] == [3, 5, 4]  # the winners only
    every = [len(ids) for ids in without.fetched]  # every candidate's record when the arms give no texts
    assert all(n >= limit for n, (_, limit) in zip(every, asked, strict=True)) and sum(every) > 2 * sum([3, 5, 4])

    # a winner forgotten between the arms and the read: the next candidate takes its place
    recall = recall_over(with_texts, settings, onnx_embedder)
    before = (await recall.answer(RecallQuery(ME, "lake sunset", 5))).hits
    with_texts.fetched.clear()
    with_texts.vanish = {before[1].memory.memory_id}
    after = (await recall.answer(RecallQuery(ME, "lake sunset", 5))).hits
    assert len(after) == 5 and before[1].memory.memory_id not in {h.memory.memory_id for h in after}
    assert after[0].memory.memory_id == before[0].memory.memory_id
    assert [len(ids) for ids in with_texts.fetched] == [5, 1]
    db.close()
