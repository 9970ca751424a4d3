"""Wake-ups: a worker looks at its queue as soon as a job is queued there, not at its next poll.

arq polls its queue (every ``jobs.poll_seconds``); a job queued just after a poll waited out the
rest of the interval (enqueue→start 32 ms p50 at 50 ms polls). ``ArqJobQueue.submit`` publishes on
the queue's wake channel, and each worker process listens: a message makes the worker take the due
job ids and start them at once, as its poll does (starting a job is arq's atomic claim, so two looks
never start it twice). The rest of a poll (finished tasks, the health record) stays with arq's loop,
which goes on polling for deferred runs and for wake-ups lost while Valkey was away.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from arq import Worker
from arq.connections import ArqRedis
from arq.utils import timestamp_ms
from redis.exceptions import RedisError

from memoryd.adapters.arq_queue import WAKE_PREFIX

log = logging.getLogger(__name__)

_RESUBSCRIBE_SECONDS = 1.0
"""After Valkey went away, how long before listening again (the polls carry the jobs meanwhile)."""


class _Looker:
    """One worker's extra looks at its queue: one at a time, and one more if woken meanwhile."""

    def __init__(self, worker: Worker) -> None:
        self._worker = worker
        self._again = False
        self._task: asyncio.Task[None] | None = None

    def wake(self) -> None:
        if self._worker.main_task is None:  # not polling yet: its first poll will find the job
            return
        if self._task is not None and not self._task.done():
            self._again = True  # a burst of jobs queued during a look: one more look covers them all
            return
        self._task = asyncio.create_task(self._look())

    async def _look(self) -> None:
        self._again = True
        while self._again:
            self._again = False
            worker = self._worker
            if worker.job_counter >= worker.max_jobs:  # every slot busy: its poll takes the job when one frees
                return
            try:
                due = await worker.pool.zrangebyscore(
                    worker.queue_name, min=float("-inf"), max=timestamp_ms(), start=0, num=worker.queue_read_limit
                )
                await worker.start_jobs(due)  # each claimed atomically, as arq's poll does
            except (RedisError, OSError) as exc:  # the worker's own poll loop meets the same and reports it
                log.debug("woken worker could not look at its queue", extra={"error": str(exc)})
                return

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


async def listen_for_wakes(pool: ArqRedis, workers: Sequence[Worker]) -> None:
    """Until cancelled: on each message of a worker's wake channel, that worker looks at its queue."""
    lookers = {(WAKE_PREFIX + w.queue_name).encode(): _Looker(w) for w in workers}
    try:
        while True:
            try:
                async with pool.pubsub() as pubsub:
                    await pubsub.subscribe(*lookers)
                    async for message in pubsub.listen():
                        if message["type"] == "message":
                            lookers[message["channel"]].wake()
            except (RedisError, OSError) as exc:
                log.info("not listening for job wake-ups; polling only", extra={"error": str(exc)})
            await asyncio.sleep(_RESUBSCRIBE_SECONDS)
    finally:
        for looker in lookers.values():
            await looker.stop()
