"""ProvenanceStore on LanceDB: ``memory_history_<tenant>`` and ``servings_<tenant>``.

Both are appended in batches behind the replies (``services.provenance``); a memory's history and
servings are found through a BTree index on its id.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
from lancedb.index import BTree
from lancedb.query import ColumnOrdering

from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.filters import literal, timestamp
from memoryd.adapters.lance.rows import PRIMARY_KEY, TIMESTAMP
from memoryd.core.provenance import SERVED_CALL_FIELDS, HistoryEvent, HistoryKind, ServedItem, Serving, ServingFilter

log = logging.getLogger(__name__)
_TEXT = pa.string()
HISTORY_PREFIX = "memory_history_"
SERVINGS_PREFIX = "servings_"
HISTORY_SCHEMA = pa.schema(
    [
        pa.field("id", _TEXT, nullable=False, metadata=PRIMARY_KEY),
        pa.field("at", TIMESTAMP, nullable=False),
        pa.field("memory_id", _TEXT, nullable=False),
        pa.field("kind", _TEXT, nullable=False),
        pa.field("end_user_id", _TEXT, nullable=False),
        pa.field("key_id", _TEXT, nullable=False),
        pa.field("role", _TEXT, nullable=False),
        pa.field("agent_id", _TEXT, nullable=False),
        pa.field("via", _TEXT, nullable=False),
        pa.field("request_id", _TEXT, nullable=False),
        pa.field("detail", _TEXT, nullable=False),
    ]
)
HISTORY_INDEXES = [("memory_id", BTree())]
SERVING_SCHEMA = pa.schema(
    [
        pa.field("id", _TEXT, nullable=False, metadata=PRIMARY_KEY),
        pa.field("at", TIMESTAMP, nullable=False),
        pa.field("item_id", _TEXT, nullable=False),
        pa.field("item_kind", _TEXT, nullable=False),
        pa.field("agent_id", _TEXT, nullable=False),
        pa.field("end_user_id", _TEXT, nullable=False),
        pa.field("key_id", _TEXT, nullable=False),
        pa.field("role", _TEXT, nullable=False),
        pa.field("via", _TEXT, nullable=False),
        pa.field("conversation_id", _TEXT, nullable=False),
        pa.field("rank", pa.int32(), nullable=False),
        pa.field("score", pa.float32(), nullable=False),
    ]
)
SERVING_INDEXES = [("item_id", BTree()), ("at", BTree())]
_IDS_PER_DELETE = 500
"""Ids named in one delete's predicate."""


def _history_row(e: HistoryEvent) -> dict[str, Any]:
    return {
        "id": e.event_id,
        "at": e.at,
        "memory_id": e.memory_id,
        "kind": e.kind.value,
        "end_user_id": e.end_user_id,
        "key_id": e.key_id,
        "role": e.role,
        "agent_id": e.agent_id,
        "via": e.via,
        "request_id": e.request_id,
        "detail": json.dumps(e.detail, sort_keys=True),
    }


def history_event_of(row: dict[str, Any]) -> HistoryEvent:
    """A history row as the reads parse it."""
    return HistoryEvent(
        row["id"],
        row["at"].astimezone(UTC),
        row["memory_id"],
        HistoryKind(row["kind"]),
        row["end_user_id"],
        row["key_id"],
        row["role"],
        row["agent_id"],
        row["via"],
        row["request_id"],
        json.loads(row["detail"]),
    )


_CALL_TYPES = {name: pa.string() for name in SERVED_CALL_FIELDS} | {"at": pa.int64()}
_CONVERT = pacsv.ConvertOptions(column_types=_CALL_TYPES, strings_can_be_null=False, quoted_strings_can_be_null=False)
_PASSED_ON = ("item_kind", "agent_id", "end_user_id", "key_id", "role", "via", "conversation_id")
"""A served call's fields every one of its servings carries as they are."""


