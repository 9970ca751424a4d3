"""An audit batch asks its agents' reviews in chunks: a few round trips to Valkey for many agents (real parts)."""

from __future__ import annotations

import random
from pathlib import Path

import redis.asyncio

from memoryd.adapters.arq_queue import MODEL_QUEUE
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.core.job_records import SYSTEM_TENANT, JobState, RetryPolicy
from memoryd.services.job_runner import JobRunner
from tests.fakes import DictLeases, OpenGate
from tests.jobs.conftest import command_calls, job_settings, running, seed

AGENTS = 120


async def test_an_audit_batch_asks_every_review_in_a_few_round_trips(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    admin = redis.asyncio.Redis.from_url(redis_url)
    try:
        async with running(job_settings(tmp_path, redis_url, None), onnx_embedder, workers=False) as app:
            for i in range(AGENTS):
                await seed(app, f"t{i % 3}", f"a{i}", f"agent {i} prefers the blue theme")
            batch = await app.jobs.review_batch.start()
            runner = JobRunner(
                app.jobs.service, OpenGate(), DictLeases(), None, app.clock, RetryPolicy(), rng=random.Random(1)
            )
            watches, wakes = await command_calls(admin, "watch"), await command_calls(admin, "publish")

            assert await runner.run(SYSTEM_TENANT, batch.key, app.jobs.review_batch.run) is not None  # waits for them

            reviews = await app.jobs.review_batch.reviews_of(batch.key)
            assert len(reviews) == AGENTS and len({key for _, key in reviews}) == AGENTS
            records = await app.jobs.service.records(reviews)
            assert all(r is not None and r.state is JobState.QUEUED for r in records)
            assert await admin.zcard(MODEL_QUEUE) == AGENTS  # each queued once
            # the ledger's claims: one WATCH per chunk of 50 (arq's own enqueue WATCHes each message), and one
            # wake-up per chunk; before, a claim and a wake-up per review
            assert await command_calls(admin, "watch") - watches == AGENTS + 3
            assert await command_calls(admin, "publish") - wakes == 3
    finally:
        await admin.aclose()
