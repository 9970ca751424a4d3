"""Background jobs: the ledger, the queue, the provider gate, leases."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Protocol

from memoryd.core.job_records import JobEvent, JobKind, JobRecord, JobState
from memoryd.core.model_usage import ModelUsage


class JobLedger(Protocol):
    """The durable records of jobs, partitioned by tenant, with an event stream per job."""

    async def claim(self, record: JobRecord, *, redrive: bool) -> tuple[JobRecord, bool]:
        """Create the record, or return the existing one; True when this call (re)started a run.

        A live record is returned as it is. A failed or dead one is re-driven (new run,
        state queued) when ``redrive``; a succeeded one is returned as it is.
        """
        ...

    async def claim_many(self, records: Sequence[JobRecord], *, redrive: bool) -> list[tuple[JobRecord, bool]]:
        """``claim`` of each record (distinct keys), in order, in a few round trips for all (a batch's fan-out)."""
        ...

    async def get(self, tenant_id: str, key: str) -> JobRecord | None:
        """The record, or None."""
        ...

    async def get_many(self, keys: Sequence[tuple[str, str]]) -> list[JobRecord | None]:
        """Records of (tenant, key) pairs in one round trip, None where absent."""
        ...

    async def page(
        self, tenant_id: str, kind: JobKind | None, state: JobState | None, agent_id: str, limit: int, before: float
    ) -> list[JobRecord]:
        """Newest first, created before the ``before`` timestamp (0: from the newest)."""
        ...

    async def update(self, record: JobRecord, message: str) -> None:
        """Write the record's new state and append an event (one atomic step); nothing if it was erased."""
        ...

    async def events(self, tenant_id: str, key: str, after: str, block_seconds: float) -> list[tuple[str, JobEvent]]:
        """Events after the cursor ``after`` ("" from the start), waiting up to ``block_seconds``."""
        ...

    async def in_state(self, state: JobState) -> list[JobRecord]:
        """Every record in a live ``state`` across tenants (re-queueing parked jobs, the reconciler)."""
        ...

    async def ping(self) -> None:
        """One round trip to the ledger's server; Unavailable if it does not answer."""
        ...

    async def flag(self, name: str) -> bool:
        """Whether an operator-level flag is set."""
        ...

    async def set_flag(self, name: str) -> None:
        """Set an operator-level flag (durably)."""
        ...

    async def add_parts(self, batch_key: str, parts: Mapping[str, tuple[str, str]]) -> None:
        """Remember a batch's jobs: part name (e.g. tenant and agent) → (tenant, job key).

        A name set again points at its new job.
        """
        ...

    async def keys(self, tenant_id: str) -> list[str]:
        """Every job key of the tenant."""
        ...

    async def restore(self, record: JobRecord) -> None:
        """Write a record as it was (an import restores history; nothing is queued)."""
        ...

    async def erase(self, tenant_id: str, keys: Sequence[str]) -> int:
        """Delete these jobs' records and events; the number of records deleted."""
        ...

    async def purge_persistence(self, timeout_seconds: float = 60.0) -> bool:
        """Make deleted keys leave the server's persistence files; False when it cannot."""
        ...

    async def parts(self, batch_key: str) -> dict[str, tuple[str, str]]:
        """The jobs a batch remembered, by part name."""
        ...


class JobQueue(Protocol):
    """Delivers a job's key to a worker, at least once."""

    async def submit(self, record: JobRecord, defer_seconds: float = 0) -> None:
        """Queue the record's current run (a second submit of the same run is a no-op)."""
        ...

    async def submit_many(self, records: Sequence[JobRecord]) -> None:
        """``submit`` of each record's current run, due now; the workers woken once, not once per record."""
        ...

    async def forget(self, records: Sequence[JobRecord]) -> None:
        """Drop every message of these jobs, all runs (an erasure)."""
        ...

    async def backlog(self, now: datetime) -> dict[str, tuple[int, float]]:
        """Per queue: messages held, and how long the oldest one due by ``now`` has waited (s; 0 if none)."""
        ...

    async def release(self, record: JobRecord) -> None:
        """Free the record's current message from a dead worker's hold, so the next poll delivers it again."""
        ...


class ProviderGate(Protocol):
    """Shared across every worker: a circuit breaker on the provider and per-tenant call slots."""

    async def open_for(self) -> float:
        """Seconds the circuit stays open (0: closed, calls may go). Half-open, a 0 makes the caller the probe."""
        ...

    async def observed_open_for(self) -> float:
        """``open_for`` as an observer sees it (gauges, benchmarks): never taking the half-open probe."""
        ...

    async def record(self, ok: bool) -> None:
        """Count a call's outcome; enough consecutive failures open the circuit."""
        ...

    async def acquire(self, tenant_id: str, holder: str) -> bool:
        """Take one of the tenant's concurrent provider slots; False when all are taken."""
        ...

    async def release(self, tenant_id: str, holder: str) -> None:
        """Give the slot back."""
        ...


class Leases(Protocol):
    """Exclusive, expiring holds by name, shared by every worker (one compaction per conversation)."""

    async def lock(self, name: str, holder: str, seconds: float) -> bool:
        """Take the lease on ``name`` (re-entrant for ``holder``; expires after ``seconds``)."""
        ...

    async def unlock(self, name: str, holder: str) -> None:
        """Give the lease back if ``holder`` still has it."""
        ...

    async def is_held(self, name: str) -> bool:
        """Whether anyone holds ``name`` now (a heartbeat: a worker is alive while its lease is)."""
        ...


class ModelUsageStore(Protocol):
    """Each tenant's model calls and tokens per model per UTC day (kept ``MAX_DAYS``)."""

    async def add(self, tenant_id: str, day: date, model: str, usage: tuple[int, int, int, int]) -> None:
        """Count (calls, failed calls, tokens in, tokens out) to the tenant's model on that day."""
        ...

    async def days(self, tenant_id: str, days: Sequence[date]) -> list[ModelUsage]:
        """The tenant's usage on those days, by day then model (days without a call leave nothing)."""
        ...
