"""The archive's ports: memories, their counts and pending vectors, snapshots, the agent directory."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from memoryd.core.data_rights import TableFile
from memoryd.core.feedback import Signal
from memoryd.core.models import Actor, ArmHit, FullTextQuery, FullTextTier, MemoryFilter, MemoryRecord, Vector
from memoryd.core.ports.spaces import SpaceFiller
from memoryd.core.usage import UsageReport


class MemoryStore(Protocol):
    """The archive. Every method applies the actor's tenant and visibility itself.

    Rows live in per-tenant partitions, so a query cannot reach another tenant
    even if a filter is forgotten; within the partition every read and write
    adds the actor's visibility rule (``core.visibility``).
    """

    async def insert(
        self,
        tenant_id: str,
        rows: Sequence[tuple[MemoryRecord, Vector]],
        extra: Mapping[str, Sequence[Vector | None]] | None = None,
    ) -> None:
        """Durably add rows (all or none) to the tenant's partition.

        ``rows`` carry the store's model's vectors; ``extra`` the same rows' vectors in another
        embedding space (by model; a re-embed in progress), where the tenant's table has one.
        """
        ...

    async def get(self, actor: Actor, memory_id: str) -> MemoryRecord | None:
        """The row if it exists and the actor sees it."""
        ...

    async def get_many(
        self, actor: Actor, memory_ids: Sequence[str], *, with_retrievals: bool = True
    ) -> dict[str, MemoryRecord]:
        """The visible rows among ``memory_ids``, by id (missing or invisible ids are absent).

        ``with_retrievals=False`` skips the retrieval statistics (left at 0 / unset): Recall
        uses it so that counting retrievals never costs Recall a lookup.
        """
        ...

    async def vectors_of(self, actor: Actor, memory_ids: Sequence[str], space: str = "") -> dict[str, Vector]:
        """The stored vectors (in ``space``: "" the store's model) of the visible rows among ``memory_ids``."""
        ...

    async def by_request(self, actor: Actor, prefix: str, since: datetime) -> dict[str, MemoryRecord]:
        """The actor's tenant's rows created at or after ``since`` whose ``request_key`` starts with ``prefix``.

        Visible or not (another contact's row): the caller only compares them with a retry, and
        answers with a row only when the retry matches it, contact included.
        """
        ...

    async def nearest(
        self, actor: Actor, vector: Vector, flt: MemoryFilter, limit: int, min_similarity: float, space: str = ""
    ) -> list[ArmHit]:
        """Visible ids by cosine similarity, best first, at or above the floor.

        ``space``: the model whose vectors to search ("" = the store's model, always complete).
        """
        ...

    async def nearest_many(
        self, actor: Actor, vectors: Sequence[Vector], flt: MemoryFilter, limit: int, min_similarity: float
    ) -> list[list[ArmHit]]:
        """``nearest`` for each of several vectors under one filter (a write group's dedup lookups)."""
        ...

    async def full_text(
        self, actor: Actor, query: FullTextQuery, flt: MemoryFilter, limit: int, require_all: bool
    ) -> list[ArmHit]:
        """Visible ids by BM25; ``require_all`` ANDs the terms, otherwise ORs them."""
        ...

    async def full_text_tiers(
        self, actor: Actor, tiers: Sequence[FullTextTier], flt: MemoryFilter, limit: int
    ) -> list[ArmHit]:
        """``full_text`` of each tier, merged (``core.ranking.merge_tiers``).

        Each tier fills the places the ones before it left; a tier is searched only while places remain.
        """
        ...

    async def replace(
        self, actor: Actor, record: MemoryRecord, vector: Vector | None, extra: Mapping[str, Vector] | None = None
    ) -> bool:
        """Overwrite a visible row (new vector optional); False if it is gone or invisible.

        Without a new vector every stored vector is kept; with one, the row's vectors in other
        spaces are ``extra``'s, or left to be filled again (the text changed).
        """
        ...

    async def expire(self, tenant_id: str, before: datetime, dry_run: bool) -> list[str]:
        """Delete unpinned memories created before ``before`` (retention); their ids (nothing deleted when dry)."""
        ...

    async def erase_end_user(self, tenant_id: str, end_user_id: str) -> tuple[list[str], list[str]]:
        """Delete every memory of a contact, any scope or author (an erasure); (ids, tables touched)."""
        ...

    async def delete(self, actor: Actor, memory_id: str) -> bool:
        """Delete a visible row; False if it was not there."""
        ...

    async def page(self, actor: Actor, flt: MemoryFilter, after_id: str, limit: int) -> list[MemoryRecord]:
        """Visible rows with id > after_id, in id (creation) order."""
        ...

    async def page_ids(self, actor: Actor, flt: MemoryFilter, after_id: str, limit: int) -> list[str]:
        """The ids of the same page as ``page``, without reading the rows."""
        ...


class RetrievalStats(Protocol):
    """Counts kept beside each memory (retrievals, injections, feedback), never in its row."""

    async def record_retrievals(
        self, tenant_id: str, recalled: Mapping[str, int], injected: Mapping[str, int], at: datetime
    ) -> None:
        """Add to retrieval_count (Recall) and injection_count (auto-recall); set last_retrieved_at on recalls."""
        ...

    async def record_feedback(self, tenant_id: str, signals: Sequence[tuple[str, Signal]], at: datetime) -> None:
        """Count each (memory id, signal) once and move its salience shift (``core.feedback``); durable on return."""
        ...


class PendingEmbeddings(Protocol):
    """Memories stored while the embedder was down, waiting for their vectors (``EmbeddingBackfill``)."""

    async def pending_embeddings(self, tenant_id: str, limit: int) -> tuple[list[MemoryRecord], int]:
        """Up to ``limit`` memories stored with their embedding pending, and how many are pending in all."""
        ...

    async def fill_embeddings(self, tenant_id: str, rows: Sequence[tuple[MemoryRecord, Vector]], model: str) -> int:
        """Store the vectors of pending memories whose text is unchanged; how many were filled."""
        ...


class ArchiveSnapshot(Protocol):
    """Whole visible archives at once, for background jobs (reviews, never a request path)."""

    async def with_vectors(self, actor: Actor) -> tuple[list[MemoryRecord], Sequence[Vector]]:
        """Every active memory the actor sees (retrieval counts included) and its vector, in the same order."""
        ...

    async def fingerprint(self, actor: Actor) -> str:
        """A digest of the actor's visible active set (ids, update times): equal exactly when nothing changed."""
        ...


class AgentDirectory(Protocol):
    """Operator-level enumeration of who has memories (batch jobs only, never a request path)."""

    async def agents(self) -> list[tuple[str, str]]:
        """Every (tenant, agent) that authored at least one memory."""
        ...


class NeighbourSearch(Protocol):
    """Exact nearest neighbours among a set of unit vectors (CPU work: callers run it off the event loop)."""

    def neighbours(self, vectors: Sequence[Vector], k: int, min_similarity: float) -> list[list[tuple[int, float]]]:
        """For each vector, up to ``k`` other indices with cosine at least ``min_similarity``, best first."""
        ...


class UsageAnalytics(Protocol):
    """Analytics over the store's tables (reads only)."""

    async def report(self, tenant_id: str, agent_id: str, since: datetime | None, now: datetime) -> UsageReport:
        """The usage report of the tenant (``agent_id`` empty) or of one agent's memories, since a time."""
        ...


class StoreMaintenance(Protocol):
    """Background upkeep of the store, run off the request path."""

    async def maintain(self, *, full: bool = True) -> None:
        """Compact small fragments, fold new rows into indexes, build ANN indexes where large.

        ``full`` visits every table; otherwise only those this process wrote since the last pass.
        """
        ...

    async def use_text_language(self, tenant_id: str, language: str) -> None:
        """Index the tenant's memories' text in ``language`` (``TEXT_LANGUAGES``) from now on, its index rebuilt."""
        ...

    async def purge(self, names: Sequence[str]) -> int:
        """Take deleted rows off the disk now (every version and index file that held them); versions removed."""
        ...

    async def settled(self) -> None:
        """Wait for the work that passes leave running beside them (an ANN index build)."""
        ...

    def paused(self) -> AbstractAsyncContextManager[None]:
        """No pass of this process runs meanwhile (one under way finishes first; index builds stop)."""
        ...

    async def unreferenced(self, names: Sequence[str]) -> list[TableFile]:
        """The files of these tables that no version references: what commits that lost left behind."""
        ...

    async def remove(self, files: Sequence[TableFile], older_than: timedelta) -> int:
        """Delete those of ``files`` older than ``older_than`` (by the store's clock) that no version references now."""
        ...

    async def close(self) -> None:
        """Stop that work (shutdown)."""
        ...


class WholeArchive(MemoryStore, RetrievalStats, PendingEmbeddings, ArchiveSnapshot, AgentDirectory, Protocol):
    """One object serving every archive port at once (the fakes; ``ArchivePorts.of``)."""


@dataclass(frozen=True, slots=True)
class ArchivePorts:
    """The archive's ports: each its own object over the same tables (a fake may be all of them at once)."""

    store: MemoryStore
    stats: RetrievalStats
    pending: PendingEmbeddings
    snapshot: ArchiveSnapshot
    agents: AgentDirectory
    filler: SpaceFiller | None = None
    """The re-embed's filling (None where the archive cannot hold a second space)."""

    @classmethod
    def of(cls, every: WholeArchive) -> ArchivePorts:
        """One object serving every port (the fakes)."""
        return cls(every, every, every, every, every)
