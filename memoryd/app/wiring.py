"""The service graph over the ports: one function per part of the ``App``."""

from __future__ import annotations

import functools
import logging
import os
import socket
import uuid
from dataclasses import dataclass
from datetime import timedelta

from memoryd.adapters.prometheus_metrics import PrometheusMetrics
from memoryd.app.parts import AdminParts, App, JobParts, MemoryParts, WorkingParts
from memoryd.app.stores import JobPorts, Stores
from memoryd.config import Settings
from memoryd.core.calibration import calibration_for
from memoryd.core.conversation import compaction_signal
from memoryd.core.job_records import JobKind, JobRecord
from memoryd.core.ports import ChatModel, Clock, Embedder, NeighbourSearch, RateLimiter, TokenCounter, UsageAnalytics
from memoryd.core.validation import Limits
from memoryd.services.agent_config import AgentConfigService
from memoryd.services.archive import ArchiveService
from memoryd.services.archive_maintenance import ArchiveMaintenance
from memoryd.services.bootstrap import BootstrapService
from memoryd.services.compaction import CompactionService
from memoryd.services.conversation import ConversationService
from memoryd.services.directory import Directory
from memoryd.services.embedding_backfill import EmbeddingBackfill
from memoryd.services.erasure import ErasureService
from memoryd.services.event_log import EventLog
from memoryd.services.export import ExportService
from memoryd.services.feedback import FeedbackService
from memoryd.services.filing import ConversationFiling
from memoryd.services.graph import GraphService
from memoryd.services.graph_extraction import GraphExtraction
from memoryd.services.job_runner import JobRunner
from memoryd.services.job_service import JobService
from memoryd.services.keys import KeyService
from memoryd.services.memorize import MemorizeService
from memoryd.services.model_usage import ModelUsageLog
from memoryd.services.pii_floor import PiiFloor
from memoryd.services.profile import ProfileService
from memoryd.services.provenance import Provenance
from memoryd.services.rate_budget import RateBudget
from memoryd.services.reads_in_flight import ReadsInFlight
from memoryd.services.recall import RecallService
from memoryd.services.reembed import Reembed, SpaceRouter
from memoryd.services.retention import RetentionService
from memoryd.services.retrievals import RetrievalLog
from memoryd.services.review import ReviewRules, ReviewService
from memoryd.services.review_batch import ReviewBatchService
from memoryd.services.usage import UsageService
from memoryd.services.write_company import WriteCompany

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Providers:
    """What the services compute with: the embedders, the chat model, counting, time, analytics."""

    embedder: Embedder
    queries: Embedder
    """Recall's queries (the local model gives them a lane of their own)."""
    reads: ReadsInFlight
    target: Embedder | None
    """A re-embed's target model (None unless configured)."""
    chat: ChatModel | None
    counter: TokenCounter
    clock: Clock
    neighbours: NeighbourSearch
    analytics: UsageAnalytics
    metrics: PrometheusMetrics


@dataclass(frozen=True)
class _Shared:
    """What several parts use: the event log, the PII floor, validation limits, settings as resolved."""

    trail: EventLog
    pii: PiiFloor
    limits: Limits
    configs: AgentConfigService
    provenance: Provenance | None


def wire(settings: Settings, stores: Stores, p: Providers, jobs: JobPorts | None, rates: RateLimiter | None) -> App:
    """The App: every service built once over the ports, in dependency order."""
    calibrated = calibration_for(p.embedder.model_name)
    floor = calibrated.similarity_floor
    trail = EventLog(stores.audit_log, p.clock)
    configs = AgentConfigService(
        stores.agent_configs,
        trail,
        functools.partial(settings.agent_defaults, calibrated_floor=floor),
        {agent: o.values() for agent, o in settings.working.agents.items()},
        cache_seconds=settings.agent_config.cache_seconds,
        rrf_k=settings.recall.rrf_k,
        maintenance=stores.maintenance,
    )
    limits = Limits(max_content_bytes=settings.memorize.max_content_bytes)
    provenance = Provenance(stores.provenance, p.clock) if stores.provenance is not None else None
    shared = _Shared(trail, PiiFloor(settings.pii.policy_for), limits, configs, provenance)
    duplicate = calibrated.entity_duplicate
    graph = (
        GraphService(stores.graph, p.embedder, p.counter, p.clock, trail, shared.pii, duplicate)
        if stores.graph is not None
        else None
    )
    memory = _memory(settings, stores, p, shared, graph)
    profile = ProfileService(
        stores.profiles,
        p.counter,
        memory.memorize,
        p.clock,
        settings.profile.default_budget_tokens,
        trail=trail,
        pii=shared.pii,
    )
    usage = UsageService(
        p.analytics,
        stores.reviews,
        p.clock,
        settings.audits.concentration_top1_share,
        settings.audits.never_retrieved_share,
    )
    filing = ConversationFiling(stores.conversations, memory.memorize, configs)  # compaction's and retention's
    parts = _jobs(settings, stores, p, shared, jobs, memory, profile, usage, graph, filing) if jobs else None
    conversations = ConversationService(
        stores.conversations,
        profile,
        memory.recall,
        p.counter,
        p.clock,
        parts.service if parts else None,
        configs,
        settings.working.context_window_tokens,
        pii=shared.pii,
        graph=graph,
        provenance=provenance,
    )
    working = WorkingParts(profile, stores.profiles, conversations, stores.conversations, configs)
    admin = _admin(settings, stores, p, shared, jobs, usage, rates, filing)
    return App(settings, p.embedder, p.clock, p.metrics, memory, working, admin, parts, graph, stores.maintenance)


