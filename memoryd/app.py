"""The composition root: the only module that knows both services and adapters.

``async with build_app(settings) as app`` opens every client (store, embedder),
starts the background loops (retrieval-count write-behind, store maintenance)
and closes everything in reverse order. The gRPC servicer and the workers call
the same ``App`` services. Tests swap an adapter by passing it in.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import socket
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any, TypeVar

from memoryd.adapters.arq_queue import ArqJobQueue, connect
from memoryd.adapters.clock import SystemClock
from memoryd.adapters.duckdb_analytics import DuckDBAnalytics
from memoryd.adapters.lance.agent_config import LanceAgentConfigStore
from memoryd.adapters.lance.archive import lance_archive
from memoryd.adapters.lance.audit_log import LanceAuditLog
from memoryd.adapters.lance.conversations import LanceConversationStore
from memoryd.adapters.lance.creation import LeaseCreationLock
from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.export import LanceTenantArchive
from memoryd.adapters.lance.graph import LanceGraphStore
from memoryd.adapters.lance.keys import LanceKeyStore
from memoryd.adapters.lance.maintenance import LanceMaintenance
from memoryd.adapters.lance.profiles import LanceProfileStore
from memoryd.adapters.lance.reembed_finish import LanceReembedFinish
from memoryd.adapters.lance.reviews import LanceReviewStore
from memoryd.adapters.lance.spaces import LanceEmbeddingSpaces
from memoryd.adapters.numpy_neighbours import NumpyNeighbours
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.adapters.prometheus_metrics import MeteredEmbedder, PrometheusMetrics
from memoryd.adapters.redis.gate import RedisProviderGate
from memoryd.adapters.redis.leases import RedisLeases
from memoryd.adapters.redis.ledger import RedisJobLedger
from memoryd.adapters.redis.rates import RedisRateLimiter
from memoryd.adapters.tiktoken_counter import TiktokenCounter
from memoryd.config import EmbeddingSettings, ProviderSettings, Settings
from memoryd.core.calibration import calibration_for
from memoryd.core.errors import MemorydError, NotReady, Unavailable
from memoryd.core.ports import (
    AgentConfigStore,
    ArchivePorts,
    AuditEventStore,
    ChatModel,
    Clock,
    ConversationStore,
    Embedder,
    EmbeddingSpaces,
    GraphStore,
    JobLedger,
    JobQueue,
    KeyStore,
    Leases,
    MemoryStore,
    NeighbourSearch,
    ProfileStore,
    ProviderGate,
    RateLimiter,
    ReembedFinisher,
    ReviewStore,
    StoreMaintenance,
    TenantArchive,
    TokenCounter,
    UsageAnalytics,
    WholeArchive,
)
from memoryd.core.validation import Limits
from memoryd.runtime.allocator import release_free_memory
from memoryd.services.agent_config import AgentConfigService
from memoryd.services.archive import ArchiveService
from memoryd.services.audit_batch import AuditBatchService
from memoryd.services.audit_trail import AuditTrail
from memoryd.services.bootstrap import BootstrapService
from memoryd.services.compaction import CompactionService
from memoryd.services.conversation import ConversationService
from memoryd.services.directory import Directory
from memoryd.services.embedding_backfill import EmbeddingBackfill
from memoryd.services.erasure import ErasureService
from memoryd.services.export import ExportService
from memoryd.services.feedback import FeedbackService
from memoryd.services.graph import GraphService
from memoryd.services.graph_extraction import GraphExtraction
from memoryd.services.job_runner import JobRunner
from memoryd.services.job_service import JobService
from memoryd.services.keys import KeyService
from memoryd.services.maintenance_loop import MaintenanceLoop
from memoryd.services.memorize import MemorizeService
from memoryd.services.pii_floor import PiiFloor
from memoryd.services.profile import ProfileService
from memoryd.services.rate_budget import RateBudget
from memoryd.services.reads_in_flight import ReadsInFlight
from memoryd.services.recall import RecallService
from memoryd.services.reembed import Reembed, SpaceRouter
from memoryd.services.retention import RetentionService
from memoryd.services.retrievals import RetrievalLog
from memoryd.services.review import ReviewRules, ReviewService
from memoryd.services.usage import UsageService
from memoryd.services.write_company import WriteCompany

log = logging.getLogger(__name__)


_AUDIT_FLUSH_SECONDS = 1.0
"""Buffered audit events are written this often (a crash loses at most this much of the log)."""

NO_JOB_QUEUE = (
    "this process has no job queue: background jobs need Redis/Valkey; start it with REDIS_URL set "
    "(or use `memoryd up`)"
)


@dataclass(frozen=True)
class JobParts:
    """Everything that needs the job queue (Redis/Valkey): the only optional part of the App."""

    service: JobService
    """The ledger's front door: enqueue, get, list, watch, re-drive."""
    runner: JobRunner
    bootstrap: BootstrapService
    compaction: CompactionService
    review: ReviewService
    audits: AuditBatchService
    graph_extraction: GraphExtraction | None = None
    """The GRAPH_EXTRACT body (None without a graph store)."""


