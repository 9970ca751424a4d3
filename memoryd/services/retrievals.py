"""RetrievalLog: records which memories Recall returned, without slowing Recall down."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterable

from memoryd.core.ports import Clock, RetrievalStats


class RetrievalLog:
    """A write-behind buffer of retrieval counts, flushed in batches.

    ``note`` is a dictionary update on the request path; ``flush`` (run by the
    composition root every few seconds and at shutdown) writes one batched
    update per tenant. The counts are shown, never used for ranking. A crash
    loses at most one interval of counts, which is acceptable for a statistic.
    """

    def __init__(self, store: RetrievalStats, clock: Clock) -> None:
        self._store = store
        self._clock = clock
        self._pending: dict[tuple[str, bool], Counter[str]] = {}
        # One flush at a time: a flush that found the buffer already taken by the periodic one
        # would return before those counts were written (a read right after it saw them missing).
        self._flushing = asyncio.Lock()

    def note(self, tenant_id: str, memory_ids: Iterable[str], *, injected: bool = False) -> None:
        """Count one retrieval of each id (cheap, synchronous).

        ``injected``: GetContext's auto-recall put them in a context, nobody asked for them; counted
        apart, so "never retrieved" and concentration describe what callers actually recalled.
        """
        self._pending.setdefault((tenant_id, injected), Counter()).update(memory_ids)

    @property
    def pending(self) -> int:
        """Number of distinct (tenant, memory, kind) counts waiting to be written."""
        return sum(len(c) for c in self._pending.values())

    async def flush(self) -> None:
        """Write the buffered counts: when it returns, every count noted before the call is written.

        A flush already under way is waited for first. On failure the counts are put back for the
        next flush.
        """
        async with self._flushing:
            batch, self._pending = self._pending, {}
            at = self._clock.now()
            for tenant_id in sorted({t for t, _ in batch}):
                recalled = batch.get((tenant_id, False), Counter())
                injected = batch.get((tenant_id, True), Counter())
                try:
                    await self._store.record_retrievals(tenant_id, dict(recalled), dict(injected), at)
                except BaseException:
                    self._pending.setdefault((tenant_id, False), Counter()).update(recalled)
                    self._pending.setdefault((tenant_id, True), Counter()).update(injected)
                    raise