def _memory(
    settings: Settings, stores: Stores, p: Providers, shared: _Shared, graph: GraphService | None
) -> MemoryParts:
    tuning = settings.recall.tuning()
    calibrated = calibration_for(p.embedder.model_name)
    ports = stores.memories
    backfill = EmbeddingBackfill(ports.pending, ports.agents, p.embedder)
    floor = calibrated.similarity_floor if tuning.similarity_floor is None else tuning.similarity_floor
    spaces = SpaceRouter(p.queries, floor, p.target, stores.spaces, settings.reembed.refresh_seconds)
    memorize = _memorize(settings, stores, p, shared, (backfill, spaces, graph))
    retrievals = RetrievalLog(ports.stats, p.clock)
    recall = RecallService(
        ports.store,
        p.queries,
        p.clock,
        retrievals,
        shared.limits,
        tuning,
        shared.configs.recall_defaults,
        spaces=spaces,
        reads=p.reads,
        provenance=shared.provenance,
    )
    archive = ArchiveService(
        ports.store,
        p.embedder,
        p.clock,
        shared.limits,
        trail=shared.trail,
        pii=shared.pii,
        spaces=spaces,
        provenance=shared.provenance,
    )
    feedback = FeedbackService(
        ports.store, ports.stats, archive, memorize, p.clock, shared.limits, shared.trail, shared.provenance
    )
    reembed = (
        Reembed(ports.filler, stores.spaces, p.target, finisher=stores.finisher)
        if p.target is not None and ports.filler is not None and stores.spaces is not None
        else None
    )
    return MemoryParts(ports.store, ports, memorize, recall, archive, feedback, retrievals, backfill, spaces, reembed)


def _memorize(
    settings: Settings,
    stores: Stores,
    p: Providers,
    shared: _Shared,
    parts: tuple[EmbeddingBackfill, SpaceRouter, GraphService | None],
) -> MemorizeService:
    """The write path: dedup, the group commit, the backfill of pending vectors, links to graph entities."""
    backfill, spaces, graph = parts
    ports, calibrated = stores.memories, calibration_for(p.embedder.model_name)
    dedup_distance = settings.memorize.dedup_distance
    return MemorizeService(
        ports.store,
        p.embedder,
        p.clock,
        shared.limits,
        calibrated.dedup_distance if dedup_distance is None else dedup_distance,
        timedelta(hours=settings.memorize.request_id_hours),
        trail=shared.trail,
        pii=shared.pii,
        neighbours=p.neighbours,
        pending_on_outage=settings.embedding.pending_on_outage,
        on_pending=backfill.note,
        spaces=spaces,
        # an endpoint's embedding is a wait the next commit can fill; the local model's is CPU the
        # commit needs too, and overlapping them only splits the groups (measured in `bench mixed`)
        embed_during_commit=settings.embedding.provider == "openai",
        reads=p.reads,
        company=WriteCompany(settings.memorize.group_linger_ms / 1000),
        provenance=shared.provenance,
        entities=graph.visible_entity_ids if graph is not None else None,
    )


def _jobs(
    settings: Settings,
    stores: Stores,
    p: Providers,
    shared: _Shared,
    jobs: JobPorts,
    memory: MemoryParts,
    profile: ProfileService,
    usage: UsageService,
    graph: GraphService | None,
    filing: ConversationFiling,
) -> JobParts:
    js, ports = settings.jobs, stores.memories
    service = JobService(jobs.ledger, jobs.queue, p.clock)
    review = _review(settings, stores, p, shared, service, memory.memorize)
    model_usage = ModelUsageLog(jobs.usage, p.clock) if jobs.usage is not None else None
    runner = _runner(settings, p, jobs, service, model_usage)
    bootstrap = BootstrapService(
        ports.store,
        ports.agents,
        profile,
        service,
        p.counter,
        schema_version=settings.profile.schema_version,
        archive_tokens=js.bootstrap_archive_tokens,
    )
    maintain = ArchiveMaintenance(
        stores.conversations, ports.store, memory.memorize, memory.recall, profile, p.clock, shared.provenance
    )
    compaction = CompactionService(
        stores.conversations,
        filing,
        p.embedder,
        p.counter,
        p.clock,
        shared.configs,
        maintain,
        pii=shared.pii,
        jobs=service,
    )
    audits = ReviewBatchService(
        ports.agents,
        review,
        usage,
        service,
        p.clock,
        settings.audits.schedule,
        check_seconds=1.0,
        review_enabled=shared.configs.review_enabled,
    )
    extraction = GraphExtraction(stores.conversations, graph, shared.configs, pii=shared.pii) if graph else None
    return JobParts(service, runner, bootstrap, compaction, review, audits, extraction, model_usage)


