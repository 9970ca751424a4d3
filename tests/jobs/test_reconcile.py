"""The reconciler re-queues a live job whose message was lost, never twice; the worker's job gauges (real Valkey)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import warnings
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import redis.asyncio
from prometheus_client import generate_latest

from memoryd.adapters.arq_queue import queue_of
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import App
from memoryd.config import Settings
from memoryd.core.job_records import JobRecord, JobState
from memoryd.core.models import Actor, MemoryDraft
from memoryd.workers.run import refresh_job_metrics
from memoryd.workers.settings import running_workers
from tests.jobs.conftest import job_settings, running, wait_for


@contextlib.asynccontextmanager
async def _retention_job_queued(
    settings: Settings, embedder: OnnxMiniLMEmbedder
) -> AsyncIterator[tuple[App, JobRecord]]:
    """The app, its workers not started, of a tenant with a retention policy and a memory, and its daily job."""
    settings.retention.memories_days = 30.0  # a tenant with a policy: the daily retention job exists
    async with running(settings, embedder, workers=False) as app:
        await app.memory.memorize.memorize(Actor("acme", "a1"), MemoryDraft("an old note"))
        record = await app.admin.retention.start_daily(app.jobs.service)
        assert record is not None and record.state is JobState.QUEUED
        yield app, record


def _valkey(settings: Settings) -> redis.asyncio.Redis:
    """A client of the jobs' Valkey, for a test to see and change what the queue holds."""
    return redis.asyncio.Redis.from_url(settings.redis.dsn)


