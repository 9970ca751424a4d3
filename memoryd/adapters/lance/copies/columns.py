"""The archive copy's columns: visibility and filter columns as codes, the id index, the rows' source.

Split from ``archive`` (the ``ArchiveCopy`` class): what a copy holds column by column, and the
vectorised predicates over them.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from memoryd.adapters.lance.copies.faiss_rows import RowIndexSlot
from memoryd.adapters.lance.copies.text import TextCopy, Vocabulary
from memoryd.adapters.lance.rows import microseconds, rows_of, to_record
from memoryd.core.models import PENDING_MODEL, Actor, MemoryFilter, MemoryRecord, MemoryStatus, Scope

SCOPE_CODES = {scope: code for code, scope in enumerate(Scope)}
STATUS_CODES = {status: code for code, status in enumerate(MemoryStatus)}
_BATCH = 16
"""Rows converted to records at once while a filtered search walks its ranking."""
STREAMED_BYTES = 8 << 20
"""From this size a matrix times one vector is numpy's einsum, not OpenBLAS's gemv. Read from memory
(not the CPU's caches, as a daemon's searches mostly are) the einsum loop streams it ~1.8x faster at
every size from 2,000 rows of 384 floats up (10,000 rows: 0.86 against 1.62 ms; 100,000: 8.0 against
13.8); from the caches gemv is faster below this size (5,000 rows: 0.15 against 0.37 ms), einsum at
and above 30,000 rows (``docs/benchmarks.md``, session 19)."""


def dot_products(matrix: np.ndarray, query: np.ndarray) -> Any:
    """Each row of ``matrix`` times ``query`` (float32 dot products), by the faster kernel for its size."""
    if matrix.nbytes >= STREAMED_BYTES:
        return np.einsum("ij,j->i", matrix, query)
    return matrix @ query


def visible_mask(
    actor: Actor, scopes: np.ndarray, agents: np.ndarray, end_users: np.ndarray, keys: tuple[Any, Any] | None = None
) -> Any:
    """Which rows ``actor`` sees, as a boolean array: ``core.visibility``'s rule over column arrays.

    ``keys``: the actor's agent and contact as the arrays hold them (codes), when not the names.
    """
    agent, end_user = keys if keys is not None else (actor.agent_id, actor.end_user_id)
    mask = (scopes == SCOPE_CODES[Scope.TENANT]) | (scopes == SCOPE_CODES[Scope.SHARED])
    mask |= (scopes == SCOPE_CODES[Scope.PRIVATE]) & (agents == agent)
    if actor.end_user_id:
        mask |= (scopes == SCOPE_CODES[Scope.END_USER]) & (end_users == end_user)
    return mask


_SPARE_MIN = 256


@dataclass
class _Spare:
    """A vector matrix with spare rows at its end; its first ``used`` rows are the newest copy's."""

    array: np.ndarray
    used: int


@dataclass(frozen=True)
class _Columns:
    """Per row, what visibility and the vector search read (one array each, row order).

    Agents and contacts are held as integer codes of ``names`` (comparing 10,000 strings for every
    search cost more than the matrix product). ``names`` only grows and is shared by the copies made
    from one load: an older copy never holds a newer code.
    """

    scope: np.ndarray
    agent: np.ndarray
    end_user: np.ndarray
    embedded: np.ndarray
    """Rows stored during an embedder outage hold zeros, not a vector: no vector search may see them."""
    live: np.ndarray
    """False for a row deleted or rewritten since the load."""
    status: np.ndarray
    occurred: np.ndarray
    """``occurred_at`` in microseconds since the epoch."""
    source: np.ndarray
    """``source_id`` as a code of ``names`` (GetMemory's ``annotated_by`` is a page filtered by it)."""
    names: dict[str, int]

    def _code(self, name: str) -> int:
        return self.names.setdefault(name, len(self.names))

    def appended(self, records: Sequence[MemoryRecord]) -> _Columns:
        return _Columns(
            np.concatenate([self.scope, np.array([SCOPE_CODES[r.scope] for r in records], dtype=np.int8)]),
            np.concatenate([self.agent, np.array([self._code(r.agent_id) for r in records], dtype=np.int32)]),
            np.concatenate([self.end_user, np.array([self._code(r.end_user_id) for r in records], dtype=np.int32)]),
            np.concatenate([self.embedded, np.array([not r.embedding_pending for r in records], dtype=bool)]),
            np.concatenate([self.live, np.ones(len(records), dtype=bool)]),
            np.concatenate([self.status, np.array([STATUS_CODES[r.status] for r in records], dtype=np.int8)]),
            np.concatenate([self.occurred, np.array([microseconds(r.occurred_at) for r in records], dtype=np.int64)]),
            np.concatenate([self.source, np.array([self._code(r.source_id) for r in records], dtype=np.int32)]),
            self.names,
        )

    def without(self, rows: Sequence[int]) -> _Columns:
        live = self.live.copy()
        live[rows] = False
        return _Columns(
            self.scope,
            self.agent,
            self.end_user,
            self.embedded,
            live,
            self.status,
            self.occurred,
            self.source,
            self.names,
        )