@dataclass(frozen=True)
class App:
    """The services, wired; ``jobs`` raises Unavailable when no job queue is configured."""

    settings: Settings
    embedder: Embedder
    clock: Clock
    store: MemoryStore
    memories: ArchivePorts
    """The archive's ports (``store`` is the request path's; counts, pending vectors, scans, the directory)."""
    profiles: ProfileStore
    conversation_store: ConversationStore
    reviews: ReviewStore
    maintenance: StoreMaintenance | None
    """The store's upkeep; None when the stores were passed in (tests with fakes)."""
    memorize: MemorizeService
    recall: RecallService
    archive: ArchiveService
    feedback: FeedbackService
    backfill: EmbeddingBackfill
    """Embeds the memories stored while the embedder was unreachable."""
    spaces: SpaceRouter
    """Each tenant's Recall space and the dual writes of a re-embed under way."""
    reembed: Reembed | None
    """The re-embed job (None unless a target embedder is configured: ``reembed.enabled``)."""
    metrics: PrometheusMetrics
    """Calls, the embedder, writes and recalls (``/metrics`` of ``memoryd serve``)."""
    profile: ProfileService
    retrievals: RetrievalLog
    configs: AgentConfigService
    """Stored tenant and agent settings, resolved (``GetEffectiveConfig``)."""
    graph_service: GraphService | None
    """The memory graph (None only when test stores were passed in without a graph store)."""
    conversations: ConversationService
    usage: UsageService
    keys: KeyService
    erasure: ErasureService
    exports: ExportService
    retention: RetentionService
    rates: RateBudget | None
    """Per-key call budgets (None without Redis: then keys are not rate-limited)."""
    pii: PiiFloor
    trail: AuditTrail
    """The audit log: one event per mutation (never the content)."""
    job_parts: JobParts | None
    review_rules: ReviewRules
    """The review's rules alone (a dry run: no job queue, no model, nothing stored)."""
    directory: Directory
    """The tenants and agents the store knows (the commands refuse others)."""
    maintenance_loop: MaintenanceLoop | None = None
    """This process's maintenance schedule (None when maintenance is off here)."""

    async def backfill_pass(self) -> None:
        """One backfill pass; the pending count goes to the metrics."""
        await self.backfill.run_once()
        self.metrics.embeddings_pending(self.backfill.pending)
        target = self.spaces.target
        if self.reembed is not None and target is not None and self.spaces.missed:
            missed, self.spaces.missed = sorted(self.spaces.missed), set()
            try:
                await self.reembed.fill_missed(target.model_name, missed)
            except Unavailable:
                self.spaces.missed.update(missed)  # the next pass tries again

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


def build_embedder(settings: EmbeddingSettings) -> Embedder:
    """The configured embedder (the embedded ONNX model by default)."""
    if settings.provider == "openai":
        import openai  # only when configured: importing it costs ~1 s of every start (see build_chat)

        from memoryd.adapters.openai.embedder import OpenAIEmbedder

        client = openai.AsyncOpenAI(
            base_url=settings.base_url,
            api_key=settings.api_key.get_secret_value() or "none",
            timeout=settings.timeout_seconds,
            max_retries=1,
        )
        return OpenAIEmbedder(client, settings.model, settings.dimension, settings.send_dimensions)
    return OnnxMiniLMEmbedder(threads=settings.threads)


