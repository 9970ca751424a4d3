"""FeedbackService: callers say what a memory was worth; corrections become new memories."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from memoryd.core.errors import InvalidRequest, NotFound, PermissionDenied
from memoryd.core.event_log import Operation
from memoryd.core.feedback import AUTO_SIGNALS, Signal
from memoryd.core.ids import content_hash
from memoryd.core.models import Actor, MemoryRecord, MemoryStatus
from memoryd.core.ports import Clock, MemoryStore, RetrievalStats
from memoryd.core.provenance import HistoryKind
from memoryd.core.restatement import is_restatement
from memoryd.core.validation import Limits, check_actor, check_content, check_memory_id, check_request_id
from memoryd.core.visibility import modify_refusal
from memoryd.services.archive import ArchiveService
from memoryd.services.event_log import EventLog
from memoryd.services.memorize import MemorizeService
from memoryd.services.provenance import Provenance

MAX_AUTO_RESULTS = 100
"""AutoFeedback reports on one Recall, whose limit is at most 100."""


class FeedbackService:
    """Records signals in the store's side table; a correction memorizes the corrected text."""

    def __init__(
        self,
        store: MemoryStore,
        stats: RetrievalStats,
        archive: ArchiveService,
        memorize: MemorizeService,
        clock: Clock,
        limits: Limits,
        trail: EventLog,
        provenance: Provenance | None = None,
    ) -> None:
        self._provenance = provenance
        self._store = store
        self._stats = stats
        self._archive = archive
        self._memorize = memorize
        self._clock = clock
        self._limits = limits
        self._trail = trail

    async def feedback(
        self, actor: Actor, memory_id: str, signal: Signal | None, correction: str = "", request_id: str = ""
    ) -> tuple[MemoryRecord, MemoryRecord | None]:
        """Record one signal; returns the memory after it and, for a correction, the corrected memory.

        A correction writes the new memory first and then supersedes the old one: a retry after a
        crash finds the new memory by its request id and converges. With ``request_id`` the signal is
        counted once: its history event is written first, and a retry that finds it counts nothing.
        """
        check_actor(actor)
        check_memory_id(memory_id)
        if request_id:
            check_request_id(request_id)
        if signal is None or signal in AUTO_SIGNALS:
            raise InvalidRequest("signal", "is required (USED and UNUSED are AutoFeedback's)")
        if signal is Signal.CORRECTION:
            check_content(correction, self._limits, "correction")
        elif correction:
            raise InvalidRequest("correction", "is only for FEEDBACK_SIGNAL_CORRECTION")
        record = await self._archive.get(actor, memory_id)
        corrected = await self._correct(actor, record, correction) if signal is Signal.CORRECTION else None
        if not await self._marked_first(actor, [(record, signal)], request_id):
            return await self._archive.get(actor, memory_id), corrected
        await self._stats.record_feedback(actor.tenant_id, [(memory_id, signal)], self._clock.now())
        self._trail.note(actor, Operation.FEEDBACK, [memory_id], [record.scope.value], {signal.value: 1})
        if self._provenance is not None:
            if not request_id:
                self._provenance.record(actor, HistoryKind.FEEDBACK, record, detail={"signal": signal.value})
            if corrected is not None:
                detail = {"superseded_by": corrected.memory_id, "correction": "feedback"}
                self._provenance.record(actor, HistoryKind.SUPERSEDED, record, detail=detail)
        return await self._archive.get(actor, memory_id), corrected

    async def auto_feedback(self, actor: Actor, results: Sequence[tuple[str, bool]], request_id: str = "") -> int:
        """Record USED or UNUSED for each recalled memory; all-or-nothing. Returns how many were recorded.

        With ``request_id`` a retry of the call records nothing again (``feedback``).
        """
        check_actor(actor)
        if request_id:
            check_request_id(request_id)
        if not 1 <= len(results) <= MAX_AUTO_RESULTS:
            raise InvalidRequest("results", f"must hold 1 to {MAX_AUTO_RESULTS} results, got {len(results)}")
        seen: set[str] = set()
        for i, (memory_id, _) in enumerate(results):
            check_memory_id(memory_id, f"results[{i}].id")
            if memory_id in seen:
                raise InvalidRequest(f"results[{i}].id", f"lists memory {memory_id!r} twice")
            seen.add(memory_id)
        found = await self._store.get_many(actor, sorted(seen), with_retrievals=False)
        for i, (memory_id, _) in enumerate(results):
            if memory_id not in found:
                raise NotFound(f"results[{i}].id: memory {memory_id!r} not found")
        signals = [(m, Signal.USED if used else Signal.UNUSED) for m, used in results]
        if not await self._marked_first(actor, [(found[m], s) for m, s in signals], request_id):
            return len(signals)
        await self._stats.record_feedback(actor.tenant_id, signals, self._clock.now())
        if self._provenance is not None and not request_id:
            for memory_id, signal in signals:
                self._provenance.record(actor, HistoryKind.FEEDBACK, found[memory_id], detail={"signal": signal.value})
        self._trail.note(
            actor,
            Operation.FEEDBACK,
            [m for m, _ in results],
            {r.scope.value for r in found.values()},
            {"used": sum(u for _, u in results), "unused": sum(not u for _, u in results)},
        )
        return len(signals)

    async def _marked_first(
        self, actor: Actor, signals: Sequence[tuple[MemoryRecord, Signal]], request_id: str
    ) -> bool:
        """Whether to count these signals: False when a call with ``request_id`` already did.

        The call's history events are written before the counts (one commit), so a retry after a
        lost reply finds them; a crash between the two loses the counts rather than doubling them.
        Without a request id (or a history) every call counts.
        """
        if not request_id or self._provenance is None:
            return True
        first = signals[0][0]
        if await self._provenance.applied(actor.tenant_id, first.memory_id, HistoryKind.FEEDBACK, request_id):
            return False
        marks = [(record, {"signal": signal.value}) for record, signal in signals]
        await self._provenance.record_now(actor, HistoryKind.FEEDBACK, marks, request_id)
        return True

    async def _correct(self, actor: Actor, record: MemoryRecord, correction: str) -> MemoryRecord:
        """Memorize the corrected text like the old memory and supersede the old one by it."""
        if refusal := modify_refusal(actor, record):
            raise PermissionDenied(refusal)
        if is_restatement(correction, record.content):
            raise InvalidRequest("correction", "restates the memory it corrects: nothing would change")
        draft = await self._memorize.successor(actor, record, correction, f"correction of memory {record.memory_id}")
        # The request id makes a retried correction find the memory it wrote, even when deduplication
        # cannot (a write during an embedder outage is not deduplicated).
        key = f"correction.{record.memory_id}.{content_hash(correction)[:16]}"
        result = await self._memorize.memorize(actor, draft, request_id=key)
        if record.status is not MemoryStatus.SUPERSEDED or record.superseded_by != result.memory.memory_id:
            superseded = replace(
                record,
                status=MemoryStatus.SUPERSEDED,
                superseded_by=result.memory.memory_id,
                updated_at=self._clock.now(),
            )
            if not await self._store.replace(actor, superseded, None):
                raise NotFound(f"memory {record.memory_id!r} not found")
        return result.memory
