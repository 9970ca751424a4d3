"""A state's scan (the heartbeat's and the reconciler's) reads its records in a few round trips (real Valkey)."""

from __future__ import annotations

from datetime import UTC, datetime

import redis.asyncio

from memoryd.adapters.redis.ledger import RedisJobLedger
from memoryd.core.job_records import JobKind, JobRecord, JobState
from tests.jobs.conftest import command_calls


async def test_scanning_a_state_reads_thousands_of_live_records_in_a_few_round_trips(redis_url: str) -> None:
    client = redis.asyncio.Redis.from_url(redis_url)
    ledger = RedisJobLedger(client)
    now = datetime.now(UTC)
    try:
        for i in range(1200):  # a bootstrap batch keeps a record live per agent
            state = JobState.RUNNING if i % 3 == 0 else JobState.QUEUED
            record = JobRecord(f"bootstrap:a{i}:v1", JobKind.BOOTSTRAP, f"t{i % 7}", f"a{i}", state, created_at=now)
            await ledger.claim(record, redrive=False)
        gets, mgets = await command_calls(client, "get"), await command_calls(client, "mget")

        running = await ledger.in_state(JobState.RUNNING)

        assert sorted(r.agent_id for r in running) == sorted(f"a{i}" for i in range(0, 1200, 3))
        assert all(r.state is JobState.RUNNING for r in running)
        assert await command_calls(client, "get") == gets  # not one GET per live record...
        assert await command_calls(client, "mget") - mgets <= 3  # ...but one MGET per chunk
    finally:
        await client.aclose()
