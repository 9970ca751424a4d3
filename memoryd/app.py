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

from memoryd.adapters.clock import SystemClock
from memoryd.adapters.lance_profiles import LanceProfileStore
from memoryd.adapters.lance_store import LanceMemoryStore
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.adapters.openai_embedder import OpenAIEmbedder
from memoryd.adapters.tiktoken_counter import TiktokenCounter
from memoryd.config import EmbeddingSettings, Settings
from memoryd.core.errors import MemorydError
from memoryd.core.ports import Clock, Embedder, TokenCounter
from memoryd.core.ranking import FusionWeights
from memoryd.core.validation import Limits
from memoryd.services.archive import ArchiveService
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


def build_embedder(settings: EmbeddingSettings) -> Embedder:
    """The configured embedder (the embedded ONNX model by default)."""
    if settings.provider == "openai":
        client = openai.AsyncOpenAI(base_url=settings.base_url, api_key=settings.api_key.get_secret_value() or "none",
                                    timeout=settings.timeout_seconds, max_retries=1)
        return OpenAIEmbedder(client, settings.model, settings.dimension, settings.send_dimensions)
    return OnnxMiniLMEmbedder(threads=settings.threads)


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
        hot_total_rows=st.hot_total_rows)
    limits = Limits(max_content_bytes=settings.memorize.max_content_bytes)
    rc = settings.recall
    tuning = RecallTuning(FusionWeights(rc.rrf_k, rc.vector_weight, rc.fts_weight), rc.similarity_threshold,
                          rc.min_depth, rc.depth_per_limit, full_text_mode=rc.full_text_mode,
                          prefix_matching=rc.prefix_matching, vector_query=rc.vector_query)
    retrievals = RetrievalLog(store, clock)
    profiles = LanceProfileStore(store.connection)
    memorize = MemorizeService(store, embedder, clock, limits, settings.memorize.dedup_distance)
    app = App(
        memorize=memorize,
        recall=RecallService(store, embedder, clock, retrievals, limits, tuning),
        archive=ArchiveService(store, embedder, clock, limits),
        profile=ProfileService(profiles, counter, memorize, clock, settings.profile.default_budget_tokens),
        retrievals=retrievals, store=store, profiles=profiles, embedder=embedder, settings=settings,
    )
    tasks = [asyncio.create_task(_every(rc.retrieval_flush_seconds, retrievals.flush, "retrieval flush"))]
    if st.maintenance_enabled:
        tasks.append(asyncio.create_task(_every(st.maintenance_interval_seconds, store.maintain, "store maintenance")))
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
        store.close()


async def _every(seconds: float, step: Callable[[], Awaitable[None]], name: str) -> None:
    """Run ``step`` forever, ``seconds`` apart; a failing step is logged and retried next time."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await step()
        except Exception:  # a background loop must survive any failure of one step
            log.exception("%s failed; retrying in %.0f s", name, seconds)
