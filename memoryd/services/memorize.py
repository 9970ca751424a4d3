"""MemorizeService: validated, deduplicated, durable writes to the archive."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from memoryd.core.dedup import DEDUP_POOL, merge_into
from memoryd.core.errors import (
    AlreadyExists,
    Conflict,
    InvalidRequest,
    MemorydError,
    NotFound,
    PermissionDenied,
    Unavailable,
)
from memoryd.core.event_log import Operation
from memoryd.core.ids import content_hash, new_memory_id
from memoryd.core.models import (
    DEFAULT_DECAY,
    DEFAULT_SALIENCE,
    PENDING_MODEL,
    Actor,
    MemorizeResult,
    MemoryDraft,
    MemoryFilter,
    MemoryRecord,
    Scope,
)
from memoryd.core.ports import Clock, Embedder, MemoryStore, NeighbourSearch
from memoryd.core.provenance import HistoryKind
from memoryd.core.restatement import is_restatement
from memoryd.core.validation import Limits, check_actor, check_draft, check_request_id
from memoryd.core.vectors import normalised
from memoryd.core.visibility import is_visible, scope_refusal
from memoryd.services.event_log import EventLog
from memoryd.services.pii_floor import PiiFloor
from memoryd.services.provenance import Provenance
from memoryd.services.reads_in_flight import ReadsInFlight
from memoryd.services.reembed import SpaceRouter
from memoryd.services.write_company import WriteCompany
from memoryd.services.write_groups import Lane, Write, request_keys, request_of, retrieved, take, vector_of

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
        trail: EventLog,
        pii: PiiFloor,
        neighbours: NeighbourSearch,
        pending_on_outage: bool = True,
        on_pending: Callable[[str], None] = lambda tenant_id: None,
        spaces: SpaceRouter | None = None,
        embed_during_commit: bool = True,
        reads: ReadsInFlight | None = None,
        company: WriteCompany | None = None,
        provenance: Provenance | None = None,
        entities: Callable[[Actor, Sequence[str]], Awaitable[set[str]]] | None = None,
    ) -> None:
        self._entities = entities
        """Which ids name graph entities the actor sees (a memory may annotate one); None: no graph."""
        self._provenance = provenance
        """Where each write's history event goes (created, or merged into a stored restatement)."""
        self._store = store
        self._company = company or WriteCompany(0.0)
        """A group that follows a shared one waits briefly for as many calls (the same writers, back)."""
        self._reads = reads or ReadsInFlight(0.0)
        """A group is taken after a pause in these reads (bounded): they get the model first."""
        self._embed_during_commit = embed_during_commit
        """Whether calls arriving during a commit are embedded meanwhile (a remote embedder: its wait
        overlaps the commit) or after it, with those arriving later (a local model: one larger group)."""
        self._neighbours = neighbours
        """Within a group, which items are close enough to be restatements of each other (one matrix product)."""
        self._spaces = spaces
        """While a re-embed is under way, new rows get their vector in its space too."""
        self._pending_on_outage = pending_on_outage
        self._on_pending = on_pending
        """Told the tenant of every write stored with its embedding pending (``EmbeddingBackfill.note``)."""
        self._trail = trail
        self._pii = pii
        self._request_ttl = request_ttl
        self._embedder = embedder
        self._clock = clock
        self._limits = limits
        self._min_similarity = 1.0 - dedup_distance
        # Dedup is check-then-write: a tenant's writes go through one lane in this process, whose
        # committer writes the calls ready as one group (one commit) while the calls arriving
        # meanwhile are embedded as one batch; two concurrent Memorize calls of the same text
        # cannot both insert.
        self._lanes: dict[str, Lane] = {}

    @property
    def max_batch_items(self) -> int:
        """Memories one batch may hold (a longer list is written in several)."""
        return self._limits.max_batch_items

    @property
    def max_content_bytes(self) -> int:
        """The largest content a write takes, in bytes of UTF-8."""
        return self._limits.max_content_bytes

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
        await self._check_sources(actor, checked, field, single)
        keys = request_keys(actor, check_request_id(request_id), checked) if request_id else []
        given = self._given_vectors(checked, field, single)
        job = Write(actor, checked, [given.get(i) for i in range(len(checked))], skip_deduplication, keys, request_id)
        results = await self._submit(job)
        if self._provenance is not None:
            for draft, result in zip(checked, results, strict=True):
                self._note_history(actor, draft, result, request_id)
        self._trail.note(
            actor,
            Operation.MEMORIZE,
            [r.memory.memory_id for r in results],
            [r.memory.scope.value for r in results],
            {"deduplicated": sum(r.deduplicated for r in results)},
        )
        return results

    def _note_history(self, actor: Actor, draft: MemoryDraft, result: MemorizeResult, request_id: str) -> None:
        assert self._provenance is not None
        if result.deduplicated:
            detail = {"restatement": draft.content}
            self._provenance.record(actor, HistoryKind.MERGED, result.memory, request_id=request_id, detail=detail)
        else:
            detail = {"source_context": draft.source_context} if draft.source_context else {}
            self._provenance.record(actor, HistoryKind.CREATED, result.memory, request_id=request_id, detail=detail)

    async def _check_sources(self, actor: Actor, drafts: Sequence[MemoryDraft], field: str, single: bool) -> None:
        """Every ``source_id`` names a memory or graph entity the author can see (a link must not dangle or leak)."""
        wanted = sorted({d.source_id for d in drafts if d.source_id})
        if not wanted:
            return
        found = await self._visible_sources(actor, wanted)
        for i, draft in enumerate(drafts):
            if draft.source_id and draft.source_id not in found:
                name = f"{field}.source_id" if single else f"{field}[{i}].source_id"
                raise NotFound(f"{name}: no memory or graph entity {draft.source_id!r}")

    async def _visible_sources(self, actor: Actor, ids: Sequence[str]) -> set[str]:
        """Those of the ids a memory may link to as the actor: visible memories, then visible graph entities."""
        found = set(await self._store.get_many(actor, list(ids), with_retrievals=False))
        rest = [i for i in ids if i not in found]
        if rest and self._entities is not None:
            found |= await self._entities(actor, rest)
        return found

    async def successor(
        self, actor: Actor, record: MemoryRecord, content: str, source_context: str, tags: tuple[str, ...] | None = None
    ) -> MemoryDraft:
        """A new text replacing ``record`` (a correction, a review's merge or update), filed as it was.

        It keeps the record's scope, kind, category, subject, tags, weights, collection and pin, so a
        filtered Recall finds the replacement where it found the old text. Its link goes when the
        linked memory is erased or out of the actor's sight: the old memory keeps it, and the
        replacement is written unlinked rather than failing.
        """
        source_id = record.source_id
        if source_id and not await self._visible_sources(actor, [source_id]):
            source_id = ""
        return MemoryDraft(
            content=content,
            scope=record.scope,
            memory_type=record.memory_type,
            category=record.category,
            subject=record.subject,
            tags=record.tags if tags is None else tags,
            salience=record.salience,
            decay_factor=record.decay_factor,
            source_context=source_context,
            source_id=source_id,
            collection=record.collection,
            pinned=record.pinned,  # a pinned memory's correction is kept as the memory was
        )

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
        """Rows an earlier call with this request_id stored, by item index (AlreadyExists if it asked otherwise).

        Every row an earlier call stored new carries its key (``request_keys``): the item's index
        and the fingerprint of the whole request. Rows it merged into stored twins carry none; a
        retry merges those again, which changes nothing more.
        """
        if not keys:
            return {}
        prefix = f"{actor.agent_id}/{request_id}/"
        found = await self._store.by_request(actor, prefix, self._clock.now() - self._request_ttl)
        earlier: dict[int, MemoryRecord] = {}
        for key, record in found.items():
            index, _, fingerprint = key[len(prefix) :].partition("/")
            at = int(index)
            same = (
                at < len(keys) and key == keys[at]
                if fingerprint
                else at < len(drafts) and record.content_hash == content_hash(drafts[at].content)  # an older key
            )
            if not same:
                raise AlreadyExists(
                    f"request_id {request_id!r} was used for a different request (another text, scope, tags, "
                    "contact, collection or set of items); use a new request_id for a new request"
                )
            earlier[at] = record
        return earlier

    def _given_vectors(self, drafts: Sequence[MemoryDraft], field: str, single: bool) -> dict[int, list[float]]:
        """The caller's own embeddings, validated (the rest are computed with the write's group)."""
        dim = self._embedder.dimension
        return {
            i: normalised(d.embedding, dim, f"{field}.embedding" if single else f"{field}[{i}].embedding")
            for i, d in enumerate(drafts)
            if d.embedding
        }

    # -- the group commit --------------------------------------------------------------

    async def _submit(self, job: Write) -> list[MemorizeResult]:
        """Queue a write for the tenant's lane; its rows once the commit holding them is durable."""
        tenant = job.actor.tenant_id
        job.done.add_done_callback(retrieved)  # a caller gone before its answer must not leave it unread
        lane = self._lanes.get(tenant)
        if lane is None:
            lane = self._lanes[tenant] = Lane()
            lane.writer = asyncio.create_task(self._commit_waiting(tenant, lane))
        lane.waiting.append(job)
        self._company.arrived(tenant, len(lane.waiting))
        self._prepare_next(tenant, lane)
        # A caller that goes away does not stop the write: it was accepted, its group commits.
        return await asyncio.shield(job.done)

    def _prepare_next(self, tenant_id: str, lane: Lane) -> None:
        """Start looking up and embedding the waiting calls, unless a batch is being prepared (or written)."""
        if lane.preparing is None and lane.waiting and (self._embed_during_commit or not lane.writing):
            lane.preparing = asyncio.create_task(self._prepare(tenant_id, lane))

    async def _prepare(self, tenant_id: str, lane: Lane) -> None:
        """Earlier attempts and one embedding batch for the calls waiting, which then join the ready ones.

        The batch is taken when this task first runs, so calls arriving together share it. A call
        that fails here (a reused request_id, the embedder) hears it and leaves the flight.
        """
        await self._reads.pause()  # the calls arriving meanwhile join this group
        await self._company.gather(tenant_id, lambda: len(lane.waiting))
        # empty when each waiting call repeats a request in flight: they wait for its commit
        lane.batch = batch = take(lane.waiting, lane.flight)
        live: list[Write] = []
        try:
            for job in batch:
                try:
                    job.earlier = await self._earlier_attempt(job.actor, job.request_id, job.keys, job.drafts)
                    live.append(job)
                except MemorydError as exc:  # this call's own mistake (a reused request_id): the others go on
                    job.fail(exc)
            await self._embed(tenant_id, live)
        except Exception as exc:  # noqa: BLE001  # whatever it is, the callers waiting must hear it
            for job in batch:
                job.fail(exc)
            live = []
        lane.flight.difference_update(r for job in batch if job not in live and (r := request_of(job)) is not None)
        lane.ready.extend(live)
        lane.batch, lane.preparing = [], None
        lane.prepared.set()
        if self._embed_during_commit:  # else the writer starts the next batch once this one is written
            self._prepare_next(tenant_id, lane)

    async def _commit_waiting(self, tenant_id: str, lane: Lane) -> None:
        """Write the lane's ready calls, group after group, until none waits.

        The calls that arrive while a group commits are looked up and embedded meanwhile
        (``_prepare``), so the embedder does not sit idle through a commit; deduplication and the
        insert stay in order, one group after the other: each group sees every earlier group's rows.
        """
        group: list[Write] = []
        try:
            while lane.ready or lane.preparing is not None:
                if not lane.ready:
                    lane.prepared.clear()
                    await lane.prepared.wait()
                    continue
                group, lane.writing = take(lane.ready), True
                try:
                    await self._write(tenant_id, group)
                    self._company.ended(tenant_id, len(group), len(lane.waiting))
                except Exception as exc:  # noqa: BLE001  # whatever it is, the callers waiting must hear it
                    # the group's store write failed: every call of it fails alike (a bug reaches them as INTERNAL)
                    for job in group:
                        job.fail(exc)
                finally:
                    lane.flight.difference_update(r for r in map(request_of, group) if r is not None)
                    lane.writing = False
                group = []
                self._prepare_next(tenant_id, lane)  # a retry held back by its first attempt may go now
        finally:
            del self._lanes[tenant_id]
            if lane.preparing is not None:
                lane.preparing.cancel()
            # Only on cancellation (shutdown): the group in flight may or may not have committed, the
            # others were not written; every caller hears it (a retry with request_id is safe).
            for job in [*group, *lane.ready, *lane.batch, *lane.waiting]:
                job.fail(Unavailable("memoryd is shutting down; retry the call"))

    async def _embed(self, tenant_id: str, calls: Sequence[Write]) -> None:
        """The vectors the calls lack, as one embedding batch (stored as pending if the embedder is down)."""
        todo = [(job, i) for job in calls for i, v in enumerate(job.vectors) if v is None and i not in job.earlier]
        if not todo:
            return
        try:
            embedded = await self._embedder.embed([job.drafts[i].content for job, i in todo])
        except Unavailable:
            if not self._pending_on_outage:
                raise
            # Store now, embed later (EmbeddingBackfill): the write is acknowledged and searchable by
            # full text at once; it skips insert-time dedup, which needs the vector.
            embedded = [[0.0] * self._embedder.dimension for _ in todo]
            for job, i in todo:
                job.pending.add(i)
            self._on_pending(tenant_id)
        for (job, i), vector in zip(todo, embedded, strict=True):
            job.vectors[i] = vector

    async def _write(self, tenant_id: str, group: Sequence[Write]) -> None:
        # Ids sort by creation time; sorting the group's ids keeps arrival order when several are
        # minted in the same millisecond (ListMemories pages by id).
        now = self._clock.now()
        items = [(job, i) for job in group for i in range(len(job.drafts))]
        ids = iter(sorted(new_memory_id(int(now.timestamp() * 1000), secrets.randbits(74)) for _ in items))
        candidates = await self._stored_restatements(items)
        close = self._close_pairs(items)
        stored: dict[str, MemoryRecord] = {}  # stored twins as merged so far, by id
        mergers: dict[str, list[Write]] = {}  # the calls that merged into each stored twin
        new_rows: list[tuple[MemoryRecord, list[float]]] = []
        new_items: list[int] = []  # for each new row, the group item it came from
        outcome: dict[int, list[tuple[str, bool]]] = {id(job): [] for job in group}  # (memory id, deduplicated)
        for item, ((job, i), found) in enumerate(zip(items, candidates, strict=True)):
            draft, out = job.drafts[i], outcome[id(job)]
            if i in job.earlier:  # a retry: the first attempt's row is the result, as it was then
                stored.setdefault(job.earlier[i].memory_id, job.earlier[i])
                out.append((job.earlier[i].memory_id, False))
                continue
            twin = None if job.skip else self._stored_twin(job.actor, draft, found, stored, now)
            if twin is not None:
                stored[twin.memory_id] = twin
                mergers.setdefault(twin.memory_id, []).append(job)
                out.append((twin.memory_id, True))
                continue
            pending = i in job.pending
            at = None
            if not (job.skip or pending):
                at = self._batch_twin(job.actor, draft, close.get(item, set()), new_rows, new_items, now)
            if at is not None:  # an earlier item of this group: merged before anything is written
                out.append((new_rows[at][0].memory_id, True))
                continue
            record = self._new_record(job.actor, draft, next(ids), job.keys[i] if job.keys else "")
            if pending:
                record = replace(record, embedding_model=PENDING_MODEL)
            new_rows.append((record, vector_of(job, i)))
            new_items.append(item)
            out.append((record.memory_id, False))
        if new_rows:
            extra = await self._spaces.extra(tenant_id, [r.content for r, _ in new_rows]) if self._spaces else {}
            await self._store.insert(tenant_id, new_rows, extra)
        as_found = {r.memory_id: r for found in candidates for r in found}
        as_found |= {r.memory_id: r for job in group for r in job.earlier.values()}
        await self._merge(stored, as_found, mergers)
        rows = {r.memory_id: r for r, _ in new_rows} | stored
        for job in group:
            job.finish([MemorizeResult(rows[m], deduplicated=d) for m, d in outcome[id(job)]])

    async def _merge(
        self, stored: dict[str, MemoryRecord], as_found: dict[str, MemoryRecord], mergers: dict[str, list[Write]]
    ) -> None:
        """Write the stored twins the group changed.

        A merge that changes nothing writes nothing. A twin forgotten meanwhile (another process)
        fails the calls that merged into it: the new rows are durable, and a retry merges into them.
        """
        for memory_id, merged in stored.items():
            by = mergers.get(memory_id, [])
            if merged != as_found[memory_id] and by and not await self._store.replace(by[0].actor, merged, None):
                for job in by:
                    job.fail(Conflict(f"memory {memory_id!r} changed while this write merged into it; retry the call"))

    async def _stored_restatements(self, items: Sequence[tuple[Write, int]]) -> list[list[MemoryRecord]]:
        """For each item, the visible stored memories of its pool near its vector whose text it restates.

        One kNN lookup per caller and dedup pool (the group's calls of one agent share it: each lookup
        also checks the table's version) and one fetch of its hits, instead of a lookup and a fetch per
        item; items stored as given, retried or waiting for their embedding have none.
        """
        found: list[list[MemoryRecord]] = [[] for _ in items]
        lookups: dict[tuple[Actor, frozenset[Scope]], list[int]] = {}
        for n, (job, i) in enumerate(items):
            if not (job.skip or i in job.earlier or i in job.pending):
                lookups.setdefault((job.actor, DEDUP_POOL[job.drafts[i].scope]), []).append(n)
        limit = asyncio.Semaphore(_DEDUP_CONCURRENCY)

        async def lookup(pool: frozenset[Scope], ns: list[int]) -> None:
            actor, vectors = items[ns[0]][0].actor, [vector_of(*items[n]) for n in ns]
            texts = [items[n][0].drafts[items[n][1]].content for n in ns]
            async with limit:  # the calls' lookups are independent: run them concurrently
                flt = MemoryFilter(scopes=pool)
                hits = await self._store.nearest_many(actor, vectors, flt, _CANDIDATES, self._min_similarity)
                # Records only for hits whose text (read with the hit) the item restates: usually none.
                wanted = sorted(
                    {
                        h.memory_id
                        for text, near in zip(texts, hits, strict=True)
                        for h in near
                        if h.content is None or is_restatement(text, h.content)
                    }
                )
                records = await self._store.get_many(actor, wanted, with_retrievals=False) if wanted else {}
            for n, text, near in zip(ns, texts, hits, strict=True):
                found[n] = [
                    records[h.memory_id]
                    for h in near
                    if h.memory_id in records and is_restatement(text, records[h.memory_id].content)
                ]

        await asyncio.gather(*(lookup(pool, ns) for (_, pool), ns in lookups.items()))
        return found

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

    def _close_pairs(self, items: Sequence[tuple[Write, int]]) -> dict[int, set[int]]:
        """For each item of the group that may merge into another, the items within the dedup distance.

        One matrix product over the group's vectors (a batch of 256 compared pair by pair in Python
        took a third of a second); on the event loop, since a group holds at most ``_GROUP_ROWS``
        vectors (1,024 × 1,024 is about a millisecond). Items stored as given, retried or waiting for
        their embedding take no part.
        """
        taking = [n for n, (job, i) in enumerate(items) if not (job.skip or i in job.earlier or i in job.pending)]
        if len(taking) < 2:
            return {}
        vectors = [vector_of(*items[n]) for n in taking]
        found = self._neighbours.neighbours(vectors, len(taking), self._min_similarity)
        return {taking[a]: {taking[b] for b, _ in near} for a, near in enumerate(found) if near}

    def _batch_twin(
        self,
        actor: Actor,
        draft: MemoryDraft,
        close: set[int],
        earlier: list[tuple[MemoryRecord, list[float]]],
        earlier_items: list[int],
        now: datetime,
    ) -> int | None:
        """Merge into an earlier new row of the batch that the draft restates; its index, or None.

        ``close``: the group items whose vectors lie within the dedup distance of the draft's;
        ``earlier_items``: the item each earlier new row came from.
        """
        for at, (record, other) in enumerate(earlier):
            if earlier_items[at] not in close:
                continue
            if not is_visible(actor, record):  # another call's row of the group, out of this caller's sight
                continue
            if is_restatement(draft.content, record.content):
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
            collection=draft.collection,
            pinned=draft.pinned,
            content_hash=content_hash(draft.content),
            embedding_model=self._embedder.model_name,
            created_at=at,
            updated_at=at,
            occurred_at=draft.occurred_at or at,
            request_key=request_key,
        )
