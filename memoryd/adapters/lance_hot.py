"""HotArchive: an in-memory copy of one small archive table, for Recall's vector arm and record fetches.

Most agents see a few thousand memories; for those, three LanceDB queries and a fetch cost more
than the search itself. A table of at most ``hot_max_rows`` rows is loaded once (records and one
matrix of its unit vectors) and answers ``nearest`` (exact cosine, the same as LanceDB's flat search
under the visibility prefilter) and ``get_many`` from memory. It is tied to the table's version: a
read finds the table at another version (any process's write, a maintenance pass) and drops it;
this process's own writes are applied in place when their commit is the very next version.
Visibility is ``core.visibility`` here, the same rule ``lance_filters`` renders into SQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from memoryd.adapters.lance_rows import to_record
from memoryd.core.models import Actor, ArmHit, MemoryFilter, MemoryRecord, Scope, Vector
from memoryd.core.visibility import is_visible, matches_filter

SCOPE_CODES = {scope: code for code, scope in enumerate(Scope)}


def visible_mask(actor: Actor, scopes: np.ndarray, agents: np.ndarray, end_users: np.ndarray) -> Any:
    """Which rows ``actor`` sees, as a boolean array: ``core.visibility``'s rule over column arrays."""
    mask = (scopes == SCOPE_CODES[Scope.TENANT]) | (scopes == SCOPE_CODES[Scope.SHARED])
    mask |= (scopes == SCOPE_CODES[Scope.PRIVATE]) & (agents == actor.agent_id)
    if actor.end_user_id:
        mask |= (scopes == SCOPE_CODES[Scope.END_USER]) & (end_users == actor.end_user_id)
    return mask


class HotArchive:
    """One table's rows and vectors at one version."""

    def __init__(self, version: int, records: list[MemoryRecord], vectors: np.ndarray) -> None:
        self.version = version
        self._records = records
        self._vectors = vectors
        self._index = {r.memory_id: i for i, r in enumerate(records)}
        self._scope = np.array([SCOPE_CODES[r.scope] for r in records], dtype=np.int8)
        self._agent = np.array([r.agent_id for r in records], dtype=object)
        self._end_user = np.array([r.end_user_id for r in records], dtype=object)
        self._embedded = np.array([not r.embedding_pending for r in records], dtype=bool)
        """Rows stored during an embedder outage hold zeros, not a vector: no vector search may see them."""

    @classmethod
    def from_arrow(cls, version: int, data: pa.Table) -> HotArchive:
        """From the table's rows (every record column and ``vector``)."""
        vectors = data.column("vector").combine_chunks().flatten().to_numpy().astype(np.float32, copy=False)
        dimension = data.schema.field("vector").type.list_size
        records = [to_record(row) for row in data.drop_columns(["vector"]).to_pylist()]
        return cls(version, records, vectors.reshape(len(records), dimension))

    def __len__(self) -> int:
        return len(self._records)

    def _visible_mask(self, actor: Actor) -> Any:
        return visible_mask(actor, self._scope, self._agent, self._end_user)

    def nearest(
        self, actor: Actor, vector: Vector, flt: MemoryFilter, limit: int, min_similarity: float
    ) -> list[ArmHit]:
        """Exact cosine kNN over the rows ``actor`` sees that meet ``flt``, floor applied, nearest first."""
        if not self._records:
            return []
        similarities = self._vectors @ np.asarray(vector, dtype=np.float32)
        similarities = np.where(self._visible_mask(actor) & self._embedded, similarities, -np.inf)
        order = np.argsort(-similarities, kind="stable")
        hits: list[ArmHit] = []
        for i in order:
            similarity = float(similarities[i])
            if similarity < min_similarity:  # sorted: nothing further is close enough (and -inf is hidden)
                break
            record = self._records[i]
            if matches_filter(record, flt) and is_visible(actor, record):
                hits.append(ArmHit(record.memory_id, similarity, record.occurred_at))
                if len(hits) == limit:
                    break
        return hits

    def get_many(self, actor: Actor, memory_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        """The visible rows among these ids, whatever their status."""
        out = {}
        for memory_id in memory_ids:
            at = self._index.get(memory_id)
            if at is not None and is_visible(actor, self._records[at]):
                out[memory_id] = self._records[at]
        return out

    def inserted(self, version: int, rows: Sequence[tuple[MemoryRecord, Vector]]) -> HotArchive:
        """A copy with rows appended (a commit of this process that made ``version``)."""
        vectors = np.asarray([v for _, v in rows], dtype=np.float32).reshape(len(rows), self._vectors.shape[1])
        return HotArchive(version, [*self._records, *(r for r, _ in rows)], np.vstack([self._vectors, vectors]))

    def replaced(self, version: int, record: MemoryRecord, vector: Vector | None) -> HotArchive | None:
        """A copy with one row replaced; None when the row is not here (reload instead)."""
        at = self._index.get(record.memory_id)
        if at is None:
            return None
        records = list(self._records)
        records[at] = record
        vectors = self._vectors
        if vector is not None:
            vectors = vectors.copy()
            vectors[at] = np.asarray(vector, dtype=np.float32)
        return HotArchive(version, records, vectors)

    def unchanged(self, version: int) -> HotArchive:
        """The same rows at ``version`` (a commit of this process that changed no column held here)."""
        return HotArchive(version, self._records, self._vectors)

    def deleted(self, version: int, memory_id: str) -> HotArchive:
        """A copy without one row."""
        at = self._index.get(memory_id)
        if at is None:
            return HotArchive(version, self._records, self._vectors)
        keep = [i for i in range(len(self._records)) if i != at]
        return HotArchive(version, [self._records[i] for i in keep], self._vectors[keep])
