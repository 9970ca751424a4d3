"""MemorizeService: validated, deduplicated, durable writes to the archive."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from memoryd.core.audit_log import Operation
from memoryd.core.dedup import DEDUP_POOL, merge_into
from memoryd.core.errors import AlreadyExists, Conflict, InvalidRequest, PermissionDenied
from memoryd.core.ids import content_hash, new_memory_id
from memoryd.core.models import (
    DEFAULT_DECAY,
    DEFAULT_SALIENCE,
    Actor,
    MemorizeResult,
    MemoryDraft,
    MemoryFilter,
    MemoryRecord,
)
from memoryd.core.ports import Clock, Embedder, MemoryStore
from memoryd.core.restatement import is_restatement
from memoryd.core.validation import Limits, check_actor, check_draft, check_request_id
from memoryd.core.vectors import cosine, normalised
from memoryd.core.visibility import scope_refusal
from memoryd.services.audit_trail import AuditTrail
from memoryd.services.pii_floor import PiiFloor

_CANDIDATES = 5
"""Nearest stored memories checked for a restatement (the nearest may differ in a fact, the next not)."""
_DEDUP_CONCURRENCY = 8


class MemorizeService:
    """Writes memories: validate, embed, deduplicate, insert durably."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        clock: Clock,
        limits: Limits,
        dedup_distance: float,
        request_ttl: timedelta = timedelta(hours=24),
        *,
        trail: AuditTrail,
        pii: PiiFloor,
    ) -> None:
        self._store = store
        self._trail = trail
        self._pii = pii
        self._request_ttl = request_ttl
        self._embedder = embedder
        self._clock = clock
        self._limits = limits
        self._min_similarity = 1.0 - dedup_distance
        # Dedup is check-then-write: serialise it per tenant inside this process
        # so two concurrent Memorize calls of the same text cannot both insert.
        self._locks: dict[str, asyncio.Lock] = {}

    @property
    def max_tags(self) -> int:
        """Tags a memory may carry (a merge of tags is cut to it)."""
        return self._limits.max_tags

    async def memorize(self, actor: Actor, draft: MemoryDraft, request_id: str = "") -> MemorizeResult:
        """Store one memory, or merge it into a stored restatement (``core.dedup``, ``core.restatement``).

        Returns once the row is durable.
        """
        results = await self.memorize_batch(
            actor, [draft], skip_deduplication=False, field="memory", request_id=request_id
        )
        return results[0]

    async def memorize_batch(
        self,
        actor: Actor,
        drafts: Sequence[MemoryDraft],
        skip_deduplication: bool,
        field: str = "items",
        request_id: str = "",
        *,
        derived: bool = False,
    ) -> list[MemorizeResult]:
        """Store many memories for one agent; validation is all-or-nothing.

        Args:
            actor: the author.
            drafts: 1..max_batch_items memories.
            skip_deduplication: store every item as given (raw transcript import).
            field: the request field name used in error messages.
            request_id: the caller's idempotency key: a retry within the request TTL returns the rows the
                first call stored instead of storing them again (the key travels on the rows, so it commits
                with them).
            derived: memoryd produced these texts (summaries, extractions, merges): always redacted
                (``PiiFloor``); otherwise the tenant's PII policy applies to the caller's text.

        """
        check_actor(actor)
        if not 1 <= len(drafts) <= self._limits.max_batch_items:
            raise InvalidRequest(field, f"must hold 1 to {self._limits.max_batch_items} items, got {len(drafts)}")
        now = self._clock.now()
        single = field == "memory"
        checked = [
            check_draft(d, actor, self._limits, now, field if single else f"{field}[{i}]") for i, d in enumerate(drafts)
        ]
        checked = [
            self._floored(actor, d, derived, field if single else f"{field}[{i}]") for i, d in enumerate(checked)
        ]
        refusal = next((scope_refusal(actor, d.scope) for d in checked if scope_refusal(actor, d.scope)), "")
        if refusal:
            raise PermissionDenied(refusal)
        keys = (
            [f"{actor.agent_id}/{check_request_id(request_id)}/{i}" for i in range(len(drafts))] if request_id else []
        )
        vectors = await self._vectors(checked, field, single)
        async with self._locks.setdefault(actor.tenant_id, asyncio.Lock()):
            earlier = await self._earlier_attempt(actor, request_id, keys, checked)
            results = await self._write(actor, checked, vectors, skip_deduplication, keys, earlier)
        self._trail.note(
            actor,
            Operation.MEMORIZE,
            [r.memory.memory_id for r in results],
            [r.memory.scope.value for r in results],
            {"deduplicated": sum(r.deduplicated for r in results)},
        )
        return results

    def _floored(self, actor: Actor, draft: MemoryDraft, derived: bool, field: str) -> MemoryDraft:
        """The draft with its content through the PII floor."""
        if derived:
            content = self._pii.derived(draft.content)
        else:
            content = self._pii.direct(actor.tenant_id, draft.content, f"{field}.content")
        return draft if content == draft.content else replace(draft, content=content)

    async def _earlier_attempt(
        self, actor: Actor, request_id: str, keys: Sequence[str], drafts: Sequence[MemoryDraft]
    ) -> dict[int, MemoryRecord]:
        """Rows an earlier call with this request_id stored, by item index (AlreadyExists if it asked otherwise)."""
        if not keys:
            return {}
        found = await self._store.by_request_keys(actor, keys, self._clock.now() - self._request_ttl)
        earlier = {i: found[key] for i, key in enumerate(keys) if key in found}
        for i, record in earlier.items():
            if record.content_hash != content_hash(drafts[i].content):
                raise AlreadyExists(
                    f"request_id {request_id!r} was used for a different request "
                    f"(item {i} differs); use a new request_id for a new request"
                )
        return earlier

    async def _vectors(self, drafts: Sequence[MemoryDraft], field: str, single: bool) -> list[list[float]]:
        dim = self._embedder.dimension
        given = {
            i: normalised(d.embedding, dim, f"{field}.embedding" if single else f"{field}[{i}].embedding")
            for i, d in enumerate(drafts)
            if d.embedding
        }
        missing = [i for i in range(len(drafts)) if i not in given]
        if missing:
            embedded = await self._embedder.embed([drafts[i].content for i in missing])
            given.update(zip(missing, embedded, strict=True))
        return [given[i] for i in range(len(drafts))]

    async def _write(
        self,
        actor: Actor,
        drafts: Sequence[MemoryDraft],
        vectors: Sequence[list[float]],
        skip_deduplication: bool,
        keys: Sequence[str],
        earlier: dict[int, MemoryRecord],
    ) -> list[MemorizeResult]:
        # Ids sort by creation time; sorting the batch's ids keeps request order
        # when several are minted in the same millisecond (ListMemories pages by id).
        now = self._clock.now()
        ids = iter(sorted(new_memory_id(int(now.timestamp() * 1000), secrets.randbits(74)) for _ in drafts))
        candidates: list[list[MemoryRecord]] = [[] for _ in drafts]
        if not skip_deduplication:  # the store lookups are independent: run them concurrently
            limit = asyncio.Semaphore(_DEDUP_CONCURRENCY)

            async def lookup(i: int) -> list[MemoryRecord]:
                if i in earlier:  # no lookup for the items a previous attempt stored
                    return []
                async with limit:
                    return await self._stored_restatements(actor, drafts[i], vectors[i])

            candidates = list(await asyncio.gather(*(lookup(i) for i in range(len(drafts)))))
        stored: dict[str, MemoryRecord] = {}  # stored twins as merged so far, by id
        new_rows: list[tuple[MemoryRecord, list[float]]] = []
        outcome: list[tuple[str, bool]] = []  # (memory id, deduplicated) per draft
        for i, (draft, vector, found) in enumerate(zip(drafts, vectors, candidates, strict=True)):
            if i in earlier:  # a retry: the first attempt's row is the result, as it was then
                stored.setdefault(earlier[i].memory_id, earlier[i])
                outcome.append((earlier[i].memory_id, False))
                continue
            twin = None if skip_deduplication else self._stored_twin(actor, draft, found, stored, now)
            if twin is not None:
                stored[twin.memory_id] = twin
                outcome.append((twin.memory_id, True))
                continue
            at = None if skip_deduplication else self._batch_twin(actor, draft, vector, new_rows, now)
            if at is not None:  # an earlier item of this batch: merged before anything is written
                outcome.append((new_rows[at][0].memory_id, True))
                continue
            record = self._new_record(actor, draft, next(ids), keys[i] if keys else "")
            new_rows.append((record, vector))
            outcome.append((record.memory_id, False))
        if new_rows:
            await self._store.insert(actor.tenant_id, new_rows)
        as_found = {r.memory_id: r for found in candidates for r in found} | {r.memory_id: r for r in earlier.values()}
        for memory_id, merged in stored.items():
            # A merge that changes nothing writes nothing. A twin forgotten meanwhile (another process)
            # fails the call: the new rows are durable, and the retry merges into them instead.
            if merged != as_found[memory_id] and not await self._store.replace(actor, merged, None):
                raise Conflict(f"memory {memory_id!r} changed while this write merged into it; retry the call")
        rows = {r.memory_id: r for r, _ in new_rows} | stored
        return [MemorizeResult(rows[m], deduplicated=d) for m, d in outcome]

    async def _stored_restatements(self, actor: Actor, draft: MemoryDraft, vector: list[float]) -> list[MemoryRecord]:
        """Visible memories of the draft's pool near its vector whose text it restates, nearest first."""
        hits = await self._store.nearest(
            actor, vector, MemoryFilter(scopes=DEDUP_POOL[draft.scope]), _CANDIDATES, self._min_similarity
        )
        if not hits:
            return []
        records = await self._store.get_many(actor, [h.memory_id for h in hits], with_retrievals=False)
        return [
            records[h.memory_id]
            for h in hits
            if h.memory_id in records and is_restatement(draft.content, records[h.memory_id].content)
        ]

    def _stored_twin(
        self,
        actor: Actor,
        draft: MemoryDraft,
        found: Sequence[MemoryRecord],
        merged: dict[str, MemoryRecord],
        now: datetime,
    ) -> MemoryRecord | None:
        """The first stored restatement the draft may merge into, after the merge."""
        for record in found:
            result = merge_into(merged.get(record.memory_id, record), draft, actor, now, self._limits.max_tags)
            if result is not None:
                return result
        return None

    def _batch_twin(
        self,
        actor: Actor,
        draft: MemoryDraft,
        vector: list[float],
        earlier: list[tuple[MemoryRecord, list[float]]],
        now: datetime,
    ) -> int | None:
        """Merge into an earlier new row of the batch that the draft restates; its index, or None."""
        for at, (record, other) in enumerate(earlier):
            if cosine(vector, other) >= self._min_similarity and is_restatement(draft.content, record.content):
                result = merge_into(record, draft, actor, now, self._limits.max_tags)
                if result is not None:
                    earlier[at] = (replace(result, updated_at=record.updated_at), other)
                    return at
        return None

    def _new_record(self, actor: Actor, draft: MemoryDraft, memory_id: str, request_key: str) -> MemoryRecord:
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
            request_key=request_key,
        )
