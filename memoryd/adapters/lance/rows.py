"""The archive's Arrow schema and the row <-> MemoryRecord mapping."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import fields, replace
from datetime import UTC, datetime, timedelta
from operator import attrgetter
from typing import Any, TypeVar

import numpy as np
import pyarrow as pa

from memoryd.core.feedback import NO_FEEDBACK, FeedbackSummary, Signal
from memoryd.core.models import MemoryRecord, MemoryStatus, MemoryType, Scope, Vector
from memoryd.core.query_terms import index_text, word_prefixes

R = TypeVar("R")
TIMESTAMP = pa.timestamp("us", tz="UTC")
# Declaring the primary key in the schema makes table creation and the key one
# atomic commit: two processes creating the same tenant table cannot race
# between create_table and set_unenforced_primary_key.
PRIMARY_KEY = {"lance-schema:unenforced-primary-key": "true"}

# Columns read back into a MemoryRecord: everything but the vector and the
# prefix column, which only exist for the indexes.
RECORD_COLUMNS = [
    "id",
    "tenant_id",
    "agent_id",
    "end_user_id",
    "scope",
    "content",
    "memory_type",
    "category",
    "subject",
    "tags",
    "salience",
    "decay_factor",
    "source_context",
    "source_id",
    "content_hash",
    "embedding_model",
    "created_at",
    "updated_at",
    "occurred_at",
    "status",
    "superseded_by",
    "request_key",
    "collection",
    "pinned",
]

# Retrieval statistics live in a side table per tenant: a LanceDB update
# rewrites the whole row (vector included) into a new fragment outside the
# indexes, so counting retrievals on the memory row degraded Recall with every
# flush. The side table is small and only read by id.
RETRIEVAL_SCHEMA = pa.schema(
    [
        pa.field("id", pa.string(), nullable=False, metadata=PRIMARY_KEY),
        pa.field("retrieval_count", pa.int64(), nullable=False),
        pa.field("last_retrieved_at", TIMESTAMP, nullable=True),
        # Nullable: side tables made before these existed gain them as columns of nulls (``lance_store``).
        pa.field("injected_count", pa.int64(), nullable=True),
        *(pa.field(f"fb_{s.value}", pa.int64(), nullable=True) for s in Signal),
        pa.field("salience_shift", pa.float64(), nullable=True),
        pa.field("last_feedback_at", TIMESTAMP, nullable=True),
    ]
)
ADDED_STATS_COLUMNS = RETRIEVAL_SCHEMA.names[3:]
"""Side-table columns added after the first release; an older table gains them on open."""


def feedback_of(stats: dict[str, Any]) -> FeedbackSummary:
    """The feedback columns of a side-table row (nulls count as nothing)."""
    counts = {s: n for s in Signal if (n := stats.get(f"fb_{s.value}") or 0)}
    at = stats.get("last_feedback_at")
    if not counts and not at:
        return NO_FEEDBACK
    return FeedbackSummary(counts, float(stats.get("salience_shift") or 0.0), as_utc(at) if at else None)


def memory_schema(dimension: int) -> pa.Schema:
    """The archive table schema; ``id`` is non-nullable so it can be the primary key."""
    text = pa.string()
    return pa.schema(
        [
            pa.field("id", text, nullable=False, metadata=PRIMARY_KEY),
            pa.field("tenant_id", text, nullable=False),
            pa.field("agent_id", text, nullable=False),
            pa.field("end_user_id", text, nullable=False),
            pa.field("scope", text, nullable=False),
            pa.field("content", text, nullable=False),
            pa.field("search_text", text, nullable=False),
            pa.field("prefixes", text, nullable=False),
            pa.field("memory_type", text, nullable=False),
            pa.field("category", text, nullable=False),
            pa.field("subject", text, nullable=False),
            pa.field("tags", pa.list_(text), nullable=False),
            pa.field("salience", pa.float64(), nullable=False),
            pa.field("decay_factor", pa.float64(), nullable=False),
            pa.field("source_context", text, nullable=False),
            pa.field("source_id", text, nullable=False),
            pa.field("content_hash", text, nullable=False),
            pa.field("embedding_model", text, nullable=False),
            pa.field("created_at", TIMESTAMP, nullable=False),
            pa.field("updated_at", TIMESTAMP, nullable=False),
            pa.field("occurred_at", TIMESTAMP, nullable=False),
            pa.field("status", text, nullable=False),
            # Nullable: stores made before these existed gain them as columns of nulls (``lance_store``).
            pa.field("superseded_by", text, nullable=True),
            pa.field("request_key", text, nullable=True),
            pa.field("collection", text, nullable=True),
            pa.field("pinned", pa.bool_(), nullable=True),
            pa.field("vector", pa.list_(pa.float32(), dimension), nullable=False),
        ]
    )


def to_table(rows: Sequence[tuple[MemoryRecord, Vector]], schema: pa.Schema) -> pa.Table:
    """Arrow table for writes (built column-wise: dict rows are 12x slower to convert)."""
    recs = [r for r, _ in rows]
    # A column not named here holds the record's field of the same name as it is.
    converted: dict[str, list[Any]] = {
        "id": [r.memory_id for r in recs],
        "scope": [r.scope.value for r in recs],
        "search_text": [search_text(r, recs[i - 1] if i else None) for i, r in enumerate(recs)],
        "prefixes": [word_prefixes(r.content) for r in recs],
        "memory_type": [r.memory_type.value for r in recs],
        "tags": [list(r.tags) for r in recs],
    }
    dim = schema.field("vector").type.list_size
    flat = pa.array(np.asarray([v for _, v in rows], dtype=np.float32).reshape(-1))
    arrays = [
        pa.array(converted[f.name] if f.name in converted else list(map(attrgetter(f.name), recs)), type=f.type)
        for f in schema
        if f.name != "vector"
    ]
    arrays.append(pa.FixedSizeListArray.from_arrays(flat, dim))
    return pa.Table.from_arrays(arrays, schema=schema)


SPACE_PREFIX = "vector_"


def space_column(model: str) -> str:
    """The column of another embedding space's vectors: named by the model, never by a position."""
    return SPACE_PREFIX + hashlib.sha256(model.encode()).hexdigest()[:12]


