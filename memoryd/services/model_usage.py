"""ModelUsageLog: each tenant's model calls and tokens per model per day, counted behind the jobs' calls.

Every model call a job makes is told to the job runner's observer; this log adds it to the tenant's
day (``ModelUsageStore``) without holding the job up: a count that cannot be written (Redis down)
is logged and dropped, never a job's failure. Operators read it back with ``GetModelUsage``.
"""

from __future__ import annotations

import asyncio
import logging

from memoryd.core.errors import Unavailable
from memoryd.core.model_usage import MAX_DAYS, ModelUsage, days_back
from memoryd.core.ports import Clock, ModelUsageStore
from memoryd.core.validation import check_range, check_tenant

log = logging.getLogger(__name__)


class ModelUsageLog:
    """The tally of the model calls of one process's jobs, and its report."""

    def __init__(self, store: ModelUsageStore, clock: Clock) -> None:
        self._store = store
        self._clock = clock
        self._pending: set[asyncio.Future[None]] = set()

    def observe(self, tenant_id: str, model: str, outcome: str, tokens_in: int, tokens_out: int) -> None:
        """One model call (the job runner's observer): counted to the tenant's day in the background."""
        usage = (1, 0 if outcome == "ok" else 1, tokens_in, tokens_out)
        added = asyncio.ensure_future(self._add(tenant_id, model, usage))
        self._pending.add(added)
        added.add_done_callback(self._pending.discard)

    async def _add(self, tenant_id: str, model: str, usage: tuple[int, int, int, int]) -> None:
        try:
            await self._store.add(tenant_id, self._clock.now().date(), model, usage)
        except Unavailable as exc:  # accounting must not fail a job: this call goes uncounted
            log.warning("a model call was not counted", extra={"tenant": tenant_id, "error": str(exc)})

    async def flush(self) -> None:
        """Wait for the counts under way (tests; a worker's shutdown)."""
        await asyncio.gather(*self._pending)

    async def report(self, tenant_id: str, days: int) -> list[ModelUsage]:
        """The tenant's usage over the last ``days`` UTC days (today included), by day then model."""
        check_tenant(tenant_id)
        check_range(days, "days", 1, MAX_DAYS)
        return await self._store.days(tenant_id, days_back(self._clock.now(), days))
