"""A batch's fan-out claims its records together: the same outcome as one claim each, in a few round trips."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime

import pytest
import redis.asyncio

from memoryd.adapters.arq_queue import MODEL_QUEUE, WAKE_PREFIX, ArqJobQueue, connect
from memoryd.adapters.redis.ledger import RedisJobLedger
from memoryd.core.job_records import JobKind, JobRecord, JobState
from tests.jobs.conftest import command_calls


def _record(i: int, now: datetime) -> JobRecord:
    return JobRecord(f"bootstrap:t{i % 3}:a{i}:v1", JobKind.BOOTSTRAP, f"t{i % 3}", f"a{i}", created_at=now)


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[redis.asyncio.Redis]:
    client = redis.asyncio.Redis.from_url(redis_url)
    yield client
    await client.aclose()


async def test_claiming_many_creates_redrives_and_leaves_as_claiming_one_by_one_does(
    client: redis.asyncio.Redis,
) -> None:
    ledger = RedisJobLedger(client)
    now = datetime.now(UTC)
    records = [_record(i, now) for i in range(300)]
    await ledger.claim(records[0], redrive=False)  # live: returned as it is
    failed, _ = await ledger.claim(records[1], redrive=False)
    await ledger.update(replace(failed, state=JobState.FAILED), "failed")  # re-driven
    done, _ = await ledger.claim(records[2], redrive=False)
    await ledger.update(replace(done, state=JobState.SUCCEEDED), "done")  # returned as it is
    execs, watches = await command_calls(client, "exec"), await command_calls(client, "watch")

    claimed = await ledger.claim_many(records, redrive=True)

    assert [r.key for r, _ in claimed] == [r.key for r in records]
    assert [started for _, started in claimed[:3]] == [False, True, False]
    assert claimed[1][0].run == 2 and claimed[1][0].state is JobState.QUEUED
    assert claimed[2][0].state is JobState.SUCCEEDED
    assert all(started and r.state is JobState.QUEUED and r.run == 1 for r, started in claimed[3:])
    assert await command_calls(client, "exec") - execs == 1 and await command_calls(client, "watch") - watches == 1
    stored = await ledger.get_many([(r.tenant_id, r.key) for r in records])
    assert [s.run if s else None for s in stored] == [r.run for r, _ in claimed]
    assert len(await ledger.page("t1", None, None, "", 500, 0)) == 100  # each new record indexed


async def test_claims_racing_on_the_same_records_start_each_once(client: redis.asyncio.Redis) -> None:
    ledger = RedisJobLedger(client)
    now = datetime.now(UTC)
    records = [_record(i, now) for i in range(60)]
    many, single = await asyncio.gather(  # overlapping chunks and single claims, all at once
        asyncio.gather(*(ledger.claim_many(records[i : i + 30], redrive=True) for i in range(0, 60, 10))),
        asyncio.gather(*(ledger.claim(r, redrive=True) for r in records)),
    )
    starts: dict[str, int] = {}
    for record, started in [*(pair for claimed in many for pair in claimed), *single]:
        starts[record.key] = starts.get(record.key, 0) + started
    assert starts == {r.key: 1 for r in records}


async def test_submitting_many_queues_each_run_and_wakes_the_workers_once(redis_url: str) -> None:
    client = await connect(redis_url, MODEL_QUEUE)
    listener = redis.asyncio.Redis.from_url(redis_url)
    try:
        now = datetime.now(UTC)
        queue = ArqJobQueue(client)
        async with listener.pubsub() as pubsub:
            await pubsub.subscribe(WAKE_PREFIX + MODEL_QUEUE)
            await pubsub.get_message(timeout=1)  # the subscription's confirmation
            records = [_record(i, now) for i in range(50)]
            await queue.submit_many(records)
            await queue.submit_many(records[:10])  # the same runs again: held already, no second message
            wakes = []
            while (message := await pubsub.get_message(timeout=0.5)) is not None:
                wakes.append(message)
        assert len(wakes) == 1
        assert await client.zcard(MODEL_QUEUE) == 50
    finally:
        await listener.aclose()
        await client.aclose()
