"""`memoryd bootstrap --all` from the command line: progress, summary, interrupt and re-run."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.core.models import Actor
from memoryd.testing.provider import FakeProvider
from tests.jobs.conftest import PROFILE_REPLY, job_settings, running, seed

# Slow end to end: an explicit limit of its own instead of the suite's 60 s default.
pytestmark = pytest.mark.timeout(120)

AGENTS = [("acme", f"a{i}") for i in range(4)]


def _config(tmp_path: Path, redis_url: str, provider: FakeProvider) -> Path:
    path = tmp_path / "memoryd.toml"
    path.write_text(f"""
[storage]
uri = "{tmp_path / "data"}"
[redis]
dsn = "{redis_url}"
[provider]
base_url = "{provider.base_url}"
extraction_model = "fake-model"
[jobs]
poll_seconds = 0.02
model_concurrency = 1
model_jobs = 1
""")
    return path


# As a terminal starts it: Ctrl-C raises KeyboardInterrupt. A suite started in the background of a
# non-interactive shell runs with SIGINT ignored, the children inherit that, and the command rightly
# keeps an ignored SIGINT ignored: without this the interrupt below never landed there.
_AS_FROM_A_TERMINAL = (
    "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "from memoryd.commands.main import main; main(sys.argv[1:])"
)


def _bootstrap(config: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", _AS_FROM_A_TERMINAL, "bootstrap", "--all", "--config", str(config)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "LANCEDB_LOG": "error"},
    )


async def test_bootstrap_all_reports_progress_survives_an_interrupt_and_never_redoes_an_agent(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    with FakeProvider(latency=0.4) as provider:
        provider.reply_with(*[PROFILE_REPLY] * 10)
        settings = job_settings(tmp_path, redis_url, provider)
        async with running(settings, onnx_embedder, workers=False) as app:
            for tenant, agent in AGENTS:
                await seed(app, tenant, agent, f"{agent} likes tea")
        config = _config(tmp_path, redis_url, provider)

        first = _bootstrap(config)
        deadline = time.monotonic() + 60
        while provider.calls["/v1/chat/completions"] < 2:  # interrupted part-way through
            assert time.monotonic() < deadline and first.poll() is None, first.communicate()
            await asyncio.sleep(0.05)
        provider.latency = 5.0  # the run cannot finish its last agents before the interrupt lands
        first.send_signal(signal.SIGINT)
        first_out, _ = first.communicate(timeout=60)
        provider.latency = 0.4
        assert "done" in first_out and "remaining" in first_out and "agents/s" in first_out and "ETA" in first_out
        assert "compiled" not in first_out  # interrupted: no summary line

        second = _bootstrap(config)
        out, err = second.communicate(timeout=120)
        assert second.returncode == 0, err
        assert "bootstrap v1: succeeded" in out and "0 failed" in out.splitlines()[-1], (first_out, out, err)
        calls = provider.calls["/v1/chat/completions"]
        assert calls <= len(AGENTS) + 1  # at most the one job in flight at the interrupt called twice

        third = _bootstrap(config)
        out, _ = third.communicate(timeout=120)
        assert third.returncode == 0 and "every agent already had one; nothing to do" in out
        assert provider.calls["/v1/chat/completions"] == calls

        async with running(settings, onnx_embedder, workers=False) as app:  # an agent created since
            await seed(app, "acme", "late", "late likes coffee")
        fourth = _bootstrap(config)
        out, err = fourth.communicate(timeout=120)
        assert fourth.returncode == 0, err
        assert "1 agents created since the last batch" in out and "succeeded" in out.splitlines()[-1]
        assert provider.calls["/v1/chat/completions"] == calls + 1  # the new agent alone

    async with running(settings, onnx_embedder, workers=False) as app:
        for tenant, agent in [*AGENTS, ("acme", "late")]:  # each profile written exactly once
            assert [r.revision for r in await app.working.profile.revisions(Actor(tenant, agent), 10, 0)] == [1]
