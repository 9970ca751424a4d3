"""The daemon's event loop polls a moment for the next call before it sleeps.

A thread that sleeps in epoll between two calls pays for it on the next one: the wake-up, and on a
virtual machine a vCPU whose caches went cold meanwhile. On the 2-core VM of ``docs/benchmarks.md``
(session 35) back-to-back Recalls of 1,000 visible rows took 2.0 ms p50 over gRPC and a health check
0.65 ms; with the loop polling 300 µs after its last event, 1.65 and 0.40.

The loop polls only while no call is in flight and no work handed to a thread is under way: a call
waiting on the model or LanceDB, and the maintenance's copy reloads, keep the cores and the GIL (a
polling loop takes the GIL back after each poll, and one writer lost 5 % of its calls/s beside the
maintenance before this second condition). An idle daemon polls once per timer.
"""

from __future__ import annotations

import asyncio
import selectors
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any


class PollingSelector(selectors.DefaultSelector):  # an alias of the platform's best selector
    """The platform's selector, made to poll for up to ``poll_seconds`` before a wait that may sleep."""

    def __init__(self, poll_seconds: float, quiet: Callable[[], bool]) -> None:
        super().__init__()
        self._poll = poll_seconds
        self._quiet = quiet

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        """Events ready now, within the poll, or (after it) within what remains of ``timeout``."""
        if (timeout is not None and timeout <= 0) or not self._quiet():
            return self._wait(timeout)
        started = time.monotonic()
        budget = self._poll if timeout is None else min(self._poll, timeout)
        while not (ready := self._wait(0)):
            spent = time.monotonic() - started
            if spent >= budget:
                return self._wait(None if timeout is None else max(0.0, timeout - spent))
        return ready

    def _wait(self, timeout: float | None) -> list[tuple[selectors.SelectorKey, int]]:
        ready: list[tuple[selectors.SelectorKey, int]] = super().select(timeout)
        return ready


class CountedExecutor(ThreadPoolExecutor):
    """asyncio's default executor (``to_thread``), counting the work submitted and not yet done."""

    def __init__(self) -> None:
        super().__init__(thread_name_prefix="asyncio")
        self._pending = 0
        self._lock = threading.Lock()

    def idle(self) -> bool:
        """Whether no work is queued or running."""
        return self._pending == 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """``ThreadPoolExecutor.submit``, counted until the work is done."""
        with self._lock:
            self._pending += 1
        try:
            future = super().submit(fn, *args, **kwargs)
        except BaseException:
            self._done(None)
            raise
        future.add_done_callback(self._done)
        return future

    def _done(self, _: object) -> None:
        with self._lock:
            self._pending -= 1


def event_loop_factory(
    poll_microseconds: int, calls_quiet: Callable[[], bool]
) -> Callable[[], asyncio.AbstractEventLoop]:
    """A factory of event loops that poll ``poll_microseconds`` (0: asyncio's own loops).

    They poll while ``calls_quiet()`` and their default executor is idle.
    """
    if poll_microseconds <= 0:
        return asyncio.new_event_loop

    def polling_loop() -> asyncio.AbstractEventLoop:
        work = CountedExecutor()

        def quiet() -> bool:
            return calls_quiet() and work.idle()

        loop = asyncio.SelectorEventLoop(PollingSelector(poll_microseconds / 1e6, quiet))
        loop.set_default_executor(work)
        return loop

    return polling_loop
