"""The shared circuit breaker and the per-tenant provider slots, on a real Valkey."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import redis.asyncio as aioredis

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.adapters.redis.gate import RedisProviderGate
from memoryd.core.job_records import JobState
from memoryd.core.models import Actor
from memoryd.testing.provider import FakeProvider
from tests.jobs.conftest import PROFILE_REPLY, job_settings, running, seed, wait_for


async def test_an_open_circuit_stops_every_call_until_the_cooldown_ends(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.script(*["503"] * 3)
    provider.reply_with(*[PROFILE_REPLY] * 4)
    # One call at a time (tenant_concurrency=1), so the count of calls is exact.
    settings = job_settings(
        tmp_path,
        redis_url,
        provider,
        breaker_threshold=3,
        breaker_cooldown_seconds=3.0,
        tenant_concurrency=1,
        backoff_base_seconds=0.02,
        backoff_cap_seconds=0.05,
    )
    async with running(settings, onnx_embedder) as app:
        agents = ["a1", "a2", "a3", "a4"]
        for agent in agents:
            await seed(app, "acme", agent, f"{agent} prefers tea")
        jobs = [await app.jobs.bootstrap.regenerate(Actor("acme", a)) for a in agents]
        keys = [j.key for j in jobs]
        deadline = time.monotonic() + 10
        while provider.calls["/v1/chat/completions"] < 3 and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        opened_at = time.monotonic()
        assert provider.calls["/v1/chat/completions"] == 3
        # Every job comes back and is deferred by the open circuit, calling nothing. All four are
        # watched at once: a job seen late could have been deferred and run again already.
        deferred: set[str] = set()
        while len(deferred) < len(jobs):
            for j in jobs:
                record = await app.jobs.service.record("acme", j.key)
                if record is not None and "circuit open" in record.last_error:
                    deferred.add(j.key)
            assert time.monotonic() - opened_at < 10, f"not deferred by the open circuit: {set(keys) - deferred}"
            await asyncio.sleep(0.02)
        assert provider.calls["/v1/chat/completions"] == 3
        states = {(await app.jobs.service.get("acme", j.key)).state for j in jobs}
        assert states <= {JobState.RETRYING, JobState.QUEUED, JobState.RUNNING}
        done = [await wait_for(lambda j=j: app.jobs.service.record("acme", j.key)) for j in jobs]  # type: ignore[misc]
        assert time.monotonic() - opened_at >= 2.8
    assert all(d.state == JobState.SUCCEEDED for d in done)
    assert provider.calls["/v1/chat/completions"] == 3 + 4  # one probe closed the circuit, then the rest


async def test_tenant_slots_bound_one_tenant_and_free_on_release_or_expiry(redis_url: str) -> None:
    async with aioredis.Redis.from_url(redis_url) as client:
        gate = RedisProviderGate(client, threshold=3, cooldown_seconds=1, tenant_slots=2, slot_seconds=0.5)
        assert await gate.acquire("acme", "job-1") and await gate.acquire("acme", "job-2")
        assert not await gate.acquire("acme", "job-3")
        assert await gate.acquire("acme", "job-1")  # re-entrant for its holder
        assert await gate.acquire("globex", "job-9")  # another tenant is not starved
        await gate.release("acme", "job-2")
        assert await gate.acquire("acme", "job-3")
        assert not await gate.acquire("acme", "job-4")
        await asyncio.sleep(0.6)  # holders killed without releasing: their slots expire
        assert await gate.acquire("acme", "job-4")


async def test_breaker_opens_after_consecutive_failures_and_lets_one_probe_through(redis_url: str) -> None:
    async with aioredis.Redis.from_url(redis_url) as client:
        gate = RedisProviderGate(client, threshold=2, cooldown_seconds=0.3, tenant_slots=1, slot_seconds=5)
        await gate.record(ok=False)
        await gate.record(ok=True)  # a success resets the count: failures must be consecutive
        await gate.record(ok=False)
        assert await gate.open_for() == 0
        await gate.record(ok=False)
        assert 0 < await gate.open_for() <= 0.3
        await asyncio.sleep(0.35)
        assert await gate.open_for() == 0  # the probe
        assert await gate.open_for() > 0  # everyone else waits for the probe's outcome
        await gate.record(ok=True)
        assert await gate.open_for() == 0 and await gate.open_for() == 0


async def test_an_observer_of_the_breaker_never_takes_the_half_open_probe(redis_url: str) -> None:
    # The worker's breaker gauge asked ``open_for``: at the cooldown's end its refresh became the probe,
    # and every job then waited out the probe's lease (the provider timeout plus 10 s) without one.
    async with aioredis.Redis.from_url(redis_url) as client:
        gate = RedisProviderGate(client, threshold=2, cooldown_seconds=0.3, tenant_slots=1, slot_seconds=5)
        await gate.record(ok=False)
        assert await gate.observed_open_for() == 0
        await gate.record(ok=False)
        assert 0 < await gate.observed_open_for() <= 0.3
        await asyncio.sleep(0.35)
        assert [await gate.observed_open_for() for _ in range(3)] == [0, 0, 0]  # half-open: nobody probing
        assert await gate.open_for() == 0  # a worker's call is the probe, the observer's looks left it free
        assert await gate.observed_open_for() > 0  # the probe in flight: the others wait
        await gate.record(ok=True)
        assert await gate.observed_open_for() == 0
