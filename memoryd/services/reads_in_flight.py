"""ReadsInFlight: the Recalls running in this process, so that writes can give them the CPU first."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator


class ReadsInFlight:
    """Counts Recalls under way; ``pause`` waits for a moment without any, for at most ``max_wait`` seconds.

    With the local model, a write's group and a Recall's query are inferences on the same cores. A
    Recall is an agent waiting before its next turn; a write's answer can come a little later, and a
    group that waits gathers the calls arriving meanwhile (one embedding batch, one commit). Under 16
    mixed clients on two cores, writes that waited up to 100 ms for the reads in flight brought Recall's
    p50 / p99 from 111 / 220 to 68 / 150 ms (``docs/benchmarks.md``, session 24); 250 ms lost throughput.
    A write never waits longer than ``max_wait``: a steady stream of reads cannot starve the writes.
    """

    def __init__(self, max_wait: float) -> None:
        self._max_wait = max_wait
        self._count = 0
        self._waiters: list[asyncio.Future[None]] = []
        """Pauses waiting for the count to reach zero (each on its own loop's future)."""

    @property
    def count(self) -> int:
        """Reads under way now."""
        return self._count

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Around one read."""
        self._count += 1
        try:
            yield
        finally:
            self._count -= 1
            if not self._count:
                waiters, self._waiters = self._waiters, []
                for waiter in waiters:
                    if not waiter.done():
                        waiter.set_result(None)

    async def pause(self) -> None:
        """Return when no read is under way, or after ``max_wait`` seconds (at once when either holds now)."""
        if not self._count or self._max_wait <= 0:
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiter, self._max_wait)
        finally:
            if waiter in self._waiters:
                self._waiters.remove(waiter)
