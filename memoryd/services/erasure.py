"""ErasureService: EraseEndUser — every row that references a contact, and the bytes on disk.

The contact's memories (any scope, any author), conversations with every item (messages,
summaries, events, kept model outputs), review findings that name those memories, and the jobs of
those conversations (records, events, queue messages) are deleted; then the touched tables are
rewritten and their old versions dropped, and Redis rewrites its persistence files, so no old
version, index file or append-only log still holds them. The receipt (no content, digests for
caller-chosen ids) is returned and kept in the audit log.

A compaction or graph extraction of the contact's conversation may be under way: it read the
messages before the erasure and would write what it made of them (a summary, filed memories,
facts) after it. The erasure holds those jobs' leases while it deletes, so it waits for one under
way to finish (its writes are then deleted with the rest) and one starting meanwhile finds the
conversation gone. Likewise a review running while the memories are deleted writes findings quoting
them after its model calls: the findings are deleted once the tenant's running reviews are done.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import timedelta

from memoryd.core.conversation import job_leases, parse_compact_key
from memoryd.core.data_rights import ErasureReceipt, digest
from memoryd.core.errors import Unavailable
from memoryd.core.event_log import Operation
from memoryd.core.job_records import JobKind, JobState
from memoryd.core.models import Actor
from memoryd.core.ports import (
    Clock,
    ConversationStore,
    GraphStore,
    JobLedger,
    JobQueue,
    Leases,
    MemoryStore,
    ReviewStore,
    StoreMaintenance,
)
from memoryd.core.validation import check_agent_id, check_tenant
from memoryd.services.event_log import EventLog
from memoryd.services.graph_extraction import parse_graph_key
from memoryd.services.maintenance_loop import LEASE, PAUSE
from memoryd.services.provenance import Provenance

log = logging.getLogger(__name__)

_LEFTOVER_POLL_SECONDS = 0.5
"""How often the leftover files still too young to remove are looked at again."""
_POLL_SECONDS = 0.1
"""How often a held lease is asked for again (a deferred job asks every 0.2-0.5 s: the erasure gets it
first), and a running review looked at."""


class ErasureService:
    """Erases a data subject."""

    def __init__(
        self,
        store: MemoryStore,
        conversations: ConversationStore,
        reviews: ReviewStore,
        maintenance: StoreMaintenance | None,
        jobs: tuple[JobLedger, JobQueue] | None,
        trail: EventLog,
        clock: Clock,
        graph: GraphStore | None = None,
        *,
        leases: Leases | None = None,
        job_seconds: float = 310.0,
        orphan_grace_seconds: float = 60.0,
        provenance: Provenance | None = None,
    ) -> None:
        self._provenance = provenance
        self._orphan_grace = timedelta(seconds=orphan_grace_seconds)
        """Files no version references are removed once this old (``storage.orphan_grace_seconds``)."""
        self._leases = leases
        self._job_seconds = job_seconds
        """The longest a job runs (its timeout and a margin): the longest the erasure waits for one."""
        self._graph = graph
        self._store = store
        self._conversations = conversations
        self._reviews = reviews
        self._maintenance = maintenance
        self._jobs = jobs
        self._trail = trail
        self._clock = clock

    async def erase_end_user(self, actor: Actor, end_user_id: str) -> ErasureReceipt:
        """Remove the contact everywhere and purge the disk; the receipt."""
        started = time.monotonic()
        tenant = check_tenant(actor.tenant_id)
        check_agent_id(end_user_id, "end_user_id")
        async with self._maintenance_paused(end_user_id):
            of_contact = await self._conversations.of_end_user(tenant, end_user_id)
            async with self._jobs_held_off(tenant, end_user_id, of_contact):
                memory_ids, touched = await self._store.erase_end_user(tenant, end_user_id)
                conversations, items, more = await self._conversations.erase_end_user(tenant, end_user_id)
                await self._running_reviews_done(tenant)
                findings, most = await self._reviews.erase_findings(tenant, memory_ids)
                jobs, rewritten = await self._erase_jobs(tenant, set(conversations))
                graph_counts, graph_tables = (
                    await self._graph.erase_end_user(tenant, end_user_id) if self._graph is not None else ({}, [])
                )
                provenance_rows, provenance_tables = (
                    await self._provenance.erase_end_user(tenant, end_user_id, memory_ids)
                    if self._provenance is not None
                    else (0, [])
                )
            tables = [*touched, *more, *most, *graph_tables, *provenance_tables]
            versions = await self._maintenance.purge(tables) if self._maintenance is not None and tables else 0
            leftovers = await self._remove_leftovers(tables)
        counts = {
            "memories": len(memory_ids),
            "conversations": len(conversations),
            "conversation_items": items,
            "findings": findings,
            "jobs": jobs,
            **graph_counts,
            "history_and_servings": provenance_rows,
        }
        receipt = ErasureReceipt(
            tenant,
            digest(tenant, end_user_id),
            self._clock.now(),
            counts,
            tuple(memory_ids),
            tuple(digest(tenant, c) for c in conversations),
            versions,
            rewritten,
            round(time.monotonic() - started, 3),
        )
        ids = [f"subject:{receipt.subject}", *receipt.memory_ids, *(f"conversation:{c}" for c in receipt.conversations)]
        details = counts | {"versions_purged": versions, "lost_commit_files": leftovers}
        await self._trail.write(tenant, Operation.ERASE, actor, ids, (), details)
        return receipt

    @asynccontextmanager
    async def _jobs_held_off(
        self, tenant_id: str, end_user_id: str, conversations: Sequence[str]
    ) -> AsyncIterator[None]:
        """The leases of the conversations' compaction and extraction, held while the erasure deletes.

        Waits for a job under way to finish; UNAVAILABLE (nothing deleted) if one still holds a lease
        after the longest a job may.
        """
        names = [n for c in conversations for n in job_leases(tenant_id, c)]
        if self._leases is None or not names:
            yield
            return
        holder = f"erase:{uuid.uuid4().hex}"
        deadline = time.monotonic() + self._job_seconds
        taken: list[str] = []
        try:
            for name in names:
                while not await self._leases.lock(name, holder, self._job_seconds):
                    if time.monotonic() > deadline:
                        raise Unavailable(
                            f"end_user_id {end_user_id!r}: a job of one of the contact's conversations is still "
                            "running; retry the erasure"
                        )
                    await asyncio.sleep(_POLL_SECONDS)
                taken.append(name)
            yield
        finally:
            for name in taken:
                await self._leases.unlock(name, holder)

    @asynccontextmanager
    async def _maintenance_paused(self, end_user_id: str) -> AsyncIterator[None]:
        """No compaction, index fold or index build runs on the store meanwhile, in any process.

        One that read the contact's rows before the deletes and then lost its commit to them leaves
        files that hold those rows and that no version references (``_remove_leftovers``); one under
        way while such files are removed could lose its own. Every replica's maintenance loop gives
        its lease up while ``PAUSE`` is held (``MaintenanceLoop``); UNAVAILABLE, nothing deleted, if
        the one maintaining does not within the longest a job may run.
        """
        if self._maintenance is None:
            yield
            return
        async with self._maintenance.paused():
            if self._leases is None:
                yield
                return
            holder = f"erase:{uuid.uuid4().hex}"
            deadline = time.monotonic() + self._job_seconds
            seconds = self._job_seconds + 3 * self._orphan_grace.total_seconds()
            try:
                # another erasure's pause first, then the replica maintaining to end its pass
                while not await self._leases.lock(PAUSE, holder, seconds) or await self._leases.is_held(LEASE):
                    if time.monotonic() > deadline:
                        raise Unavailable(f"end_user_id {end_user_id!r}: the store's maintenance did not pause; retry")
                    await asyncio.sleep(_POLL_SECONDS)
                yield
            finally:
                await self._leases.unlock(PAUSE, holder)

    async def _remove_leftovers(self, tables: Sequence[str]) -> int:
        """Files of the erased tables that no version references, removed; how many.

        They are what commits that lost left (a compaction preempted by an append's state update),
        holding whatever rows they read. A commit still in flight has such files too, until it
        lands, so only files older than the grace are removed: the ones found now that are younger
        are waited for until they are referenced (a commit landed) or old enough to remove.
        """
        if self._maintenance is None or not tables:
            return 0
        pending = await self._maintenance.unreferenced(tables)
        removed = 0
        deadline = time.monotonic() + 2 * self._orphan_grace.total_seconds()
        while pending:
            removed += await self._maintenance.remove(pending, self._orphan_grace)
            still = {(f.table, f.path) for f in await self._maintenance.unreferenced(tables)}
            pending = [f for f in pending if (f.table, f.path) in still]
            if pending and time.monotonic() > deadline:
                log.warning("files of lost commits left for the hourly purge", extra={"files": len(pending)})
                break
            if pending:
                await asyncio.sleep(_LEFTOVER_POLL_SECONDS)
        return removed

    async def _running_reviews_done(self, tenant_id: str) -> None:
        """Wait for the tenant's reviews running now: one may have read the contact's memories.

        Its findings quote them, and it writes them (judged, applied) after its model calls; the
        findings naming the erased memories are deleted once it is done. A review starting later
        does not see those memories. The wait ends after the longest a job may run: a review
        still marked running then lost its worker and writes nothing more.
        """
        if self._jobs is None:
            return
        ledger = self._jobs[0]
        running = {
            (r.tenant_id, r.key): r.attempts
            for r in await ledger.in_state(JobState.RUNNING)
            if r.tenant_id == tenant_id and r.kind is JobKind.REVIEW
        }
        deadline = time.monotonic() + self._job_seconds
        while running and time.monotonic() < deadline:
            await asyncio.sleep(_POLL_SECONDS)
            now = await ledger.get_many(list(running))
            running = {
                key: attempts
                for (key, attempts), r in zip(running.items(), now, strict=True)
                if r is not None and r.state is JobState.RUNNING and r.attempts == attempts
            }

    async def _erase_jobs(self, tenant_id: str, conversations: set[str]) -> tuple[int, bool]:
        """The conversations' compaction jobs, everywhere Redis keeps them; (records deleted, files rewritten)."""
        if self._jobs is None or not conversations:
            return 0, False
        ledger, queue = self._jobs
        keys = await ledger.keys(tenant_id)
        doomed = [k for k in keys if k.startswith("compact:") and parse_compact_key(k)[0] in conversations]
        doomed += [k for k in keys if k.startswith("graph:") and parse_graph_key(k)[0] in conversations]
        if not doomed:
            return 0, False
        records = [r for r in await ledger.get_many([(tenant_id, k) for k in doomed]) if r is not None]
        await queue.forget(records)
        erased = await ledger.erase(tenant_id, doomed)
        return erased, await ledger.purge_persistence()
