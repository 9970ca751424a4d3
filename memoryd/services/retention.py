"""RetentionService: per-tenant TTLs for memories and conversations, enforced daily or by hand.

``purge`` deletes (or, dry, counts) what is older than the tenant's policy and writes a receipt
to the audit log (``retention_purge``: ids and counts, no content). The daily job ``retention:{day}``
runs ``purge`` for every tenant with a policy; enqueueing it twice in a day finds the same job. The
deleted rows leave the disk with the next purge of deleted rows (``storage.forget_purge_minutes``).

A compaction or graph extraction may be under way on an idle conversation (a session ended late, a
retry): it read the messages and writes what it made of them after its model call. Retention holds
those jobs' leases while it deletes a conversation, and leaves one whose job holds them to the next
pass, so nothing is written under a conversation that is gone. Under those leases it first files
what the conversation holds unfiled, as its ``storage_scope`` says (``ConversationFiling``): a
session never ended would otherwise take its last messages with it.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import timedelta

from memoryd.core.conversation import job_leases
from memoryd.core.event_log import Operation
from memoryd.core.job_records import SYSTEM_TENANT, JobKind, JobRecord, JobResult
from memoryd.core.models import Actor
from memoryd.core.ports import AgentDirectory, Clock, ConversationStore, GraphStore, Leases, MemoryStore
from memoryd.core.retention import RetentionPolicy, RetentionReceipt, retention_key
from memoryd.core.validation import check_tenant
from memoryd.services.event_log import EventLog
from memoryd.services.filing import ConversationFiling
from memoryd.services.job_runner import JobContext
from memoryd.services.job_service import JobService
from memoryd.services.provenance import Provenance

_CONVERSATIONS_PER_BLOCK = 100
"""Idle conversations filed, then deleted, per block: a job cut short by its timeout keeps what it did."""


class RetentionService:
    """Expires what tenants' policies say."""

    def __init__(
        self,
        store: MemoryStore,
        directory: AgentDirectory,
        conversations: ConversationStore,
        trail: EventLog,
        clock: Clock,
        policy_for: Callable[[str], Awaitable[RetentionPolicy]],
        configured_tenants: Callable[[], list[str]],
        *,
        leases: Leases | None = None,
        hold_seconds: float = 300.0,
        provenance: Provenance | None = None,
        graph: GraphStore | None = None,
        filing: ConversationFiling | None = None,
    ) -> None:
        self._filing = filing
        """Files what an idle conversation holds unfiled before it is deleted (``storage_scope``)."""
        self._graph = graph
        """The memory graph, whose non-pinned facts and episodes expire after ``graph_days``."""
        self._provenance = provenance
        """Histories go with their memories; servings expire after ``servings_days``."""
        self._leases = leases
        self._hold_seconds = hold_seconds
        """How long a conversation's leases are held at most (they are given back once it is deleted)."""
        self._store = store
        self._directory = directory
        self._conversations = conversations
        self._trail = trail
        self._clock = clock
        self._policy_for = policy_for
        self._configured = configured_tenants

    async def purge(self, tenant_id: str, *, dry_run: bool, by: Actor | None = None) -> RetentionReceipt:
        """Apply the tenant's policy now; the receipt (kept in the audit log unless dry)."""
        check_tenant(tenant_id)
        policy, now = await self._policy_for(tenant_id), self._clock.now()
        memory_ids: list[str] = []
        conversations: list[str] = []
        items = filed = 0
        if policy.memories_days > 0:
            memory_ids = await self._store.expire(tenant_id, now - timedelta(days=policy.memories_days), dry_run)
        if policy.conversations_days > 0:
            before = now - timedelta(days=policy.conversations_days)
            idle = await self._conversations.idle(tenant_id, before)
            for at in range(0, len(idle), _CONVERSATIONS_PER_BLOCK):  # a block filed and deleted stays done
                async with self._quiet(tenant_id, idle[at : at + _CONVERSATIONS_PER_BLOCK], dry_run) as quiet:
                    for conversation in quiet:  # what it says stays: filed as its storage_scope says, then gone
                        if self._filing is not None:
                            filed += await self._filing.before_expiry(tenant_id, conversation, dry_run=dry_run)
                    gone, deleted = await self._conversations.expire(tenant_id, quiet, before, dry_run)
                conversations, items = [*conversations, *gone], items + deleted
        servings = 0
        if self._provenance is not None:
            if memory_ids and not dry_run:
                await self._provenance.forget(tenant_id, memory_ids)
            if policy.servings_days > 0:
                before = now - timedelta(days=policy.servings_days)
                servings = await self._provenance.expire_servings(tenant_id, before, dry_run)
        counts = {
            "memories": len(memory_ids),
            "conversations": len(conversations),
            "conversation_items": items,
            "filed_from_conversations": filed,
            "servings": servings,
        }
        if self._graph is not None and policy.graph_days > 0:
            counts |= await self._graph.expire(tenant_id, now - timedelta(days=policy.graph_days), dry_run)
        if self._graph is not None and policy.graph_decay_days > 0:  # archived, not deleted: not in the receipt's ids
            seen_before = now - timedelta(days=policy.graph_decay_days)
            counts |= await self._graph.decay(tenant_id, now, seen_before, policy.graph_decay_confidence, dry_run)
        receipt = RetentionReceipt(tenant_id, now, dry_run, counts, tuple(memory_ids))
        if not dry_run and any(counts.values()):
            await self._trail.write(tenant_id, Operation.RETENTION_PURGE, by, memory_ids, (), counts)
        return receipt

    @asynccontextmanager
    async def _quiet(self, tenant_id: str, conversations: Sequence[str], dry_run: bool) -> AsyncIterator[list[str]]:
        """Those of the conversations no job is running on, their jobs' leases held for the block."""
        if self._leases is None or dry_run:
            yield list(conversations)
            return
        holder, taken, quiet = f"retention:{uuid.uuid4().hex}", [], []
        try:
            for conversation in conversations:
                for name in job_leases(tenant_id, conversation):
                    if not await self._leases.lock(name, holder, self._hold_seconds):
                        break
                    taken.append(name)
                else:
                    quiet.append(conversation)
            yield quiet
        finally:
            for name in taken:
                await self._leases.unlock(name, holder)

    async def tenants(self) -> list[str]:
        """Every tenant a policy may apply to: those with memories, and those named in the configuration."""
        known = {tenant for tenant, _ in await self._directory.agents()} | set(self._configured())
        return sorted([t for t in known if self._expires(await self._policy_for(t))])

    def _expires(self, policy: RetentionPolicy) -> bool:
        """Whether the policy removes anything here (servings only where a served log is kept)."""
        return (
            not policy.keeps_data_forever
            or (self._provenance is not None and policy.servings_days > 0)
            or (self._graph is not None and policy.graph_decay_days > 0)
        )

    async def start_daily(self, jobs: JobService) -> JobRecord | None:
        """Queue today's retention job (the same job all day); None when no tenant has a policy."""
        if not await self.tenants():
            return None
        day = self._clock.now().strftime("%Y-%m-%d")
        return await jobs.enqueue(JobKind.RETENTION, SYSTEM_TENANT, retention_key(day))

    async def run(self, ctx: JobContext) -> JobResult:
        """The daily job body: purge every tenant with a policy (converges on a re-run: expired rows are gone)."""
        tenants = await self.tenants()
        totals = {"tenants": len(tenants), "memories": 0, "conversations": 0, "conversation_items": 0, "servings": 0}
        for done, tenant_id in enumerate(tenants, start=1):
            receipt = await self.purge(tenant_id, dry_run=False)
            for name, n in receipt.counts.items():
                totals[name] = totals.get(name, 0) + n
            await ctx.progress(done, len(tenants), f"{done}/{len(tenants)} tenants", dict(totals))
        return dict(totals)
