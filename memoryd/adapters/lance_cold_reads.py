"""Reads of a table searched in LanceDB (too large for an in-memory copy), shaped by what they cost.

Measured on a 1,000,000-row table of one agent (IVF_HNSW_SQ index; ``docs/benchmarks.md``, session 36):

- A vector search under any prefilter took 21 ms, the same search unfiltered 6: the filter's mask is
  built over every row. When the actor sees most rows, the nearest ``2 × limit`` rows of the whole
  table filtered afterwards already hold the answer (the same rows in the same order, 60 queries of 60).
  When they hold fewer than ``limit``, the search runs again prefiltered, and that predicate is
  remembered for a while as one that comes up short (``ShortFilters``), so an actor who sees a small
  part of the table pays the extra search about once a minute.
- The full-text tiers: side by side, the any-word tier's work (~16 ms alone at 1M rows) was thrown away
  whenever the all-words tier filled the places, and competed with the vector arm for the cores (a Recall
  80 → 64 ms with three-word questions); one after the other, a tier that does not fill waits for the one
  before (10,000 rows over ten agents: 14 → 17 ms). So each table's fill rate decides (``FillRates``).
- Reading ten scattered rows costs per column, one column after the other within a query (23 columns:
  ~30 ms); two queries of half the columns each, side by side, took 17 ms. Both halves must come from
  one version of the table: a commit between them (the table's version moved) sends the read to one
  query instead. On a table of 10,000 rows the halves cost more than they save (4 → 6 ms): only a table
  too large for an in-memory copy is read so.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from memoryd.adapters.lance_db import cosine_nearest

SHORT_SECONDS = 60.0
"""How long a predicate that came up short goes straight to the prefiltered search."""
_SHORT_KEPT = 4096
"""Predicates remembered at most (the oldest forgotten first)."""
_POST_DEPTH = 2
"""Nearest rows asked of the whole table, per row wanted, before the filter applies."""
_FILL_WEIGHT = 0.1
"""The weight of the latest outcome in a table's fill rate (about the last ten searches)."""
_SPLIT_MIN_COLUMNS = 8
"""Fewer columns than this are read in one query."""


class ShortFilters:
    """Predicates whose post-filtered vector searches recently found fewer rows than asked."""

    def __init__(self, seconds: float = SHORT_SECONDS, kept: int = _SHORT_KEPT) -> None:
        self._seconds = seconds
        self._kept = kept
        self._until: OrderedDict[str, float] = OrderedDict()

    def short(self, where: str) -> bool:
        """Whether ``where`` came up short within the last ``seconds``."""
        until = self._until.get(where)
        if until is None:
            return False
        if until > time.monotonic():
            return True
        del self._until[where]
        return False

    def note(self, where: str) -> None:
        """``where`` came up short now."""
        self._until[where] = time.monotonic() + self._seconds
        self._until.move_to_end(where)
        while len(self._until) > self._kept:
            self._until.popitem(last=False)


class FillRates:
    """How often each table's all-words tier filled the places lately (a moving average per table)."""

    def __init__(self, weight: float = _FILL_WEIGHT, kept: int = _SHORT_KEPT) -> None:
        self._weight = weight
        self._kept = kept
        self._rates: OrderedDict[str, float] = OrderedDict()

    def usually(self, table: str) -> bool:
        """Whether the all-words tier filled the places in at least half the table's recent searches."""
        return self._rates.get(table, 0.5) >= 0.5

    def note(self, table: str, filled: bool) -> None:
        """The all-words tier of a search of ``table`` filled the places, or not."""
        rate = self._rates.pop(table, 0.5)
        self._rates[table] = rate + self._weight * (float(filled) - rate)
        while len(self._rates) > self._kept:
            self._rates.popitem(last=False)


async def nearest_rows(
    table: Any,
    vector: Sequence[float],
    where: str,
    limit: int,
    column: str,
    columns: Sequence[str],
    short: ShortFilters,
) -> pa.Table:
    """The ``limit`` nearest rows under ``where`` (cosine, nearest first), with ``columns``.

    First filtered after the search over the nearest ``2 × limit`` of the whole table, unless ``where``
    came up short lately; then (or when that finds fewer than ``limit``) prefiltered.
    """
    if not short.short(where):
        query = cosine_nearest(table, vector, _POST_DEPTH * limit, column).where(where).postfilter()
        rows = await query.select(list(columns)).to_arrow()
        if rows.num_rows >= limit:
            return rows.slice(0, limit)
        short.note(where)
    return await cosine_nearest(table, vector, limit, column).where(where).select(list(columns)).to_arrow()


async def rows_where(table: Any, where: str, columns: Sequence[str]) -> pa.Table:
    """The rows matching ``where`` with ``columns`` (``id`` among them), as two half reads side by side.

    The halves are joined on ``id``; a row in one half only (deleted between them) is left out. If the
    table's version moved while they ran, the rows are read again in one query.
    """
    if len(columns) < _SPLIT_MIN_COLUMNS:
        return await rows_in_one(table, where, columns)
    before = await table.version()
    first = ["id", *(c for c in columns[0::2] if c != "id")]
    second = ["id", *(c for c in columns[1::2] if c != "id")]
    left, right = await asyncio.gather(rows_in_one(table, where, first), rows_in_one(table, where, second))
    if await table.version() != before:
        return await rows_in_one(table, where, columns)
    at = {memory_id: i for i, memory_id in enumerate(right.column("id").to_pylist())}
    keep = [i for i, memory_id in enumerate(left.column("id").to_pylist()) if memory_id in at]
    left = left.take(pa.array(keep, pa.int64()))
    right = right.take(pa.array([at[memory_id] for memory_id in left.column("id").to_pylist()], pa.int64()))
    joined = {name: left.column(name) for name in first} | {name: right.column(name) for name in second[1:]}
    return pa.table({name: joined[name] for name in columns})


async def rows_in_one(table: Any, where: str, columns: Sequence[str]) -> pa.Table:
    """The rows matching ``where`` with ``columns``, in one query."""
    return await table.query().where(where).select(list(columns)).to_arrow()
