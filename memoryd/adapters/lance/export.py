"""TenantArchive on LanceDB: every table of a tenant as JSON-ready rows, and back.

The export walks the tenant's tables in a fixed order (so the output is stable), as rows of plain
JSON values: timestamps as ISO-8601 strings, vectors as lists (only when asked for). A contact's
export keeps the rows that concern them: their memories (any scope or author) and statistics,
their conversations with every item, the findings naming their memories. The import writes rows
back through each table's schema and indexes; it refuses a tenant that already holds anything.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pyarrow as pa
from lancedb.index import BTree

from memoryd.adapters.lance.agent_config import CONFIG_SCHEMA
from memoryd.adapters.lance.agent_config import PREFIX as CONFIG_PREFIX
from memoryd.adapters.lance.archive_tables import ARCHIVE_INDEXES, ARCHIVE_PREFIX, STATS_PREFIX
from memoryd.adapters.lance.conversations import ITEM_SCHEMA, STATE_SCHEMA
from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.event_log import EVENT_INDEXES, EVENT_SCHEMA
from memoryd.adapters.lance.filters import ids_in, literal, of_end_user
from memoryd.adapters.lance.graph_retention import ENTITIES, EPISODES, FACTS
from memoryd.adapters.lance.graph_rows import (
    ENTITY_INDEXES,
    EPISODE_SCHEMA,
    FACT_INDEXES,
    entity_schema,
    fact_schema,
    normalised_aliases,
)
from memoryd.adapters.lance.graph_suggestions import SUGGESTION_INDEXES, SUGGESTION_SCHEMA, SUGGESTIONS
from memoryd.adapters.lance.import_checks import unreadable
from memoryd.adapters.lance.profiles import FAILURE_SCHEMA, PROFILE_SCHEMA, REVISION_SCHEMA
from memoryd.adapters.lance.provenance import (
    HISTORY_INDEXES,
    HISTORY_PREFIX,
    HISTORY_SCHEMA,
    SERVING_INDEXES,
    SERVING_SCHEMA,
    SERVINGS_PREFIX,
)
from memoryd.adapters.lance.reviews import TABLES as REVIEW_TABLES
from memoryd.adapters.lance.rows import RETRIEVAL_SCHEMA, memory_schema
from memoryd.core.errors import PreconditionFailed

Row = dict[str, Any]
Embed = Callable[[list[str]], Awaitable[list[list[float]]]]


@dataclass(frozen=True)
class _Kind:
    name: str
    prefix: str
    schema: pa.Schema | Callable[[int], pa.Schema]
    """A function of the store's vector width for tables that hold vectors."""
    indexes: Sequence[tuple[str, Any]]
    per_contact: str
    """How a contact's export selects rows: ``end_user``, ``memory``, ``conversation``, ``finding`` or ``""`` (none)."""


_KINDS = [
    _Kind("memory", ARCHIVE_PREFIX, memory_schema, ARCHIVE_INDEXES, "end_user"),
    _Kind("retrievals", STATS_PREFIX, RETRIEVAL_SCHEMA, [("id", BTree())], "memory"),
    _Kind("profile", "profiles_", PROFILE_SCHEMA, [], ""),
    _Kind("profile_revision", "profile_revisions_", REVISION_SCHEMA, [], ""),
    _Kind("profile_failure", "profile_failures_", FAILURE_SCHEMA, [], ""),
    _Kind("conversation", "conversations_", STATE_SCHEMA, [("conversation_id", BTree())], "end_user"),
    _Kind(
        "conversation_item",
        "conversation_items_",
        ITEM_SCHEMA,
        [("id", BTree()), ("conversation_id", BTree())],
        "conversation",
    ),
    _Kind("review", "reviews_", *REVIEW_TABLES["reviews"], ""),
    _Kind("finding", "review_findings_", *REVIEW_TABLES["review_findings"], "finding"),
    _Kind("usage_report", "usage_reports_", *REVIEW_TABLES["usage_reports"], ""),
    _Kind("audit_event", "audit_events_", EVENT_SCHEMA, EVENT_INDEXES, ""),
    _Kind("settings", CONFIG_PREFIX, CONFIG_SCHEMA, [], ""),
    _Kind("graph_entity", ENTITIES, entity_schema, ENTITY_INDEXES, "end_user"),
    _Kind("graph_fact", FACTS, fact_schema, FACT_INDEXES, "end_user"),
    _Kind("graph_episode", EPISODES, EPISODE_SCHEMA, [("id", BTree())], "end_user"),
    _Kind("graph_merge_suggestion", SUGGESTIONS, SUGGESTION_SCHEMA, SUGGESTION_INDEXES, "end_user"),
    _Kind("memory_history", HISTORY_PREFIX, HISTORY_SCHEMA, HISTORY_INDEXES, "end_user"),
    _Kind("serving", SERVINGS_PREFIX, SERVING_SCHEMA, SERVING_INDEXES, "end_user"),
]
_ROW_KEYS = ("id", "key", "conversation_id", "review_id", "finding_id", "report_id", "event_id")
"""A row's key in its table: the first of these the table has (a profile revision's key names its revision)."""
_EMBEDDED = {"memory": "content", "graph_entity": "name", "graph_fact": "sentence"}
"""Kinds holding a vector, and the text it embeds (an export without vectors is embedded again)."""
KIND_NAMES = tuple(k.name for k in _KINDS)


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _row_key(columns: Sequence[str]) -> str:
    return next(n for n in _ROW_KEYS if n in columns)


