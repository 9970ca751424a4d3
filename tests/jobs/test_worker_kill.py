"""A worker process killed with SIGKILL mid-job: the job is reclaimed, re-run, and converges."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.core.job_records import JobState
from memoryd.core.models import Actor, MemoryFilter
from memoryd.testing.provider import FakeProvider
from tests.jobs.conftest import job_settings, process_config, running, seed, wait_for

# Slow end to end: an explicit limit of its own instead of the suite's 60 s default.
pytestmark = pytest.mark.timeout(120)

REPLY = '{"profile": "## Preferences\\n- likes green tea", "demoted": ["- used to work nights"]}'


async def test_a_killed_workers_job_reruns_after_reclaim_without_duplicates(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.script("sleep:30")  # the first call hangs: the worker is killed while it waits
    provider.reply_with(REPLY, REPLY)
    # The queue would hold the killed worker's message for 20 + 15 s; its heartbeat lapses after 3 s,
    # so only the heartbeat's reclaim can hand the job over in time, and the re-run has 20 s to finish
    # however loaded the machine (2 s once cut a slow re-run short and cost a third attempt).
    jobs: dict[str, Any] = {"model_job_timeout_seconds": 20, "worker_heartbeat_seconds": 3}
    settings = job_settings(tmp_path, redis_url, provider, **jobs)
    config = process_config(
        tmp_path / "memoryd.toml",
        redis_url,
        provider,
        storage={"uri": str(tmp_path / "data"), "maintenance_enabled": False},
        jobs=jobs,
    )
    async with running(settings, onnx_embedder, workers=False) as app:
        await seed(app, "acme", "a1", "a1 prefers green tea", "a1 is on the billing team")
        worker = subprocess.Popen(
            [sys.executable, "-m", "memoryd", "worker", "--config", str(config)],
            env={**os.environ, "LANCEDB_LOG": "error"},
        )
        try:
            job = await app.jobs.bootstrap.regenerate(Actor("acme", "a1"))
            deadline = time.monotonic() + 30
            while provider.calls["/v1/chat/completions"] < 1:
                assert time.monotonic() < deadline and worker.poll() is None, "the worker never called the model"
                await asyncio.sleep(0.05)
            os.kill(worker.pid, signal.SIGKILL)
            worker.wait()
            killed_at = time.monotonic()
            assert (await app.jobs.service.get("acme", job.key)).state == JobState.RUNNING
            with (tmp_path / "worker.log").open("wb") as log:
                worker = subprocess.Popen(
                    [sys.executable, "-m", "memoryd", "worker", "--config", str(config)],
                    env={**os.environ, "LANCEDB_LOG": "error"},
                    stderr=log,
                )
            done = await wait_for(lambda: app.jobs.service.record("acme", job.key), timeout=60)
        finally:
            worker.send_signal(signal.SIGTERM)
            worker.wait(timeout=30)
        reclaimed_after = time.monotonic() - killed_at
        events = [e.message async for e in app.jobs.service.watch("acme", job.key, poll_seconds=0.1)]
        assert done.state == JobState.SUCCEEDED and done.attempts == 2, events
        assert reclaimed_after >= 2  # not before the killed worker's heartbeat (3 s, renewed every 1 s) lapsed
        assert "freed the running jobs of a worker that died" in (tmp_path / "worker.log").read_text()
        revisions = await app.working.profile.revisions(Actor("acme", "a1"), 10, 0)
        assert [r.revision for r in revisions] == [1]
        page = await app.memory.store.page(Actor("acme", "a1"), MemoryFilter(), "", 100)
        contents = sorted(r.content for r in page)
        assert contents.count("used to work nights") == 1 and len(contents) == 3
    assert provider.calls["/v1/chat/completions"] == 2
