"""EmbeddingBackfill: embeds the memories stored while the embedder was unreachable."""

from __future__ import annotations

import logging

from memoryd.core.errors import Unavailable
from memoryd.core.ports import AgentDirectory, Embedder, PendingEmbeddings

log = logging.getLogger(__name__)

BATCH = 64
"""Memories embedded per model call (and per commit)."""


class EmbeddingBackfill:
    """Embeds pending memories of the tenants that have some; stops while the embedder is down.

    It looks only where pending rows can be: the tenants ``note``d by this process's writes since the
    last pass, and — on the first pass only — every tenant (rows left pending by a process that
    stopped). No pass scans the store when nothing was written during an outage. Safe from several
    processes at once: a vector is stored only over a row still pending with the same text, so two
    passes converge and an edit made meanwhile (which embeds itself) wins.
    """

    def __init__(self, store: PendingEmbeddings, directory: AgentDirectory, embedder: Embedder) -> None:
        self._store = store
        self._directory = directory
        self._embedder = embedder
        self._noted: set[str] = set()
        self._first = True
        self.pending = 0
        """Memories still pending after the last pass, in the tenants it looked at (a gauge)."""

    def note(self, tenant_id: str) -> None:
        """A write stored rows of this tenant with their embedding pending."""
        self._noted.add(tenant_id)

    async def run_once(self) -> int:
        """Embed what is pending; the number of memories filled. An unreachable embedder ends the pass early."""
        tenants, self._noted = set(self._noted), set()
        if self._first:
            tenants |= {tenant for tenant, _ in await self._directory.agents()}
            self._first = False
        filled, left = 0, 0
        order = sorted(tenants)
        for at, tenant_id in enumerate(order):
            try:
                done, remaining = await self._fill_tenant(tenant_id)
            except Unavailable as exc:
                log.warning("embedder still unreachable; pending embeddings wait", extra={"error": str(exc)})
                self._noted.update(order[at:])  # looked at again on the next pass
                for rest in order[at:]:
                    left += (await self._store.pending_embeddings(rest, 0))[1]
                break
            filled, left = filled + done, left + remaining
        self.pending = left
        return filled

    async def _fill_tenant(self, tenant_id: str) -> tuple[int, int]:
        filled = 0
        while True:
            rows, total = await self._store.pending_embeddings(tenant_id, BATCH)
            if not rows:
                return filled, total
            vectors = await self._embedder.embed([r.content for r in rows])
            model = self._embedder.model_name
            done = await self._store.fill_embeddings(tenant_id, list(zip(rows, vectors, strict=True)), model)
            filled += done
            if done == 0:  # every row changed meanwhile: nothing more this pass (no busy loop)
                return filled, total
