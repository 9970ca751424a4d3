"""ArchiveService: read, page, change and forget individual memories."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import datetime

from memoryd.core.errors import NotFound, PermissionDenied, PreconditionFailed
from memoryd.core.event_log import Operation
from memoryd.core.ids import content_hash
from memoryd.core.keys import Role
from memoryd.core.models import (
    Actor,
    ListQuery,
    MemoryFilter,
    MemoryPage,
    MemoryPatch,
    MemoryRecord,
    MemoryStatus,
    Scope,
)
from memoryd.core.ports import Clock, Embedder, MemoryStore
from memoryd.core.provenance import HistoryKind, ServingFilter
from memoryd.core.validation import Limits, check_actor, check_filter, check_memory_id, check_patch, check_range
from memoryd.core.visibility import modify_refusal, rescope_refusal
from memoryd.services.event_log import EventLog
from memoryd.services.pii_floor import PiiFloor
from memoryd.services.provenance import MemoryHistory, Provenance
from memoryd.services.reembed import SpaceRouter

ANNOTATIONS_SHOWN = 100
"""GetMemory lists this many annotating memories; ListMemories with filter.source_id pages through all."""


class ArchiveService:
    """Single-memory operations, all within the actor's visibility."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        clock: Clock,
        limits: Limits,
        *,
        trail: EventLog,
        pii: PiiFloor,
        spaces: SpaceRouter | None = None,
        provenance: Provenance | None = None,
    ) -> None:
        self._provenance = provenance
        self._store = store
        self._spaces = spaces
        self._pii = pii
        self._trail = trail
        self._embedder = embedder
        self._clock = clock
        self._limits = limits

    async def get(self, actor: Actor, memory_id: str) -> MemoryRecord:
        """A visible memory, or NotFound (also for another tenant's or agent's ids)."""
        check_actor(actor)
        check_memory_id(memory_id)
        record = await self._store.get(actor, memory_id)
        if record is None:
            raise NotFound(f"memory {memory_id!r} not found")
        return record

    async def history(self, actor: Actor, memory_id: str) -> MemoryHistory:
        """A visible memory's history (NotFound as ``get``).

        Its servings are the served log's, which is the operators': below them, only the acting agent's
        (serving a contact: to that contact). A shared memory's history told any agent key which
        other agents served it to which contacts, in which conversations.
        """
        await self.get(actor, memory_id)
        if self._provenance is None:
            raise PreconditionFailed("this server keeps no memory history (its stores were passed in without one)")
        own = (
            None
            if actor.role >= Role.OPERATOR
            else ServingFilter(agent_id=actor.agent_id, end_user_id=actor.end_user_id)
        )
        return await self._provenance.history(actor.tenant_id, memory_id, own)

    async def annotated_by(self, actor: Actor, memory_id: str, limit: int = ANNOTATIONS_SHOWN) -> list[str]:
        """Ids of the visible active memories whose source_id is ``memory_id``, oldest first."""
        return await self._store.page_ids(actor, MemoryFilter(source_id=memory_id), "", limit)

    async def get_annotated(self, actor: Actor, memory_id: str) -> tuple[MemoryRecord, list[str]]:
        """``get`` and ``annotated_by`` side by side; ``get``'s error first.

        Neither needs the other: 8.5 → 6.2 ms on a table of a million rows searched in LanceDB
        (``docs/benchmarks.md``, session 37).
        """
        check_actor(actor)
        check_memory_id(memory_id)
        record, annotations = await asyncio.gather(
            self.get(actor, memory_id), self.annotated_by(actor, memory_id), return_exceptions=True
        )
        if isinstance(record, BaseException):
            raise record
        if isinstance(annotations, BaseException):
            raise annotations
        return record, annotations

    async def list_memories(self, query: ListQuery) -> MemoryPage:
        """One page of visible memories, oldest first."""
        check_actor(query.actor)
        check_range(query.page_size, "page_size", 1, self._limits.max_page_size)
        check_filter(query.filter, self._limits)
        if query.after_id:
            check_memory_id(query.after_id, "page_token")
        rows = await self._store.page(query.actor, query.filter, query.after_id, query.page_size + 1)
        page = tuple(rows[: query.page_size])
        more = len(rows) > query.page_size
        return MemoryPage(page, page[-1].memory_id if more else "")

    async def update(self, actor: Actor, memory_id: str, patch: MemoryPatch) -> MemoryRecord:
        """Apply the set fields; a content change re-embeds. Returns the new row."""
        check_actor(actor)
        check_memory_id(memory_id)
        patch = check_patch(patch, actor, self._limits)
        if patch.content is not None:
            patch = replace(patch, content=self._pii.direct(actor.tenant_id, patch.content, "content"))
        record = await self.get(actor, memory_id)
        if refusal := modify_refusal(actor, record):
            raise PermissionDenied(refusal)
        refusal = rescope_refusal(actor, record, patch.scope) if patch.scope is not None else ""
        if refusal:
            raise PermissionDenied(refusal)
        updated = _apply(record, patch, actor, self._clock.now())
        vector, extra = None, {}
        if patch.content is not None and patch.content != record.content:
            (vector,) = await self._embedder.embed([patch.content])
            updated = replace(updated, embedding_model=self._embedder.model_name)
            if self._spaces is not None:  # a re-embed under way: the new text's vector there too
                extra = {m: v[0] for m, v in (await self._spaces.extra(actor.tenant_id, [patch.content])).items()}
        if not await self._store.replace(actor, updated, vector, extra):
            raise NotFound(f"memory {memory_id!r} not found")
        self._trail.note(actor, Operation.UPDATE, [memory_id], {record.scope.value, updated.scope.value})
        earlier = _earlier(record, updated)
        if self._provenance is not None and earlier:  # a retried update changes nothing the second time
            self._provenance.record(actor, HistoryKind.UPDATED, updated, detail=earlier)
        return updated

    async def restore(self, actor: Actor, memory_id: str) -> MemoryRecord:
        """Make an archived or superseded memory active again (an active one is returned as it is)."""
        record = await self.get(actor, memory_id)
        if record.status is MemoryStatus.ACTIVE:
            return record
        if refusal := modify_refusal(actor, record):
            raise PermissionDenied(refusal)
        restored = replace(record, status=MemoryStatus.ACTIVE, superseded_by="", updated_at=self._clock.now())
        if not await self._store.replace(actor, restored, None):
            raise NotFound(f"memory {memory_id!r} not found")
        self._trail.note(actor, Operation.RESTORE, [memory_id], [record.scope.value])
        if self._provenance is not None:
            self._provenance.record(actor, HistoryKind.RESTORED, restored, detail={"status": record.status.value})
        return restored

    async def forget(self, actor: Actor, memory_id: str) -> str:
        """Delete a memory for good; returns its id."""
        record = await self.get(actor, memory_id)
        if refusal := modify_refusal(actor, record):
            raise PermissionDenied(refusal)
        if not await self._store.delete(actor, memory_id):
            raise NotFound(f"memory {memory_id!r} not found")
        self._trail.note(actor, Operation.FORGET, [memory_id], [record.scope.value])
        if self._provenance is not None:  # forgotten for good: its history (earlier texts) goes with it
            await self._provenance.forget(actor.tenant_id, [memory_id])
        return memory_id


def _earlier(record: MemoryRecord, updated: MemoryRecord) -> dict[str, str]:
    """What an update changed, as it was before (the history keeps the earlier text)."""
    earlier = {
        name: str(getattr(record, name))
        for name in ("content", "category", "subject", "salience", "collection", "pinned")
        if getattr(record, name) != getattr(updated, name)
    }
    if record.scope is not updated.scope:
        earlier["scope"] = record.scope.value
    if record.tags != updated.tags:
        earlier["tags"] = ", ".join(record.tags)
    return earlier


def _apply(record: MemoryRecord, patch: MemoryPatch, actor: Actor, now: datetime) -> MemoryRecord:
    changes: dict[str, object] = {"updated_at": now}
    if patch.scope is Scope.END_USER:  # an end_user memory is attached to the contact being served
        changes["end_user_id"] = actor.end_user_id
    if patch.content is not None:
        changes["content"] = patch.content
        changes["content_hash"] = content_hash(patch.content)
    for name in ("category", "subject", "scope", "tags", "salience", "collection", "pinned"):
        value = getattr(patch, name)
        if value is not None:
            changes[name] = value
    return replace(record, **changes)  # type: ignore[arg-type]  # keys are MemoryRecord fields