def _typed(row: Row, schema: pa.Schema) -> Row:
    out = dict(row)
    for field in schema:
        value = out.get(field.name)
        if isinstance(value, str) and pa.types.is_timestamp(field.type):
            out[field.name] = datetime.fromisoformat(value)
    return out


def _misconverted(rows: Sequence[Row], schema: pa.Schema) -> str | None:
    """Why ``rows`` do not convert to ``schema`` as an import writes them (None: they do)."""
    try:
        pa.Table.from_pylist([_typed(r, schema) for r in rows], schema)
    except (pa.ArrowException, ValueError, TypeError, OverflowError) as exc:
        return str(exc).splitlines()[0][:200]
    return None


class LanceTenantArchive:
    """Exports and imports whole tenants (or one contact's rows) of a LanceDB database."""

    def __init__(self, db: LanceDatabase, dimension: int) -> None:
        self._db = db
        self._dimension = dimension

    def _schema(self, kind: _Kind) -> pa.Schema:
        return kind.schema if isinstance(kind.schema, pa.Schema) else kind.schema(self._dimension)

    async def rows(self, tenant_id: str, end_user_id: str | None, with_vectors: bool) -> AsyncIterator[tuple[str, Row]]:
        """(kind, row) of every row of the tenant, or of the rows that concern one contact."""
        memories: list[str] = []
        conversations: list[str] = []
        for kind in _KINDS:
            if end_user_id is not None and not kind.per_contact:
                continue
            wheres = self._selection(kind, end_user_id, memories, conversations)
            if wheres == []:
                continue
            async with map_lance_errors():
                table = await self._db.table_if_exists(kind.prefix + tenant_id)
            if table is None:
                continue
            for where in wheres if wheres is not None else [""]:
                async for row in self._read(table, where, with_vectors):
                    if kind.name == "memory":
                        memories.append(row["id"])
                    elif kind.name == "conversation":
                        conversations.append(row["conversation_id"])
                    yield kind.name, row

    @staticmethod
    def _selection(
        kind: _Kind, end_user_id: str | None, memories: list[str], conversations: list[str]
    ) -> list[str] | None:
        """The predicates of a contact's rows in this table (None: every row; []: none)."""
        if end_user_id is None:
            return None
        if kind.per_contact == "end_user":
            return [of_end_user(end_user_id)]
        chunks = [memories[i : i + 500] for i in range(0, len(memories), 500)]
        if kind.per_contact == "memory":
            return [ids_in(c) for c in chunks]
        if kind.per_contact == "finding":
            return [f"array_has_any(memory_ids, [{', '.join(literal(m) for m in c)}])" for c in chunks]
        convs = [conversations[i : i + 500] for i in range(0, len(conversations), 500)]
        return [f"conversation_id IN ({', '.join(literal(c) for c in chunk)})" for chunk in convs]

    async def _read(self, table: Any, where: str, with_vectors: bool) -> AsyncIterator[Row]:
        async with map_lance_errors():
            query = table.query()
            if where:
                query = query.where(where)
            data = await query.to_arrow()
        rows = data.to_pylist()
        key = _row_key(data.column_names)
        for row in sorted(rows, key=lambda r: str(r[key])):
            if not with_vectors:
                row.pop("vector", None)
            yield {k: _plain(v) for k, v in row.items()}

    async def _absent(self, name: str, key: str, rows: list[Row]) -> list[Row]:
        """The rows whose key the table ``name`` does not hold."""
        held: set[object] = set()
        async with map_lance_errors():
            table = await self._db.table_if_exists(name)
            if table is None:
                return rows
            for start in range(0, len(rows), 500):
                keys = ", ".join(literal(str(r[key])) for r in rows[start : start + 500])
                found = await table.query().where(f"{key} IN ({keys})").select([key]).to_arrow()
                held.update(found.column(key).to_pylist())
        return [r for r in rows if r[key] not in held]

    async def tenants(self) -> list[str]:
        """Every tenant with a table of any kind, sorted."""
        prefixes = sorted((k.prefix for k in _KINDS), key=len, reverse=True)  # the longest first
        found: set[str] = set()
        async with map_lance_errors():
            async for name in self._db.names():
                prefix = next((p for p in prefixes if name.startswith(p)), None)
                if prefix is not None and len(name) > len(prefix):
                    found.add(name[len(prefix) :])
        return sorted(found)

    async def is_empty(self, tenant_id: str) -> bool:
        """Whether the tenant has no table but its event log.

        Creating the tenant's first key writes that event to its log: a tenant an operator made a
        key for, to import its data with, holds nothing yet (the import appends to the log).
        """
        async with map_lance_errors():
            for kind in _KINDS:
                if kind.name == "audit_event":
                    continue
                if await self._db.table_if_exists(kind.prefix + tenant_id) is not None:
                    return False
        return True

    def misfit(self, kind_name: str, rows: Sequence[Row], model_name: str) -> tuple[int, str] | None:
        """The first of ``rows`` that ``import_rows`` could not write, and why; None when all fit.

        Each row is converted to its table's schema as the import would (vectors it would compute
        again left out) and its non-nullable columns checked, which LanceDB does only at the write;
        then parsed as the table's reads parse it (``import_checks``).
        """
        kind = next((k for k in _KINDS if k.name == kind_name), None)
        if kind is None:
            return 0, f"unknown record type {kind_name!r}"
        schema, text = self._schema(kind), _EMBEDDED.get(kind.name)
        filled = {"tenant_id"} if kind.name == "memory" else set()
        if text is not None:
            filled |= {"vector", "embedding_model"}
        required = [f.name for f in schema if not f.nullable and f.name not in filled]
        prepared = []
        for i, row in enumerate(rows):
            missing = [name for name in required if row.get(name) is None]
            if missing:
                return i, f"no {missing[0]!r}"
            if text is not None and (not row.get("vector") or row.get("embedding_model", model_name) != model_name):
                row = {**row, "vector": None}  # embedded again by the import
            prepared.append(row)
        failed = _misconverted(prepared, schema)
        if failed is not None:
            for i, row in enumerate(prepared):  # one conversion of the batch; row by row only to name the one
                if (why := _misconverted([row], schema)) is not None:
                    return i, why
            return 0, failed
        as_read = pa.Table.from_pylist([_typed(r, schema) for r in prepared], schema).to_pylist()
        return unreadable(kind.name, as_read)

    async def import_rows(
        self,
        tenant_id: str,
        kind_name: str,
        rows: Sequence[Row],
        embed: Embed,
        model_name: str,
        *,
        resume: bool = False,
    ) -> int:
        """Write rows of one kind (one commit); the rows written.

        Memory rows without a vector, or with one of another model, are embedded again with the
        store's model; every memory row takes the importing tenant's id. ``resume``: rows whose key
        the table holds (an earlier run of the same import wrote them) are left out.
        """
        kind = next((k for k in _KINDS if k.name == kind_name), None)
        if kind is None:
            raise PreconditionFailed(f"export: unknown record type {kind_name!r}")
        schema = self._schema(kind)
        typed = [_typed(r, schema) for r in rows]
        if resume:
            typed = await self._absent(kind.prefix + tenant_id, _row_key(schema.names), typed)
            if not typed:
                return 0
        text = _EMBEDDED.get(kind.name)
        if text is not None:
            missing = [r for r in typed if not r.get("vector") or r.get("embedding_model", model_name) != model_name]
            if missing:
                for row, vector in zip(missing, await embed([r[text] for r in missing]), strict=True):
                    row["vector"] = vector
                    if kind.name == "memory":
                        row["embedding_model"] = model_name
        if kind.name == "memory":
            for row in typed:
                row["tenant_id"] = tenant_id
        if kind.name == "graph_entity":  # derived: an export from before it was kept has none
            for row in typed:
                row["norm_aliases"] = normalised_aliases(row.get("aliases") or ())
        async with map_lance_errors():
            table = await self._db.table(kind.prefix + tenant_id, schema, kind.indexes, write=True)
            await table.add(pa.Table.from_pylist(typed, schema))
        return len(typed)
