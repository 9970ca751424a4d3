"""The graph tables' schemas, indexes and row mappings (``graph`` reads and writes them).

Columns added since the graph's first release are nullable and added to older tables on first use
(``ADDED_FIELDS``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC
from typing import Any

import pyarrow as pa
from lancedb.index import FTS, BTree

from memoryd.adapters.lance.filters import literal
from memoryd.adapters.lance.graph_retention import ENTITIES, FACTS
from memoryd.adapters.lance.rows import PRIMARY_KEY, TIMESTAMP, as_utc_or_none
from memoryd.core.graph import Entity, EntityType, Episode, Fact, FactStatus, GraphScope, MergeRecord, normalised_name
from memoryd.core.models import Scope

ENTITY_INDEXES = [("id", BTree()), ("name", FTS(with_position=False))]
FACT_INDEXES = [
    ("id", BTree()),
    ("subject_id", BTree()),
    ("object_id", BTree()),
    ("sentence", FTS(with_position=False)),
]


def _scope_fields() -> list[pa.Field]:
    return [
        pa.field("scope", pa.string(), nullable=False),
        pa.field("agent_id", pa.string(), nullable=False),
        pa.field("end_user_id", pa.string(), nullable=False),
    ]


def entity_schema(dimension: int) -> pa.Schema:
    """Entities: a name, its normalised form, aliases, a type, the scope, the name's embedding."""
    return pa.schema(
        [
            pa.field("id", pa.string(), nullable=False, metadata=PRIMARY_KEY),
            pa.field("name", pa.string(), nullable=False),
            pa.field("norm_name", pa.string(), nullable=False),
            pa.field("aliases", pa.list_(pa.string()), nullable=False),
            pa.field("entity_type", pa.string(), nullable=False),
            *_scope_fields(),
            pa.field("created_at", TIMESTAMP, nullable=False),
            pa.field("merged_into", pa.string(), nullable=False),
            pa.field("vector", pa.list_(pa.float32(), dimension), nullable=False),
            *ADDED_ENTITY_FIELDS,
        ]
    )


def fact_schema(dimension: int) -> pa.Schema:
    """Facts: the edge, its sentence and windows, provenance, the sentence's embedding."""
    return pa.schema(
        [
            pa.field("id", pa.string(), nullable=False, metadata=PRIMARY_KEY),
            pa.field("subject_id", pa.string(), nullable=False),
            pa.field("predicate", pa.string(), nullable=False),
            pa.field("object_id", pa.string(), nullable=False),
            pa.field("sentence", pa.string(), nullable=False),
            *_scope_fields(),
            pa.field("valid_from", TIMESTAMP, nullable=True),
            pa.field("valid_to", TIMESTAMP, nullable=True),
            pa.field("created_at", TIMESTAMP, nullable=False),
            pa.field("invalidated_at", TIMESTAMP, nullable=True),
            pa.field("status", pa.string(), nullable=False),
            pa.field("invalidated_by", pa.string(), nullable=False),
            pa.field("mention_count", pa.int64(), nullable=False),
            pa.field("sources", pa.list_(pa.string()), nullable=False),
            pa.field("pinned", pa.bool_(), nullable=False),
            pa.field("vector", pa.list_(pa.float32(), dimension), nullable=False),
            *ADDED_FACT_FIELDS,
        ]
    )


ADDED_FACT_FIELDS = [
    pa.field("confidence", pa.float32(), nullable=True),
    pa.field("last_seen_at", TIMESTAMP, nullable=True),
]
"""Columns added since the graph's first release: null reads as confidence 1 and "seen when created"."""
_NAMES = pa.list_(pa.string())
ADDED_ENTITY_FIELDS = [
    pa.field("archived_at", TIMESTAMP, nullable=True),
    pa.field("merge_record", pa.struct([("subject_of", _NAMES), ("object_of", _NAMES), ("aliases", _NAMES)])),
    pa.field("norm_aliases", _NAMES),
]
"""``archived_at``: set by the decay pass on an entity no fact in force names any more (null: in use);
``merge_record``: what a merge moved off this entity (null: none recorded); ``norm_aliases``: the
aliases as names are compared (``normalised_name``; null on rows written before it: filled when the
table is upgraded)."""
ADDED_FIELDS = {FACTS: ADDED_FACT_FIELDS, ENTITIES: ADDED_ENTITY_FIELDS}


EPISODE_SCHEMA = pa.schema(
    [
        pa.field("id", pa.string(), nullable=False, metadata=PRIMARY_KEY),
        pa.field("kind", pa.string(), nullable=False),
        *_scope_fields(),
        pa.field("source", pa.string(), nullable=False),
        pa.field("created_at", TIMESTAMP, nullable=False),
        pa.field("facts", pa.int64(), nullable=False),
        pa.field("entities", pa.int64(), nullable=False),
        pa.field("model", pa.string(), nullable=False),
        pa.field("tokens_in", pa.int64(), nullable=False),
        pa.field("tokens_out", pa.int64(), nullable=False),
        pa.field("digest", pa.string(), nullable=False),
    ]
)
FACT_COLUMNS = [n for n in fact_schema(1).names if n != "vector"]
ENTITY_COLUMNS = [n for n in entity_schema(1).names if n != "vector"]


def scope_columns(where: GraphScope) -> dict[str, str]:
    """The scope columns of a row in ``where``."""
    return {"scope": where.scope.value, "agent_id": where.agent_id, "end_user_id": where.end_user_id}


def same_scope(where: GraphScope) -> str:
    """The filter of the rows in exactly ``where``."""
    return " AND ".join(f"{k} = {literal(v)}" for k, v in scope_columns(where).items())


def scope_of(row: dict[str, Any]) -> GraphScope:
    """The scope a row is in."""
    return GraphScope(Scope(row["scope"]), row["agent_id"], row["end_user_id"])


def fact_of(row: dict[str, Any]) -> Fact:
    """A fact from its row."""
    return Fact(
        row["id"],
        row["subject_id"],
        row["predicate"],
        row["object_id"],
        row["sentence"],
        scope_of(row),
        as_utc_or_none(row["valid_from"]),
        as_utc_or_none(row["valid_to"]),
        row["created_at"].astimezone(UTC),
        FactStatus(row["status"]),
        as_utc_or_none(row["invalidated_at"]),
        row["invalidated_by"],
        row["mention_count"],
        tuple(row["sources"] or ()),
        row["pinned"],
        1.0 if row.get("confidence") is None else float(row["confidence"]),
        as_utc_or_none(row.get("last_seen_at")),
    )


def episode_of(row: dict[str, Any]) -> Episode:
    """An episode from its row."""
    return Episode(
        row["id"],
        row["kind"],
        scope_of(row),
        row["source"],
        row["created_at"].astimezone(UTC),
        row["facts"],
        row["entities"],
        row["model"],
        row["tokens_in"],
        row["tokens_out"],
        row["digest"],
    )


def entity_of(row: dict[str, Any]) -> Entity:
    """An entity from its row (its merge record when one was kept)."""
    return Entity(
        row["id"],
        row["name"],
        EntityType(row["entity_type"]),
        scope_of(row),
        tuple(row["aliases"] or ()),
        row["created_at"].astimezone(UTC),
        row["merged_into"],
        as_utc_or_none(row.get("archived_at")),
        MergeRecord(**{k: tuple(v or ()) for k, v in row["merge_record"].items()}) if row.get("merge_record") else None,
    )


def normalised_aliases(aliases: Sequence[str]) -> list[str]:
    """The aliases as names are compared (``norm_aliases``, which ``entities_named`` matches)."""
    return sorted({n for n in map(normalised_name, aliases) if n})