async def test_a_job_whose_message_was_lost_is_queued_again_once_and_runs(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    settings = job_settings(tmp_path, redis_url, None)
    async with _retention_job_queued(settings, onnx_embedder) as (app, record), _valkey(settings) as client:
        queue, message = queue_of(record.kind), record.message_id
        assert await client.zscore(queue, message) is not None

        # Redis lost the message (a restart without it, or an expired deferral); the ledger kept the record.
        await client.zrem(queue, message)
        await client.delete(f"arq:job:{message}")
        assert await app.jobs.service.reconcile(stale_seconds=3600) == 0  # not stale yet: left alone
        assert await app.jobs.service.reconcile(stale_seconds=0) == 1
        assert await client.zscore(queue, message) is not None
        assert await app.jobs.service.reconcile(stale_seconds=0) == 1  # submitted again while it exists...
        assert await client.zcard(queue) == 1  # ...but the queue holds one message

        async with running_workers(settings, app, enabled=True):
            done = await wait_for(lambda: app.jobs.service.record(record.tenant_id, record.key))
        assert done.state is JobState.SUCCEEDED and done.attempts == 1
        assert await app.jobs.service.reconcile(stale_seconds=0) == 0  # finished jobs are not live


async def test_the_worker_gauges_show_live_jobs_the_backlog_and_the_breaker(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    settings = job_settings(tmp_path, redis_url, None)
    async with _retention_job_queued(settings, onnx_embedder) as (app, record):
        await refresh_job_metrics(app)
        scrape = generate_latest(app.metrics.registry).decode()
        assert 'memoryd_jobs{kind="retention",state="queued"} 1.0' in scrape
        assert f'memoryd_queue_messages{{queue="{queue_of(record.kind)}"}} 1.0' in scrape
        assert "memoryd_provider_breaker_open 0.0" in scrape

        async with running_workers(settings, app, enabled=True):
            await wait_for(lambda: app.jobs.service.record(record.tenant_id, record.key))
        await refresh_job_metrics(app)
        scrape = generate_latest(app.metrics.registry).decode()
        assert "memoryd_jobs{" not in scrape  # nothing live any more: no stale series
        assert f'memoryd_queue_messages{{queue="{queue_of(record.kind)}"}} 0.0' in scrape


async def test_the_breaker_gauge_leaves_the_half_open_probe_to_the_jobs(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    settings = job_settings(tmp_path, redis_url, None, breaker_threshold=2, breaker_cooldown_seconds=0.3)
    async with running(settings, onnx_embedder, workers=False) as app:
        gate = app.jobs.runner.gate
        await gate.record(ok=False)
        await gate.record(ok=False)
        await refresh_job_metrics(app)
        assert "memoryd_provider_breaker_open 1.0" in generate_latest(app.metrics.registry).decode()
        await asyncio.sleep(0.35)
        await refresh_job_metrics(app)  # the cooldown is over: half-open
        assert "memoryd_provider_breaker_open 0.0" in generate_latest(app.metrics.registry).decode()
        assert await gate.open_for() == 0  # a job's call is the probe: the gauge's refresh did not take it


async def test_the_jobs_of_a_worker_that_died_are_freed_by_its_lapsed_heartbeat(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    settings = job_settings(tmp_path, redis_url, None, worker_heartbeat_seconds=0.6)
    async with _retention_job_queued(settings, onnx_embedder) as (app, record), _valkey(settings) as client:
        # A worker took the job and died: the record says running, arq holds the message for 5 minutes.
        orphan = replace(record, state=JobState.RUNNING, attempts=1, worker="host:1:dead")
        await app.jobs.service.update(orphan, "attempt 1 started")
        await client.set(f"arq:in-progress:{record.message_id}", b"1", px=300_000)
        leases = app.jobs.runner.leases
        await leases.lock("worker:host:2:alive", "host:2:alive", 30)
        alive = lambda w: leases.is_held(f"worker:{w}")  # noqa: E731
        assert await app.jobs.service.reclaim_orphans(alive) == 1
        assert await client.exists(f"arq:in-progress:{record.message_id}") == 0

        # A live worker's job is left alone.
        await app.jobs.service.update(replace(orphan, worker="host:2:alive"), "attempt 1 started")
        await client.set(f"arq:in-progress:{record.message_id}", b"1", px=300_000)
        assert await app.jobs.service.reclaim_orphans(alive) == 0
        await leases.unlock("worker:host:2:alive", "host:2:alive")  # ...until its heartbeat lapses

        # Workers started now free it within their first scan and run it, long before the 5 minutes.
        async with running_workers(settings, app, enabled=True):
            done = await wait_for(lambda: app.jobs.service.record(record.tenant_id, record.key), timeout=15)
        assert done.state is JobState.SUCCEEDED and done.attempts == 2 and done.worker


async def test_workers_stopped_as_they_start_leave_no_redis_connection_open(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    # A command whose work is already done (`memoryd audit` run twice in one period) leaves the block
    # at once; the workers' clients must be closed, not left half-connected to the garbage collector.
    settings = job_settings(tmp_path, redis_url, None)
    async with running(settings, onnx_embedder, workers=False) as app:
        for step in range(30):  # leave at every moment of the workers' start, connecting included
            async with running_workers(settings, app, enabled=True):
                await asyncio.sleep(step / 1000)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        gc.collect()
    unclosed = [str(w.message) for w in seen if issubclass(w.category, ResourceWarning)]
    assert not unclosed, unclosed


async def test_a_queued_job_whose_message_kept_a_dead_workers_mark_is_released_and_runs(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    settings = job_settings(tmp_path, redis_url, None)
    async with _retention_job_queued(settings, onnx_embedder) as (app, record), _valkey(settings) as client:
        mark = f"arq:in-progress:{record.message_id}"
        # A worker marked the message and died before writing `running` (or Redis came back from its
        # append-only file with the mark but without the unmarking): the queue holds it for 5 minutes.
        await client.set(mark, b"1", px=300_000)
        assert await app.jobs.service.reconcile(stale_seconds=3600) == 0  # not stale yet: left alone
        assert await client.exists(mark) == 1

        # A running record's mark is its worker's, alive or not: the reconciler leaves it to reclaim_orphans.
        taken = replace(record, state=JobState.RUNNING, attempts=1, worker="host:1:alive")
        await app.jobs.service.update(taken, "attempt 1 started")
        assert await app.jobs.service.reconcile(stale_seconds=0) == 1
        assert await client.exists(mark) == 1
        await app.jobs.service.update(record, "back in the queue")

        assert await app.jobs.service.reconcile(stale_seconds=0) == 1
        assert await client.exists(mark) == 0 and await client.zscore(queue_of(record.kind), record.message_id)
        async with running_workers(settings, app, enabled=True):
            done = await wait_for(lambda: app.jobs.service.record(record.tenant_id, record.key), timeout=15)
        assert done.state is JobState.SUCCEEDED and done.attempts == 1
