"""A job queued to run now starts at once: the workers are woken, not left to their next poll."""

from __future__ import annotations

import asyncio
from pathlib import Path

import redis.asyncio

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import App
from memoryd.core.job_records import JobKind, JobRecord, bootstrap_key
from tests.jobs.conftest import job_settings, running, wait_for

POLL_SECONDS = 30.0
"""Far longer than any wait below: a job started in time was woken, not polled."""


async def started(app: App, agent: str) -> JobRecord:
    """Queue a job that needs no model (an agent with an empty archive) and wait for its start."""
    key = bootstrap_key("acme", agent, 1)
    await app.jobs.service.enqueue(JobKind.BOOTSTRAP, "acme", key, agent)
    return await wait_for(lambda: app.jobs.service.record("acme", key), timeout=5, until=lambda r: bool(r.started_at))


def waited(record: JobRecord) -> float:
    assert record.started_at is not None and record.created_at is not None
    return (record.started_at - record.created_at).total_seconds()


async def test_a_job_queued_to_run_now_starts_before_the_next_poll(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    settings = job_settings(tmp_path, redis_url, None, poll_seconds=POLL_SECONDS)
    async with running(settings, onnx_embedder) as app:
        await asyncio.sleep(0.5)  # past the workers' first poll: the next is 30 s away
        first = await started(app, "a1")
        burst = await asyncio.gather(*(started(app, f"b{i}") for i in range(5)))  # woken during a look
        assert waited(first) < 2.0 and max(waited(r) for r in burst) < 2.0


async def test_the_workers_listen_again_after_their_wake_connection_is_dropped(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    settings = job_settings(tmp_path, redis_url, None, poll_seconds=POLL_SECONDS)
    async with running(settings, onnx_embedder) as app:
        await asyncio.sleep(0.5)
        admin = redis.asyncio.Redis.from_url(redis_url)
        try:
            assert await admin.execute_command("CLIENT", "KILL", "TYPE", "pubsub") == 1  # the listener's only
            for _ in range(100):  # subscribed again within the resubscribe pause
                if (await admin.pubsub_numsub("memoryd:wake:memoryd:queue:short"))[0][1] == 1:
                    break
                await asyncio.sleep(0.05)
        finally:
            await admin.aclose()
        assert waited(await started(app, "a1")) < 2.0


async def test_a_valkey_user_without_channels_still_queues_and_runs_jobs(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    # An operator's ACL may grant keys and commands but no pub/sub channels: the wake-ups are lost, not the jobs.
    admin = redis.asyncio.Redis.from_url(redis_url)
    await admin.execute_command("ACL", "SETUSER", "jobs", "on", ">secret", "~*", "+@all", "resetchannels")
    try:
        url = redis_url.replace("redis://", "redis://jobs:secret@", 1)
        settings = job_settings(tmp_path, url, None, poll_seconds=0.05)
        async with running(settings, onnx_embedder) as app:
            record = await started(app, "a1")
            assert record.started_at is not None
    finally:
        await admin.execute_command("ACL", "DELUSER", "jobs")
        await admin.aclose()