def _embedders(
    model: Embedder, settings: Settings, metrics: PrometheusMetrics
) -> tuple[Embedder, Embedder, ReadsInFlight]:
    """The embedder of writes, the embedder of Recall's queries, and the reads that writes let go first.

    The local model's cores are the reads' too: its queries have a lane of their own, and writes wait
    for a pause in the Recalls (``memorize.reads_first_ms``). An endpoint's calls take no local CPU.
    """
    embedder = MeteredEmbedder(model, metrics)
    if isinstance(model, OnnxMiniLMEmbedder):
        queries = MeteredEmbedder(model.for_queries(), metrics)
        return embedder, queries, ReadsInFlight(settings.memorize.reads_first_ms / 1000)
    return embedder, embedder, ReadsInFlight(0.0)


def build_chat(settings: ProviderSettings) -> ChatModel | None:
    """The configured chat model, or None (model-bound jobs then wait for one)."""
    if not settings.configured:
        return None
    # Imported only when a provider is configured: the openai package took ~1 s of a 5 s daemon start
    # on 2 cores, which the embedded default (no provider) need not pay.
    import openai

    from memoryd.adapters.openai.chat import OpenAIChat

    client = openai.AsyncOpenAI(
        base_url=settings.base_url,
        api_key=settings.api_key.get_secret_value() or "none",
        timeout=settings.timeout_seconds,
        max_retries=0,
    )
    return OpenAIChat(client, settings.extraction_model)


@dataclass(frozen=True)
class _Stores:
    memories: ArchivePorts
    profiles: ProfileStore
    conversations: ConversationStore
    reviews: ReviewStore
    keys: KeyStore
    audit_log: AuditEventStore
    exports: TenantArchive
    agent_configs: AgentConfigStore
    maintenance: StoreMaintenance | None
    close: Callable[[], None]
    graph: GraphStore | None = None
    """The memory graph's store (None when the other stores were passed in without one)."""
    spaces: EmbeddingSpaces | None = None
    finisher: ReembedFinisher | None = None
    """The re-embed's record, the archive's second space, its end (None with stores passed in)."""


async def _open_stores(
    settings: Settings,
    embedder: Embedder,
    store: WholeArchive | ArchivePorts | None,
    profiles: ProfileStore | None,
    conversations: ConversationStore | None,
    reviews: ReviewStore | None,
    keys: KeyStore | None,
    audit_log: AuditEventStore | None,
    archive: TenantArchive | None,
    agent_configs: AgentConfigStore | None,
    graph: GraphStore | None = None,
    metrics: PrometheusMetrics | None = None,
    leases: Leases | None = None,
) -> _Stores:
    """The LanceDB stores, unless every store was passed in.

    ``leases`` (the jobs' Redis) serialise table creation among the replicas of an object-storage store.
    """
    given = (store, profiles, conversations, reviews, keys, audit_log, archive, agent_configs)
    if (
        store is not None
        and profiles is not None
        and conversations is not None
        and reviews is not None
        and keys is not None
        and audit_log is not None
        and archive is not None
        and agent_configs is not None
    ):
        memories = store if isinstance(store, ArchivePorts) else ArchivePorts.of(store)
        return _Stores(
            memories,
            profiles,
            conversations,
            reviews,
            keys,
            audit_log,
            archive,
            agent_configs,
            None,
            lambda: None,
            graph,
        )
    if given != (None,) * len(given):
        raise ValueError("pass every store (store … agent_configs) or none of them")
    st = settings.storage
    db = await LanceDatabase.open(
        st.uri,
        embedder.model_name,
        embedder.dimension,
        read_consistency=timedelta(seconds=st.read_consistency()),
        index_cache_bytes=st.index_cache_mb << 20,
        metadata_cache_bytes=st.metadata_cache_mb << 20,
        storage_options=st.storage_options(),
        creation=LeaseCreationLock(leases, st.uri) if st.on_object_storage and leases is not None else None,
    )
    tables, memories = lance_archive(
        db,
        embedder.dimension,
        copy_max_rows=st.copy_max_rows,
        copy_tables=st.copy_tables,
        copy_total_rows=st.copy_total_rows,
        ann_min_rows=st.ann_min_rows,
    )
    maintenance = LanceMaintenance(
        db,
        ann_min_rows=st.ann_min_rows,
        optimize_min_fragments=st.optimize_min_fragments,
        cleanup_older_than=timedelta(minutes=st.cleanup_older_than_minutes),
        forget_purge_every=timedelta(minutes=st.forget_purge_minutes),
        observe=metrics.tables if metrics is not None else None,
        copy_max_rows=st.copy_max_rows,
        keeping_copy=tables.keeping_copy,
        orphan_grace=timedelta(seconds=st.orphan_grace_seconds),
    )
    return _Stores(
        memories,
        LanceProfileStore(db, copies=st.copy_max_rows > 0),
        LanceConversationStore(db, copies=st.copy_max_rows > 0),
        LanceReviewStore(db),
        LanceKeyStore(db),
        LanceAuditLog(db),
        LanceTenantArchive(db, embedder.dimension),
        LanceAgentConfigStore(db),
        maintenance,
        db.close,
        LanceGraphStore(db, embedder.dimension),
        LanceEmbeddingSpaces(db),
        LanceReembedFinish(db),
    )


