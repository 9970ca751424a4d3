"""Jobs as values: states, ledger records, keys and the retry schedule. Pure.

A job's key is its business identity (``bootstrap:{tenant}:{agent}:v{N}``), so
enqueueing the same work twice finds the same record. The ledger record is the
durable truth about a job; the queue only carries the key to a worker.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any


class JobState(StrEnum):
    """Where a job is in its life."""

    QUEUED = "queued"
    RUNNING = "running"
    WAITING_FOR_PROVIDER = "waiting_for_provider"
    """Model-bound and no model is configured: parked until a worker with one starts."""
    RETRYING = "retrying"
    """A retryable failure (provider down, throttled, circuit open): another attempt is scheduled."""
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    """A permanent failure (bad request, invalid model output); re-drivable with RetryJob."""
    DEAD = "dead"
    """Retryable failures exhausted the tries; re-drivable with RetryJob."""


LIVE_STATES = frozenset({JobState.QUEUED, JobState.RUNNING, JobState.WAITING_FOR_PROVIDER, JobState.RETRYING})
REDRIVABLE_STATES = frozenset({JobState.FAILED, JobState.DEAD})


class JobKind(StrEnum):
    """What a job does; each kind runs on one queue."""

    BOOTSTRAP = "bootstrap"
    """Compile one agent's archive into its profile (one model call)."""
    REGENERATE = "regenerate"
    """RegenerateProfile of one agent: the bootstrap body, asked for by the agent (Pinned kept)."""
    BOOTSTRAP_ALL = "bootstrap_all"
    """Fan out BOOTSTRAP to every agent of every tenant and set the done flag."""
    COMPACT = "compact"
    """Summarise a conversation's old messages and run the maintenance call (or the extractive path)."""
    REVIEW = "review"
    """review_memories: audit one agent's archive (rules, then the model when there is one)."""
    REVIEW_ALL = "review_all"
    """The audit batch: a review per agent with activity since the last audit, then usage reports."""
    RETENTION = "retention"
    """The daily retention purge over every tenant with a policy."""
    GRAPH_EXTRACT = "graph_extract"
    """After a compaction: one model call turns the new summary into memory-graph facts."""
    REEMBED = "reembed"
    """Fill one tenant's archive in a re-embed's space, then switch its Recall there (no chat model)."""


class Outcome(StrEnum):
    """What a successful job did (``result["outcome"]``)."""

    COMPILED = "compiled"
    NOTHING_TO_COMPILE = "nothing_to_compile"
    ALREADY_COMPILED = "already_compiled"
    COMPACTED = "compacted"
    REVIEWED = "reviewed"
    NOTHING_TO_COMPACT = "nothing_to_compact"
    NO_CONVERSATION = "no_conversation"
    EXTRACTED = "extracted"
    NOTHING_TO_EXTRACT = "nothing_to_extract"
    FILED = "filed"
    """EndSession found nothing left to compact, only compacted messages waiting to be filed."""


JobResult = dict[str, str | int | float | bool]
"""A job's small summary of what it did (revision written, tokens used, agents done...)."""

MODEL_BOUND = frozenset({JobKind.BOOTSTRAP, JobKind.REGENERATE, JobKind.COMPACT, JobKind.REVIEW, JobKind.GRAPH_EXTRACT})
SYSTEM_TENANT = "@system"
"""The ledger partition of operator-level jobs (batches); ``@`` is not allowed in tenant ids."""


@dataclass(frozen=True, slots=True)
class JobRecord:
    """The durable ledger entry of one job."""

    key: str
    kind: JobKind
    tenant_id: str
    agent_id: str = ""
    state: JobState = JobState.QUEUED
    attempts: int = 0
    """Attempts that reached the work (deferrals before the provider was called do not count)."""
    run: int = 1
    """Incremented by each re-drive; the queue message of run N is ``{key}#{N}``."""
    last_error: str = ""
    progress_done: int = 0
    progress_total: int = 0
    created_at: datetime | None = None
    updated_at: datetime | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None
    next_attempt_at: datetime | None = None
    result: JobResult = field(default_factory=dict)
    """A small summary of what the job did (revision written, tokens used, agents done...)."""
    worker: str = ""
    """The worker process running it (while ``running``): a worker whose heartbeat stopped left it orphaned."""

    @property
    def live(self) -> bool:
        """Queued, running, waiting or retrying: enqueueing the key again returns this job."""
        return self.state in LIVE_STATES

    def redriven(self, at: datetime | None) -> JobRecord:
        """A new run of this (failed or dead) job: queued again with its attempts and error cleared."""
        return replace(
            self,
            state=JobState.QUEUED,
            run=self.run + 1,
            attempts=0,
            last_error="",
            updated_at=at,
            finished_at=None,
            next_attempt_at=None,
            result={},
        )

    def event(self, message: str, now: datetime) -> JobEvent:
        """The event this state of the record streams to WatchJob (``now`` when it carries no time)."""
        return JobEvent(
            self.key,
            self.state,
            message,
            self.attempts,
            self.progress_done,
            self.progress_total,
            self.updated_at or now,
        )

    def claimable(self, *, redrive: bool) -> bool:
        """Whether enqueueing this key again starts a run (``JobLedger.claim``): only a re-drive of a failure."""
        return redrive and not self.live and self.state in REDRIVABLE_STATES

    @property
    def message_id(self) -> str:
        """The queue message id of the current run."""
        return f"{self.key}#{self.run}"


@dataclass(frozen=True, slots=True)
class JobEvent:
    """One step of a job, as WatchJob streams it."""

    key: str
    state: JobState
    message: str
    attempts: int
    progress_done: int
    progress_total: int
    at: datetime


