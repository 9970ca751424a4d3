"""A forgotten memory leaves the disk at the next purge of deleted rows (not only the query results)."""

from __future__ import annotations

import os
import warnings
from datetime import timedelta
from pathlib import Path

from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.maintenance import LanceMaintenance
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import build_app
from memoryd.core.models import Actor, MemoryDraft
from tests.conftest import make_settings

ME = Actor("acme", "a1")
MARKER = "xylophonewalrus"


def holding(root: Path) -> list[str]:
    return [
        str(Path(folder, name).relative_to(root))
        for folder, _, files in os.walk(root)
        for name in files
        if MARKER.encode() in Path(folder, name).read_bytes()
    ]


async def test_forget_then_the_purge_pass_removes_the_bytes(tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder) -> None:
    settings = make_settings(tmp_path / "data", storage={"maintenance_enabled": False})
    async with build_app(settings, embedder=onnx_embedder) as app:
        kept = await app.memory.memorize.memorize(ME, MemoryDraft("a memory that stays"))
        gone = await app.memory.memorize.memorize(ME, MemoryDraft(f"the {MARKER} memory"))
        assert holding(tmp_path / "data")
        await app.memory.archive.forget(ME, gone.memory.memory_id)
        assert holding(tmp_path / "data"), "a delete alone leaves the bytes in the data files"
        # Another process's maintenance (the daemon's, when a worker deleted) finds the deleted rows.
        db = await LanceDatabase.open(settings.storage.uri, onnx_embedder.model_name, onnx_embedder.dimension)
        purge = LanceMaintenance(db, cleanup_older_than=timedelta(0), forget_purge_every=timedelta(0))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # cleanup at 0: no other reader here
            await purge.maintain(full=True)
        db.close()
        assert holding(tmp_path / "data") == []
        assert (await app.memory.archive.get(ME, kept.memory.memory_id)).content == "a memory that stays"
