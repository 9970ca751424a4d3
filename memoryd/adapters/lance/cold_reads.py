"""Reads of a table searched in LanceDB (too large for an in-memory copy), shaped by what they cost.

Measured on a 1,000,000-row table of one agent (IVF_HNSW_SQ index; ``docs/benchmarks.md``, session 36):

- A vector search under any prefilter took 21 ms, the same search unfiltered 6: the filter's mask is
  built over every row. When the actor sees most rows, the nearest ``2 × limit`` rows of the whole
  table filtered afterwards already hold the answer (the same rows in the same order, 60 queries of 60).
  When they hold fewer than ``limit``, the search runs again prefiltered, and that predicate is
  remembered for a while as one that comes up short (``ShortFilters``), so an actor who sees a small
  part of the table pays the extra search about once a minute. A filter beyond visibility (a type, a
  ``since``…) that half the rows or more meet is searched the same way; which it is, the indexes count
  (session 38: a ``since`` every row meets, the arm 29 → 14 ms; a filter no row meets, +1.4 ms).
- The full-text tiers: side by side, the any-word tier's work (~16 ms alone at 1M rows) was thrown away
  whenever the all-words tier filled the places, and competed with the vector arm for the cores (a Recall
  80 → 64 ms with three-word questions); one after the other, a tier that does not fill waits for the one
  before (10,000 rows over ten agents: 14 → 17 ms). So each table's fill rate decides (``FillRates``).
- A page of ids (ListMemories) read every visible id after the cursor and kept the smallest: 207 ms for the
  first page at 1M rows. Ids begin with their creation time, and the BTree on ``id`` answers a range: a
  second's ids (9,000 rows here) in 3.7 ms. ``page_ids`` reads windows of growing width until one holds a
  page. A filter beyond visibility gets one window, then every match at once (``page_windows``): a
  filter most rows meet (a ``since`` long ago) read every match in 255-377 ms, one window in 8-9; one
  no row meets costs a window more (session 38).
- Reading ten scattered rows costs per column, one column after the other within a query. In Lance's
  format 2.2 a column holding one value over a page cost ~1.7 ms each (23 columns: ~30 ms; reading
  them as two halves side by side, 17 ms); tables are now made in format 2.1, which reads the same
  rows in ~7 ms in one query (``lance_db.TABLE_FORMAT``).
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from memoryd.adapters.lance.db import cosine_nearest
from memoryd.adapters.lance.filters import literal
from memoryd.core.models import MemoryFilter

SHORT_SECONDS = 60.0
"""How long a predicate that came up short goes straight to the prefiltered search."""
_SHORT_KEPT = 4096
"""Predicates remembered at most (the oldest forgotten first)."""
_POST_DEPTH = 2
"""Nearest rows asked of the whole table, per row wanted, before the filter applies."""
_POST_BREADTH = 300
"""The graph's breadth (``ef``) of that search: at 1M rows recall@10 against exact 0.947 → 0.963 for
~0.2 ms (200 queries); the prefiltered search keeps 200, where 300 cost 2-3 ms (session 38)."""
_FILL_WEIGHT = 0.1
"""The weight of the latest outcome in a table's fill rate (about the last ten searches)."""
_WINDOW_FIRST_MS = 1000
"""The first window of a page of ids: a second of creation times past its start."""
_WINDOW_GROWTH = 8
"""Each next window this many times wider (decades of ids in a dozen reads)."""
_ANY_WINDOWS = 64
"""Windows read at most (more than any span of creation times needs): the bound of the loop."""
_ID_TIME_SHIFT = 80
"""An id's leading 48 bits are its creation time in ms (``core.ids``)."""


class ShortFilters:
    """Searches (table, column, predicate) that go straight to the prefiltered search for a while.

    Those that, filtered afterwards, recently found fewer rows than asked, and those whose filter fewer
    than half the rows met.
    """

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
    *,
    narrow: bool = False,
) -> pa.Table:
    """The ``limit`` nearest rows under ``where`` (cosine, nearest first), with ``columns``.

    First filtered after the search over the nearest ``2 × limit`` of the whole table, unless ``where``
    came up short lately, or is ``narrow`` (a condition beyond visibility) and fewer than half the rows
    match it (counted through the indexes: 1.4-6.4 ms at 1M rows); then (or when that finds fewer than
    ``limit``) prefiltered.
    """
    searched = f"{table.name} {column} {where}"  # a predicate names no tenant: each table its own
    if narrow and not short.short(searched) and await _few_match(table, where):
        short.note(searched)
    if not short.short(searched):
        query = cosine_nearest(table, vector, _POST_DEPTH * limit, column, breadth=_POST_BREADTH)
        query = query.where(where).postfilter()
        rows = await query.select(list(columns)).to_arrow()
        if rows.num_rows >= limit:
            return rows.slice(0, limit)
        short.note(searched)
    return await cosine_nearest(table, vector, limit, column).where(where).select(list(columns)).to_arrow()


async def _few_match(table: Any, where: str) -> bool:
    """Whether fewer than half the table's rows match ``where``."""
    matching, rows = await asyncio.gather(table.count_rows(where), table.count_rows())
    return bool(2 * matching < rows)


def page_windows(flt: MemoryFilter) -> int:
    """How many windows a page of ids under ``flt`` tries before it reads every match at once.

    A memory's annotations (``source_id``) are few: none (GetMemory asks on every call). Another
    condition beyond visibility may match few rows, where a dozen empty windows cost more than one read
    of every match, or most rows, where that read costs hundreds of milliseconds at 1M rows: one.
    """
    if flt.source_id:
        return 0
    return 1 if flt.narrows else _ANY_WINDOWS


async def page_ids(table: Any, where: str, after_id: str, limit: int, *, windows: int = _ANY_WINDOWS) -> list[str]:
    """The ``limit`` smallest ids after ``after_id`` matching ``where``, sorted.

    Read in up to ``windows`` windows of ids up to a creation time growing from the cursor's (the first
    page: from the first row's, the rows before it included), until a window holds ``limit`` ids: every
    id past the window is larger. The last read (once a window would reach past now, or after the
    windows) has no upper end.
    """
    lower = f" AND id > {literal(after_id)}" if after_id else ""
    start = _id_time(after_id or await _first_id(table)) if windows else None
    width, now = _WINDOW_FIRST_MS, int(time.time() * 1000)
    while start is not None and windows and start + width <= now:
        ids = await _ids(table, f"{where}{lower} AND id < '{(start + width) << _ID_TIME_SHIFT:032x}'")
        if ids.num_rows >= limit:
            return _smallest(ids, limit)
        width *= _WINDOW_GROWTH
        windows -= 1
    return _smallest(await _ids(table, where + lower), limit)


async def _first_id(table: Any) -> str:
    """The id of the table's first row in storage order (the oldest but for imports): a window's start."""
    rows = await table.query().select(["id"]).limit(1).to_arrow()
    return str(rows.column("id")[0].as_py()) if rows.num_rows else ""


def _id_time(memory_id: str) -> int | None:
    try:
        return int(memory_id, 16) >> _ID_TIME_SHIFT if len(memory_id) == 32 else None
    except ValueError:
        return None


async def _ids(table: Any, where: str) -> pa.Table:
    return await table.query().where(where).select(["id"]).to_arrow()


def _smallest(ids: pa.Table, limit: int) -> list[str]:
    # picked in Arrow: sorting a million ids in Python took 0.7 s, this 0.02-0.1 s
    first = pc.select_k_unstable(ids, k=limit, sort_keys=[("id", "ascending")])
    return sorted(ids.column("id").take(first).to_pylist())