@dataclass
class _Index:
    """Live rows by id, shared by a chain of copies: ``rows`` is how many rows the newest copy extending it holds."""

    ids: dict[str, int]
    rows: int

    def extended(self, n: int, memory_ids: Sequence[str]) -> _Index:
        """With ``memory_ids`` as rows ``n``…: in place when the copy at ``n`` rows is the newest user."""
        out = self if self.rows == n else _Index({m: i for m, i in self.ids.items() if i < n}, n)
        out.ids.update((m, n + k) for k, m in enumerate(memory_ids))
        out.rows = n + len(memory_ids)
        return out


_UNKNOWN = -1
"""The code of a name no row holds."""
_KEPT_MASKS = 16
"""Actors whose visible rows a copy keeps (a byte a row each)."""
_NULL = -2
"""The code of a missing value."""


def _by_columns(flt: MemoryFilter) -> bool:
    """Whether the copy's columns answer ``flt`` (status, scope, source) without converting a row to a record.

    A dedup lookup narrows by its scopes' pool: answered through records, it converted and checked
    its near rows one by one (four vectors over 2,000 rows of one agent, a cluster of near rows each:
    3.4 ms, 1.2 ms by the columns; ``docs/benchmarks.md``, session 26).
    """
    return not flt.narrows_beyond_scope


def _with_status(flt: MemoryFilter, status: np.ndarray) -> np.ndarray:
    """Which rows (by their status codes) ``flt`` accepts: one comparison for the usual single status."""
    if len(flt.statuses) == 1:
        (only,) = flt.statuses
        return np.asarray(status == STATUS_CODES[only])
    return np.asarray(_statuses(flt)[status])


def _statuses(flt: MemoryFilter) -> np.ndarray:
    """Which status codes ``flt`` accepts, as a lookup table."""
    table = np.zeros(len(STATUS_CODES) + 1, dtype=bool)  # the last entry: code -1, a value no status has
    table[[STATUS_CODES[s] for s in flt.statuses]] = True
    return table


@functools.cache
def _scopes(scopes: frozenset[Scope]) -> np.ndarray:
    """Which scope codes are among ``scopes``, as a lookup table (the last entry: code -1, no scope's).

    Kept per set of scopes (a few exist): each search asks it, and building it cost as much as using it.
    """
    table = np.zeros(len(SCOPE_CODES) + 1, dtype=bool)
    table[[SCOPE_CODES[s] for s in scopes]] = True
    table.flags.writeable = False
    return table


@functools.lru_cache(maxsize=1 << 16)
def _time(at: int) -> datetime:
    """A row's time from its microseconds (memoised: the same rows recur as hits; 1 µs a conversion, 80 a Recall)."""
    return _EPOCH + timedelta(microseconds=int(at))


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


_ID_PATTERN = "^[0-9a-f]{16}"


def _hex_key(memory_id: str) -> int | None:
    """The id's first 16 hex digits as a number (None: they are not lowercase hex)."""
    head = memory_id[:16]
    if len(head) < 16 or head.strip("0123456789abcdef"):
        return None
    return int(head, 16)


def _hex_keys(heads: pa.ChunkedArray) -> np.ndarray:
    """Strings of 16 lowercase hex digits as unsigned 64-bit numbers, vectorised."""
    digits = np.frombuffer("".join(heads.to_pylist()).encode("ascii"), dtype=np.uint8).reshape(-1, 16)
    nibbles = _NIBBLES[digits].astype(np.uint64)
    keys = np.zeros(len(digits), dtype=np.uint64)
    for column in range(16):
        keys = (keys << np.uint64(4)) | nibbles[:, column]
    return keys


_NIBBLES = np.zeros(256, dtype=np.uint8)
_NIBBLES[np.frombuffer(b"0123456789abcdef", dtype=np.uint8)] = np.arange(16, dtype=np.uint8)


def _enum_codes(column: pa.ChunkedArray, codes: dict[Any, int]) -> np.ndarray:
    """A column of enum values as their codes (-1: a value not in ``codes``)."""
    values = column.to_numpy(zero_copy_only=False)
    out = np.full(len(values), -1, dtype=np.int8)
    for member, code in codes.items():
        out[values == member.value] = code
    return out


def _codes(column: pa.ChunkedArray, names: dict[str, int]) -> np.ndarray:
    """The column's strings as codes of ``names`` (extended with the new ones); a null is ``_NULL``."""
    encoded = column.combine_chunks().dictionary_encode()
    mapping = [names.setdefault(name, len(names)) for name in encoded.dictionary.to_pylist()]
    lookup = np.array([*mapping, _NULL], dtype=np.int32)  # a null's index is -1: the last entry
    indices = np.asarray(pc.fill_null(encoded.indices, -1).to_numpy(), dtype=np.int64)
    return np.asarray(lookup[indices])


