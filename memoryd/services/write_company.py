"""WriteCompany: a tenant's next write group waits a moment for the callers its last group answered."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

_SHARED_WINDOW_SECONDS = 0.02
"""A group that starts this soon after a shared group (more than one call) ended is one of a series."""
_KEPT_TENANTS = 1024
"""Past this many tenants remembered, the ones whose window has passed are forgotten."""


class WriteCompany:
    """Per tenant, how many calls its last shared group held; the next group waits for as many, briefly.

    Concurrent writers each wait for their answer before they write again, so they all come back
    within a millisecond or two of their group's commit. The first one back found the lane idle and
    was taken alone: under eight writers over gRPC the groups alternated one call and seven, two
    embeddings and two commits where one of each would do. A group that starts right after a shared
    one now waits up to ``linger`` seconds, or until as many calls wait as that group held. A writer
    alone (its groups hold one call) never waits.
    """

    def __init__(self, linger: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._linger = linger
        self._gap = linger / 3
        """A wait also ends when no call arrived for this long: the writers are not coming back straight away
        (under a mixed load they ask a Recall next), and the group goes without them."""
        self._clock = clock
        self._last: dict[str, tuple[int, float]] = {}
        """Per tenant: the calls of its last shared group, and until when (clock) the next group waits for them."""
        self._gathering: dict[str, tuple[asyncio.Event, int]] = {}
        """Per tenant waiting now: the event that ends the wait, and how many calls end it."""

    def ended(self, tenant_id: str, calls: int, waiting: int) -> None:
        """A group of ``calls`` calls of the tenant is written; ``waiting`` calls wait for the next one.

        The next group waits for both: two groups that split the writers between them (one embedding
        while the other's callers come back) would otherwise go on alternating.
        """
        if calls < 2 or self._linger <= 0:
            self._last.pop(tenant_id, None)
            return
        now = self._clock()
        if len(self._last) >= _KEPT_TENANTS:
            self._last = {t: last for t, last in self._last.items() if last[1] > now}
        self._last[tenant_id] = (calls + waiting, now + _SHARED_WINDOW_SECONDS)

    def arrived(self, tenant_id: str, waiting: int) -> None:
        """A call of the tenant joined its queue, where ``waiting`` calls wait now."""
        gathering = self._gathering.get(tenant_id)
        if gathering is not None and waiting >= gathering[1]:
            gathering[0].set()

    async def gather(self, tenant_id: str, waiting: Callable[[], int]) -> None:
        """Return once ``waiting()`` reaches the calls of the tenant's last shared group, or after the linger.

        At once when the last group held one call, or ended more than a moment ago.
        """
        calls, until = self._last.pop(tenant_id, (0, 0.0))
        if waiting() >= calls or self._clock() > until:
            return
        loop = asyncio.get_running_loop()
        gathered = asyncio.Event()
        self._gathering[tenant_id] = (gathered, calls)
        deadline = loop.time() + self._linger
        try:
            while not gathered.is_set() and (left := deadline - loop.time()) > 0:
                arrived = waiting()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(gathered.wait(), min(left, self._gap))
                if waiting() == arrived:  # nobody came within the gap: the others are not on their way
                    return
        finally:
            if self._gathering.get(tenant_id, (None, 0))[0] is gathered:
                del self._gathering[tenant_id]