def serving_columns(lines: bytes) -> pa.Table:
    """Served calls' lines (``served_call_line``) as servings, an Arrow table of ``SERVING_SCHEMA``.

    Arrow's CSV reader and compute functions do it, so the GIL is released for most of the work. A
    line that is not whole (a process killed mid-write) is left out rather than failing the rest.
    """
    if not lines:
        return SERVING_SCHEMA.empty_table()
    left_out = 0

    def leave_out(row: Any) -> str:
        nonlocal left_out
        left_out += 1
        return "skip"

    read = pacsv.ReadOptions(column_names=list(SERVED_CALL_FIELDS), use_threads=False)
    parse = pacsv.ParseOptions(
        delimiter="\t", quote_char=False, escape_char=False, newlines_in_values=False, invalid_row_handler=leave_out
    )
    calls = pacsv.read_csv(pa.BufferReader(lines), read_options=read, parse_options=parse, convert_options=_CONVERT)
    tokens = pc.split_pattern(calls.column("items"), " ")
    counts = pc.list_value_length(tokens).to_numpy(zero_copy_only=False)
    whole = (counts > 0) & (counts % 2 == 0)  # pairs of id and score
    if not whole.all():
        left_out += int((~whole).sum())
        calls, tokens, counts = calls.filter(whole), tokens.filter(whole), counts[whole]
    if left_out:
        log.warning("%d served-call lines were not whole: their servings are left out", left_out)
    per_call = counts // 2
    flat = pc.list_flatten(tokens)
    call_of = np.repeat(np.arange(len(per_call)), per_call)
    rank = np.arange(len(call_of)) - np.repeat(np.cumsum(per_call) - per_call, per_call) + 1
    rank_hex = pa.array([f"{r:02x}" for r in range(int(per_call.max(initial=0)) + 1)]).take(rank)
    at = calls.column("at").take(call_of).cast(pa.timestamp("us")).cast(TIMESTAMP)
    columns = {
        "id": pc.binary_join_element_wise(calls.column("call").take(call_of), rank_hex, ""),
        "at": at,
        "item_id": flat.take(np.arange(0, len(flat), 2)),
        **{name: calls.column(name).take(call_of) for name in _PASSED_ON},
        "rank": pa.array(rank, pa.int32()),
        "score": flat.take(np.arange(1, len(flat), 2)).cast(pa.float32()),
    }
    return pa.table(columns).select(SERVING_SCHEMA.names).cast(SERVING_SCHEMA)


def serving_of(row: dict[str, Any]) -> Serving:
    """A served-log row as the reads parse it."""
    return Serving(
        row["id"],
        row["at"].astimezone(UTC),
        row["item_id"],
        ServedItem(row["item_kind"]),
        row["agent_id"],
        row["end_user_id"],
        row["key_id"],
        row["role"],
        row["via"],
        row["conversation_id"],
        int(row["rank"]),
        float(row["score"]),
    )


def _in(column: str, values: Sequence[str]) -> str:
    return f"{column} IN (" + ", ".join(literal(v) for v in values) + ")"