def space_field(model: str, dimension: int) -> pa.Field:
    """Nullable: a row is written before (or without) its vector in that space; null means "to fill"."""
    return pa.field(space_column(model), pa.list_(pa.float32(), dimension), nullable=True)


KEEP_NULL_VECTORS = "null"
"""``on_bad_vectors`` of every write that may carry a row's other-space vector still unfilled: lancedb
refuses a null vector by default ("variable length vectors"); a null there means "to fill"."""


def space_columns(schema: pa.Schema) -> list[str]:
    """The table's other-space vector columns."""
    return [n for n in schema.names if n.startswith(SPACE_PREFIX)]


def with_space_vectors(data: pa.Table, schema: pa.Schema, vectors: dict[str, Sequence[Vector | None]]) -> pa.Table:
    """``data`` plus one column per other space of ``schema`` (a column missing from ``vectors`` is all null)."""
    for column in space_columns(schema):
        field = schema.field(column)
        given = vectors.get(column) or [None] * data.num_rows
        data = data.append_column(field, pa.array([list(v) if v is not None else None for v in given], field.type))
    return data


def search_text(record: MemoryRecord, previous: MemoryRecord | None = None) -> str:
    """What the full-text index sees: the date, the content, and the preceding memory's words.

    The preceding memory counts only if it was written just before in the same batch, by
    the same agent, with the same source context. Indexing the date lets a query that names
    one ("in May 2023") match the memories of that day (LoCoMo: R@10 +0.022, MRR +0.017).
    A batch of one source context is usually a
    conversation, where a turn answers the one before it: indexing that turn's words with it
    lets a question phrased like the prompt find the answer (LoCoMo: R@10 +0.042, MRR +0.019;
    the following turn as well added nothing and cost MRR; docs/benchmarks.md). Only the
    content is returned, embedded and prefix-indexed; a memory edited later is indexed by its
    own text.
    """
    when = record.occurred_at
    text = f"{when.day} {when:%B %Y} {record.content}"
    if (
        previous is not None
        and record.source_context
        and previous.source_context == record.source_context
        and previous.agent_id == record.agent_id
    ):
        text += f" {previous.content}"
    return index_text(text)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def rows_of(table: pa.Table) -> list[dict[str, Any]]:
    """``table.to_pylist()``, column by column and with timestamps through integers (40 rows: 3x faster)."""
    columns = []
    for column in table.columns:
        if pa.types.is_timestamp(column.type) and column.type.unit == "us":
            values = column.cast(pa.int64()).to_pylist()
            columns.append([None if v is None else _EPOCH + v * _MICROSECOND for v in values])
        else:
            columns.append(column.to_pylist())
    names = table.column_names
    return [dict(zip(names, row, strict=True)) for row in zip(*columns, strict=True)]


