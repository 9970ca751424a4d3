"""Configuration: one TOML file plus environment variables, read once at the process edge.

Precedence (highest first): explicit overrides (command-line flags), the
product's short env names (``MEMORY_RRF_K``...), ``MEMORYD_<SECTION>__<KEY>``
env vars, the TOML file (``--config`` or ``MEMORYD_CONFIG``), defaults. This is
the only module that reads the environment.
"""

from __future__ import annotations

import os
import tomllib
import warnings
from dataclasses import fields, replace
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from memoryd import config_errors
from memoryd.core.audit import ApplyPolicy, ReviewLimits
from memoryd.core.conversation import (
    MAX_WINDOW,
    MIN_WINDOW,
    POLICY_BOUNDS,
    StorageScope,
    Strategy,
    WorkingPolicy,
)
from memoryd.core.job_records import RetryPolicy
from memoryd.core.pii import PiiPolicy
from memoryd.core.ranking import FullTextMode, FusionWeights, RecallTuning, VectorQuery
from memoryd.core.retention import RetentionPolicy
from memoryd.core.schedule import check_schedule

_RECALL = RecallTuning()
_REVIEW = ReviewLimits()
_RETRY = RetryPolicy()
_POLICY = WorkingPolicy()


class _Section(BaseModel):
    """A config section: unknown keys are errors (a typo must not silently fall back to a default)."""

    model_config = ConfigDict(extra="forbid")


class ServerSettings(_Section):
    """The gRPC listener."""

    host: str = "127.0.0.1"
    port: int = Field(50051, ge=0, le=65535)
    grace_seconds: float = Field(10.0, ge=0)
    """On SIGTERM, in-flight calls get this long to finish."""
    busy_poll_us: int = Field(300, ge=0, le=100_000)
    """Once every call is answered, the event loop polls this long for the next before it sleeps (0: at once).
    Back-to-back calls skip the wake-up (a Recall of 1,000 visible rows 2.0 → 1.65 ms on a 2-core VM), for
    up to this much CPU per pause between calls."""
    operator_key: SecretStr = SecretStr("")
    """The key of JobService's operator path (``operator_batches``: batch jobs over many tenants); empty: off."""
    tls_cert_file: str = ""
    """PEM certificate chain of the listener; with ``tls_key_file``, the listener speaks TLS only."""
    tls_key_file: str = ""
    tls_client_ca_file: str = ""
    """PEM CA bundle: when set, clients must present a certificate it signed (mutual TLS)."""

    @property
    def tls(self) -> bool:
        """Whether the listener speaks TLS."""
        return bool(self.tls_cert_file and self.tls_key_file)


class AuthSettings(_Section):
    """API keys and protected mode."""

    insecure: bool = False
    """Allow a non-loopback listener without keys or without TLS (a private network you trust)."""
    cache_seconds: float = Field(1.0, gt=0, le=60)
    """A verified key is re-read after this long: the bound on a revocation reaching every replica."""
    reads_per_second: float = Field(200.0, gt=0)
    """Each key's budget for read calls (a token bucket shared through Redis)."""
    writes_per_second: float = Field(50.0, gt=0)
    """Each key's budget for write calls."""
    burst_seconds: float = Field(2.0, gt=0)
    """A bucket holds this many seconds of its rate (bursts up to that size pass)."""


_RENAMED_STORAGE_KEYS = {
    "hot_max_rows": "copy_max_rows",
    "hot_total_rows": "copy_total_rows",
    "hot_tables": "copy_tables",
}
"""Keys renamed when the in-memory copies took one name; the old ones are read, with a warning, until 0.3."""