@asynccontextmanager
async def build_app(
    settings: Settings,
    *,
    store: WholeArchive | ArchivePorts | None = None,
    profiles: ProfileStore | None = None,
    conversations: ConversationStore | None = None,
    reviews: ReviewStore | None = None,
    keys: KeyStore | None = None,
    audit_log: AuditEventStore | None = None,
    archive: TenantArchive | None = None,
    agent_configs: AgentConfigStore | None = None,
    graph: GraphStore | None = None,
    neighbours: NeighbourSearch | None = None,
    analytics: UsageAnalytics | None = None,
    ledger: JobLedger | None = None,
    queue: JobQueue | None = None,
    gate: ProviderGate | None = None,
    leases: Leases | None = None,
    chat: ChatModel | None = None,
    embedder: Embedder | None = None,
    clock: Clock | None = None,
    counter: TokenCounter | None = None,
    rates: RateLimiter | None = None,
    reembed_target: Embedder | None = None,
) -> AsyncIterator[App]:
    """Open what was not passed in, start the background loops, yield the App; close in reverse order.

    Every port can be passed in (tests swap adapters here, never by patching). The job parts
    exist when ``ledger``, ``queue``, ``gate`` and ``leases`` are passed, or when Redis is configured.
    """
    metrics = PrometheusMetrics(tenant_label=settings.metrics.tenant_label)
    owned: list[object] = []  # the ports built here, closed here; a port passed in stays its caller's
    embedder, queries, reads = _embedders(
        embedder or _owned(build_embedder(settings.embedding), owned), settings, metrics
    )
    if reembed_target is None and settings.reembed.enabled:
        reembed_target = _owned(build_embedder(settings.reembed), owned)
    target = MeteredEmbedder(reembed_target, metrics) if reembed_target is not None else None
    counter = counter or TiktokenCounter(settings.profile.encoding)
    clock = clock or SystemClock()
    jobs = _job_ports(ledger, queue, gate, leases)
    redis = None
    if jobs is None and settings.redis.dsn:
        redis = await connect(settings.redis.dsn)
        jobs = _redis_job_ports(settings, redis)
    if rates is None and redis is not None:
        rates = RedisRateLimiter(redis)
    try:
        stores = await _open_stores(
            settings,
            embedder,
            store,
            profiles,
            conversations,
            reviews,
            keys,
            audit_log,
            archive,
            agent_configs,
            graph,
            metrics,
            jobs.leases if jobs is not None else None,
        )
    except BaseException:
        if redis is not None:
            await redis.aclose()
        await _close(owned)
        raise
    try:
        chat = chat if chat is not None else _owned(build_chat(settings.provider), owned)
        analytics = analytics or DuckDBAnalytics(settings.storage.uri, settings.storage.storage_options())
        app = _wire(
            settings,
            stores,
            embedder,
            clock,
            counter,
            jobs,
            chat,
            neighbours or NumpyNeighbours(),
            analytics,
            rates,
            metrics,
            target,
            queries,
            reads,
        )
        tasks = [asyncio.create_task(_every(*every)) for every in _periodic(settings, app)]
        st = settings.storage
        stop_upkeep = asyncio.Event()
        upkeep_task = None
        if st.maintenance_enabled and stores.maintenance is not None:
            holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
            upkeep = MaintenanceLoop(
                stores.maintenance, jobs.leases if jobs else None, holder, st.maintenance_lease_seconds
            )
            app = replace(app, maintenance_loop=upkeep)
            upkeep_task = asyncio.create_task(
                _maintain_forever(upkeep, st.maintenance_written_seconds, st.maintenance_interval_seconds, stop_upkeep)
            )
        try:
            yield app
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await _stop_upkeep(upkeep_task, stop_upkeep, settings.server.grace_seconds)
            if stores.maintenance is not None:
                await stores.maintenance.close()
            try:
                await app.retrievals.flush()
            except MemorydError:
                log.warning("could not flush retrieval counts at shutdown", exc_info=True)
            try:
                await app.trail.flush()
            except MemorydError:
                log.error("could not write %d audit events at shutdown", app.trail.pending, exc_info=True)
    finally:
        if redis is not None:
            await redis.aclose()
        stores.close()
        await _close(owned)


