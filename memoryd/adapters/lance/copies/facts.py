"""FactsCopy: an in-memory copy of one small graph fact table, for SearchGraph's vector seeds and its hops.

A flat vector search and two indexed lookups per hop cost LanceDB 5-13 ms each on 10k facts; in
memory they cost well under one. A table of at most ``copy_max_rows`` facts is loaded once (facts,
one matrix of unit vectors, an index of facts by entity) and is tied to the table's version: a read
that finds another version (any process's write) loads it again. Visibility is ``core.visibility``'s
rule, the same one ``lance_filters`` renders into SQL.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from memoryd.adapters.lance.copies.columns import SCOPE_CODES, dot_products, visible_mask
from memoryd.core.graph import Fact
from memoryd.core.models import Actor, Vector
from memoryd.core.visibility import sees


class FactsCopy:
    """One tenant's facts and their vectors at one table version."""

    def __init__(self, version: int, facts: list[Fact], vectors: np.ndarray) -> None:
        self.version = version
        self._facts = facts
        self._vectors = vectors
        self._scope = np.array([SCOPE_CODES[f.where.scope] for f in facts], dtype=np.int8)
        self._agent = np.array([f.where.agent_id for f in facts], dtype=object)
        self._end_user = np.array([f.where.end_user_id for f in facts], dtype=object)
        self._by_entity: dict[str, list[int]] = {}
        for i, f in enumerate(facts):
            self._by_entity.setdefault(f.subject_id, []).append(i)
            if f.object_id != f.subject_id:
                self._by_entity.setdefault(f.object_id, []).append(i)

    @classmethod
    def from_arrow(cls, version: int, data: pa.Table, to_fact: Callable[[dict[str, Any]], Fact]) -> FactsCopy:
        """From the table's rows (every fact column and ``vector``)."""
        dimension = data.schema.field("vector").type.list_size
        vectors = data.column("vector").combine_chunks().flatten().to_numpy().astype(np.float32, copy=False)
        facts = [to_fact(row) for row in data.drop_columns(["vector"]).to_pylist()]
        return cls(version, facts, vectors.reshape(len(facts), dimension))

    def __len__(self) -> int:
        return len(self._facts)

    def _visible(self, actor: Actor) -> Any:
        return visible_mask(actor, self._scope, self._agent, self._end_user)

    def nearest(self, actor: Actor, vector: Vector, limit: int) -> list[tuple[Fact, float]]:
        """Exact cosine kNN over the facts ``actor`` sees, nearest first."""
        if not self._facts:
            return []
        query = np.asarray(vector, dtype=np.float32)
        scores = np.where(self._visible(actor), dot_products(self._vectors, query), -np.inf)
        top = min(limit, len(self._facts))
        candidates = np.argpartition(-scores, top - 1)[:top]
        out = []
        for i in sorted(candidates, key=lambda i: (-scores[i], self._facts[i].fact_id)):
            fact = self._facts[i]
            if scores[i] == -np.inf or not sees(actor, fact.where.scope, fact.where.agent_id, fact.where.end_user_id):
                continue
            out.append((fact, float(scores[i])))
        return out

    def touching(self, actor: Actor, entity_ids: Sequence[str], limit: int) -> list[Fact]:
        """Visible facts whose subject or object is one of ``entity_ids``, by id."""
        found = {i for e in entity_ids for i in self._by_entity.get(e, ())}
        facts = [self._facts[i] for i in found]
        visible = [f for f in facts if sees(actor, f.where.scope, f.where.agent_id, f.where.end_user_id)]
        return sorted(visible, key=lambda f: f.fact_id)[:limit]
