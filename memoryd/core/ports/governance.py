"""Who may do what, and what was done: keys, the event log, rates, settings, reviews, exports, the clock."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any, Protocol

from memoryd.core.agent_config import StoredConfig
from memoryd.core.event_log import EventQuery, LogEvent
from memoryd.core.keys import ApiKey
from memoryd.core.provenance import HistoryEvent, Serving, ServingFilter
from memoryd.core.review import Finding, Review
from memoryd.core.usage import UsageReport

Row = dict[str, Any]
"""A stored row as plain JSON values (export and import)."""


class KeyStore(Protocol):
    """API keys of every tenant (only hashes of their secrets); writes are upserts on the key id."""

    async def put_key(self, key: ApiKey) -> None:
        """Insert or replace a key."""
        ...

    async def key(self, key_id: str) -> ApiKey | None:
        """One key, or None."""
        ...

    async def keys(self, tenant_id: str | None) -> list[ApiKey]:
        """A tenant's keys, or every key with None; oldest first."""
        ...

    async def touch_key(self, key_id: str, at: datetime) -> None:
        """Set ``last_used_at`` only (a concurrent revocation must survive it)."""
        ...

    async def any_key(self) -> bool:
        """Whether any key was ever made (revoked ones count)."""
        ...


class EventLogStore(Protocol):
    """The audit log, per tenant; appends are upserts on the event id (a retried flush converges)."""

    async def append_events(self, tenant_id: str, events: Sequence[LogEvent]) -> None:
        """Store events (one commit)."""
        ...

    async def events(self, tenant_id: str, query: EventQuery) -> list[LogEvent]:
        """The tenant's events that match ``query``, oldest first, at most its limit (read no further)."""
        ...


class ProvenanceStore(Protocol):
    """Memories' histories and the served log, per tenant: appended; a history reads one event id once."""

    async def append_history(self, tenant_id: str, events: Sequence[HistoryEvent]) -> None:
        """Store history events (one commit)."""
        ...

    async def history(self, tenant_id: str, memory_id: str) -> list[HistoryEvent]:
        """One memory's events, oldest first."""
        ...

    async def append_servings(self, tenant_id: str, lines: bytes) -> None:
        """Store servings given as ``served_call_line`` (one commit, or held in a spool the reads settle)."""
        ...

    async def servings(
        self, tenant_id: str, where: ServingFilter, after_id: str, limit: int, *, newest: bool = False
    ) -> list[Serving]:
        """Servings matching ``where`` with ids after ``after_id``, oldest first, at most ``limit`` (read no further).

        ``newest``: the latest ``limit`` instead, newest first (``after_id`` unused).
        """
        ...

    async def count_servings(self, tenant_id: str, where: ServingFilter) -> int:
        """How many servings match ``where``."""
        ...

    async def forget(self, tenant_id: str, memory_ids: Sequence[str]) -> list[str]:
        """Delete the histories and servings of these memories; the tables touched."""
        ...

    async def erase_end_user(
        self, tenant_id: str, end_user_id: str, memory_ids: Sequence[str]
    ) -> tuple[int, list[str]]:
        """Delete the contact's histories and servings and those of ``memory_ids``; (rows, tables touched)."""
        ...

    async def expire_servings(self, tenant_id: str, before: datetime, dry_run: bool) -> int:
        """Delete (or count) the servings older than ``before``."""
        ...

    async def settle(self, tenant_id: str | None = None) -> None:
        """Move servings held outside the tables (a local spool) into them: the tenant's, or all (None)."""
        ...


class RateLimiter(Protocol):
    """Token buckets shared by every replica."""

    async def take(self, bucket: str, rate: float, burst: float) -> float:
        """Take one token: 0 when granted, else the seconds until one is there (nothing taken)."""
        ...


class AgentConfigStore(Protocol):
    """Stored settings: one row for a tenant (agent id "") and one per agent, compare-and-swap on version."""

    async def configs(self, tenant_id: str, agent_ids: Sequence[str]) -> dict[str, StoredConfig]:
        """The rows of ``agent_ids`` ("" for the tenant) that exist, by agent id."""
        ...

    async def swap_config(self, tenant_id: str, agent_id: str, config: StoredConfig, expected_version: int) -> bool:
        """Write ``config`` if the stored version still equals ``expected_version`` (0: absent)."""
        ...


class ReviewStore(Protocol):
    """Reviews and their findings, per tenant; writes are upserts on deterministic ids."""

    async def put_review(self, tenant_id: str, review: Review) -> None:
        """Insert or replace the review row."""
        ...

    async def review(self, tenant_id: str, review_id: str) -> Review | None:
        """One review, or None."""
        ...

    async def reviews(self, tenant_id: str, agent_id: str, limit: int) -> list[Review]:
        """The agent's reviews, newest first."""
        ...

    async def put_findings(self, tenant_id: str, findings: Sequence[Finding]) -> None:
        """Insert or replace findings by id."""
        ...

    async def findings(self, tenant_id: str, review_id: str) -> list[Finding]:
        """A review's findings, in a stable order."""
        ...

    async def erase_findings(self, tenant_id: str, memory_ids: Sequence[str]) -> tuple[int, list[str]]:
        """Delete findings naming any of these memories; (findings deleted, tables touched)."""
        ...

    async def put_report(self, tenant_id: str, report_id: str, report: UsageReport) -> None:
        """Keep a usage report (an audit batch's), replacing one with the same id."""
        ...

    async def reports(self, tenant_id: str, limit: int) -> list[tuple[str, UsageReport]]:
        """Kept usage reports with their ids, newest first."""
        ...


class TenantArchive(Protocol):
    """Every stored row of a tenant as JSON-ready rows, by kind, and back (export and import)."""

    def rows(self, tenant_id: str, end_user_id: str | None, with_vectors: bool) -> AsyncIterator[tuple[str, Row]]:
        """(kind, row) of every row, or of the rows that concern one contact; stable order."""
        ...

    async def is_empty(self, tenant_id: str) -> bool:
        """Whether the tenant has nothing stored but events (its first key's creation is one)."""
        ...

    async def tenants(self) -> list[str]:
        """Every tenant with anything stored, sorted."""
        ...

    def misfit(self, kind: str, rows: Sequence[Row], model_name: str) -> tuple[int, str] | None:
        """The first of ``rows`` that ``import_rows`` could not write, and why; None when all fit."""
        ...

    async def import_rows(
        self,
        tenant_id: str,
        kind: str,
        rows: Sequence[Row],
        embed: Callable[[list[str]], Awaitable[list[list[float]]]],
        model_name: str,
        *,
        resume: bool = False,
    ) -> int:
        """Write rows of one kind; the rows written. Memory rows lacking a vector of ``model_name`` are embedded.

        ``resume``: leave out the rows whose key the tenant holds (an import cut short wrote them).
        """
        ...


class Clock(Protocol):
    """The time source (a frozen clock in tests)."""

    def now(self) -> datetime:
        """The current UTC time."""
        ...
