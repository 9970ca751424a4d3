"""The graph's merge suggestions on LanceDB: ``graph_merge_suggestions_<tenant>``, one row per pair of entities.

A suggestion stays until a merge of its entities removes it or a person dismisses it (then it is
kept, dismissed, so the pair is not suggested again). Its rows carry the scope of the entities, so
a contact's erasure finds them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC
from typing import Any

import pyarrow as pa
from lancedb.index import BTree

from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.filters import literal
from memoryd.adapters.lance.rows import PRIMARY_KEY, TIMESTAMP
from memoryd.core.graph import GraphScope, MergeSuggestion, SuggestionStatus
from memoryd.core.models import Scope

SUGGESTIONS = "graph_merge_suggestions_"
_TEXT = pa.string()
SUGGESTION_SCHEMA = pa.schema(
    [
        pa.field("id", _TEXT, nullable=False, metadata=PRIMARY_KEY),
        pa.field("entity_id", _TEXT, nullable=False),
        pa.field("similar_entity_id", _TEXT, nullable=False),
        pa.field("similarity", pa.float32(), nullable=False),
        pa.field("scope", _TEXT, nullable=False),
        pa.field("agent_id", _TEXT, nullable=False),
        pa.field("end_user_id", _TEXT, nullable=False),
        pa.field("created_at", TIMESTAMP, nullable=False),
        pa.field("evidence", _TEXT, nullable=False),
        pa.field("status", _TEXT, nullable=False),
    ]
)
SUGGESTION_INDEXES = [("id", BTree())]


def _row(s: MergeSuggestion) -> dict[str, Any]:
    return {
        "id": s.suggestion_id,
        "entity_id": s.entity_id,
        "similar_entity_id": s.similar_entity_id,
        "similarity": s.similarity,
        "scope": s.where.scope.value,
        "agent_id": s.where.agent_id,
        "end_user_id": s.where.end_user_id,
        "created_at": s.created_at,
        "evidence": s.evidence,
        "status": s.status.value,
    }


def suggestion_of(row: dict[str, Any]) -> MergeSuggestion:
    """A merge-suggestion row as the reads parse it."""
    return MergeSuggestion(
        row["id"],
        row["entity_id"],
        row["similar_entity_id"],
        float(row["similarity"]),
        GraphScope(Scope(row["scope"]), row["agent_id"], row["end_user_id"]),
        row["created_at"].astimezone(UTC),
        row["evidence"],
        SuggestionStatus(row["status"]),
    )


class LanceMergeSuggestions:
    """The merge suggestions' table (a part of ``LanceGraphStore``)."""

    _db: LanceDatabase

    async def _suggestion_table(self, tenant_id: str) -> Any:
        return await self._db.table(SUGGESTIONS + tenant_id, SUGGESTION_SCHEMA, SUGGESTION_INDEXES, write=True)

    async def add_suggestions(self, tenant_id: str, suggestions: Sequence[MergeSuggestion]) -> None:
        """Keep merge suggestions; a pair already kept (open or dismissed) stays as it is."""
        if not suggestions:
            return
        data = pa.Table.from_pylist(
            [_row(s) for s in {s.suggestion_id: s for s in suggestions}.values()], SUGGESTION_SCHEMA
        )
        async with map_lance_errors():
            table = await self._suggestion_table(tenant_id)
            await table.merge_insert("id").when_not_matched_insert_all().execute(data)

    async def suggestions(self, tenant_id: str, status: SuggestionStatus | None) -> list[MergeSuggestion]:
        """The tenant's merge suggestions (of ``status``), the newest first."""
        async with map_lance_errors():
            table = await self._db.table_if_exists(SUGGESTIONS + tenant_id)
            if table is None:
                return []
            query = table.query()
            if status is not None:
                query = query.where(f"status = {literal(status.value)}")
            rows = (await query.to_arrow()).to_pylist()
        return sorted((suggestion_of(r) for r in rows), key=lambda s: (s.created_at, s.suggestion_id), reverse=True)

    async def set_suggestion(self, tenant_id: str, suggestion: MergeSuggestion) -> None:
        """Store a suggestion's new status."""
        data = pa.Table.from_pylist([_row(suggestion)], SUGGESTION_SCHEMA)
        async with map_lance_errors():
            table = await self._suggestion_table(tenant_id)
            await table.merge_insert("id").when_matched_update_all().when_not_matched_insert_all().execute(data)

    async def drop_suggestions(self, tenant_id: str, entity_ids: Sequence[str]) -> None:
        """Delete the suggestions naming these entities (a merge decided them)."""
        if not entity_ids:
            return
        listed = ", ".join(literal(e) for e in entity_ids)
        async with map_lance_errors():
            table = await self._db.table_if_exists(SUGGESTIONS + tenant_id)
            if table is not None:
                await table.delete(f"entity_id IN ({listed}) OR similar_entity_id IN ({listed})")

    async def _erase_suggestions(self, tenant_id: str, end_user_id: str, entity_ids: Sequence[str]) -> list[str]:
        """A contact's suggestions and those naming its entities; the table when it was touched."""
        cond = f"end_user_id = {literal(end_user_id)}"
        if entity_ids:
            listed = ", ".join(literal(e) for e in entity_ids)
            cond += f" OR entity_id IN ({listed}) OR similar_entity_id IN ({listed})"
        async with map_lance_errors():
            table = await self._db.table_if_exists(SUGGESTIONS + tenant_id)
            if table is None or not await table.count_rows(cond):
                return []
            await table.delete(cond)
        return [SUGGESTIONS + tenant_id]
