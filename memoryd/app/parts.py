"""What ``build_app`` hands out: the ``App`` and its parts, grouped by what they serve.

``memory`` is the archive (writes, Recall, reads, feedback, re-embedding); ``working`` the
profiles and conversations; ``admin`` the operator's side (keys, data rights, retention, usage,
the event log); ``jobs`` what needs the job queue (the only optional part); ``graph`` the memory
graph. The gRPC servicers, the arq functions and the commands call the same parts.
"""

from __future__ import annotations

from dataclasses import dataclass

from memoryd.adapters.prometheus_metrics import PrometheusMetrics
from memoryd.config import Settings
from memoryd.core.errors import NotReady, PreconditionFailed, Unavailable
from memoryd.core.ports import (
    ArchivePorts,
    Clock,
    ConversationStore,
    Embedder,
    MemoryStore,
    ProfileStore,
    ReviewStore,
    StoreMaintenance,
)
from memoryd.services.agent_config import AgentConfigService
from memoryd.services.archive import ArchiveService
from memoryd.services.bootstrap import BootstrapService
from memoryd.services.compaction import CompactionService
from memoryd.services.conversation import ConversationService
from memoryd.services.directory import Directory
from memoryd.services.embedding_backfill import EmbeddingBackfill
from memoryd.services.erasure import ErasureService
from memoryd.services.event_log import EventLog
from memoryd.services.export import ExportService
from memoryd.services.feedback import FeedbackService
from memoryd.services.graph import GraphService
from memoryd.services.graph_extraction import GraphExtraction
from memoryd.services.job_runner import JobRunner
from memoryd.services.job_service import JobService
from memoryd.services.keys import KeyService
from memoryd.services.maintenance_loop import MaintenanceLoop
from memoryd.services.memorize import MemorizeService
from memoryd.services.model_usage import ModelUsageLog
from memoryd.services.pii_floor import PiiFloor
from memoryd.services.profile import ProfileService
from memoryd.services.provenance import Provenance
from memoryd.services.rate_budget import RateBudget
from memoryd.services.recall import RecallService
from memoryd.services.reembed import Reembed, SpaceRouter
from memoryd.services.retention import RetentionService
from memoryd.services.retrievals import RetrievalLog
from memoryd.services.review import ReviewRules, ReviewService
from memoryd.services.review_batch import ReviewBatchService
from memoryd.services.usage import UsageService

NO_JOB_QUEUE = (
    "this process has no job queue: background jobs need Redis/Valkey; start it with REDIS_URL set "
    "(or use `memoryd up`)"
)


@dataclass(frozen=True)
class MemoryParts:
    """The archive: writes, Recall, reads and edits, feedback, vectors filled later, re-embedding."""

    store: MemoryStore
    """The request path's store (``ports`` holds the archive's other ports)."""
    ports: ArchivePorts
    memorize: MemorizeService
    recall: RecallService
    archive: ArchiveService
    feedback: FeedbackService
    retrievals: RetrievalLog
    backfill: EmbeddingBackfill
    """Embeds the memories stored while the embedder was unreachable."""
    spaces: SpaceRouter
    """Each tenant's Recall space and the dual writes of a re-embed under way."""
    reembed: Reembed | None
    """The re-embed job (None unless a target embedder is configured: ``reembed.enabled``)."""


@dataclass(frozen=True)
class WorkingParts:
    """Profiles, conversations and the settings they run with."""

    profile: ProfileService
    profiles: ProfileStore
    conversations: ConversationService
    conversation_store: ConversationStore
    configs: AgentConfigService
    """Stored tenant and agent settings, resolved (``GetEffectiveConfig``)."""


@dataclass(frozen=True)
class AdminParts:
    """The operator's side: keys, data rights, retention, usage, reviews read, the event log."""

    keys: KeyService
    erasure: ErasureService
    exports: ExportService
    retention: RetentionService
    usage: UsageService
    reviews: ReviewStore
    review_rules: ReviewRules
    """The review's rules alone (a dry run: no job queue, no model, nothing stored)."""
    directory: Directory
    """The tenants and agents the store knows (the commands refuse others)."""
    trail: EventLog
    """The audit log: one event per mutation (never the content)."""
    pii: PiiFloor
    rates: RateBudget | None
    """Per-key call budgets (None without Redis: then keys are not rate-limited)."""
    provenance: Provenance | None = None
    """Memories' histories and the served log (None with stores passed in without one)."""

    def served_log(self) -> Provenance:
        """The served log; FAILED_PRECONDITION when this server keeps none."""
        if self.provenance is None:
            raise PreconditionFailed("this server keeps no served log (its stores were passed in without one)")
        return self.provenance


@dataclass(frozen=True)
class JobParts:
    """Everything that needs the job queue (Redis/Valkey): the only optional part of the App."""

    service: JobService
    """The ledger's front door: enqueue, get, list, watch, re-drive."""
    runner: JobRunner
    bootstrap: BootstrapService
    compaction: CompactionService
    review: ReviewService
    review_batch: ReviewBatchService
    graph_extraction: GraphExtraction | None = None
    """The GRAPH_EXTRACT body (None without a graph store)."""
    model_usage: ModelUsageLog | None = None
    """Each tenant's model calls and tokens per day (None: not counted)."""


@dataclass(frozen=True)
class App:
    """The services, wired; ``jobs`` raises Unavailable without a job queue, ``graph`` NotReady without its store."""

    settings: Settings
    embedder: Embedder
    clock: Clock
    metrics: PrometheusMetrics
    """Calls, the embedder, writes and recalls (``/metrics`` of ``memoryd serve``)."""
    memory: MemoryParts
    working: WorkingParts
    admin: AdminParts
    job_parts: JobParts | None
    graph_service: GraphService | None
    """The memory graph (None only when test stores were passed in without a graph store)."""
    maintenance: StoreMaintenance | None
    """The store's upkeep; None when the stores were passed in (tests with fakes)."""
    maintenance_loop: MaintenanceLoop | None = None
    """This process's maintenance schedule (None when maintenance is off here)."""

    async def backfill_pass(self) -> None:
        """One backfill pass; the pending count goes to the metrics; missed re-embed rows filled."""
        memory = self.memory
        await memory.backfill.run_once()
        self.metrics.embeddings_pending(memory.backfill.pending)
        target = memory.spaces.target
        if memory.reembed is not None and target is not None and memory.spaces.missed:
            missed, memory.spaces.missed = sorted(memory.spaces.missed), set()
            try:
                await memory.reembed.fill_missed(target.model_name, missed)
            except Unavailable:
                memory.spaces.missed.update(missed)  # the next pass tries again

    @property
    def graph(self) -> GraphService:
        """The memory graph, or NotReady when this process was built without its store."""
        if self.graph_service is None:
            raise NotReady("this process has no memory-graph store")
        return self.graph_service

    @property
    def jobs(self) -> JobParts:
        """The job parts, or Unavailable (job RPCs answer UNAVAILABLE without a queue)."""
        if self.job_parts is None:
            raise Unavailable(NO_JOB_QUEUE)
        return self.job_parts