_Port = TypeVar("_Port")


def _owned(port: _Port, owned: list[object]) -> _Port:
    """``port``, noted as built by ``build_app`` (which closes it)."""
    owned.append(port)
    return port


async def _close(owned: list[object]) -> None:
    """Close what ``build_app`` built and can be closed: the provider clients (their kept-alive connections)."""
    for port in owned:
        close = getattr(port, "aclose", None)
        if close is None:
            continue
        try:
            await close()
        except Exception:  # closing is best effort: the process may be ending anyway
            log.warning("could not close %s", type(port).__name__, exc_info=True)


@dataclass(frozen=True)
class _JobPorts:
    ledger: JobLedger
    queue: JobQueue
    gate: ProviderGate
    leases: Leases


def _job_ports(
    ledger: JobLedger | None, queue: JobQueue | None, gate: ProviderGate | None, leases: Leases | None
) -> _JobPorts | None:
    if ledger is not None and queue is not None and gate is not None and leases is not None:
        return _JobPorts(ledger, queue, gate, leases)
    if (ledger, queue, gate, leases) != (None, None, None, None):
        raise ValueError("pass ledger, queue, gate and leases together (or none of them)")
    return None


def _redis_job_ports(settings: Settings, redis: Any) -> _JobPorts:
    js = settings.jobs
    gate = RedisProviderGate(
        redis,
        threshold=js.breaker_threshold,
        cooldown_seconds=js.breaker_cooldown_seconds,
        tenant_slots=js.tenant_concurrency,
        slot_seconds=settings.provider.timeout_seconds + 10,
    )
    return _JobPorts(RedisJobLedger(redis, js.keep_days), ArqJobQueue(redis), gate, RedisLeases(redis))


