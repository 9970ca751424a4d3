"""`memoryd worker` serves its own /metrics: scraped over HTTP from the running process."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from memoryd.commands.bench.daemon import free_port
from memoryd.testing.provider import FakeProvider
from tests.jobs.conftest import process_config

pytestmark = pytest.mark.timeout(120)


def _scrape(port: int) -> str:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2) as reply:
            return str(reply.read().decode())
    except OSError:
        return ""  # not listening yet


async def test_the_workers_metrics_endpoint_answers_a_scrape_with_the_job_series(
    tmp_path: Path, redis_url: str, provider: FakeProvider
) -> None:
    port = free_port()
    config = process_config(
        tmp_path / "memoryd.toml",
        redis_url,
        provider,
        storage={"uri": str(tmp_path / "data"), "maintenance_enabled": False},
        metrics={"enabled": True, "worker_port": port, "refresh_seconds": 0.2},
    )
    worker = subprocess.Popen(
        [sys.executable, "-m", "memoryd", "worker", "--config", str(config)], env={**os.environ, "LANCEDB_LOG": "error"}
    )
    try:
        deadline = time.monotonic() + 90
        while "memoryd_queue_messages{" not in (body := await asyncio.to_thread(_scrape, port)):
            assert worker.poll() is None and time.monotonic() < deadline, "no job series on the worker's port"
            await asyncio.sleep(0.2)
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=60)
    assert "memoryd_provider_breaker_open 0.0" in body  # the breaker's state, read from the shared Redis
    assert "# TYPE memoryd_queue_messages gauge" in body
