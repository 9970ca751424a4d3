"""The daemon's background loops: steps run every few seconds, and the store's maintenance.

``build_app`` starts them and stops them at shutdown; a failing step is logged and retried next
time, never allowed to end its loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from memoryd.core.errors import Unavailable
from memoryd.runtime.allocator import release_free_memory
from memoryd.services.maintenance_loop import MaintenanceLoop

log = logging.getLogger(__name__)

Step = tuple[float, Callable[[], Awaitable[None]], str]
"""Every how many seconds, the step, its name (for the logs)."""


async def every(seconds: float, step: Callable[[], Awaitable[None]], name: str) -> None:
    """Run ``step`` forever, ``seconds`` apart; a failing step is logged and retried next time."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await step()
        except Exception:  # a background loop must survive any failure of one step
            log.exception("%s failed; retrying in %.0f s", name, seconds)


async def release_free_memory_step() -> None:
    """Give the C allocator's free pages back to the system, off the event loop."""
    await asyncio.to_thread(release_free_memory)


async def maintain_forever(
    maintenance: MaintenanceLoop, written_seconds: float, full_seconds: float, stop: asyncio.Event
) -> None:
    """Tables this process wrote, every few seconds; every table, every ``full_seconds`` (by the lease holder)."""
    loop = asyncio.get_running_loop()
    last_full = loop.time()
    try:
        while True:
            try:
                await asyncio.wait_for(stop.wait(), timeout=written_seconds)
                return  # stopping: no new pass
            except TimeoutError:
                pass
            full = loop.time() - last_full >= full_seconds
            try:
                ran = await maintenance.step(full=full)
            except Exception:  # a background loop must survive any failure of one pass (Redis down included)
                log.exception("store maintenance failed; retrying in %.0f s", written_seconds)
                ran = False
            if full and ran:
                last_full = loop.time()
    finally:
        try:
            await asyncio.shield(maintenance.release())
        except Unavailable as exc:  # Redis stopped first (one Ctrl-C stops `memoryd up` whole)
            log.warning("could not release the maintenance lease; it expires on its own", extra={"error": str(exc)})
        except Exception:  # the lease expires on its own
            log.warning("could not release the maintenance lease; it expires on its own", exc_info=True)


async def stop_upkeep(task: asyncio.Task[None] | None, stop: asyncio.Event, grace_seconds: float) -> None:
    """Let the maintenance loop finish its pass and give its lease back; cancel it only past the grace.

    Cancelling it mid-call would leave a lease call (or a Lance commit) half done.
    """
    if task is None:
        return
    stop.set()
    try:
        await asyncio.wait_for(task, timeout=grace_seconds)
    except TimeoutError:
        log.warning("store maintenance still running at shutdown; cancelled (its lease expires on its own)")
    except Exception:  # the loop logged its own failures; shutting down goes on
        log.warning("store maintenance ended with an error at shutdown", exc_info=True)
