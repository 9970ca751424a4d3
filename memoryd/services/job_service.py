"""JobService: enqueue by business key, and read, watch and re-drive jobs.

Enqueueing a key that is live returns the existing job; the ledger is the
truth, the queue only carries keys. Every read is by tenant: a job key of
another tenant is NOT_FOUND, whatever its name says.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence

from memoryd.core.errors import InvalidRequest, NotFound, PreconditionFailed, Unavailable
from memoryd.core.job_records import LIVE_STATES, REDRIVABLE_STATES, JobEvent, JobKind, JobRecord, JobState
from memoryd.core.ports import Clock, JobLedger, JobQueue
from memoryd.core.validation import check_range

_MAX_KEY = 512
_ENQUEUE_CHUNK = 50
"""Jobs claimed together by ``enqueue_many``: one WATCH and one MULTI over this many records (a chunk is
submitted before the next is claimed, so its first job starts after this many submits)."""


class JobService:
    """The job ledger's front door, used by the daemon, the workers and the CLI."""

    def __init__(self, ledger: JobLedger, queue: JobQueue, clock: Clock) -> None:
        self._ledger = ledger
        self._queue = queue
        self._clock = clock

    async def enqueue(
        self,
        kind: JobKind,
        tenant_id: str,
        key: str,
        agent_id: str = "",
        *,
        redrive: bool = False,
        defer_seconds: float = 0,
    ) -> JobRecord:
        """The job of ``key``: created and queued, re-driven (``redrive`` and failed/dead), or as it is."""
        now = self._clock.now()
        record, started = await self._ledger.claim(
            JobRecord(key, kind, tenant_id, agent_id, created_at=now, updated_at=now), redrive=redrive
        )
        if started or record.state == JobState.QUEUED:
            # A queued record whose message was lost (crash between the two writes) is healed
            # here: the queue ignores a second message of the same run.
            await self._queue.submit(record, defer_seconds)
        return record

    async def enqueue_many(
        self, kind: JobKind, jobs: Sequence[tuple[str, str, str]], *, redrive: bool = False
    ) -> list[JobRecord]:
        """``enqueue`` of each (tenant, key, agent) job, due now: a batch's fan-out in a few round trips a chunk.

        Each job was ~7 round trips to Valkey one after another (a tenth of a bootstrap batch's event loop);
        a chunk's records are claimed together, and the workers woken once a chunk.
        """
        out: list[JobRecord] = []
        for start in range(0, len(jobs), _ENQUEUE_CHUNK):
            now = self._clock.now()
            chunk = [
                JobRecord(key, kind, tenant_id, agent_id, created_at=now, updated_at=now)
                for tenant_id, key, agent_id in jobs[start : start + _ENQUEUE_CHUNK]
            ]
            claimed = await self._ledger.claim_many(chunk, redrive=redrive)
            await self._queue.submit_many([r for r, started in claimed if started or r.state == JobState.QUEUED])
            out.extend(r for r, _ in claimed)
        return out

    async def reachable(self) -> bool:
        """Whether the ledger answers now (the daemon's health service reports it)."""
        try:
            await self._ledger.ping()
        except Unavailable:
            return False
        return True

    async def get(self, tenant_id: str, key: str) -> JobRecord:
        """One job of the tenant."""
        record = await self._ledger.get(tenant_id, _check_key(key))
        if record is None:
            raise NotFound(f"job {key!r} not found")
        return record

    async def list_jobs(
        self, tenant_id: str, kind: JobKind | None, state: JobState | None, agent_id: str, page_size: int, before: float
    ) -> tuple[list[JobRecord], bool]:
        """One page of the tenant's jobs, newest first, and whether more follow."""
        check_range(page_size, "page_size", 1, 500)
        if before < 0:
            raise InvalidRequest("page_token", "must come from a previous ListJobs reply")
        page = await self._ledger.page(tenant_id, kind, state, agent_id, page_size + 1, before)
        return page[:page_size], len(page) > page_size

    async def watch(self, tenant_id: str, key: str, poll_seconds: float = 5.0) -> AsyncIterator[JobEvent]:
        """Every event of the job from its first, then live ones, until it is no longer live."""
        await self.get(tenant_id, key)
        cursor = ""
        while True:
            batch = await self._ledger.events(tenant_id, key, cursor, poll_seconds)
            for _, event in batch:
                yield event
            if batch:
                cursor = batch[-1][0]
            if not batch:
                record = await self.get(tenant_id, key)
                if record.state not in LIVE_STATES:
                    return
            elif batch[-1][1].state not in LIVE_STATES:
                # The last event is terminal unless a re-drive already followed it.
                record = await self.get(tenant_id, key)
                if record.state not in LIVE_STATES:
                    return

    async def retry(self, tenant_id: str, key: str) -> JobRecord:
        """Re-drive a failed or dead job (a new run from attempt 1)."""
        record = await self.get(tenant_id, key)
        if record.state not in REDRIVABLE_STATES:
            raise PreconditionFailed(f"job {key!r} is {record.state.value}; only failed or dead jobs can be retried")
        return await self.enqueue(record.kind, tenant_id, key, record.agent_id, redrive=True)

    async def resume_waiting(self) -> int:
        """Re-queue jobs parked for want of a model (called by a worker that has one)."""
        parked = await self._ledger.in_state(JobState.WAITING_FOR_PROVIDER)
        for record in parked:
            await self._queue.submit(record)
        return len(parked)

    async def reconcile(self, stale_seconds: float) -> int:
        """Queue again the live jobs whose queue message may be lost or stuck; the number re-queued.

        A queued, running or retrying record untouched for ``stale_seconds`` (and past its next
        attempt) gets its message submitted again: after a Redis restart that lost messages but kept
        the ledger, or a deferred retry whose message expired during a long outage, nothing waits
        forever. Submitting is safe when the message still exists (the queue refuses a message id it
        holds) and when the job finished meanwhile (a worker drops a message whose record is done).

        A stale queued or retrying record is released as well (the queue's in-progress mark of its
        message deleted): a worker marks a message before it writes ``running`` and unmarks it after it
        writes the next state, so a mark beside such a record was left by a worker that died between
        the two, or by a Redis restart that kept the mark but lost the unmarking. The queue would hold
        the message for the whole job timeout. A running record is never released here: its worker may
        be alive (``reclaim_orphans`` frees a dead worker's).
        """
        now = self._clock.now()
        requeued = 0
        for state in (JobState.QUEUED, JobState.RETRYING, JobState.RUNNING):
            for record in await self._ledger.in_state(state):
                touched = record.updated_at or record.created_at or now
                due = record.next_attempt_at or touched
                if (now - touched).total_seconds() < stale_seconds or due > now:
                    continue
                if state is JobState.RUNNING:
                    await self._queue.submit(record)
                elif await self._ledger.get(record.tenant_id, record.key) == record:  # not taken meanwhile
                    await self._queue.release(record)
                else:
                    continue
                requeued += 1
        return requeued

    async def reclaim_orphans(self, alive: Callable[[str], Awaitable[bool]]) -> int:
        """Free the running jobs of workers that died (their heartbeat stopped); the number freed.

        A worker killed mid-job (or one that lost Redis and exited) leaves its jobs ``running`` and
        their messages held by the queue for the whole job timeout. Freed, each is delivered again at
        once and re-run: bodies converge, so even a worker only presumed dead costs a repeat, not a
        duplicate.
        """
        freed = 0
        verdicts: dict[str, bool] = {}
        for record in await self._ledger.in_state(JobState.RUNNING):
            if not record.worker:
                continue  # written before workers were named: reclaimed after the timeout, as before
            if record.worker not in verdicts:
                verdicts[record.worker] = await alive(record.worker)
            if not verdicts[record.worker]:
                await self._queue.release(record)
                freed += 1
        return freed

    async def live_counts(self) -> dict[tuple[JobKind, JobState], int]:
        """Live jobs across tenants by kind and state (metrics)."""
        counts: dict[tuple[JobKind, JobState], int] = {}
        for state in sorted(LIVE_STATES):
            for record in await self._ledger.in_state(state):
                counts[record.kind, state] = counts.get((record.kind, state), 0) + 1
        return counts

    async def backlog(self) -> dict[str, tuple[int, float]]:
        """Per queue: messages held, and how long the oldest due one has waited (metrics)."""
        return await self._queue.backlog(self._clock.now())

    async def record(self, tenant_id: str, key: str) -> JobRecord | None:
        """The record or None (workers: a message whose record is gone is dropped)."""
        return await self._ledger.get(tenant_id, key)

    async def records(self, keys: Sequence[tuple[str, str]]) -> list[JobRecord | None]:
        """Many records by (tenant, key) at once (batches checking their parts)."""
        return await self._ledger.get_many(keys)

    async def update(self, record: JobRecord, message: str) -> None:
        """Write a state change (workers)."""
        await self._ledger.update(record, message)

    async def flag(self, name: str) -> bool:
        """Whether an operator-level flag is set."""
        return await self._ledger.flag(name)

    async def set_flag(self, name: str) -> None:
        """Set an operator-level flag."""
        await self._ledger.set_flag(name)

    async def add_parts(self, batch_key: str, parts: Mapping[str, tuple[str, str]]) -> None:
        """Remember the jobs a batch fanned out (by part name)."""
        await self._ledger.add_parts(batch_key, parts)

    async def parts(self, batch_key: str) -> dict[str, tuple[str, str]]:
        """The jobs a batch fanned out, by part name: (tenant, key)."""
        return await self._ledger.parts(batch_key)


def _check_key(key: str) -> str:
    if not key or len(key) > _MAX_KEY or any(c in key for c in "\n\r\x00"):
        raise InvalidRequest("job_id", f"must be 1-{_MAX_KEY} printable characters")
    return key
