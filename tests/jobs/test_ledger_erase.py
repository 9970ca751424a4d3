"""An erased job record stays erased: a worker still running the job writes nothing back (real Valkey)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import redis.asyncio

from memoryd.adapters.redis.ledger import RedisJobLedger
from memoryd.core.job_records import JobKind, JobRecord, JobState


async def test_an_update_after_the_erasure_of_its_record_brings_nothing_back(redis_url: str) -> None:
    client = redis.asyncio.Redis.from_url(redis_url)
    ledger = RedisJobLedger(client)
    key = "compact:chat-with-someone:12"  # the key names the conversation
    record = JobRecord(key, JobKind.COMPACT, "acme", "a1", JobState.QUEUED, created_at=datetime.now(UTC))
    try:
        claimed, created = await ledger.claim(record, redrive=False)
        assert created
        running = replace(claimed, state=JobState.RUNNING, attempts=1)
        await ledger.update(running, "attempt 1 started")
        assert (await ledger.get("acme", key)) == running and await ledger.in_state(JobState.RUNNING) == [running]

        assert await ledger.erase("acme", [key]) == 1
        await ledger.update(replace(running, state=JobState.QUEUED), "deferred")  # the worker, still running it
        await ledger.update(replace(running, state=JobState.SUCCEEDED), "succeeded")

        assert await ledger.get("acme", key) is None
        assert await ledger.in_state(JobState.QUEUED) == [] and await ledger.in_state(JobState.RUNNING) == []
        assert [k async for k in client.scan_iter(match="*chat-with-someone*")] == []
    finally:
        await client.aclose()