def _review(
    settings: Settings, stores: Stores, p: Providers, shared: _Shared, service: JobService, memorize: MemorizeService
) -> ReviewService:
    """The memory review: its rules, its job body, reading and applying findings."""
    return ReviewService(
        stores.memories.store,
        stores.memories.snapshot,
        p.neighbours,
        stores.reviews,
        service,
        memorize,
        p.counter,
        p.clock,
        settings.audits.limits(calibration_for(p.embedder.model_name)),
        shared.configs.review_apply,
        trail=shared.trail,
        provenance=shared.provenance,
        may_apply=shared.configs.check_apply,
    )


def _runner(
    settings: Settings, p: Providers, jobs: JobPorts, service: JobService, usage: ModelUsageLog | None
) -> JobRunner:
    """The one retry policy of every job, named after this worker (its records and heartbeat say who)."""

    def on_call(tenant_id: str, model: str, outcome: str, tokens_in: int, tokens_out: int) -> None:
        p.metrics.provider_call(tenant_id, model, outcome, tokens_in, tokens_out)
        if usage is not None:
            usage.observe(tenant_id, model, outcome, tokens_in, tokens_out)

    return JobRunner(
        service, jobs.gate, jobs.leases, p.chat, p.clock, settings.jobs.retry_policy(),
        on_call=on_call,
        worker_id=f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}",
        model_calls=settings.jobs.model_concurrency,
        on_finish=lambda record: _finished(p.metrics, record),
    )  # fmt: skip


def _finished(metrics: PrometheusMetrics, record: JobRecord) -> None:
    """A job left in a final state: a compaction's signal to the metrics and the log."""
    if record.kind is not JobKind.COMPACT:
        return
    signal = compaction_signal(record.key, record.state.value, record.result or {})
    metrics.compaction(signal)
    log.info(
        "compaction finished",
        extra={
            "tenant": record.tenant_id, "job": record.key, "trigger": signal.trigger.value, "outcome": signal.outcome,
            "path": signal.path, "summarized_messages": signal.summarized_messages,
            "summaries_written": signal.summaries_written, "filed_memories": signal.filed_memories,
        },
    )  # fmt: skip


def _admin(
    settings: Settings,
    stores: Stores,
    p: Providers,
    shared: _Shared,
    jobs: JobPorts | None,
    usage: UsageService,
    rates: RateLimiter | None,
    filing: ConversationFiling,
) -> AdminParts:
    au, hold = settings.auth, settings.jobs.model_job_timeout_seconds + 10
    leases, calibrated = jobs.leases if jobs is not None else None, calibration_for(p.embedder.model_name)
    erasure = ErasureService(
        stores.memories.store,
        stores.conversations,
        stores.reviews,
        stores.maintenance,
        (jobs.ledger, jobs.queue) if jobs is not None else None,
        shared.trail,
        p.clock,
        stores.graph,
        leases=leases,
        job_seconds=hold,
        orphan_grace_seconds=settings.storage.orphan_grace_seconds,
        provenance=shared.provenance,
    )
    retention = RetentionService(
        stores.memories.store,
        stores.memories.agents,
        stores.conversations,
        shared.trail,
        p.clock,
        shared.configs.retention,
        lambda: sorted(settings.retention.tenants),
        leases=leases,
        hold_seconds=hold,
        provenance=shared.provenance,
        graph=stores.graph,
        filing=filing,
    )
    ledger = jobs.ledger if jobs else None
    return AdminParts(
        keys=KeyService(stores.keys, p.clock, au.cache_seconds, trail=shared.trail),
        erasure=erasure,
        exports=ExportService(
            stores.exports, ledger, p.embedder, p.clock, shared.trail, shared.provenance, shared.configs
        ),
        retention=retention,
        usage=usage,
        reviews=stores.reviews,
        review_rules=ReviewRules(stores.memories.snapshot, p.neighbours, p.clock, settings.audits.limits(calibrated)),
        directory=Directory(stores.exports, stores.memories.agents),
        trail=shared.trail,
        pii=shared.pii,
        rates=RateBudget(rates, au.reads_per_second, au.writes_per_second, au.burst_seconds) if rates else None,
        provenance=shared.provenance,
    )
