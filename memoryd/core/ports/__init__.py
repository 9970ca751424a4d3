"""Ports: what the services need from the outside world, as Protocols, one module per concern.

Each has one real adapter in ``memoryd.adapters`` and a fake in ``tests/fakes.py``. Every port is
re-exported here, so services import ``memoryd.core.ports``.
"""

from memoryd.core.ports.archive import (
    AgentDirectory,
    ArchivePorts,
    ArchiveSnapshot,
    MemoryStore,
    NeighbourSearch,
    PendingEmbeddings,
    RetrievalStats,
    StoreMaintenance,
    UsageAnalytics,
    WholeArchive,
)
from memoryd.core.ports.governance import (
    AgentConfigStore,
    Clock,
    EventLogStore,
    KeyStore,
    ProvenanceStore,
    RateLimiter,
    ReviewStore,
    Row,
    TenantArchive,
)
from memoryd.core.ports.graph import GraphStore
from memoryd.core.ports.jobs import JobLedger, JobQueue, Leases, ModelUsageStore, ProviderGate
from memoryd.core.ports.spaces import Embedder, EmbeddingSpaces, ReembedFinisher, SpaceFiller
from memoryd.core.ports.working import ChatModel, ConversationStore, ProfileStore, TokenCounter

__all__ = [
    "AgentConfigStore",
    "AgentDirectory",
    "ArchivePorts",
    "ArchiveSnapshot",
    "ChatModel",
    "Clock",
    "ConversationStore",
    "Embedder",
    "EmbeddingSpaces",
    "EventLogStore",
    "GraphStore",
    "JobLedger",
    "JobQueue",
    "KeyStore",
    "Leases",
    "MemoryStore",
    "ModelUsageStore",
    "NeighbourSearch",
    "PendingEmbeddings",
    "ProfileStore",
    "ProvenanceStore",
    "ProviderGate",
    "RateLimiter",
    "ReembedFinisher",
    "RetrievalStats",
    "ReviewStore",
    "Row",
    "SpaceFiller",
    "StoreMaintenance",
    "TenantArchive",
    "TokenCounter",
    "UsageAnalytics",
    "WholeArchive",
]
