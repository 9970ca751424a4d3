"""Background work and per-tenant behaviour: jobs, working memory, audits, retention, PII, settings caches."""

from __future__ import annotations

from dataclasses import replace
from enum import StrEnum
from typing import Any

from pydantic import Field, field_validator

from memoryd.config.base import _POLICY, _RETRY, _REVIEW, _Section
from memoryd.core.agent_config import RETENTION_LEAST_DAYS
from memoryd.core.calibration import EmbedderCalibration
from memoryd.core.conversation import MAX_WINDOW, MIN_WINDOW, POLICY_BOUNDS, StorageScope, Strategy, WorkingPolicy
from memoryd.core.job_records import RetryPolicy
from memoryd.core.pii import PiiPolicy
from memoryd.core.retention import RetentionPolicy
from memoryd.core.review import ApplyPolicy, ReviewLimits
from memoryd.core.schedule import check_schedule


class JobSettings(_Section):
    """Workers, retries and the provider guards."""

    poll_seconds: float = Field(0.05, gt=0)
    """How often an idle worker polls its queue (arq's default 0.5 s adds ~250 ms to every job).

    A job queued to run now wakes the workers at once (``workers.wake``); the polls start deferred
    runs (retries, backoffs) when due and carry any wake-up lost while Valkey was away.
    """
    model_concurrency: int = Field(16, ge=1)
    """Model calls one worker has in flight at once (its share of the provider)."""
    model_jobs: int | None = Field(None, ge=1)
    """Model-bound jobs one worker runs at once; by default twice ``model_concurrency``.

    A job's reads, writes and ledger updates then run while other jobs' calls hold the model slots,
    instead of holding a slot idle around its own call (``docs/benchmarks.md``, session 28).
    """
    short_concurrency: int = Field(32, ge=1)
    model_job_timeout_seconds: float = Field(300.0, gt=0)
    """A model-bound job's wall time (a killed worker's jobs are freed sooner: ``worker_heartbeat_seconds``)."""
    short_job_timeout_seconds: float = Field(30.0, gt=0)
    reconcile_stale_seconds: float = Field(120.0, gt=0)
    """A live job untouched this long gets its queue message submitted again (every minute, by a worker)."""
    worker_heartbeat_seconds: float = Field(15.0, gt=0)
    """A worker renews its heartbeat three times within this; the running jobs of one whose heartbeat
    lapsed are freed and run again (instead of waiting out the job timeout)."""
    max_tries: int = Field(_RETRY.max_tries, ge=1)
    """Attempts before a retryable failure makes the job ``dead``."""
    backoff_base_seconds: float = Field(_RETRY.backoff_base_seconds, gt=0)
    backoff_cap_seconds: float = Field(_RETRY.backoff_cap_seconds, gt=0)
    breaker_threshold: int = Field(5, ge=1)
    """Consecutive provider failures (any worker) that open the circuit."""
    breaker_cooldown_seconds: float = Field(30.0, gt=0)
    tenant_concurrency: int = Field(4, ge=1)
    """Concurrent provider calls of one tenant across all workers."""
    keep_days: float = Field(30.0, gt=0)
    """Finished job records are kept this long."""
    bootstrap_at_start: bool = True
    """The daemon queues the bootstrap batch at start when this schema version is not done."""
    bootstrap_archive_tokens: int = Field(6000, ge=100)
    """Share of the bootstrap prompt given to the archive (newest memories first)."""

    @property
    def model_job_slots(self) -> int:
        """``model_jobs``, or twice ``model_concurrency``."""
        return self.model_jobs or 2 * self.model_concurrency

    def retry_policy(self) -> RetryPolicy:
        """The core value of the retry settings."""
        return RetryPolicy(self.max_tries, self.backoff_base_seconds, self.backoff_cap_seconds)


def _bounded_optional(name: str) -> Any:
    low, high = POLICY_BOUNDS[name]
    return Field(None, ge=low, le=high)


def _bounded(name: str, doc: str = "") -> Any:
    """A policy field: the core default and the core bounds (``core.conversation.POLICY_BOUNDS``)."""
    low, high = POLICY_BOUNDS[name]
    return Field(getattr(_POLICY, name), ge=low, le=high, description=doc or None)


