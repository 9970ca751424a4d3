"""RetrievalLog: records which memories Recall returned, without slowing Recall down."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from memoryd.core.ports import Clock, MemoryStore


class RetrievalLog:
    """A write-behind buffer of retrieval counts, flushed in batches.

    ``note`` is a dictionary update on the request path; ``flush`` (run by the
    composition root every few seconds and at shutdown) writes one batched
    update per tenant. The counts are shown, never used for ranking. A crash
    loses at most one interval of counts, which is acceptable for a statistic.
    """

    def __init__(self, store: MemoryStore, clock: Clock) -> None:
        self._store = store
        self._clock = clock
        self._pending: dict[str, Counter[str]] = {}

    def note(self, tenant_id: str, memory_ids: Iterable[str]) -> None:
        """Count one retrieval of each id (cheap, synchronous)."""
        self._pending.setdefault(tenant_id, Counter()).update(memory_ids)

    @property
    def pending(self) -> int:
        """Number of distinct (tenant, memory) counts waiting to be written."""
        return sum(len(c) for c in self._pending.values())

    async def flush(self) -> None:
        """Write the buffered counts; on failure they are put back for the next flush."""
        batch, self._pending = self._pending, {}
        at = self._clock.now()
        for tenant_id, counts in batch.items():
            try:
                await self._store.record_retrievals(tenant_id, dict(counts), at)
            except BaseException:
                self._pending.setdefault(tenant_id, Counter()).update(counts)
                raise
