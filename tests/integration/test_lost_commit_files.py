"""Files no version references (what commits that lost left): found, removed past the grace, never a live one.

On a directory and on a real S3-compatible server (moto on loopback): a planted leftover in each
folder commits write is listed and removed once old enough; a file a version references is never
listed; a leftover younger than the grace stays (it could be a commit still in flight).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import build_app
from memoryd.config import Settings
from memoryd.core.models import Actor, MemoryDraft, MemoryFilter
from tests.conftest import ObjectStore, make_settings

pytestmark = pytest.mark.timeout(120)
LEFT = [
    "data/lost-0000.lance",
    "_indices/0bad0000-0000-4000-8000-000000000000/page_data.lance",
    "_transactions/9-x.txn",
]
ME = Actor("acme", "a1")


async def _sweeps(
    settings: Settings, embedder: OnnxMiniLMEmbedder, plant: Callable[[str], None], exists: Callable[[str], bool]
) -> None:
    async with build_app(settings.without_maintenance(), embedder=embedder) as app:
        assert app.maintenance is not None
        for i in range(3):
            await app.memory.memorize.memorize(ME, MemoryDraft(f"Sam drinks tea at {i} pm"))
        live = {f.path for f in await app.maintenance.unreferenced(["memories_acme"])}
        for path in LEFT:
            plant(path)
        found = await app.maintenance.unreferenced(["memories_acme"])
        assert {f.path for f in found} - live == set(LEFT)
        assert await app.maintenance.remove(found, timedelta(hours=1)) == 0  # too young: maybe a commit in flight
        assert all(exists(p) for p in LEFT)
        assert await app.maintenance.remove(found, timedelta(0)) == len(found)
        assert not any(exists(p) for p in LEFT)
        # every file a version references stayed: the table reads whole
        assert len(await app.memory.store.page(ME, MemoryFilter(), "", 10)) == 3


async def test_lost_commit_files_are_removed_from_a_directory(
    tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    folder = tmp_path / "data" / "memories_acme.lance"

    def plant(path: str) -> None:
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_bytes(b"left by a commit that lost")

    await _sweeps(make_settings(tmp_path / "data"), onnx_embedder, plant, lambda p: (folder / p).exists())


async def test_lost_commit_files_are_removed_from_object_storage(
    tmp_path: Path, object_store: ObjectStore, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    prefix = f"lost-{uuid.uuid4().hex[:8]}"
    settings = make_settings(tmp_path / "unused", storage=object_store.settings(prefix))
    s3 = object_store.client()
    key = f"{prefix}/memories_acme.lance/{{}}"

    def exists(path: str) -> bool:
        return bool(s3.list_objects_v2(Bucket=object_store.bucket, Prefix=key.format(path)).get("KeyCount"))

    def plant(path: str) -> None:
        s3.put_object(Bucket=object_store.bucket, Key=key.format(path), Body=b"left by a commit that lost")

    await _sweeps(settings, onnx_embedder, plant, exists)