class StorageSettings(_Section):
    """The LanceDB store."""

    @model_validator(mode="before")
    @classmethod
    def _renamed_keys(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        for old, new in _RENAMED_STORAGE_KEYS.items():
            if old in data:
                warnings.warn(
                    f"storage.{old} is now storage.{new}; the old name goes in 0.3", FutureWarning, stacklevel=2
                )
                data = {k: v for k, v in data.items() if k != old} | {new: data[new] if new in data else data[old]}
        return data

    uri: str = "var/data"
    """A directory (embedded default) or an object-store URI such as ``s3://bucket/prefix``."""
    s3_endpoint: str = ""
    """An S3-compatible server's URL (e.g. ``http://10.0.0.5:8333``); empty: AWS itself."""
    s3_region: str = "us-east-1"
    s3_access_key_id: str = ""
    """Empty: the object store's usual sources (``AWS_ACCESS_KEY_ID``, the instance's role…)."""
    s3_secret_access_key: SecretStr = SecretStr("")
    s3_allow_http: bool = False
    """Allow a plain-HTTP endpoint (a server on a private network or loopback); TLS otherwise."""
    read_consistency_seconds: float | None = Field(None, ge=0)
    """How stale a read may be: the bound on seeing another process's write. Unset: 0 on a directory
    (every query re-checks the latest version, which a local disk answers at once) and 1 s on object
    storage, where each re-check is a request (``memoryd bench recall`` on an S3 server on loopback:
    Recall p50 10.7 ms at 1 s, 84.9 ms at 0)."""
    ann_min_rows: int = Field(25_000, ge=1)
    """A tenant table gets an IVF_HNSW_SQ vector index from this many rows on, and an in-memory copy
    searches approximately from this many visible rows on (``faiss_rows``: ~1 ms a search against ~3 ms
    exact at 30,000 rows, ~8-12 ms at 100,000). Without an index, LanceDB's vector search reads every
    vector each time (a 32,000-row table: 35 ms of CPU a query, against ~8 ms through the index), which
    under 16 mixed clients cost a quarter of the throughput; the build (~19 s of CPU at 32,000 rows, in a
    child process) runs while the copy still answers the table's Recalls, long before the table outgrows
    ``copy_max_rows``."""
    optimize_min_fragments: int = Field(16, ge=1)
    maintenance_enabled: bool = True
    """Run the maintenance loop in this process. With several replicas on one Redis, they take turns
    through a lease (``maintenance_lease_seconds``): one maintains, the others stand by."""
    maintenance_interval_seconds: float = Field(30.0, gt=0)
    """Every table is visited this often (writes of other processes included)."""
    maintenance_written_seconds: float = Field(1.0, gt=0)
    """Tables this process wrote are visited this often (a busy conversation stays merged). Such a pass
    optimizes a table at most every 5 s; in between, an archive too large for the in-memory copy has
    its small fragments merged (every query of it pays for each one)."""
    maintenance_lease_seconds: float = Field(60.0, gt=0)
    """With a shared Redis, one replica maintains at a time, holding a lease renewed on every pass; if
    it dies, another takes over within this long."""
    index_cache_mb: int = Field(1024, ge=1)
    """LanceDB's index cache (shared by every table of the process; Lance's default is gigabytes). It must
    hold the ANN indexes of the tables being searched (about 0.5 GiB per million rows): too small and
    every vector query re-reads index partitions — 260 ms per query at 300k rows with 128 MiB, 3 ms
    with 1 GiB (``docs/benchmarks.md``). It is an upper bound: memory grows only as indexes are read."""
    metadata_cache_mb: int = Field(32, ge=1)
    """LanceDB's metadata cache (manifests, fragment and file metadata of the versions read)."""
    memory_release_seconds: float = Field(30.0, ge=0)
    """Every this often the C allocator's free pages go back to the system (glibc's ``malloc_trim``):
    compactions and reloads of the in-memory copies free large buffers between live ones, which
    otherwise stay in the resident set for good; 0: never."""
    cleanup_older_than_minutes: float = Field(1.0, ge=0.1)
    """Old table versions are pruned after this (never 0: a query or report of any process may be
    reading one). Kept versions are not free on a local disk: every LanceDB operation lists them, and
    each thousand adds about 1 ms to a commit and 0.5 ms to a query (``docs/benchmarks.md``); at the
    old default of an hour, a tenant committing a few times a second kept tens of thousands. A version
    tagged in Lance (a backup point) is kept whatever its age."""
    copy_max_rows: int = Field(120_000, ge=0)
    """Tenant tables up to this many rows are kept in memory for Recall's arms and fetches; 0: off.
    Past it, Recall reads LanceDB: under 16 mixed clients a 12,000-row tenant served 37 req/s that way
    against 148 from memory; at 100,000 rows (one agent) Recall p50 76.6 ms from LanceDB against 9.8 ms
    from memory, side by side, where from ``ann_min_rows`` visible rows the copy's vector search is an in-memory IVF
    index's candidates scored exactly (``docs/benchmarks.md``). A load reads the whole table (~80 ms per
    10k rows idle) after another process's commit the copy cannot follow (a compaction, an index): with
    several replicas on one store, the replicas not maintaining reload a busy tenant's copy after each
    compaction by the one that does (at 100,000 rows ~4 s of CPU each time) — lower it there. A copy
    loaded within the bound is followed through writes up to an eighth past it (a rewrite adds a row to
    a copy until its next load)."""
    copy_total_rows: int = Field(320_000, ge=1)
    """The copies together hold at most this many rows (least recently used go first): the memory bound,
    about 3.5 KiB a row at 384 dimensions (vectors, columns, full-text postings, the IVF index) and
    ~5.5 KiB of the daemon's RSS (a 100,000-row copy: +564 MiB; ``docs/benchmarks.md``, session 21)."""
    copy_tables: int = Field(256, ge=1)
    """How many such tables a process keeps (least recently used go first). ``copy_total_rows`` bounds
    their memory; past this many tenants read in turn, each read of one not held loaded its table and
    pushed out another: 64 tenants of 2,000 rows under 16 mixed clients served 56.5 req/s with 32 copies,
    148.2 with 64 (``docs/benchmarks.md``, session 39). A copy costs ~0.1 MiB beyond its rows (200 copies
    of 100 rows: +124 MiB); one of 10k rows holds its vectors (15 MiB at 384 dimensions) and columns in
    Arrow memory, and ~15 MiB of Python and numpy objects besides (postings and vocabularies of both
    full-text indexes; measured with ``tracemalloc``)."""
    orphan_grace_seconds: float = Field(60.0, ge=1)
    """Files no table version references and older than this are removed (by the hourly purge, and by
    an erasure before it answers): what commits that lost to a concurrent one left (a compaction
    preempted by an update), holding whatever rows they read. Younger ones may be a commit still in
    flight; an erasure waits until the leftovers it found are this old. Lance itself keeps them a week."""
    forget_purge_minutes: float = Field(60.0, ge=1)
    """Tables with forgotten rows get those rows rewritten out of their files this often; the bytes
    then leave the disk with the next cleanup (a forgotten memory is gone within the sum of both)."""

    def read_consistency(self) -> float:
        """``read_consistency_seconds``, or its default for this kind of store."""
        if self.read_consistency_seconds is not None:
            return self.read_consistency_seconds
        return 1.0 if self.on_object_storage else 0.0

    @property
    def on_object_storage(self) -> bool:
        """Whether the store is an object-store URI (``s3://``) rather than a directory."""
        return self.uri.startswith("s3://")

    def storage_options(self) -> dict[str, str] | None:
        """What LanceDB (and DuckDB's Lance scans) need to reach the object store; None for a directory."""
        if not self.on_object_storage:
            return None
        options = {"aws_region": self.s3_region}
        if self.s3_endpoint:
            options["aws_endpoint"] = self.s3_endpoint
        if self.s3_access_key_id:
            options["aws_access_key_id"] = self.s3_access_key_id
            options["aws_secret_access_key"] = self.s3_secret_access_key.get_secret_value()
        if self.s3_allow_http:
            options["allow_http"] = "true"
        return options


class EmbeddingSettings(_Section):
    """The embedder: the embedded ONNX model or an OpenAI-compatible endpoint."""

    provider: Literal["onnx", "openai"] = "onnx"
    threads: int = Field(2, ge=1)
    """Threads one inference of the embedded model runs on, each on its own part of the texts (a run of
    onnxruntime is one thread: splitting one short text's operators over threads cost more CPU than it saved)."""
    base_url: str | None = None
    api_key: SecretStr = SecretStr("")
    model: str = "text-embedding-3-small"
    dimension: int = Field(384, ge=1)
    send_dimensions: bool = False
    """Pass ``dimensions`` to the endpoint (models that can shorten their output)."""
    pending_on_outage: bool = True
    """While the embedder is unreachable, Memorize stores memories with their embedding pending (full text
    finds them at once) instead of failing UNAVAILABLE; ``backfill_seconds`` later they are embedded."""
    backfill_seconds: float = Field(30.0, gt=0)
    timeout_seconds: float = Field(30.0, gt=0)


class ReembedSettings(EmbeddingSettings):
    """The embedder of a re-embed's target space (``memoryd reembed``): off unless ``enabled``.

    Every daemon and worker of the store should run with it while a re-embed is under way: they
    then give each new memory its vector in both spaces and search a switched tenant in the new one.
    """

    enabled: bool = False
    refresh_seconds: float = Field(5.0, gt=0)
    """How stale a process's view of the re-embed (begun, tenants switched) may be."""
    settle_seconds: float = Field(10.0, ge=0)
    """After switching, the job waits this long (more than ``refresh_seconds``) and fills what processes
    that had not yet seen the re-embed wrote meanwhile."""


class RecallSettings(_Section):
    """The recall pipeline; every default comes from ``core.ranking.RecallTuning``."""

    rrf_k: int = Field(_RECALL.weights.k, ge=1)
    vector_weight: float = Field(_RECALL.weights.vector_weight, ge=0)
    fts_weight: float = Field(_RECALL.weights.full_text_weight, ge=0)
    """Full text's RRF weight (``MEMORY_FTS_BOOST``); see ``FusionWeights.full_text_weight`` for why."""
    similarity_threshold: float | None = Field(_RECALL.similarity_floor, ge=-1, le=1)
    """``MEMORY_SIMILARITY_THRESHOLD``; unset: the embedder's calibrated floor (``core.calibration``)."""
    min_depth: int = Field(_RECALL.min_depth, ge=1)
    depth_per_limit: int = Field(_RECALL.depth_per_limit, ge=1)
    full_text_mode: FullTextMode = _RECALL.full_text_mode
    """AND of the terms first with OR as the fallback, or OR alone (plain BM25 order)."""
    prefix_matching: bool = _RECALL.prefix_matching
    vector_query: VectorQuery = _RECALL.vector_query
    """Embed the query as given, or its statement form (questions lose their interrogative lead)."""
    coverage_rerank: bool = _RECALL.coverage_rerank
    """Order fused candidates by fused score × (coverage_floor + coverage); see ``RecallTuning``."""
    coverage_floor: float = Field(_RECALL.coverage_floor, ge=0)
    vector_coverage: float = Field(_RECALL.vector_coverage, ge=0, le=1)
    default_limit: int = Field(10, ge=1, le=100)
    """Hits of a Recall that leaves ``limit`` 0 (tenants and agents may set their own: ``recall.limit``)."""
    default_min_score: float = Field(0.0, ge=0, le=1)
    """``min_score`` of a Recall that leaves it unset (per tenant or agent: ``recall.min_score``)."""
    retrieval_flush_seconds: float = Field(10.0, gt=0)
    """Retrieval counts are written this often (each flush is a few small table commits)."""

    def tuning(self) -> RecallTuning:
        """The core value these settings describe."""
        return RecallTuning(
            FusionWeights(self.rrf_k, self.vector_weight, self.fts_weight),
            self.similarity_threshold,
            self.min_depth,
            self.depth_per_limit,
            full_text_mode=self.full_text_mode,
            prefix_matching=self.prefix_matching,
            vector_query=self.vector_query,
            coverage_rerank=self.coverage_rerank,
            coverage_floor=self.coverage_floor,
            vector_coverage=self.vector_coverage,
        )


class MemorizeSettings(_Section):
    """Writes."""

    max_content_bytes: int = Field(16 * 1024, ge=1)
    dedup_distance: float | None = Field(None, ge=0, le=2)
    """Cosine distance within which stored memories are dedup candidates (``MEMORY_DEDUP_DISTANCE``); unset:
    the embedder's calibrated value (``core.calibration``). A candidate merges only if the new text restates
    it (``core.restatement``): a different number, date, negation, name or other word is a new memory."""
    request_id_hours: float = Field(24.0, gt=0)
    """A retried Memorize/MemorizeBatch with the same ``request_id`` returns the first result this long."""
    reads_first_ms: float = Field(100.0, ge=0)
    """With the embedded model, a write's group waits up to this long for a moment when no Recall runs in
    this process: the model and the cores serve the reads first, and the writes arriving meanwhile join the
    group (``services.reads_in_flight``). 0: writes never wait. A remote embedder's writes never wait."""
    group_linger_ms: float = Field(5.0, ge=0)
    """A tenant's write group that starts right after one of several calls waits up to this long for as
    many calls (concurrent writers come back together; ``services.write_company``). 0: never waits."""


class ProfileSettings(_Section):
    """Agent profiles."""

    default_budget_tokens: int = Field(1500, ge=1, le=100_000)
    """Budget of a profile that never set its own (EditProfile set_budget)."""
    encoding: Literal["o200k_base"] = "o200k_base"
    """The token encoding budgets are counted in."""
    schema_version: int = Field(1, ge=1)
    """Bumped by releases whose profiles should be recompiled: bootstrap runs once per version."""


class ProviderSettings(_Section):
    """The chat model of model-bound jobs: any OpenAI-compatible endpoint.

    No model, no model calls: model-bound jobs wait in ``waiting_for_provider``
    until a worker with one starts.
    """

    base_url: str | None = None
    """E.g. ``https://api.openai.com/v1`` or a local server's ``http://127.0.0.1:8000/v1``."""
    api_key: SecretStr = SecretStr("")
    extraction_model: str = ""
    """The chat model (``MEMORY_EXTRACTION_MODEL``); empty means no model is configured."""
    timeout_seconds: float = Field(60.0, gt=0)
    """One model call's timeout; jobs retry timeouts with backoff."""

    @property
    def configured(self) -> bool:
        """Whether model-bound jobs can run."""
        return bool(self.extraction_model and self.base_url)


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
    agents: dict[str, WorkingOverride] = {}
    """Per-agent overrides of ``default``, e.g. ``[working.agents.support-bot] strategy = "buffer_window"``."""
    context_window_tokens: int = Field(8192, ge=MIN_WINDOW, le=MAX_WINDOW)
    """Assumed model window of a conversation whose runtime never said."""


class AuditSettings(_Section):
    """Memory audits: review_memories, its auto-apply policy, the schedule, usage-report alarms."""

    apply: ApplyPolicy = ApplyPolicy.NONE
    """Which findings a review applies on its own: ``none`` (the default: they are proposals), ``rules``
    (identical texts, clutter, long-unused memories), ``all`` (every confirmed finding)."""
    tenants: dict[str, ApplyPolicy] = {}
    """Per-tenant ``apply`` policy, e.g. ``[audits.tenants] acme = "rules"``."""
    schedule: str = ""
    """A five-field cron expression in UTC (``"0 3 * * *"``) for the audit batch; empty: off (the embedded
    default)."""
    duplicate_similarity: float = Field(_REVIEW.duplicate_similarity, gt=0, le=1)
    contradiction_similarity: float = Field(_REVIEW.contradiction_similarity, gt=0, le=1)
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

    def limits(self) -> ReviewLimits:
        """The core value of the review thresholds and budget."""
        return replace(
            _REVIEW,
            duplicate_similarity=self.duplicate_similarity,
            contradiction_similarity=self.contradiction_similarity,
            stale_days=self.stale_days,
            max_model_calls=self.max_model_calls,
            findings_per_call=self.findings_per_call,
            max_prompt_tokens=self.max_prompt_tokens,
        )

    def policy_for(self, tenant_id: str) -> ApplyPolicy:
        """The tenant's apply policy."""
        return self.tenants.get(tenant_id, self.apply)


class TracingSettings(_Section):
    """OpenTelemetry traces over OTLP/gRPC (the ``tracing`` extra): a span per RPC and per job run.

    A caller's ``traceparent`` (W3C, in the call metadata) makes memoryd's span its child.
    """

    enabled: bool = False
    otlp_endpoint: str = "http://127.0.0.1:4317"
    insecure: bool = True
    """Plain gRPC to the collector (a local agent); false: TLS."""
    service_name: str = "memoryd"


class LogSettings(_Section):
    """Structured logs on stderr."""

    level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    format: Literal["json", "text"] = "json"


class MetricsSettings(_Section):
    """Prometheus ``/metrics`` of ``memoryd serve`` and ``memoryd worker`` (``adapters.prometheus_metrics``)."""

    enabled: bool = True
    host: str = "127.0.0.1"
    """Loopback by default: the series name no tenant, but their rates are still the service's business."""
    port: int = Field(9464, ge=1, le=65535)
    worker_port: int = Field(9465, ge=1, le=65535)
    """``memoryd worker``'s own ``/metrics`` (jobs by kind and state, queue backlog, the breaker)."""
    refresh_seconds: float = Field(15.0, gt=0)
    """How often a worker reads the job gauges from Redis."""
    tenant_label: bool = True
    """Label the provider call and token counters with the tenant (one series per tenant and model:
    turn off when tenants are too many to scrape); no other series names a tenant."""


class RedisSettings(_Section):
    """The job queue's Redis/Valkey; empty dsn means `memoryd up` starts an embedded Valkey."""

    dsn: str = ""
    embedded_port: int = Field(0, ge=0, le=65535)
    """The embedded Valkey's port under `memoryd up`; 0 lets the system pick a free one (logged at start)."""


# The product's documented short names, mapped onto nested settings.
PRODUCT_ENV = {
    "MEMORY_RRF_K": ("recall", "rrf_k"),
    "MEMORY_FTS_BOOST": ("recall", "fts_weight"),
    "MEMORY_VECTOR_WEIGHT": ("recall", "vector_weight"),
    "MEMORY_SIMILARITY_THRESHOLD": ("recall", "similarity_threshold"),
    "MEMORY_DEDUP_DISTANCE": ("memorize", "dedup_distance"),
    "MEMORY_MAX_CONTENT_BYTES": ("memorize", "max_content_bytes"),
    "REDIS_URL": ("redis", "dsn"),
    "PROFILE_BUDGET_TOKENS": ("profile", "default_budget_tokens"),
    "MEMORY_EXTRACTION_MODEL": ("provider", "extraction_model"),
}
# Nested one level deeper: working.default.<key>.
WORKING_ENV = {
    "COMPACTING_THRESHOLD_PERCENT": "threshold_percent",
    "COMPACTING_KEEP_PERCENT": "keep_percent",
    "COMPACTING_MAX_SUMMARIES": "max_summaries",
    "COMPACTING_SUMMARY_BUDGET_PERCENT": "summary_budget_percent",
}


class _ProductEnvSource(PydanticBaseSettingsSource):
    """Reads the short env names of ``PRODUCT_ENV``."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        """Unused: ``__call__`` reads every mapped name at once."""
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        """Nested section values for every mapped env var that is set."""
        out: dict[str, dict[str, Any]] = {}
        for env, (section, key) in PRODUCT_ENV.items():
            if env in os.environ:
                out.setdefault(section, {})[key] = os.environ[env]
        for env, key in WORKING_ENV.items():
            if env in os.environ:
                out.setdefault("working", {}).setdefault("default", {})[key] = os.environ[env]
        return out


class RetentionDays(_Section):
    """How long one tenant keeps things (days; 0 keeps forever)."""

    memories_days: float = Field(0.0, ge=0)
    conversations_days: float = Field(0.0, ge=0)


class RetentionSettings(_Section):
    """Retention: the daily purge of old memories and conversations (profiles are never expired)."""

    memories_days: float = Field(0.0, ge=0)
    """Memories created longer ago are deleted; 0 (default) keeps them forever."""
    conversations_days: float = Field(0.0, ge=0)
    """Conversations untouched for longer are deleted with every item; 0 keeps them forever."""
    tenants: dict[str, RetentionDays] = {}
    """Per-tenant days, e.g. ``[retention.tenants.acme] memories_days = 365``."""

    def policy_for(self, tenant_id: str) -> RetentionPolicy:
        """The tenant's days, else the defaults."""
        days = self.tenants.get(tenant_id)
        if days is None:
            return RetentionPolicy(self.memories_days, self.conversations_days)
        return RetentionPolicy(days.memories_days, days.conversations_days)


class PiiSettings(_Section):
    """The PII floor for text callers write directly (memoryd's own derived text is always redacted)."""

    policy: PiiPolicy = PiiPolicy.OFF
    """``off`` (callers' text is stored as written), ``redact`` (identifiers become ``[email]``…), ``block``."""
    tenants: dict[str, PiiPolicy] = {}
    """Per-tenant policy, e.g. ``[pii.tenants] acme = "redact"``."""

    def policy_for(self, tenant_id: str) -> PiiPolicy:
        """The tenant's policy, else the default."""
        return self.tenants.get(tenant_id, self.policy)


class AgentConfigSettings(_Section):
    """Stored per-tenant and per-agent settings (SetTenantConfig, SetAgentConfig)."""

    cache_seconds: float = Field(5.0, ge=0, le=3600)
    """Resolved settings are kept this long per agent: a change made through another replica is seen within it."""


class Settings(BaseSettings):
    """Everything the daemon and workers are configured with."""

    model_config = SettingsConfigDict(env_prefix="MEMORYD_", env_nested_delimiter="__", extra="forbid")

    server: ServerSettings = ServerSettings()
    auth: AuthSettings = AuthSettings()
    storage: StorageSettings = StorageSettings()
    embedding: EmbeddingSettings = EmbeddingSettings()
    reembed: ReembedSettings = ReembedSettings()
    recall: RecallSettings = RecallSettings()
    memorize: MemorizeSettings = MemorizeSettings()
    profile: ProfileSettings = ProfileSettings()
    log: LogSettings = LogSettings()
    tracing: TracingSettings = TracingSettings()
    metrics: MetricsSettings = MetricsSettings()
    redis: RedisSettings = RedisSettings()
    provider: ProviderSettings = ProviderSettings()
    jobs: JobSettings = JobSettings()
    working: WorkingSettings = WorkingSettings()
    audits: AuditSettings = AuditSettings()
    pii: PiiSettings = PiiSettings()
    retention: RetentionSettings = RetentionSettings()
    agent_config: AgentConfigSettings = AgentConfigSettings()

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Overrides, product env names, MEMORYD_ env, then the TOML file."""
        return (init_settings, _ProductEnvSource(settings_cls), env_settings, TomlConfigSettingsSource(settings_cls))

    def with_redis(self, dsn: str) -> Settings:
        """These settings with the job queue at ``dsn`` (a running ``memoryd up``'s embedded Valkey)."""
        return self.model_copy(update={"redis": self.redis.model_copy(update={"dsn": dsn})})

    def without_maintenance(self) -> Settings:
        """These settings with the store's maintenance loop off, for every process but the daemon.

        Two processes compacting the same tables waste the CPU and one of them loses each commit.
        """
        return self.model_copy(update={"storage": self.storage.model_copy(update={"maintenance_enabled": False})})

    def agent_defaults(self, tenant_id: str, calibrated_floor: float) -> dict[str, bool | int | float | str]:
        """The daemon level of every per-agent setting (``core.agent_config.SETTINGS``) for one tenant.

        ``calibrated_floor``: the embedder's similarity floor, the default when none is configured.
        """
        policy = self.working.default.policy()
        out: dict[str, bool | int | float | str] = {
            f"working.{f.name}": (v.value if isinstance(v := getattr(policy, f.name), StrEnum) else v)
            for f in fields(policy)
        }
        retention = self.retention.policy_for(tenant_id)
        out |= {
            "recall.limit": self.recall.default_limit,
            "recall.min_score": self.recall.default_min_score,
            "recall.vector_weight": self.recall.vector_weight,
            "recall.full_text_weight": self.recall.fts_weight,
            "recall.similarity_floor": (
                calibrated_floor if self.recall.similarity_threshold is None else self.recall.similarity_threshold
            ),
            "review.enabled": True,
            "graph.enabled": False,
            "graph.write_approval": False,
            "graph.max_hops": 2,
            "graph.budget_tokens": 600,
            "review.apply": self.audits.policy_for(tenant_id).value,
            "retention.memories_days": retention.memories_days,
            "retention.conversations_days": retention.conversations_days,
        }
        return out


def load_settings(config_file: Path | None = None, **overrides: Any) -> Settings:
    """Settings from the TOML file (argument, else ``MEMORYD_CONFIG``), the env, then overrides.

    ``overrides`` are whole or partial sections, e.g. ``server={"port": 0}``.
    """
    path = config_file or (Path(os.environ["MEMORYD_CONFIG"]) if os.environ.get("MEMORYD_CONFIG") else None)
    if path is not None and not path.is_file():
        raise config_errors.missing_file(path)

    class _FromFile(Settings):
        model_config = SettingsConfigDict(**{**Settings.model_config, "toml_file": path})

    try:
        return _FromFile(**overrides)
    except tomllib.TOMLDecodeError as exc:
        raise config_errors.not_toml(path, exc) from None
    except ValidationError as exc:
        raise config_errors.invalid(path, exc, Settings) from None