def _wire(
    settings: Settings,
    stores: _Stores,
    embedder: Embedder,
    clock: Clock,
    counter: TokenCounter,
    ports: _JobPorts | None,
    chat: ChatModel | None,
    neighbours: NeighbourSearch,
    analytics: UsageAnalytics,
    rates: RateLimiter | None,
    metrics: PrometheusMetrics,
    target: Embedder | None = None,
    queries: Embedder | None = None,
    reads: ReadsInFlight | None = None,
) -> App:
    """The service graph over the ports (``queries``: the embedder of Recall's queries, default ``embedder``)."""
    queries = queries or embedder
    au = settings.auth
    limits = Limits(max_content_bytes=settings.memorize.max_content_bytes)
    tuning = settings.recall.tuning()
    dedup_distance = settings.memorize.dedup_distance
    if dedup_distance is None:
        dedup_distance = calibration_for(embedder.model_name).dedup_distance
    trail = AuditTrail(stores.audit_log, clock)
    pii = PiiFloor(settings.pii.policy_for)
    backfill = EmbeddingBackfill(stores.memories.pending, stores.memories.agents, embedder)
    spaces = SpaceRouter(
        queries,
        calibration_for(embedder.model_name).similarity_floor
        if tuning.similarity_floor is None
        else tuning.similarity_floor,
        target,
        stores.spaces,
        settings.reembed.refresh_seconds,
    )
    memorize = MemorizeService(
        stores.memories.store,
        embedder,
        clock,
        limits,
        dedup_distance,
        timedelta(hours=settings.memorize.request_id_hours),
        trail=trail,
        pii=pii,
        neighbours=neighbours,
        pending_on_outage=settings.embedding.pending_on_outage,
        on_pending=backfill.note,
        spaces=spaces,
        # an endpoint's embedding is a wait the next commit can fill; the local model's is CPU the
        # commit needs too, and overlapping them only splits the groups (measured in `bench mixed`)
        embed_during_commit=settings.embedding.provider != "onnx",
        reads=reads,
        company=WriteCompany(settings.memorize.group_linger_ms / 1000),
    )
    profile = ProfileService(
        stores.profiles, counter, memorize, clock, settings.profile.default_budget_tokens, trail=trail, pii=pii
    )
    floor = calibration_for(embedder.model_name).similarity_floor
    configs = AgentConfigService(
        stores.agent_configs,
        trail,
        functools.partial(settings.agent_defaults, calibrated_floor=floor),
        {agent: o.values() for agent, o in settings.working.agents.items()},
        cache_seconds=settings.agent_config.cache_seconds,
        rrf_k=settings.recall.rrf_k,
    )
    retrievals = RetrievalLog(stores.memories.stats, clock)
    recall = RecallService(
        stores.memories.store,
        queries,
        clock,
        retrievals,
        limits,
        tuning,
        configs.recall_defaults,
        spaces=spaces,
        reads=reads,
    )
    usage = UsageService(
        analytics,
        stores.reviews,
        clock,
        settings.audits.concentration_top1_share,
        settings.audits.never_retrieved_share,
    )
    graph = GraphService(stores.graph, embedder, counter, clock, trail, pii) if stores.graph is not None else None
    parts = None
    if ports is not None:
        js = settings.jobs
        service = JobService(ports.ledger, ports.queue, clock)
        review = ReviewService(
            stores.memories.store,
            stores.memories.snapshot,
            neighbours,
            stores.reviews,
            service,
            memorize,
            counter,
            clock,
            settings.audits.limits(),
            configs.review_apply,
            trail=trail,
        )
        parts = JobParts(
            service=service,
            runner=JobRunner(
                service,
                ports.gate,
                ports.leases,
                chat,
                clock,
                js.retry_policy(),
                on_call=metrics.provider_call,
                worker_id=f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}",
                model_calls=js.model_concurrency,
            ),
            bootstrap=BootstrapService(
                stores.memories.store,
                stores.memories.agents,
                profile,
                service,
                counter,
                schema_version=settings.profile.schema_version,
                archive_tokens=js.bootstrap_archive_tokens,
            ),
            compaction=CompactionService(
                stores.conversations, memorize, profile, embedder, counter, clock, configs, pii=pii, jobs=service
            ),
            graph_extraction=(
                GraphExtraction(stores.conversations, graph, configs, pii=pii) if graph is not None else None
            ),
            review=review,
            audits=AuditBatchService(
                stores.memories.agents,
                review,
                usage,
                service,
                clock,
                settings.audits.schedule,
                check_seconds=1.0,
                review_enabled=configs.review_enabled,
            ),
        )
    archive = ArchiveService(stores.memories.store, embedder, clock, limits, trail=trail, pii=pii, spaces=spaces)
    reembed = (
        Reembed(stores.memories.filler, stores.spaces, target, finisher=stores.finisher)
        if target is not None and stores.memories.filler is not None and stores.spaces is not None
        else None
    )
    return App(
        memories=stores.memories,
        review_rules=ReviewRules(stores.memories.snapshot, neighbours, clock, settings.audits.limits()),
        directory=Directory(stores.exports, stores.memories.agents),
        settings=settings,
        embedder=embedder,
        clock=clock,
        store=stores.memories.store,
        profiles=stores.profiles,
        reviews=stores.reviews,
        conversation_store=stores.conversations,
        maintenance=stores.maintenance,
        memorize=memorize,
        recall=recall,
        archive=archive,
        feedback=FeedbackService(stores.memories.store, stores.memories.stats, archive, memorize, clock, limits, trail),
        backfill=backfill,
        spaces=spaces,
        reembed=reembed,
        metrics=metrics,
        profile=profile,
        retrievals=retrievals,
        configs=configs,
        graph_service=graph,
        conversations=ConversationService(
            stores.conversations,
            profile,
            recall,
            counter,
            clock,
            parts.service if parts else None,
            configs,
            settings.working.context_window_tokens,
            pii=pii,
            graph=graph,
        ),
        usage=usage,
        keys=KeyService(stores.keys, clock, settings.auth.cache_seconds, trail=trail),
        erasure=ErasureService(
            stores.memories.store,
            stores.conversations,
            stores.reviews,
            stores.maintenance,
            (ports.ledger, ports.queue) if ports is not None else None,
            trail,
            clock,
            stores.graph,
            leases=ports.leases if ports is not None else None,
            job_seconds=settings.jobs.model_job_timeout_seconds + 10,
            orphan_grace_seconds=settings.storage.orphan_grace_seconds,
        ),
        retention=RetentionService(
            stores.memories.store,
            stores.memories.agents,
            stores.conversations,
            trail,
            clock,
            configs.retention,
            lambda: sorted(settings.retention.tenants),
            leases=ports.leases if ports is not None else None,
            hold_seconds=settings.jobs.model_job_timeout_seconds + 10,
        ),
        exports=ExportService(stores.exports, ports.ledger if ports is not None else None, embedder, clock, trail),
        rates=RateBudget(rates, au.reads_per_second, au.writes_per_second, au.burst_seconds) if rates else None,
        pii=pii,
        trail=trail,
        job_parts=parts,
    )