@dataclass(frozen=True)
class _Source:
    """The Arrow rows of the load, and for each row of the copy its row there (-1: given as a record)."""

    table: pa.Table
    rows: np.ndarray
    texts: list[str]
    """The load's ``content`` as Python strings (shared by the copies): a hit's text from Arrow cost
    5 µs, 60 per Recall; the whole column of 10,000 rows costs 0.3 ms of the load."""
    derived: dict[str, np.ndarray | None] = field(default_factory=dict)
    """Arrays computed from the load when first needed, shared by the copies (``id_keys``)."""
    converted: dict[int, MemoryRecord] = field(default_factory=dict)
    """The load's rows converted so far, shared by the copies: a write makes a new copy, and a Recall
    that began on the one before converted its hits there, where the next copies never looked."""

    def records(self, rows: Sequence[int]) -> list[MemoryRecord]:
        """The records of these rows of the copy (one take and one column-wise conversion: per row, 80 → 24 µs)."""
        at = self.rows[list(rows)].tolist()
        if any(i < 0 for i in at):  # rows added after the load are always held as records
            raise AssertionError(f"rows {list(rows)} include one with no source row")
        converted = self.converted
        if missing := [i for i in at if i not in converted]:
            for i, row in zip(missing, rows_of(self.table.take(missing)), strict=True):
                converted[i] = to_record(row)
        return [converted[i] for i in at]

    def contents(self, rows: Sequence[int]) -> list[str]:
        """The loaded texts of these rows of the copy (rows with a source row)."""
        texts = self.texts
        return [texts[i] for i in self.rows[list(rows)].tolist()] if rows else []

    def appended(self, count: int) -> _Source:
        rows = np.concatenate([self.rows, np.full(count, -1, dtype=np.int64)])
        return _Source(self.table, rows, self.texts, self.derived, self.converted)

    def id_keys(self) -> np.ndarray | None:
        """Each loaded row's id as the number its first 16 hex digits make (None: an id does not start so)."""
        if "id_keys" not in self.derived:
            ids = self.table.column("id")
            valid = pc.all(pc.match_substring_regex(ids, _ID_PATTERN)).as_py() is not False
            self.derived["id_keys"] = _hex_keys(pc.utf8_slice_codeunits(ids, 0, 16)) if valid else None
        return self.derived["id_keys"]


def arrow_parts(
    data: pa.Table,
    vocabulary: Vocabulary | None,
    covered: frozenset[int] | None,
    prefix_vocabulary: Vocabulary | None,
    prefix_covered: frozenset[int] | None,
    ann_min_rows: int | None,
) -> tuple[Any, ...]:
    """An ``ArchiveCopy``'s parts after its version, from the table's rows (see ``ArchiveCopy.from_arrow``)."""
    if "_rowaddr" in data.column_names:
        addresses = data.column("_rowaddr").to_numpy()
        if np.any(np.diff(addresses.astype(np.int64)) < 0):
            data = data.take(np.argsort(addresses, kind="stable"))
    vectors = data.column("vector").combine_chunks().flatten().to_numpy().astype(np.float32, copy=False)
    dimension = data.schema.field("vector").type.list_size
    rows = data.num_rows
    ids = data.column("id").to_pylist()
    scopes = _enum_codes(data.column("scope"), SCOPE_CODES)
    names: dict[str, int] = {}
    columns = _Columns(
        scopes,
        _codes(data.column("agent_id"), names),
        _codes(data.column("end_user_id"), names),
        data.column("embedding_model").to_numpy(zero_copy_only=False) != PENDING_MODEL,
        np.ones(rows, dtype=bool),
        _enum_codes(data.column("status"), STATUS_CODES),
        data.column("occurred_at").cast(pa.int64()).to_numpy(),
        _codes(data.column("source_id"), names),
        names,
    )
    text = prefixes = None
    if vocabulary is not None and covered is not None:
        fragments = data.column("_rowaddr").to_numpy() >> 32
        text = TextCopy.build(vocabulary, data.column("search_text").to_pylist(), np.isin(fragments, list(covered)))
        if prefix_vocabulary is not None and prefix_covered is not None:
            prefixes = TextCopy.build(
                prefix_vocabulary, data.column("prefixes").to_pylist(), np.isin(fragments, list(prefix_covered))
            )
    extra = [c for c in ("vector", "search_text", "prefixes", "_rowaddr") if c in data.column_names]
    # One chunk per column: a take of 40 rows from 10 chunks cost 1.3 ms, from one 0.13 ms.
    source = _Source(
        data.drop_columns(extra).combine_chunks(),
        np.arange(rows, dtype=np.int64),
        [str(text) for text in data.column("content").to_pylist()],
    )
    index = _Index(dict(zip(ids, range(rows), strict=True)), rows)
    slot = RowIndexSlot(ann_min_rows, rows) if ann_min_rows is not None else None
    return (
        vectors.reshape(rows, dimension),
        columns,
        [None] * rows,
        source,
        ids,
        index,
        None,
        text,
        prefixes,
        slot,
    )
