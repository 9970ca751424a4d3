"""A worker's model calls are bounded by ``model_concurrency``, its model-bound jobs by more than that."""

from __future__ import annotations

from datetime import datetime
from functools import partial
from pathlib import Path

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.core.job_records import JobKind, JobState, bootstrap_key
from memoryd.testing.provider import FakeProvider
from tests.jobs.conftest import PROFILE_REPLY, job_settings, running, seed, wait_for

AGENTS = [f"a{i}" for i in range(8)]


def _most_at_once(spans: list[tuple[datetime, datetime]]) -> int:
    """The most intervals open at one instant (an end before a start at the same time)."""
    events = sorted([(start, 1) for start, _ in spans] + [(end, -1) for _, end in spans])
    most = now = 0
    for _, change in events:
        now += change
        most = max(most, now)
    return most


async def test_jobs_run_beside_the_calls_that_hold_the_model_slots(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    with FakeProvider(latency=0.3) as provider:
        provider.reply_with(*[PROFILE_REPLY] * len(AGENTS))
        settings = job_settings(tmp_path, redis_url, provider, model_concurrency=2, tenant_concurrency=8)
        assert settings.jobs.model_job_slots == 4
        async with running(settings, onnx_embedder, workers=False) as app:
            for agent in AGENTS:
                await seed(app, "acme", agent, f"{agent} prefers answers in French")
        async with running(settings, onnx_embedder) as app:
            for agent in AGENTS:
                await app.jobs.service.enqueue(JobKind.BOOTSTRAP, "acme", bootstrap_key("acme", agent, 1), agent)
            record = app.jobs.service.record
            done = [await wait_for(partial(record, "acme", bootstrap_key("acme", agent, 1))) for agent in AGENTS]
        assert all(r.state == JobState.SUCCEEDED and r.attempts == 1 for r in done), done
        assert provider.calls["/v1/chat/completions"] == len(AGENTS)
        assert provider.peak_in_flight == 2  # never more calls than model_concurrency
        spans = [(r.started_at, r.finished_at) for r in done if r.started_at and r.finished_at]
        assert len(spans) == len(AGENTS)
        assert _most_at_once(spans) == 4  # twice as many jobs: two wait for a call slot, not for a job slot
