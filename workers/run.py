"""``memoryd worker``: both arq workers in one process over one App, until SIGTERM/SIGINT.

On SIGTERM, running jobs are cancelled and re-queued by arq (they re-run
elsewhere; every job converges when re-run). At start, a worker with a model
configured re-queues the jobs parked in ``waiting_for_provider``.
"""

from __future__ import annotations

import asyncio
import logging
import signal

from memoryd.app import App, build_app
from memoryd.config import Settings
from memoryd.core.errors import MemorydError, NotReady
from memoryd.runtime.heap import settled_heap
from memoryd.workers.settings import running_workers

log = logging.getLogger(__name__)


async def run_workers(settings: Settings, stop: asyncio.Event | None = None) -> None:
    """Run until ``stop`` is set (or a signal arrives when ``stop`` is None)."""
    if not settings.redis.dsn:
        raise NotReady("memoryd worker needs a Redis/Valkey: set REDIS_URL (or use `memoryd up`)")
    if stop is None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
    async with build_app(settings.without_maintenance()) as app:
        if settings.provider.configured:
            resumed = await app.jobs.service.resume_waiting()
            if resumed:
                log.info("re-queued jobs that were waiting for a provider", extra={"jobs": resumed})
        gauges = asyncio.create_task(_serve_job_metrics(app)) if settings.metrics.enabled else None
        async with running_workers(settings, app, reconcile=True) as runs:
            log.info("memoryd worker running", extra={"model": settings.provider.extraction_model or None})
            stopped = asyncio.create_task(stop.wait())
            with settled_heap():
                await asyncio.wait([stopped, *runs], return_when=asyncio.FIRST_COMPLETED)
            stopped.cancel()
        if gauges is not None:
            gauges.cancel()


async def refresh_job_metrics(app: App) -> None:
    """Read the job gauges once: live jobs by kind and state, each queue's backlog, the breaker."""
    jobs = app.jobs
    counts = await jobs.service.live_counts()
    backlog = await jobs.service.backlog()
    breaker_open = await jobs.runner.gate.observed_open_for() > 0
    app.metrics.jobs({(k.value, s.value): n for (k, s), n in counts.items()}, backlog, breaker_open)


async def _serve_job_metrics(app: App) -> None:
    """``/metrics`` on ``metrics.worker_port``, its job gauges refreshed every ``metrics.refresh_seconds``."""
    m = app.settings.metrics
    try:
        app.metrics.serve(m.host, m.worker_port)
    except OSError as exc:  # metrics must never stop the jobs
        log.error("metrics endpoint not started", extra={"address": f"{m.host}:{m.worker_port}", "error": str(exc)})
    while True:
        try:
            await refresh_job_metrics(app)
        except MemorydError as exc:
            log.warning("job metrics not refreshed", extra={"error": str(exc)})
        await asyncio.sleep(m.refresh_seconds)
