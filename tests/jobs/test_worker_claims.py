"""The worker claims only the due jobs it is not already running: a claim is four round trips to Valkey."""

from __future__ import annotations

import asyncio

import redis.asyncio
from arq import func
from arq.utils import timestamp_ms

from memoryd.adapters.arq_queue import connect
from memoryd.workers.settings import ClaimingWorker
from tests.jobs.conftest import command_calls

QUEUE = "memoryd:queue:claims-test"


async def _nothing(ctx: dict[str, object]) -> None:
    return None


async def test_a_worker_does_not_try_to_claim_a_job_it_is_running(redis_url: str) -> None:
    pool = await connect(redis_url, QUEUE)
    admin = redis.asyncio.Redis.from_url(redis_url)
    try:
        worker = ClaimingWorker(functions=[func(_nothing, name="nothing")], queue_name=QUEUE, redis_pool=pool)
        await pool.zadd(QUEUE, {"running-here": timestamp_ms()})  # arq keeps a running job in its queue
        running, ended = asyncio.get_running_loop().create_future(), asyncio.get_running_loop().create_future()
        ended.set_result(None)
        worker.tasks.update({"running-here": running, "ended-here": ended})  # type: ignore[dict-item]
        before = await command_calls(admin, "watch")
        await worker.start_jobs([b"running-here", b"ended-here"])
        # only the job whose task here has ended goes to the claim (it is no longer queued: not started)
        assert await command_calls(admin, "watch") - before == 1
        assert worker.job_counter == 0 and worker.tasks["ended-here"] is ended
        running.cancel()
    finally:
        await admin.aclose()
        await pool.aclose()
