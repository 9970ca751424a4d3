"""The two arq workers of a ``memoryd worker`` process, built from memoryd's Settings.

Model-bound jobs get a long timeout on their own queue; short jobs get a short
one, because arq reclaims a killed worker's job only after its worker's
longest timeout (+10 s). Polling is 50 ms by default (arq's 0.5 s adds ~250 ms
to every job), and a job queued to run now wakes the workers at once
(``workers.wake``). Results are not kept (``keep_result=0``): the ledger holds
the outcome, and the queue must accept the same message id again (parked jobs).
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from arq import Worker, cron, func
from arq.connections import ArqRedis

from memoryd.adapters.arq_queue import MODEL_QUEUE, SHORT_QUEUE, connect, dumps, loads, queue_of
from memoryd.adapters.redis.ledger import map_redis_errors
from memoryd.app import App
from memoryd.config import Settings
from memoryd.core.errors import MemorydError, Unavailable
from memoryd.workers.context import WorkerContext, install
from memoryd.workers.functions import FUNCTIONS, audit_tick, reconcile_tick, retention_tick
from memoryd.workers.wake import listen_for_wakes

log = logging.getLogger(__name__)

NO_QUEUE = (
    "{command} needs the job queue: run it in the directory where `memoryd up` runs (it finds the stack "
    "there, or pass --run-dir), or set REDIS_URL"
)

_UNBOUNDED_TRIES = 1_000_000
"""arq's own try limit is not the retry policy (JobRunner's is): deferrals must not exhaust it."""
_SLACK_SECONDS = 5.0
_TICK_SECONDS = {0, 10, 20, 30, 40, 50}
"""The audit schedule is read every ten seconds (a tick only enqueues; the ledger key makes it once per period)."""


_QUEUES = (MODEL_QUEUE, SHORT_QUEUE)


class ClaimingWorker(Worker):
    """arq's worker, which does not try to claim the jobs it is running itself.

    arq leaves a running job in its queue until the job ends, and each poll and each wake-up tries to
    claim every due id it reads: four round trips (WATCH, EXISTS, ZSCORE, UNWATCH) to learn that a job
    running here runs. A bootstrap batch spent about 20 of its ~78 Valkey commands per agent on that.
    An id whose task here is not done is left out; one whose task has just ended goes on to the claim,
    where the queue decides as before.
    """

    async def start_jobs(self, job_ids: list[bytes]) -> None:
        """Claim and start the due ids, less those running here."""
        tasks = self.tasks
        await super().start_jobs([i for i in job_ids if (t := tasks.get(i.decode())) is None or t.done()])


def build_workers(settings: Settings, app: App, pools: Sequence[ArqRedis], *, reconcile: bool = False) -> list[Worker]:
    """The model-bound and the short worker, sharing one typed context over ``app``'s job parts.

    ``pools``: one open client per queue (``open_pools``), owned by the caller. ``reconcile``: also run
    the minute reconciler (``memoryd worker``; the short-lived workers of a command such as
    ``memoryd audit`` leave it to the long-running ones).
    """
    js = settings.jobs
    ctx = install({}, WorkerContext(app, app.jobs, js.model_job_timeout_seconds, js.short_job_timeout_seconds))
    workers: list[Worker] = []
    for queue, pool, concurrency, timeout in (
        (MODEL_QUEUE, pools[0], js.model_job_slots, js.model_job_timeout_seconds),
        (SHORT_QUEUE, pools[1], js.short_concurrency, js.short_job_timeout_seconds),
    ):
        functions = [
            func(coroutine, name=kind.value, timeout=timeout + _SLACK_SECONDS, max_tries=_UNBOUNDED_TRIES)
            for kind, coroutine in FUNCTIONS.items()
            if queue_of(kind) == queue
        ]
        crons = []
        if queue == SHORT_QUEUE and settings.audits.schedule:
            crons.append(cron(audit_tick, second=_TICK_SECONDS, unique=True, timeout=js.short_job_timeout_seconds))
        if queue == SHORT_QUEUE:  # the tick queues nothing while no tenant has a retention policy
            crons.append(cron(retention_tick, minute=17, second=0, unique=True, timeout=js.short_job_timeout_seconds))
            if reconcile:
                crons.append(cron(reconcile_tick, second=45, unique=True, timeout=js.short_job_timeout_seconds))
        workers.append(
            ClaimingWorker(
                functions=functions,
                cron_jobs=crons,
                queue_name=queue,
                redis_pool=pool,
                ctx=ctx,
                poll_delay=js.poll_seconds,
                max_jobs=concurrency,
                keep_result=0,
                handle_signals=False,
                job_serializer=dumps,
                job_deserializer=loads,
                log_results=False,
            )
        )
    return workers


@asynccontextmanager
async def running_workers(
    settings: Settings, app: App, *, enabled: bool = True, reconcile: bool = False
) -> AsyncIterator[list[asyncio.Task[None]]]:
    """Both workers polling in this event loop for the block's duration, then stopped cleanly.

    Yields the poll loops' tasks, so a caller can notice a loop that crashed (Redis gone).
    """
    async with open_pools(settings.redis.dsn if enabled else "") as pools:
        workers = build_workers(settings, app, pools, reconcile=reconcile) if enabled else []
        runs = [asyncio.create_task(w.async_run()) for w in workers]
        beat = asyncio.create_task(heartbeat(app, settings.jobs.worker_heartbeat_seconds)) if enabled else None
        wakes = asyncio.create_task(listen_for_wakes(pools[0], workers)) if enabled else None
        try:
            yield runs
        finally:
            for side in (beat, wakes):
                if side is not None:
                    side.cancel()
                    await asyncio.gather(side, return_exceptions=True)
            await close_workers(workers)
            for task in runs:
                task.cancel()
            results = await asyncio.gather(*runs, return_exceptions=True)
            for result in results:
                if isinstance(result, Exception):
                    raise result  # a crashed worker loop must not end quietly


@asynccontextmanager
async def open_pools(dsn: str) -> AsyncIterator[list[ArqRedis]]:
    """One arq client per queue (none without ``dsn``), opened before any worker task and always closed.

    arq's own lazy opening runs inside the worker's task: a block that ends while that task is still
    connecting cancels it half-way and leaves a connected client to the garbage collector.
    """
    pools: list[ArqRedis] = []
    try:
        for queue in _QUEUES if dsn else ():
            pools.append(await connect(dsn, queue))
        yield pools
    finally:
        for pool in pools:
            await pool.aclose()


async def heartbeat(app: App, seconds: float) -> None:
    """Renew this process's heartbeat three times per ``seconds``; once per ``seconds``, free dead workers' jobs.

    Every worker process scans: the freeing is idempotent (a second scan finds the message already
    delivered again), and the first worker up after a crash frees the jobs without waiting for a cron.
    A Redis error only skips a beat (Redis may be restarting); the arq loops notice a lost Redis themselves.
    """
    runner, service = app.jobs.runner, app.jobs.service
    name = f"worker:{runner.worker_id}"
    beats = 0
    while True:
        try:
            await runner.leases.lock(name, runner.worker_id, seconds)
            if beats % 3 == 2:
                freed = await service.reclaim_orphans(lambda w: runner.leases.is_held(f"worker:{w}"))
                if freed:
                    log.warning("freed the running jobs of a worker that died", extra={"jobs": freed})
        except MemorydError as exc:
            log.info("worker heartbeat skipped", extra={"error": str(exc)})
        beats += 1
        await asyncio.sleep(seconds / 3)


async def close_workers(workers: list[Worker]) -> None:
    """Stop the workers; jobs still running are cancelled and re-queued by arq (they re-run elsewhere).

    This is arq's ``Worker.close`` without its last step's flaw: ``close`` gathers the job
    tasks it has just cancelled and so raises CancelledError whenever a job was in flight,
    skipping the release of its Redis connections.
    """
    for worker in workers:
        worker.handle_sig(signal.SIGUSR1)  # arq: cancel the poll loop and running jobs (re-queued)
        await asyncio.gather(*worker.tasks.values(), return_exceptions=True)
        pool = worker._pool  # arq exposes no other way to reach it; open_pools closes it
        if pool is not None:
            worker._pool = None
            try:
                async with map_redis_errors():
                    await pool.delete(worker.health_check_key)
            except Unavailable as exc:  # Redis stopped first (one Ctrl-C stops `memoryd up` whole)
                log.warning("a worker's health check key was left; it expires on its own", extra={"error": str(exc)})