class WorkingPolicySettings(_Section):
    """One agent's working-memory policy; defaults and bounds come from ``core.conversation``."""

    strategy: Strategy = _POLICY.strategy
    window_messages: int = _bounded("window_messages", "buffer_window: the last N messages.")
    budget_tokens: int = _bounded("budget_tokens", "summary_buffer: the token budget of the messages.")
    buffer_threshold: float = _bounded("buffer_threshold")
    buffer_target: float = _bounded("buffer_target")
    threshold_percent: int = _bounded("threshold_percent", "accumulate: compact above this share of the window.")
    keep_percent: int = _bounded("keep_percent", "accumulate: the raw keep-window's share of the window.")
    max_summaries: int = _bounded("max_summaries", "More live summaries and the oldest merge (``[compressed]``).")
    summary_budget_percent: int = _bounded("summary_budget_percent", "Summaries over this share merge too.")
    tool_intact: int = _bounded("tool_intact")
    tool_truncated: int = _bounded("tool_truncated")
    tool_truncate_chars: int = _bounded("tool_truncate_chars")
    storage_scope: StorageScope = _POLICY.storage_scope
    auto_recall: bool = _POLICY.auto_recall
    recall_limit: int = _bounded("recall_limit")
    recall_threshold: float = _bounded("recall_threshold")
    batch_size: int = _bounded(
        "batch_size", "File what compaction drops once N messages are pending; 0: at EndSession."
    )
    compaction_model: str = Field(_POLICY.compaction_model, max_length=200)
    """The provider's model for compaction calls; empty: ``[provider] extraction_model``."""
    collection: str = Field(_POLICY.collection, pattern=r"^([A-Za-z0-9._-]{1,64})?$")
    """The named collection compaction files memories in; empty: none."""
    redo_fallback_summaries: bool = _POLICY.redo_fallback_summaries
    """The first compaction with a model rewrites the summaries made without one."""

    def policy(self) -> WorkingPolicy:
        """The core value these settings describe."""
        return WorkingPolicy(**self.model_dump())


class WorkingOverride(_Section):
    """A per-agent override: any policy key, each optional (unset: the default policy's value)."""

    strategy: Strategy | None = None
    window_messages: int | None = _bounded_optional("window_messages")
    budget_tokens: int | None = _bounded_optional("budget_tokens")
    buffer_threshold: float | None = _bounded_optional("buffer_threshold")
    buffer_target: float | None = _bounded_optional("buffer_target")
    threshold_percent: int | None = _bounded_optional("threshold_percent")
    keep_percent: int | None = _bounded_optional("keep_percent")
    max_summaries: int | None = _bounded_optional("max_summaries")
    summary_budget_percent: int | None = _bounded_optional("summary_budget_percent")
    tool_intact: int | None = _bounded_optional("tool_intact")
    tool_truncated: int | None = _bounded_optional("tool_truncated")
    tool_truncate_chars: int | None = _bounded_optional("tool_truncate_chars")
    storage_scope: StorageScope | None = None
    auto_recall: bool | None = None
    recall_limit: int | None = _bounded_optional("recall_limit")
    recall_threshold: float | None = _bounded_optional("recall_threshold")
    batch_size: int | None = _bounded_optional("batch_size")
    compaction_model: str | None = Field(None, max_length=200)
    collection: str | None = Field(None, pattern=r"^([A-Za-z0-9._-]{1,64})?$")
    redo_fallback_summaries: bool | None = None

    def values(self) -> dict[str, bool | int | float | str]:
        """The keys this override sets, named as in the agent-settings catalogue (``working.<key>``)."""
        return {
            f"working.{k}": v.value if isinstance(v, StrEnum) else v
            for k, v in self.model_dump(exclude_none=True).items()
        }

    def applied_to(self, policy: WorkingPolicy) -> WorkingPolicy:
        """``policy`` with the keys this override sets."""
        return replace(policy, **self.model_dump(exclude_none=True))


class WorkingSettings(_Section):
    """Working memory: the default policy, per-agent overrides, the default context window."""

    default: WorkingPolicySettings = WorkingPolicySettings()
    agents: dict[str, WorkingOverride] = Field(default_factory=dict)
    """Per-agent overrides of ``default``, e.g. ``[working.agents.support-bot] strategy = "buffer_window"``."""
    context_window_tokens: int = Field(8192, ge=MIN_WINDOW, le=MAX_WINDOW)
    """Assumed model window of a conversation whose runtime never said."""


