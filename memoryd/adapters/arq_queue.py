"""JobQueue on arq: a ledger record's key travels to a worker as a JSON message.

Payloads are JSON (never pickle) and carry primitives only: the tenant and the
job key; the worker reads everything else from the ledger. Model-bound kinds go
to the model queue (long timeout), the rest to the short queue, so a killed
worker's short jobs are reclaimed after the short timeout, not the long one.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from arq.connections import ArqRedis, RedisSettings, create_pool
from arq.constants import in_progress_key_prefix, job_key_prefix, result_key_prefix, retry_key_prefix
from redis.exceptions import RedisError

from memoryd.adapters.redis.ledger import map_redis_errors
from memoryd.core.job_records import MODEL_BOUND, JobKind, JobRecord

log = logging.getLogger(__name__)

MODEL_QUEUE = "memoryd:queue:model"
SHORT_QUEUE = "memoryd:queue:short"
WAKE_PREFIX = "memoryd:wake:"
"""A message on ``WAKE_PREFIX + queue`` tells that queue's workers a job is due now (``workers.wake``)."""
_EXPIRES = timedelta(days=7)
"""A queued message older than this is dropped by arq; the ledger still shows the job (re-drivable)."""


_ARQ_PREFIXES = (job_key_prefix, result_key_prefix, retry_key_prefix, in_progress_key_prefix)


def dumps(value: Any) -> bytes:
    """Arq's serializer: JSON (``default=str`` so an unexpected result value is logged, not lost)."""
    return json.dumps(value, default=str, separators=(",", ":")).encode()


def loads(raw: bytes) -> Any:
    """Arq's deserializer."""
    return json.loads(raw)


def queue_of(kind: JobKind) -> str:
    """The queue a kind runs on."""
    return MODEL_QUEUE if kind in MODEL_BOUND else SHORT_QUEUE


async def connect(dsn: str, queue: str = SHORT_QUEUE) -> ArqRedis:
    """One client for the queue, the ledger and the gate (ArqRedis is a redis.asyncio.Redis).

    ``queue``: where a message goes when no queue is named (a worker's client: the queue it polls).
    """
    async with map_redis_errors():
        return await create_pool(
            RedisSettings.from_dsn(dsn), job_serializer=dumps, job_deserializer=loads, default_queue_name=queue
        )


class ArqJobQueue:
    """Submits runs of ledger records."""

    def __init__(self, client: ArqRedis) -> None:
        self._client = client

    async def submit(self, record: JobRecord, defer_seconds: float = 0) -> None:
        """Queue the record's current run; arq ignores a second message with the same id.

        A run due now also wakes the queue's workers: they start it at once instead of at their next
        poll (25 ms on average at the default 50 ms; polls stay for deferred runs and lost wake-ups).
        """
        if await self._enqueue(record, defer_seconds) and not defer_seconds:
            await self._wake(queue_of(record.kind))

    async def submit_many(self, records: Sequence[JobRecord]) -> None:
        """Queue each record's current run, due now; each queue that got one is woken once, at the end."""
        woken = [queue_of(r.kind) for r in records if await self._enqueue(r, 0)]
        for queue in dict.fromkeys(woken):
            await self._wake(queue)

    async def _enqueue(self, record: JobRecord, defer_seconds: float) -> bool:
        """Whether the run was queued now (False: arq already held this message)."""
        async with map_redis_errors():
            queued = await self._client.enqueue_job(
                record.kind.value,
                record.tenant_id,
                record.key,
                _job_id=record.message_id,
                _queue_name=queue_of(record.kind),
                _defer_by=defer_seconds or None,
                _expires=_EXPIRES,
            )
        return queued is not None

    async def _wake(self, queue: str) -> None:
        try:
            await self._client.publish(WAKE_PREFIX + queue, b"")
        except (RedisError, OSError) as exc:  # queued all the same: a poll starts it (an ACL without channels)
            log.debug("job queued without a wake-up", extra={"error": str(exc)})

    async def backlog(self, now: datetime) -> dict[str, tuple[int, float]]:
        """Per queue: messages held (due or deferred), and the wait of the oldest due one, in seconds.

        arq keeps each queue as a sorted set scored by the time a message may run (ms since the epoch).
        """
        out = {}
        async with map_redis_errors():
            for queue in (MODEL_QUEUE, SHORT_QUEUE):
                held = await self._client.zcard(queue)
                oldest = await self._client.zrangebyscore(queue, "-inf", now.timestamp() * 1000, 0, 1, withscores=True)
                waited = max(0.0, now.timestamp() - oldest[0][1] / 1000) if oldest else 0.0
                out[queue] = (int(held), waited)
        return out

    async def release(self, record: JobRecord) -> None:
        """Delete arq's in-progress mark of the record's message (left by a worker that died holding it).

        arq keeps the message in its queue until it finishes and marks it in progress for the
        function's whole timeout; without this a dead worker's model job waits that long (5 minutes).
        The message is submitted again in case the queue lost it.
        """
        async with map_redis_errors():
            await self._client.delete(in_progress_key_prefix + record.message_id)
        await self.submit(record)

    async def forget(self, records: Sequence[JobRecord]) -> None:
        """Drop every queue message of these jobs (all runs): queued entries, payloads, results, retries."""
        if not records:
            return
        async with map_redis_errors(), self._client.pipeline(transaction=False) as pipe:
            for record in records:
                for run in range(1, record.run + 1):
                    job_id = f"{record.key}#{run}"
                    pipe.zrem(queue_of(record.kind), job_id)
                    pipe.delete(*(prefix + job_id for prefix in _ARQ_PREFIXES))
            await pipe.execute()
