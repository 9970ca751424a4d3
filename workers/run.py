"""``memoryd worker``: both arq workers in one process over one App, until SIGTERM/SIGINT.

On SIGTERM, running jobs are cancelled and re-queued by arq (they re-run
elsewhere; every job converges when re-run). At start, a worker with a model
configured re-queues the jobs parked in ``waiting_for_provider``.
"""

from __future__ import annotations

import asyncio
import logging
import signal

from memoryd.app import build_app
from memoryd.config import Settings
from memoryd.core.errors import NotReady
from workers.settings import running_workers

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
        async with running_workers(settings, app) as runs:
            log.info("memoryd worker running", extra={"model": settings.provider.extraction_model or None})
            stopped = asyncio.create_task(stop.wait())
            await asyncio.wait([stopped, *runs], return_when=asyncio.FIRST_COMPLETED)
            stopped.cancel()