async def _stop_upkeep(task: asyncio.Task[None] | None, stop: asyncio.Event, grace_seconds: float) -> None:
    """Let the maintenance loop finish its pass and give its lease back; cancel it only past the grace.

    Cancelling it mid-call would leave a lease call (or a Lance commit) half done.
    """
    if task is None:
        return
    stop.set()
    try:
        await asyncio.wait_for(task, timeout=grace_seconds)
    except TimeoutError:
        log.warning("store maintenance still running at shutdown; cancelled (its lease expires on its own)")
    except Exception:  # the loop logged its own failures; shutting down goes on
        log.warning("store maintenance ended with an error at shutdown", exc_info=True)


async def _maintain_forever(
    maintenance: MaintenanceLoop, written_seconds: float, full_seconds: float, stop: asyncio.Event
) -> None:
    """Tables this process wrote, every few seconds; every table, every ``full_seconds`` (by the lease holder)."""
    loop = asyncio.get_running_loop()
    last_full = loop.time()
    try:
        while True:
            try:
                await asyncio.wait_for(stop.wait(), timeout=written_seconds)
                return  # stopping: no new pass
            except TimeoutError:
                pass
            full = loop.time() - last_full >= full_seconds
            try:
                ran = await maintenance.step(full=full)
            except Exception:  # a background loop must survive any failure of one pass (Redis down included)
                log.exception("store maintenance failed; retrying in %.0f s", written_seconds)
                ran = False
            if full and ran:
                last_full = loop.time()
    finally:
        try:
            await asyncio.shield(maintenance.release())
        except Unavailable as exc:  # Redis stopped first (one Ctrl-C stops `memoryd up` whole)
            log.warning("could not release the maintenance lease; it expires on its own", extra={"error": str(exc)})
        except Exception:  # the lease expires on its own
            log.warning("could not release the maintenance lease; it expires on its own", exc_info=True)


def _periodic(settings: Settings, app: App) -> list[tuple[float, Callable[[], Awaitable[None]], str]]:
    """The process's periodic steps: every how many seconds, the step, its name (for the logs)."""
    steps: list[tuple[float, Callable[[], Awaitable[None]], str]] = [
        (settings.recall.retrieval_flush_seconds, app.retrievals.flush, "retrieval flush"),
        (_AUDIT_FLUSH_SECONDS, app.trail.flush, "audit log flush"),
        (settings.embedding.backfill_seconds, app.backfill_pass, "embedding backfill"),
    ]
    if settings.storage.memory_release_seconds > 0:
        steps.append((settings.storage.memory_release_seconds, _release_free_memory, "free memory release"))
    return steps


async def _release_free_memory() -> None:
    await asyncio.to_thread(release_free_memory)


async def _every(seconds: float, step: Callable[[], Awaitable[None]], name: str) -> None:
    """Run ``step`` forever, ``seconds`` apart; a failing step is logged and retried next time."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await step()
        except Exception:  # a background loop must survive any failure of one step
            log.exception("%s failed; retrying in %.0f s", name, seconds)