class LanceProvenance:
    """Histories and servings on the archive's LanceDB database."""

    def __init__(self, db: LanceDatabase) -> None:
        self._db = db

    async def append_history(self, tenant_id: str, events: Sequence[HistoryEvent]) -> None:
        """Store history events (one append, not an upsert, which would join the whole table each second).

        A retried call's event keeps its id (``services.provenance``): a second row of one id is read
        as one event.
        """
        rows = pa.Table.from_pylist([_history_row(e) for e in events], HISTORY_SCHEMA)
        await self._append(HISTORY_PREFIX + tenant_id, HISTORY_SCHEMA, HISTORY_INDEXES, rows)

    async def _append(self, name: str, schema: pa.Schema, indexes: Any, data: pa.Table) -> None:
        if not data.num_rows:
            return
        async with map_lance_errors():
            table = await self._db.table(name, schema, indexes, write=True)
            await table.add(data)

    async def history(self, tenant_id: str, memory_id: str) -> list[HistoryEvent]:
        """One memory's events, oldest first."""
        async with map_lance_errors():
            table = await self._db.table_if_exists(HISTORY_PREFIX + tenant_id)
            if table is None:
                return []
            rows = (await table.query().where(f"memory_id = {literal(memory_id)}").to_arrow()).to_pylist()
        once = {r["id"]: r for r in sorted(rows, key=lambda r: r["at"], reverse=True)}  # one id once: the first
        return sorted((history_event_of(r) for r in once.values()), key=lambda e: (e.at, e.event_id))

    async def append_servings(self, tenant_id: str, lines: bytes) -> None:
        """Store servings (one append: their ids are new, and an upsert would join the whole table each second)."""
        await self.add_serving_columns(tenant_id, await asyncio.to_thread(serving_columns, lines))

    async def add_serving_columns(self, tenant_id: str, rows: pa.Table) -> None:
        """Append rows of ``SERVING_SCHEMA`` (made by ``serving_columns``) in one commit."""
        await self._append(SERVINGS_PREFIX + tenant_id, SERVING_SCHEMA, SERVING_INDEXES, rows)

    async def settle(self, tenant_id: str | None = None) -> None:
        """Nothing waits outside the tables here (``SpooledProvenance`` holds servings in files)."""

    async def servings(
        self, tenant_id: str, where: ServingFilter, after_id: str, limit: int, *, newest: bool = False
    ) -> list[Serving]:
        """Servings matching ``where`` after ``after_id``, oldest (or ``newest``) first: ordered and cut in LanceDB."""
        clauses = _serving_clauses(where)
        if after_id and not newest:
            clauses.append(f"id > {literal(after_id)}")
        order = [ColumnOrdering(column_name="id", ascending=not newest)]
        fetch = limit
        async with map_lance_errors():
            table = await self._db.table_if_exists(SERVINGS_PREFIX + tenant_id)
            if table is None or limit <= 0:
                return []
            while True:
                query = table.query().order_by(order).limit(fetch)
                rows = (await (query.where(" AND ".join(clauses)) if clauses else query).to_arrow()).to_pylist()
                once = {r["id"]: r for r in rows}  # two processes moving one spool file append its rows twice
                if len(once) >= limit or len(rows) < fetch:
                    break
                fetch *= 2  # doubles took places: read further
        found = sorted((serving_of(r) for r in once.values()), key=lambda s: s.serving_id, reverse=newest)
        return found[:limit]

    async def count_servings(self, tenant_id: str, where: ServingFilter) -> int:
        """How many servings match ``where`` (a row a double move appended twice counts twice)."""
        clauses = _serving_clauses(where)
        async with map_lance_errors():
            table = await self._db.table_if_exists(SERVINGS_PREFIX + tenant_id)
            if table is None:
                return 0
            return int(await table.count_rows(" AND ".join(clauses) if clauses else None))

    async def _delete(self, name: str, condition: str) -> int:
        async with map_lance_errors():
            table = await self._db.table_if_exists(name)
            if table is None:
                return 0
            found = int(await table.count_rows(condition))
            if found:
                self._db.written.add(name)
                await table.delete(condition)
        return found

    async def forget(self, tenant_id: str, memory_ids: Sequence[str]) -> list[str]:
        """Delete the histories and servings of these memories; the tables touched."""
        if not memory_ids:
            return []
        touched: set[str] = set()
        for start in range(0, len(memory_ids), _IDS_PER_DELETE):  # a retention purge may name thousands
            chunk = memory_ids[start : start + _IDS_PER_DELETE]
            for name, column in ((HISTORY_PREFIX + tenant_id, "memory_id"), (SERVINGS_PREFIX + tenant_id, "item_id")):
                if await self._delete(name, _in(column, chunk)):
                    touched.add(name)
        return sorted(touched)

    async def erase_end_user(
        self, tenant_id: str, end_user_id: str, memory_ids: Sequence[str]
    ) -> tuple[int, list[str]]:
        """Delete the contact's histories and servings and those of ``memory_ids``; (rows, tables touched)."""
        rows, touched = 0, set[str]()
        chunks = [memory_ids[i : i + _IDS_PER_DELETE] for i in range(0, len(memory_ids), _IDS_PER_DELETE)]
        for name, column in ((HISTORY_PREFIX + tenant_id, "memory_id"), (SERVINGS_PREFIX + tenant_id, "item_id")):
            for condition in [f"end_user_id = {literal(end_user_id)}", *(_in(column, c) for c in chunks)]:
                if n := await self._delete(name, condition):
                    rows += n
                    touched.add(name)
        return rows, sorted(touched)

    async def expire_servings(self, tenant_id: str, before: datetime, dry_run: bool) -> int:
        """Delete (or count) the servings older than ``before``."""
        condition = f"at < {timestamp(before)}"
        if not dry_run:
            return await self._delete(SERVINGS_PREFIX + tenant_id, condition)
        async with map_lance_errors():
            table = await self._db.table_if_exists(SERVINGS_PREFIX + tenant_id)
            return 0 if table is None else int(await table.count_rows(condition))


def _serving_clauses(where: ServingFilter) -> list[str]:
    clauses = []
    for column in ("item_id", "agent_id", "end_user_id", "conversation_id"):
        value = getattr(where, column)
        if value:
            clauses.append(f"{column} = {literal(value)}")
    if where.since is not None:
        clauses.append(f"at >= {timestamp(where.since)}")
    if where.until is not None:
        clauses.append(f"at < {timestamp(where.until)}")
    return clauses
