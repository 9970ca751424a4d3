"""MemorizeService: validated, deduplicated, durable writes to the archive."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Sequence
from dataclasses import replace

from memoryd.core.errors import InvalidRequest
from memoryd.core.ids import content_hash, new_memory_id
from memoryd.core.models import (
    DEFAULT_DECAY,
    DEFAULT_SALIENCE,
    Actor,
    MemorizeResult,
    MemoryDraft,
    MemoryFilter,
    MemoryRecord,
    Scope,
)
from memoryd.core.ports import Clock, Embedder, MemoryStore
from memoryd.core.validation import Limits, check_actor, check_draft
from memoryd.core.vectors import cosine, normalised

# Which scopes a new memory is deduplicated against: private and shared memories
# form one pool (an agent should not keep a private copy of a shared fact);
# tenant and end_user memories only against their own scope.
_DEDUP_POOL = {
    Scope.PRIVATE: frozenset({Scope.PRIVATE, Scope.SHARED}),
    Scope.SHARED: frozenset({Scope.PRIVATE, Scope.SHARED}),
    Scope.TENANT: frozenset({Scope.TENANT}),
    Scope.END_USER: frozenset({Scope.END_USER}),
}


_DEDUP_CONCURRENCY = 8


class MemorizeService:
    """Writes memories: validate, embed, deduplicate, insert durably."""

    def __init__(self, store: MemoryStore, embedder: Embedder, clock: Clock, limits: Limits,
                 dedup_distance: float) -> None:
        self._store = store
        self._embedder = embedder
        self._clock = clock
        self._limits = limits
        self._min_similarity = 1.0 - dedup_distance
        # Dedup is check-then-write: serialise it per tenant inside this process
        # so two concurrent Memorize calls of the same text cannot both insert.
        self._locks: dict[str, asyncio.Lock] = {}

    async def memorize(self, actor: Actor, draft: MemoryDraft) -> MemorizeResult:
        """Store one memory, or merge it into a near-duplicate the author can see.

        Returns once the row is durable.
        """
        results = await self.memorize_batch(actor, [draft], skip_deduplication=False, field="memory")
        return results[0]

    async def memorize_batch(self, actor: Actor, drafts: Sequence[MemoryDraft], skip_deduplication: bool,
                             field: str = "items") -> list[MemorizeResult]:
        """Store many memories for one agent; validation is all-or-nothing.

        Args:
            actor: the author.
            drafts: 1..max_batch_items memories.
            skip_deduplication: store every item as given (raw transcript import).
            field: the request field name used in error messages.

        """
        check_actor(actor)
        if not 1 <= len(drafts) <= self._limits.max_batch_items:
            raise InvalidRequest(field, f"must hold 1 to {self._limits.max_batch_items} items, got {len(drafts)}")
        now = self._clock.now()
        single = field == "memory"
        checked = [check_draft(d, actor, self._limits, now, field if single else f"{field}[{i}]")
                   for i, d in enumerate(drafts)]
        vectors = await self._vectors(checked, field, single)
        async with self._locks.setdefault(actor.tenant_id, asyncio.Lock()):
            return await self._write(actor, checked, vectors, skip_deduplication)

    async def _vectors(self, drafts: Sequence[MemoryDraft], field: str, single: bool) -> list[list[float]]:
        dim = self._embedder.dimension
        given = {i: normalised(d.embedding, dim, f"{field}.embedding" if single else f"{field}[{i}].embedding")
                 for i, d in enumerate(drafts) if d.embedding}
        missing = [i for i in range(len(drafts)) if i not in given]
        if missing:
            embedded = await self._embedder.embed([drafts[i].content for i in missing])
            given.update(zip(missing, embedded, strict=True))
        return [given[i] for i in range(len(drafts))]

    async def _write(self, actor: Actor, drafts: Sequence[MemoryDraft], vectors: Sequence[list[float]],
                     skip_deduplication: bool) -> list[MemorizeResult]:
        # Ids sort by creation time; sorting the batch's ids keeps request order
        # when several are minted in the same millisecond (ListMemories pages by id).
        at = self._clock.now()
        ids = iter(sorted(new_memory_id(int(at.timestamp() * 1000), secrets.randbits(74)) for _ in drafts))
        results: list[MemorizeResult | None] = [None] * len(drafts)
        new_rows: list[tuple[MemoryRecord, list[float]]] = []
        twins: list[MemoryRecord | None] = [None] * len(drafts)
        if not skip_deduplication:  # the store lookups are independent: run them concurrently
            limit = asyncio.Semaphore(_DEDUP_CONCURRENCY)

            async def lookup(draft: MemoryDraft, vector: list[float]) -> MemoryRecord | None:
                async with limit:
                    return await self._existing_twin(actor, draft, vector)

            twins = list(await asyncio.gather(*(lookup(d, v) for d, v in zip(drafts, vectors, strict=True))))
        for i, (draft, vector) in enumerate(zip(drafts, vectors, strict=True)):
            if not skip_deduplication:
                twin = twins[i]
                if twin is None:
                    twin = _batch_twin(draft, vector, new_rows, self._min_similarity)
                if twin is not None:
                    results[i] = MemorizeResult(twin, deduplicated=True)
                    continue
            record = self._new_record(actor, draft, next(ids))
            new_rows.append((record, vector))
            results[i] = MemorizeResult(record, deduplicated=False)
        if new_rows:
            await self._store.insert(actor.tenant_id, new_rows)
        return await self._merge_duplicates(actor, drafts, results)

    async def _existing_twin(self, actor: Actor, draft: MemoryDraft, vector: list[float]) -> MemoryRecord | None:
        pool = MemoryFilter(scopes=_DEDUP_POOL[draft.scope])
        hits = await self._store.nearest(actor, vector, pool, 1, self._min_similarity)
        return await self._store.get(actor, hits[0].memory_id) if hits else None

    async def _merge_duplicates(self, actor: Actor, drafts: Sequence[MemoryDraft],
                                results: list[MemorizeResult | None]) -> list[MemorizeResult]:
        merged: dict[str, MemoryRecord] = {}
        out: list[MemorizeResult] = []
        for draft, result in zip(drafts, results, strict=True):
            assert result is not None
            if not result.deduplicated:
                out.append(result)
                continue
            current = merged.get(result.memory.memory_id, result.memory)
            tags = tuple(dict.fromkeys((*current.tags, *draft.tags)))[: self._limits.max_tags]
            updated = replace(current, tags=tags, updated_at=self._clock.now())
            if await self._store.replace(actor, updated, None):
                merged[updated.memory_id] = updated
            out.append(MemorizeResult(merged.get(updated.memory_id, current), deduplicated=True))
        return out

    def _new_record(self, actor: Actor, draft: MemoryDraft, memory_id: str) -> MemoryRecord:
        at = self._clock.now()
        return MemoryRecord(
            memory_id=memory_id,
            tenant_id=actor.tenant_id,
            agent_id=actor.agent_id,
            end_user_id=actor.end_user_id,
            scope=draft.scope,
            content=draft.content,
            memory_type=draft.memory_type,
            category=draft.category,
            subject=draft.subject,
            tags=draft.tags,
            salience=DEFAULT_SALIENCE[draft.memory_type] if draft.salience is None else draft.salience,
            decay_factor=DEFAULT_DECAY[draft.memory_type] if draft.decay_factor is None else draft.decay_factor,
            source_context=draft.source_context,
            source_id=draft.source_id,
            content_hash=content_hash(draft.content),
            embedding_model=self._embedder.model_name,
            created_at=at,
            updated_at=at,
            occurred_at=draft.occurred_at or at,
        )


def _batch_twin(draft: MemoryDraft, vector: list[float], earlier: Sequence[tuple[MemoryRecord, list[float]]],
                min_similarity: float) -> MemoryRecord | None:
    """An earlier item of the same batch that this one duplicates (same dedup pool)."""
    pool = _DEDUP_POOL[draft.scope]
    for record, other in earlier:
        if record.scope in pool and cosine(vector, other) >= min_similarity:
            return record
    return None