def microseconds(at: datetime) -> int:
    """A time as microseconds since the epoch (how a timestamp column holds it)."""
    return (at - _EPOCH) // _MICROSECOND


def to_record(row: dict[str, Any], stats: dict[str, Any] | None = None) -> MemoryRecord:
    """A MemoryRecord from one Arrow row (as a Python dict) and its retrieval statistics row."""
    return MemoryRecord(
        memory_id=row["id"],
        tenant_id=row["tenant_id"],
        agent_id=row["agent_id"],
        end_user_id=row["end_user_id"],
        scope=Scope(row["scope"]),
        content=row["content"],
        memory_type=MemoryType(row["memory_type"]),
        category=row["category"],
        subject=row["subject"],
        tags=tuple(row["tags"] or ()),
        salience=row["salience"],
        decay_factor=row["decay_factor"],
        source_context=row["source_context"],
        source_id=row["source_id"],
        content_hash=row["content_hash"],
        embedding_model=row["embedding_model"],
        created_at=as_utc(row["created_at"]),
        updated_at=as_utc(row["updated_at"]),
        occurred_at=as_utc(row["occurred_at"]),
        status=MemoryStatus(row["status"]),
        superseded_by=row.get("superseded_by") or "",
        collection=row.get("collection") or "",
        pinned=bool(row.get("pinned")),
        request_key=row.get("request_key") or "",
        **_usage(stats),
    )


def with_stats(record: MemoryRecord, stats: dict[str, Any] | None) -> MemoryRecord:
    """A record read without its retrieval statistics (the in-memory copy's), given its statistics row."""
    return replace(record, **_usage(stats))


def _usage(stats: dict[str, Any] | None) -> dict[str, Any]:
    """The record fields a retrieval statistics row holds (none: never retrieved, no feedback)."""
    if not stats:  # every record of the in-memory copy: a third of a conversion's cost was this
        return _NO_USAGE
    return {
        "retrieval_count": stats["retrieval_count"],
        "last_retrieved_at": as_utc(stats["last_retrieved_at"]) if stats["last_retrieved_at"] else None,
        "injection_count": stats.get("injected_count") or 0,
        "feedback": feedback_of(stats),
    }


_NO_USAGE: dict[str, Any] = {
    "retrieval_count": 0,
    "last_retrieved_at": None,
    "injection_count": 0,
    "feedback": NO_FEEDBACK,
}
"""A record's usage fields without a statistics row (callers unpack it, never change it)."""


def as_utc(value: datetime) -> datetime:
    """Aware UTC; a naive time is taken as UTC, as Arrow stores one (a row written here, kept in a copy)."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def as_utc_or_none(value: datetime | None) -> datetime | None:
    """``as_utc`` of a nullable column's value."""
    return None if value is None else as_utc(value)


def row_of(record: Any, /, **given: Any) -> dict[str, Any]:
    """A dataclass's fields as a table row under their own names; ``given``: columns stored otherwise."""
    return {f.name: getattr(record, f.name) for f in fields(record)} | given


def record_of(record_type: type[R], row: dict[str, Any], /, **given: Any) -> R:
    """A dataclass from a row's columns of its fields' names; ``given``: the fields read otherwise."""
    named = {f.name: row[f.name] for f in fields(record_type) if f.name not in given}  # type: ignore[arg-type]
    return record_type(**named, **given)
