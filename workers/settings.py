"""The two arq workers of a ``memoryd worker`` process, built from memoryd's Settings.

Model-bound jobs get a long timeout on their own queue; short jobs get a short
one, because arq reclaims a killed worker's job only after its worker's
longest timeout (+10 s). Polling is 50 ms by default (arq's 0.5 s adds ~250 ms
to every job). Results are not kept (``keep_result=0``): the ledger holds the
outcome, and the queue must accept the same message id again (parked jobs).
"""

from __future__ import annotations

import asyncio
import signal
from typing import Any

from arq import Worker, func
from arq.connections import RedisSettings

from memoryd.adapters.arq_queue import MODEL_QUEUE, SHORT_QUEUE, dumps, loads, queue_of
from memoryd.config import Settings
from workers.jobs import FUNCTIONS

_UNBOUNDED_TRIES = 1_000_000
"""arq's own try limit is not the retry policy (JobRunner's is): deferrals must not exhaust it."""
_SLACK_SECONDS = 5.0


def build_workers(settings: Settings, ctx: dict[str, Any]) -> list[Worker]:
    """The model-bound and the short worker, sharing ``ctx`` (the App)."""
    js = settings.jobs
    ctx["model_timeout"] = js.model_job_timeout_seconds
    ctx["short_timeout"] = js.short_job_timeout_seconds
    workers = []
    for queue, concurrency, timeout in ((MODEL_QUEUE, js.model_concurrency, js.model_job_timeout_seconds),
                                        (SHORT_QUEUE, js.short_concurrency, js.short_job_timeout_seconds)):
        functions = [func(coroutine, name=kind.value, timeout=timeout + _SLACK_SECONDS, max_tries=_UNBOUNDED_TRIES)
                     for kind, coroutine in FUNCTIONS.items() if queue_of(kind) == queue]
        workers.append(Worker(
            functions=functions, queue_name=queue, redis_settings=RedisSettings.from_dsn(settings.redis.dsn),
            ctx=ctx, poll_delay=js.poll_seconds, max_jobs=concurrency, keep_result=0,
            handle_signals=False, job_serializer=dumps, job_deserializer=loads, log_results=False))
    return workers


async def close_workers(workers: list[Worker]) -> None:
    """Stop the workers; jobs still running are cancelled and re-queued by arq (they re-run elsewhere).

    This is arq's ``Worker.close`` without its last step's flaw: ``close`` gathers the job
    tasks it has just cancelled and so raises CancelledError whenever a job was in flight,
    skipping the release of its Redis connections.
    """
    for worker in workers:
        worker.handle_sig(signal.SIGUSR1)  # arq: cancel the poll loop and running jobs (re-queued)
        await asyncio.gather(*worker.tasks.values(), return_exceptions=True)
        pool = worker._pool  # arq exposes no other way to release it
        if pool is not None:
            worker._pool = None
            try:
                await pool.delete(worker.health_check_key)
            finally:
                await pool.aclose()
