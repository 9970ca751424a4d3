"""The stores and the job ports a process uses: LanceDB's unless a caller passed its own (tests, fakes)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from datetime import timedelta
from typing import Any

from memoryd.adapters.arq_queue import ArqJobQueue
from memoryd.adapters.lance.agent_config import LanceAgentConfigStore
from memoryd.adapters.lance.archive import lance_archive
from memoryd.adapters.lance.conversations import LanceConversationStore
from memoryd.adapters.lance.creation import LeaseCreationLock
from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.event_log import LanceEventLog
from memoryd.adapters.lance.export import LanceTenantArchive
from memoryd.adapters.lance.graph import LanceGraphStore
from memoryd.adapters.lance.keys import LanceKeyStore
from memoryd.adapters.lance.maintenance import LanceMaintenance
from memoryd.adapters.lance.profiles import LanceProfileStore
from memoryd.adapters.lance.provenance import LanceProvenance
from memoryd.adapters.lance.reembed_finish import LanceReembedFinish
from memoryd.adapters.lance.reviews import LanceReviewStore
from memoryd.adapters.lance.servings_spool import SpooledProvenance
from memoryd.adapters.lance.spaces import LanceEmbeddingSpaces
from memoryd.adapters.prometheus_metrics import PrometheusMetrics
from memoryd.adapters.redis.gate import RedisProviderGate
from memoryd.adapters.redis.leases import RedisLeases
from memoryd.adapters.redis.ledger import RedisJobLedger
from memoryd.adapters.redis.usage import RedisModelUsage
from memoryd.config import Settings
from memoryd.core.ports import (
    AgentConfigStore,
    ArchivePorts,
    ConversationStore,
    Embedder,
    EmbeddingSpaces,
    EventLogStore,
    GraphStore,
    JobLedger,
    JobQueue,
    KeyStore,
    Leases,
    ModelUsageStore,
    ProfileStore,
    ProvenanceStore,
    ProviderGate,
    ReembedFinisher,
    ReviewStore,
    StoreMaintenance,
    TenantArchive,
    WholeArchive,
)


@dataclass(frozen=True)
class Stores:
    """Every store of the process, and how to close their database."""

    memories: ArchivePorts
    profiles: ProfileStore
    conversations: ConversationStore
    reviews: ReviewStore
    keys: KeyStore
    audit_log: EventLogStore
    exports: TenantArchive
    agent_configs: AgentConfigStore
    maintenance: StoreMaintenance | None
    close: Callable[[], None]
    graph: GraphStore | None = None
    """The memory graph's store (None when the other stores were passed in without one)."""
    spaces: EmbeddingSpaces | None = None
    finisher: ReembedFinisher | None = None
    """The re-embed's record and its end (None with stores passed in)."""
    provenance: ProvenanceStore | None = None
    """Histories and servings (optional with stores passed in)."""


@dataclass(frozen=True)
class GivenStores:
    """The stores a caller of ``build_app`` passed in: every one of them, or none."""

    store: WholeArchive | ArchivePorts | None = None
    profiles: ProfileStore | None = None
    conversations: ConversationStore | None = None
    reviews: ReviewStore | None = None
    keys: KeyStore | None = None
    audit_log: EventLogStore | None = None
    archive: TenantArchive | None = None
    agent_configs: AgentConfigStore | None = None
    graph: GraphStore | None = None
    """Optional even when the others are given."""
    provenance: ProvenanceStore | None = None
    """Optional too."""

    def _required(self) -> list[Any]:
        return [getattr(self, f.name) for f in fields(self) if f.name not in ("graph", "provenance")]

    def stores(self) -> Stores | None:
        """The given stores as ``Stores``; None when none was given; ValueError for some but not all."""
        given = self._required()
        if all(s is None for s in given):
            return None
        if any(s is None for s in given):
            raise ValueError("pass every store (store … agent_configs) or none of them")
        store = self.store
        memories = store if isinstance(store, ArchivePorts) else ArchivePorts.of(store)  # type: ignore[arg-type]  # checked above
        s = self
        return Stores(
            memories, s.profiles, s.conversations, s.reviews, s.keys, s.audit_log, s.archive,  # type: ignore[arg-type]  # checked above
            s.agent_configs, None, lambda: None, s.graph,  # type: ignore[arg-type]  # checked above
            provenance=s.provenance,
        )  # fmt: skip


async def open_stores(
    settings: Settings, embedder: Embedder, given: GivenStores, metrics: PrometheusMetrics, leases: Leases | None
) -> Stores:
    """The given stores, or LanceDB's on ``storage.uri`` (``leases`` serialise table creation on object storage)."""
    passed = given.stores()
    if passed is not None:
        return passed
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
    stores = _lance_stores(db, settings, embedder, metrics)
    spool = st.servings_spool()
    if spool is None or not isinstance(stores.provenance, LanceProvenance):
        return stores
    spooled = SpooledProvenance(stores.provenance, spool, st.servings_spool_seconds)
    await spooled.open()
    return replace(stores, provenance=spooled)


def _lance_stores(db: LanceDatabase, settings: Settings, embedder: Embedder, metrics: PrometheusMetrics) -> Stores:
    st = settings.storage
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
        observe=metrics.tables,
        copy_max_rows=st.copy_max_rows,
        keeping_copy=tables.keeping_copy,
        orphan_grace=timedelta(seconds=st.orphan_grace_seconds),
    )
    copies = st.copy_max_rows > 0
    return Stores(
        memories,
        LanceProfileStore(db, copies=copies),
        LanceConversationStore(db, copies=copies),
        LanceReviewStore(db),
        LanceKeyStore(db),
        LanceEventLog(db),
        LanceTenantArchive(db, embedder.dimension),
        LanceAgentConfigStore(db),
        maintenance,
        db.close,
        LanceGraphStore(db, embedder.dimension),
        LanceEmbeddingSpaces(db),
        LanceReembedFinish(db),
        LanceProvenance(db),
    )


@dataclass(frozen=True)
class JobPorts:
    """What the job parts need: the ledger, the queue, the provider gate, leases; where model usage is counted."""

    ledger: JobLedger
    queue: JobQueue
    gate: ProviderGate
    leases: Leases
    usage: ModelUsageStore | None = None
    """None: the jobs' model calls are not counted per tenant (ports a test passed in)."""

    @classmethod
    def given(
        cls, ledger: JobLedger | None, queue: JobQueue | None, gate: ProviderGate | None, leases: Leases | None
    ) -> JobPorts | None:
        """The ports a caller passed in (all four or none)."""
        if ledger is not None and queue is not None and gate is not None and leases is not None:
            return cls(ledger, queue, gate, leases)
        if (ledger, queue, gate, leases) != (None, None, None, None):
            raise ValueError("pass ledger, queue, gate and leases together (or none of them)")
        return None

    @classmethod
    def on_redis(cls, settings: Settings, redis: Any) -> JobPorts:
        """The ports on one Redis/Valkey connection."""
        js = settings.jobs
        gate = RedisProviderGate(
            redis,
            threshold=js.breaker_threshold,
            cooldown_seconds=js.breaker_cooldown_seconds,
            tenant_slots=js.tenant_concurrency,
            slot_seconds=settings.provider.timeout_seconds + 10,
        )
        ledger = RedisJobLedger(redis, js.keep_days)
        return cls(ledger, ArqJobQueue(redis), gate, RedisLeases(redis), RedisModelUsage(redis))
