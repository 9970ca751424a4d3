"""MaintenanceLoop: store upkeep by one replica at a time, chosen through a lease."""

from __future__ import annotations

from memoryd.core.ports import Leases, StoreMaintenance

LEASE = "maintenance"
PAUSE = "maintenance:pause"
"""Held by an erasure: every replica's loop gives ``LEASE`` up and runs no pass meanwhile."""


class MaintenanceLoop:
    """Runs maintenance passes; with a shared Redis only the lease holder does.

    Every replica calls ``step`` on its own schedule; the holder renews the lease on each pass and
    the others skip theirs. A holder that dies stops renewing, so another replica takes over within
    ``lease_seconds``; one that shuts down releases the lease at once. Without Redis (one process)
    there is no lease and every pass runs. While anyone holds ``PAUSE`` (an erasure), the holder
    stops its index builds and gives the lease up, and no replica takes it.
    """

    def __init__(self, maintenance: StoreMaintenance, leases: Leases | None, holder: str, lease_seconds: float) -> None:
        self._maintenance = maintenance
        self._leases = leases
        self._holder = holder
        self._lease_seconds = lease_seconds
        self.holding = leases is None
        """Whether this process runs the passes now."""
        self.passes = 0

    async def step(self, *, full: bool) -> bool:
        """One pass if this process holds (or takes) the lease; whether it ran."""
        if self._leases is not None:
            if await self._leases.is_held(PAUSE):
                await self._give_up()
                return False
            self.holding = await self._leases.lock(LEASE, self._holder, self._lease_seconds)
            if not self.holding:
                return False
        await self._maintenance.maintain(full=full)
        self.passes += 1
        return True

    async def _give_up(self) -> None:
        if self.holding and self._leases is not None:
            await self._maintenance.close()  # the index builds: their files must not land during the pause
            await self._leases.unlock(LEASE, self._holder)
            self.holding = False

    async def release(self) -> None:
        """Give the lease up (shutdown), so another replica takes over without waiting for it to expire."""
        if self._leases is not None and self.holding:
            await self._leases.unlock(LEASE, self._holder)
            self.holding = False