def bootstrap_key(tenant_id: str, agent_id: str, schema_version: int) -> str:
    """The business identity of one agent's bootstrap for a profile-schema version."""
    return f"bootstrap:{tenant_id}:{agent_id}:v{schema_version}"


def regenerate_key(tenant_id: str, agent_id: str, revision: int) -> str:
    """RegenerateProfile of the profile at ``revision``: asking twice for the same revision is one job."""
    return f"regenerate:{tenant_id}:{agent_id}:r{revision}"


def bootstrap_all_key(schema_version: int, since: str = "") -> str:
    """The batch over every agent for a profile-schema version; ``since``: a later batch for agents added since."""
    return f"bootstrap_all:v{schema_version}" + (f":{since}" if since else "")


def bootstrap_done_flag(schema_version: int) -> str:
    """Set once every agent's bootstrap of this version succeeded or had nothing to compile."""
    return f"bootstrap_done:v{schema_version}"


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How retryable failures are retried; the defaults here are the shipped defaults."""

    max_tries: int = 8
    """Attempts before a retryable failure makes the job ``dead``."""
    backoff_base_seconds: float = 2.0
    backoff_cap_seconds: float = 300.0
    busy_retry_seconds: float = 0.5
    """Wait of a job whose tenant is at its provider-call limit."""


def backoff_seconds(attempt: int, base: float, cap: float, jitter: float) -> float:
    """Exponential backoff with full jitter: uniform in [0, min(cap, base·2^(attempt-1))].

    ``jitter`` is a number in [0, 1) from the caller's random source, so this
    stays a pure function; full jitter spreads the retries of many jobs that
    failed together (a provider outage) instead of having them return in step.
    """
    ceiling = min(cap, base * (2 ** max(0, attempt - 1)))
    return float(max(base / 10, ceiling * jitter))


def retry_delay(attempt: int, base: float, cap: float, jitter: float, retry_after: float | None) -> float:
    """The wait before the next attempt: the provider's Retry-After when it gave one, else backoff."""
    if retry_after is not None and retry_after > 0:
        return retry_after + base / 10 * jitter
    return backoff_seconds(attempt, base, cap, jitter)


BATCH_CHECK_FLOOR_SECONDS = 0.1
"""The shortest wait between a batch's checks of its parts (each check reads every part's record)."""


def batch_check(live: int, finished: int, now: float, before: JobResult, ceiling: float) -> tuple[float, JobResult]:
    """When a batch waiting for ``live`` parts looks again, and what its summary keeps for the next check.

    A fixed interval left a batch of a thousand agents waiting most of a second after its last part. The
    parts' pace since the batch's first check (``before``: its summary then) foretells the end, so the
    checks come as often as the floor allows only near it; a check that found nothing finished since the
    last waits half as long again as the last did (a straggler, a provider down), up to the ``ceiling``.
    """
    since, since_at = before.get("paced_from_finished"), before.get("paced_from_at")
    last, last_wait = before.get("checked_finished"), before.get("checked_wait")
    if not (isinstance(since, int) and isinstance(since_at, float) and isinstance(last, int)):
        wait, since, since_at = ceiling, finished, now  # the first check: no pace yet
    elif finished <= last:
        wait = min(ceiling, 1.5 * float(last_wait or ceiling))
    elif finished > since and now > since_at:
        wait = min(ceiling, max(BATCH_CHECK_FLOOR_SECONDS, live * (now - since_at) / (finished - since)))
    else:
        wait = ceiling
    marks: JobResult = {
        "paced_from_finished": since,
        "paced_from_at": since_at,
        "checked_finished": finished,
        "checked_wait": wait,
    }
    return wait, marks


@dataclass(frozen=True, slots=True)
class BatchTally:
    """Where a batch's parts stand at one check, and when the batch looks again."""

    succeeded: int
    failed: int
    """Failed or dead."""
    remaining: int
    wait: float
    summary: JobResult
    """The counts and ``batch_check``'s marks, for the batch's result."""

    @property
    def finished(self) -> int:
        """Parts that ended, either way."""
        return self.succeeded + self.failed


def tally_batch(
    states: Mapping[JobState, int], parts: int, now: float, before: JobResult, ceiling: float
) -> BatchTally:
    """A batch's check over how many of its ``parts`` (one an agent) are in each state (``batch_check``)."""
    succeeded = states.get(JobState.SUCCEEDED, 0)
    failed = states.get(JobState.FAILED, 0) + states.get(JobState.DEAD, 0)
    remaining = parts - succeeded - failed
    wait, marks = batch_check(remaining, succeeded + failed, now, before, ceiling)
    summary: JobResult = {"agents": parts, "succeeded": succeeded, "failed": failed, "remaining": remaining, **marks}
    return BatchTally(succeeded, failed, remaining, wait, summary)


_TIMES = ("created_at", "updated_at", "started_at", "finished_at", "next_attempt_at")


def job_to_json(record: JobRecord) -> dict[str, Any]:
    """A record as plain JSON values (times as ISO-8601): the ledger's and the export's form."""
    data = asdict(record)
    for name in _TIMES:
        value = data[name]
        data[name] = value.isoformat() if value else None
    return data


def job_from_json(data: dict[str, Any]) -> JobRecord:
    """The record ``job_to_json`` wrote."""
    data = dict(data)
    for name in _TIMES:
        data[name] = datetime.fromisoformat(data[name]) if data[name] else None
    data["kind"] = JobKind(data["kind"])
    data["state"] = JobState(data["state"])
    return JobRecord(**data)
