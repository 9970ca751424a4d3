"""A maintenance pass compacts a table while this process keeps merging into it (merges used to preempt it)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

from memoryd.adapters.lance.archive_tables import ARCHIVE_PREFIX
from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import build_app
from memoryd.core.models import Actor, MemoryDraft
from tests.conftest import make_settings

ME = Actor("acme", "a1")


async def test_a_compaction_commits_while_the_same_process_merges_into_the_table(
    tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    settings = make_settings(tmp_path / "data", storage={"maintenance_enabled": False})
    async with build_app(settings, embedder=onnx_embedder) as app:
        assert app.maintenance is not None
        first = (await app.memory.memorize.memorize(ME, MemoryDraft("the ferry leaves at 9:15"))).memory
        for i in range(24):  # one commit each: small fragments for the pass to compact
            await app.memory.memorize.memorize(ME, MemoryDraft(f"timetable entry {i}: the tram leaves at {i}:40"))
        stop, merges = asyncio.Event(), 0

        async def merging() -> None:  # a dedup merge or an edit rewriting a row, again and again
            nonlocal merges
            while not stop.is_set():
                assert await app.memory.store.replace(ME, replace(first, salience=0.2 + 0.5 * (merges % 2)), None)
                merges += 1

        task = asyncio.create_task(merging())
        while merges < 3:
            await asyncio.sleep(0.005)
        await app.maintenance.maintain(full=False)
        stop.set()
        await task
        during = merges
    db = await LanceDatabase.open(settings.storage.uri, onnx_embedder.model_name, onnx_embedder.dimension)
    table = await db.open_existing(ARCHIVE_PREFIX + ME.tenant_id)
    fragments = (await table.stats())["fragment_stats"]["num_fragments"]
    db.close()
    # Compacted: one fragment for the rows before the pass, plus the merges that waited for it or came
    # after it (a preempted compaction leaves 25 + every merge's fragment).
    assert during >= 3 and fragments <= 1 + 3, (fragments, during)
