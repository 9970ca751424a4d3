"""The composition root: the only module that knows both services and adapters.

``async with build_app(settings) as app`` opens every client (store, embedder),
starts the background loops (retrieval-count write-behind, store maintenance)
and closes everything in reverse order. The gRPC servicer and the workers call
the same ``App`` services. Tests swap an adapter by passing it in.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta

import openai

from memoryd.adapters.arq_queue import ArqJobQueue, connect
from memoryd.adapters.clock import SystemClock
from memoryd.adapters.lance_conversations import LanceConversationStore
from memoryd.adapters.lance_profiles import LanceProfileStore
from memoryd.adapters.lance_store import LanceMemoryStore
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.adapters.openai_chat import OpenAIChat
from memoryd.adapters.openai_embedder import OpenAIEmbedder
from memoryd.adapters.redis_gate import RedisProviderGate
from memoryd.adapters.redis_ledger import RedisJobLedger
from memoryd.adapters.tiktoken_counter import TiktokenCounter
from memoryd.config import EmbeddingSettings, ProviderSettings, Settings, WorkingSettings
from memoryd.core.calibration import calibration_for
from memoryd.core.conversation import (
    WorkingPolicy,
)
from memoryd.core.errors import MemorydError
from memoryd.core.ports import ChatModel, Clock, Embedder, TokenCounter
from memoryd.core.ranking import FusionWeights
from memoryd.core.validation import Limits
from memoryd.core.working import (
    apply_overrides,
)
from memoryd.services.archive import ArchiveService
from memoryd.services.bootstrap import BootstrapService
from memoryd.services.compaction import CompactionService
from memoryd.services.conversation import ConversationService, PolicyBook
from memoryd.services.job_runner import JobRunner, RetryPolicy
from memoryd.services.jobs import JobService
from memoryd.services.memorize import MemorizeService
from memoryd.services.profile import ProfileService
from memoryd.services.recall import RecallService, RecallTuning
from memoryd.services.retrievals import RetrievalLog

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class App:
    """The services, wired."""

    memorize: MemorizeService
    recall: RecallService
    archive: ArchiveService
    profile: ProfileService
    retrievals: RetrievalLog
    store: LanceMemoryStore
    profiles: LanceProfileStore
    embedder: Embedder
    settings: Settings
    jobs: JobService | None = None
    """None when no Redis/Valkey is configured (job RPCs answer UNAVAILABLE)."""
    bootstrap: BootstrapService | None = None
    runner: JobRunner | None = None
    conversations: ConversationService | None = None
    compaction: CompactionService | None = None
    conversation_store: LanceConversationStore | None = None


def build_embedder(settings: EmbeddingSettings) -> Embedder:
    """The configured embedder (the embedded ONNX model by default)."""
    if settings.provider == "openai":
        client = openai.AsyncOpenAI(base_url=settings.base_url, api_key=settings.api_key.get_secret_value() or "none",
                                    timeout=settings.timeout_seconds, max_retries=1)
        return OpenAIEmbedder(client, settings.model, settings.dimension, settings.send_dimensions)
    return OnnxMiniLMEmbedder(threads=settings.threads)


def build_policies(settings: WorkingSettings) -> PolicyBook:
    """The working-memory policies; a bad per-agent override fails here, at start-up."""
    default = apply_overrides(WorkingPolicy(), dict(settings.default.model_dump()))
    agents = {agent: type(settings.default)(**{**settings.default.model_dump(), **override}).model_dump()
              for agent, override in settings.agents.items()}
    return PolicyBook(default, agents)


def build_chat(settings: ProviderSettings) -> ChatModel | None:
    """The configured chat model, or None (model-bound jobs then wait for one)."""
    if not settings.configured:
        return None
    client = openai.AsyncOpenAI(base_url=settings.base_url, api_key=settings.api_key.get_secret_value() or "none",
                                timeout=settings.timeout_seconds, max_retries=0)
    return OpenAIChat(client, settings.extraction_model)


@asynccontextmanager
async def build_app(settings: Settings, *, embedder: Embedder | None = None, clock: Clock | None = None,
                    counter: TokenCounter | None = None) -> AsyncIterator[App]:
    """Open the store and embedder, start background loops, yield the App."""
    embedder = embedder or build_embedder(settings.embedding)
    counter = counter or TiktokenCounter(settings.profile.encoding)
    clock = clock or SystemClock()
    st = settings.storage
    store = await LanceMemoryStore.open(
        st.uri, embedder.model_name, embedder.dimension, ann_min_rows=st.ann_min_rows,
        optimize_min_fragments=st.optimize_min_fragments,
        cleanup_older_than=timedelta(minutes=st.cleanup_older_than_minutes),
        read_consistency=timedelta(seconds=st.read_consistency_seconds), hot_max_rows=st.hot_max_rows,
        hot_total_rows=st.hot_total_rows, index_cache_bytes=st.index_cache_mb << 20,
        metadata_cache_bytes=st.metadata_cache_mb << 20)
    limits = Limits(max_content_bytes=settings.memorize.max_content_bytes)
    rc = settings.recall
    tuning = RecallTuning(FusionWeights(rc.rrf_k, rc.vector_weight, rc.fts_weight), rc.similarity_threshold,
                          rc.min_depth, rc.depth_per_limit, full_text_mode=rc.full_text_mode,
                          prefix_matching=rc.prefix_matching, vector_query=rc.vector_query)
    retrievals = RetrievalLog(store, clock)
    profiles = LanceProfileStore(store.connection, store.written)
    dedup_distance = settings.memorize.dedup_distance
    if dedup_distance is None:
        dedup_distance = calibration_for(embedder.model_name).dedup_distance
    memorize = MemorizeService(store, embedder, clock, limits, dedup_distance,
                               timedelta(hours=settings.memorize.request_id_hours))
    profile = ProfileService(profiles, counter, memorize, clock, settings.profile.default_budget_tokens)
    jobs = bootstrap = runner = None
    redis = None
    if settings.redis.dsn:
        js = settings.jobs
        redis = await connect(settings.redis.dsn)
        jobs = JobService(RedisJobLedger(redis, js.keep_days), ArqJobQueue(redis), clock)
        gate = RedisProviderGate(redis, threshold=js.breaker_threshold, cooldown_seconds=js.breaker_cooldown_seconds,
                                 tenant_slots=js.tenant_concurrency,
                                 slot_seconds=settings.provider.timeout_seconds + 10)
        runner = JobRunner(jobs, gate, build_chat(settings.provider), clock,
                           RetryPolicy(js.max_tries, js.backoff_base_seconds, js.backoff_cap_seconds))
        bootstrap = BootstrapService(store, store, profile, jobs, counter,
                                     schema_version=settings.profile.schema_version,
                                     archive_tokens=js.bootstrap_archive_tokens)
    recall = RecallService(store, embedder, clock, retrievals, limits, tuning)
    conversation_store = LanceConversationStore(store.connection, store.written)
    policies = build_policies(settings.working)
    app = App(
        memorize=memorize,
        recall=recall,
        archive=ArchiveService(store, embedder, clock, limits),
        profile=profile,
        retrievals=retrievals, store=store, profiles=profiles, embedder=embedder, settings=settings,
        jobs=jobs, bootstrap=bootstrap, runner=runner,
        conversations=ConversationService(conversation_store, profile, recall, counter, clock, jobs, policies,
                                          settings.working.context_window_tokens),
        compaction=CompactionService(conversation_store, memorize, profile, embedder, counter, clock, policies),
        conversation_store=conversation_store,
    )
    tasks = [asyncio.create_task(_every(rc.retrieval_flush_seconds, retrievals.flush, "retrieval flush"))]
    if st.maintenance_enabled:
        tasks.append(asyncio.create_task(_maintain_forever(store, st.maintenance_written_seconds,
                                                           st.maintenance_interval_seconds)))
    try:
        yield app
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        try:
            await retrievals.flush()
        except MemorydError:
            log.warning("could not flush retrieval counts at shutdown", exc_info=True)
        if redis is not None:
            await redis.aclose()
        store.close()


async def _maintain_forever(store: LanceMemoryStore, written_seconds: float, full_seconds: float) -> None:
    """Tables this process wrote, every few seconds; every table, every ``full_seconds``."""
    loop = asyncio.get_running_loop()
    last_full = loop.time()
    while True:
        await asyncio.sleep(written_seconds)
        full = loop.time() - last_full >= full_seconds
        try:
            await store.maintain(full=full)
        except Exception:  # a background loop must survive any failure of one pass
            log.exception("store maintenance failed; retrying in %.0f s", written_seconds)
        if full:
            last_full = loop.time()


async def _every(seconds: float, step: Callable[[], Awaitable[None]], name: str) -> None:
    """Run ``step`` forever, ``seconds`` apart; a failing step is logged and retried next time."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await step()
        except Exception:  # a background loop must survive any failure of one step
            log.exception("%s failed; retrying in %.0f s", name, seconds)
