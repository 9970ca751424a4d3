"""Retention on fakes: TTLs per tenant, dry runs, receipts in the audit log, the daily job."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import timedelta

from memoryd.core.event_log import Operation
from memoryd.core.job_records import SYSTEM_TENANT, JobState, RetryPolicy
from memoryd.core.models import Actor, MemoryDraft
from memoryd.services.job_runner import JobRunner
from tests.fakes import DictLeases, OpenGate
from tests.unit.conftest import fake_world

ME, OTHER = Actor("acme", "a1"), Actor("keepall", "a1")


async def test_old_memories_go_new_ones_stay_and_a_dry_run_removes_nothing() -> None:
    async with fake_world(retention={"tenants": {"acme": {"memories_days": 30}}}) as world:
        app = world.app
        old = await app.memory.memorize.memorize(ME, MemoryDraft("an old fact"))
        await app.memory.memorize.memorize(OTHER, MemoryDraft("another tenant's old fact"))
        for memory_id, (record, vector) in list(world.store.rows.items()):
            world.store.rows[memory_id] = (replace(record, created_at=record.created_at - timedelta(days=45)), vector)
        fresh = await app.memory.memorize.memorize(ME, MemoryDraft("a fresh fact"))
        assert await app.admin.retention.tenants() == ["acme"]
        dry = await app.admin.retention.purge("acme", dry_run=True)
        assert dry.memory_ids == (old.memory.memory_id,) and old.memory.memory_id in world.store.rows
        done = await app.admin.retention.purge("acme", dry_run=False)
        assert done.counts["memories"] == 1 and old.memory.memory_id not in world.store.rows
        assert fresh.memory.memory_id in world.store.rows
        assert any(r.tenant_id == "keepall" for r, _ in world.store.rows.values())  # no policy: kept
        events = (await app.admin.trail.page("acme", None, None, Operation.RETENTION_PURGE, 10, "")).events
        assert len(events) == 1 and events[0].ids == (old.memory.memory_id,)


async def test_the_daily_job_is_one_per_day_and_purges_every_tenant_with_a_policy() -> None:
    async with fake_world(retention={"memories_days": 10}) as world:
        app = world.app
        await app.memory.memorize.memorize(ME, MemoryDraft("a fact"))
        world.clock.advance(days=11)
        first = await app.admin.retention.start_daily(app.jobs.service)
        second = await app.admin.retention.start_daily(app.jobs.service)
        assert first is not None and second is not None and first.key == second.key
        runner = JobRunner(
            app.jobs.service, OpenGate(), DictLeases(), None, app.clock, RetryPolicy(), rng=random.Random(2)
        )
        await runner.run(SYSTEM_TENANT, first.key, app.admin.retention.run)
        done = await app.jobs.service.get(SYSTEM_TENANT, first.key)
        assert done.state is JobState.SUCCEEDED and done.result["memories"] == 1 and not world.store.rows