class AuditSettings(_Section):
    """Memory audits: review_memories, its auto-apply policy, the schedule, usage-report alarms."""

    apply: ApplyPolicy = ApplyPolicy.NONE
    """Which findings a review applies on its own: ``none`` (the default: they are proposals), ``rules``
    (identical texts, clutter, long-unused memories), ``all`` (every confirmed finding)."""
    tenants: dict[str, ApplyPolicy] = Field(default_factory=dict)
    """Per-tenant ``apply`` policy, e.g. ``[audits.tenants] acme = "rules"``."""
    schedule: str = ""
    """A five-field cron expression in UTC (``"0 3 * * *"``) for the audit batch; empty: off (the embedded
    default)."""
    duplicate_similarity: float | None = Field(None, gt=0, le=1)
    """Near-duplicates at least this similar; unset: the embedder's calibration (``core.calibration``)."""
    contradiction_similarity: float | None = Field(None, gt=0, le=1)
    """Contradiction candidates at least this similar; unset: the embedder's calibration."""
    newer_similarity: float | None = Field(None, gt=0, le=1)
    """Stale: a newer memory at least this similar replaces an old one; unset: the embedder's calibration."""
    stale_days: float = Field(_REVIEW.stale_days, gt=0)
    max_model_calls: int = Field(_REVIEW.max_model_calls, ge=0)
    """Model calls per review at most (a review over the budget keeps the rules' actions for the rest)."""
    findings_per_call: int = Field(_REVIEW.findings_per_call, ge=1)
    max_prompt_tokens: int = Field(_REVIEW.max_prompt_tokens, ge=500)
    concentration_top1_share: float = Field(0.5, gt=0, le=1)
    """Usage alarm: the top 1 % of memories hold at least this share of all retrievals."""
    never_retrieved_share: float = Field(0.8, gt=0, le=1)
    """Usage alarm: at least this share of active memories was never retrieved."""

    @field_validator("schedule")
    @classmethod
    def _cron(cls, value: str) -> str:
        return check_schedule(value)

    def limits(self, calibrated: EmbedderCalibration) -> ReviewLimits:
        """The core value of the review thresholds (configured, else the embedder's) and budget."""
        return replace(
            _REVIEW,
            duplicate_similarity=_given(self.duplicate_similarity, calibrated.review_duplicate),
            contradiction_similarity=_given(self.contradiction_similarity, calibrated.review_contradiction),
            newer_similarity=_given(self.newer_similarity, calibrated.review_newer),
            stale_days=self.stale_days,
            max_model_calls=self.max_model_calls,
            findings_per_call=self.findings_per_call,
            max_prompt_tokens=self.max_prompt_tokens,
        )

    def policy_for(self, tenant_id: str) -> ApplyPolicy:
        """The tenant's apply policy."""
        return self.tenants.get(tenant_id, self.apply)


class RetentionDays(_Section):
    """How long things are kept, in days (0 keeps forever): the section's defaults, or one tenant's."""

    memories_days: float = Field(0.0, ge=0)
    """Memories created longer ago are deleted (pinned ones never); 0 (default) keeps them forever."""
    conversations_days: float = Field(0.0, ge=0)
    """Conversations untouched for longer are deleted with every item; 0 keeps them forever."""
    servings_days: float = Field(30.0, ge=0)
    """The served log (what was served to whom) keeps this many days; 0 keeps it forever."""
    graph_days: float = Field(0.0, ge=0)
    """Non-pinned graph facts and episodes created longer ago are deleted, then orphaned entities; 0 keeps them."""
    graph_decay_days: float = Field(180.0, ge=0)
    """Non-pinned graph facts less sure than ``graph_decay_confidence`` that nobody stated for this long are
    archived (not searched; back when stated again or restored): an extraction heard once half a year ago
    (confidence 0.6) goes, one heard twice (0.84) or asserted by a person (1.0) stays. 0: never."""
    graph_decay_confidence: float = Field(0.7, ge=0, le=1)

    @field_validator("memories_days", "conversations_days", "servings_days", "graph_days")
    @classmethod
    def _a_day_at_least(cls, value: float) -> float:
        if 0 < value < RETENTION_LEAST_DAYS:  # as SetTenantConfig refuses it: a typo that empties the tenant
            raise ValueError(f"must be 0 (keep forever) or at least {RETENTION_LEAST_DAYS:g} day")
        return value


class RetentionSettings(RetentionDays):
    """Retention: the daily purge of old memories and conversations (profiles are never expired)."""

    tenants: dict[str, RetentionDays] = Field(default_factory=dict)
    """Per-tenant days, e.g. ``[retention.tenants.acme] memories_days = 365``; what a tenant leaves out is the
    section's (a tenant keeping memories a year still drops servings when the section says so)."""

    def policy_for(self, tenant_id: str) -> RetentionPolicy:
        """The tenant's days, each one it does not set the section's."""
        days = self.model_dump(include=set(RetentionDays.model_fields))
        own = self.tenants.get(tenant_id)
        if own is not None:
            days |= own.model_dump(include=own.model_fields_set)
        return RetentionPolicy(**days)


class PiiSettings(_Section):
    """The PII floor for text callers write directly (memoryd's own derived text is always redacted)."""

    policy: PiiPolicy = PiiPolicy.OFF
    """``off`` (callers' text is stored as written), ``redact`` (identifiers become ``[email]``…), ``block``."""
    tenants: dict[str, PiiPolicy] = Field(default_factory=dict)
    """Per-tenant policy, e.g. ``[pii.tenants] acme = "redact"``."""

    def policy_for(self, tenant_id: str) -> PiiPolicy:
        """The tenant's policy, else the default."""
        return self.tenants.get(tenant_id, self.policy)


class AgentConfigSettings(_Section):
    """Stored per-tenant and per-agent settings (SetTenantConfig, SetAgentConfig)."""

    cache_seconds: float = Field(5.0, ge=0, le=3600)
    """Resolved settings are kept this long per agent: a change made through another replica is seen within it."""


def _given(value: float | None, calibrated: float) -> float:
    return calibrated if value is None else value
