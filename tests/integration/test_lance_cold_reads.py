"""Reads of a table searched in LanceDB: searches filtered afterwards, tiers in turn, pages in windows, its format."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import lance
import pytest
from lancedb.query import AsyncVectorQuery

from memoryd.adapters.lance import cold_reads as lance_cold_reads
from memoryd.adapters.lance.archive_tables import ARCHIVE_PREFIX
from memoryd.adapters.lance.cold_reads import FillRates, ShortFilters
from memoryd.adapters.lance.db import TABLE_FORMAT, LanceDatabase, cosine_nearest
from memoryd.adapters.lance.filters import visible_where
from memoryd.core.ids import new_memory_id
from memoryd.core.models import Actor, FullTextQuery, FullTextTier, MemoryFilter, MemoryRecord, Scope
from tests.fakes import memory_record
from tests.lance_stores import WholeLanceArchive

DIM = 8


def record(mid: int, agent: str, content: str, scope: Scope = Scope.PRIVATE) -> MemoryRecord:
    return memory_record(memory_id=f"{mid:032x}", agent_id=agent, scope=scope, content=content)


def near(i: int, axis: int = 0) -> list[float]:
    """A unit vector close to ``axis``, a little further the larger ``i``."""
    v = [0.0] * DIM
    v[axis] = 1.0
    v[(axis + 1) % DIM] = 0.05 * i
    return v


async def archive(db: LanceDatabase, tenant: str) -> Any:
    table = await db.table_if_exists(ARCHIVE_PREFIX + tenant)
    assert table is not None
    return table


async def cold_store(tmp_path: Path) -> tuple[LanceDatabase, WholeLanceArchive]:
    """A store that keeps no table in memory: every read is LanceDB's."""
    db = await LanceDatabase.open(str(tmp_path), "m", DIM)
    return db, WholeLanceArchive(db, DIM, copy_max_rows=0)


def counted_postfilters(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = AsyncVectorQuery.postfilter

    def counted(self: AsyncVectorQuery) -> AsyncVectorQuery:
        calls.append(1)
        return real(self)

    monkeypatch.setattr(AsyncVectorQuery, "postfilter", counted)
    return calls


async def test_an_actor_who_sees_the_table_gets_the_prefiltered_searchs_rows_from_one_search_filtered_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, store = await cold_store(tmp_path)
    rows = [(record(i, "a1", f"note {i}"), near(i)) for i in range(20)]
    rows += [(record(100 + i, "a2", f"shared {i}", Scope.TENANT), near(i, 1)) for i in range(10)]
    await store.insert("t1", rows)
    actor, query = Actor("t1", "a1"), near(3)
    postfilters = counted_postfilters(monkeypatch)

    hits = await store.nearest(actor, query, MemoryFilter(), 5, -1.0)

    table = await archive(db, "t1")
    where = visible_where(actor, MemoryFilter())
    wanted = await cosine_nearest(table, query, 5).where(where).select(["id", "_distance"]).to_arrow()
    assert [h.memory_id for h in hits] == wanted.column("id").to_pylist()
    assert postfilters == [1]  # one search, filtered afterwards: its nearest ten held five visible rows
    assert store._short._until == {}
    tagged = await store.nearest(actor, query, MemoryFilter(subject="nothing"), 5, -1.0)
    assert tagged == [] and postfilters == [1]  # a narrow filter goes straight to the prefiltered search
    db.close()


async def test_a_filter_most_rows_meet_is_searched_as_visibility_alone_and_one_few_meet_prefiltered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, store = await cold_store(tmp_path)
    rows = [
        (replace(record(i, "a1", f"note {i}"), category="travel" if i < 16 else "work"), near(i)) for i in range(20)
    ]
    await store.insert("t1", rows)
    actor, query = Actor("t1", "a1"), near(3)
    table = await archive(db, "t1")
    postfilters = counted_postfilters(monkeypatch)

    for category in ("travel", "work"):
        flt = MemoryFilter(category=category)
        hits = await store.nearest(actor, query, flt, 3, -1.0)
        where = visible_where(actor, flt)
        wanted = await cosine_nearest(table, query, 3).where(where).select(["id", "_distance"]).to_arrow()
        assert [h.memory_id for h in hits] == wanted.column("id").to_pylist()

    assert postfilters == [1]  # 'travel' (16 rows of 20): filtered afterwards; 'work' (4): prefiltered
    assert list(store._short._until) == [
        f"{ARCHIVE_PREFIX}t1 vector {visible_where(actor, MemoryFilter(category='work'))}"
    ]
    db.close()


async def test_a_filter_that_comes_up_short_is_searched_again_prefiltered_and_remembered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, store = await cold_store(tmp_path)
    # another agent's private rows are nearest to the query; a1's three are far from it
    rows = [(record(i, "a2", f"other {i}"), near(i)) for i in range(30)]
    rows += [(record(100 + i, "a1", f"mine {i}"), near(i, 4)) for i in range(3)]
    await store.insert("t1", rows)
    actor = Actor("t1", "a1")
    postfilters = counted_postfilters(monkeypatch)

    first = await store.nearest(actor, near(0), MemoryFilter(), 5, -1.0)
    second = await store.nearest(actor, near(1), MemoryFilter(), 5, -1.0)

    mine = {f"{100 + i:032x}" for i in range(3)}
    assert {h.memory_id for h in first} == mine  # every visible row, though none was among the nearest ten
    assert {h.memory_id for h in second} == mine
    assert postfilters == [1]  # the second search went straight to the prefiltered one
    assert list(store._short._until) == [f"{ARCHIVE_PREFIX}t1 vector {visible_where(actor, MemoryFilter())}"]
    db.close()


def test_a_tables_fill_rate_follows_its_recent_searches() -> None:
    fills = FillRates()
    assert fills.usually("t1")  # a table not searched yet: tiers in turn
    fills.note("t1", False)
    assert not fills.usually("t1")
    for _ in range(2):
        fills.note("t1", True)
    assert fills.usually("t1") and fills.usually("t2")


def test_a_short_filter_is_forgotten_after_its_time_and_beyond_the_bound() -> None:
    short = ShortFilters(seconds=0.0)
    short.note("a")
    assert not short.short("a")  # its time is over: the next search tries the filter afterwards again
    kept = ShortFilters(kept=2)
    for where in ("a", "b", "c"):
        kept.note(where)
    assert [kept.short(w) for w in ("a", "b", "c")] == [False, True, True]


async def test_full_text_tiers_run_in_turn_while_the_first_usually_fills_the_places(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, store = await cold_store(tmp_path)
    rows = [(record(i, "a1", f"red apple pie {i}"), near(i)) for i in range(6)]
    rows += [(record(100 + i, "a1", f"red wine {i}"), near(i)) for i in range(6)]
    await store.insert("t1", rows)
    actor = Actor("t1", "a1")
    asked: list[bool] = []
    events: list[str] = []
    inner = store.ports.store  # the MemoryStore whose tiers call its own full_text
    real = inner.full_text

    async def counted(*args: Any, **kwargs: Any) -> Any:
        asked.append(args[4])
        events.append("start")
        try:
            return await real(*args, **kwargs)
        finally:
            events.append("end")

    monkeypatch.setattr(inner, "full_text", counted)
    words = FullTextQuery(("red", "apple"), ())
    prefixes = replace(words, prefix_terms=("red",))
    tiers = [FullTextTier(words, True), FullTextTier(words, False), FullTextTier(prefixes, False)]

    filled = await store.full_text_tiers(actor, tiers, MemoryFilter(), 4)
    assert asked == [True] and len(filled) == 4  # six rows hold both words: the any-word tier never ran

    asked.clear()
    events.clear()
    more = await store.full_text_tiers(actor, tiers, MemoryFilter(), 10)
    assert asked == [True, False]  # six of ten places after the first tier; the second filled them
    pies = {f"{i:032x}" for i in range(6)}
    assert len(more) == 10 and {h.memory_id for h in more[:6]} == pies  # the all-words rows first
    assert events == ["start", "end"] * 2  # in turn while the all-words tier has filled the places

    for _ in range(3):  # it mostly does not fill them here: the two tiers go side by side
        events.clear()
        again = await store.full_text_tiers(actor, tiers, MemoryFilter(), 10)
    assert events == ["start", "start", "end", "end"]
    assert again == more  # the same hits either way
    db.close()


async def test_pages_of_ids_read_in_windows_are_the_smallest_ids_after_the_cursor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, store = await cold_store(tmp_path)
    now = int(time.time() * 1000)
    start = now - 2 * 86_400_000
    # in storage order: a dense burst (one row every 10 ms), an imported row older than all, a row a day later
    stamps = [start + 10 * i for i in range(120)] + [start - 30 * 86_400_000, start + 86_400_000]
    rows = []
    for i, at in enumerate(stamps):
        agent = "a2" if i % 3 == 2 else "a1"  # a2's private rows are not a1's to page through
        rows.append((record(0, agent, f"note {i}"), near(i)))
        rows[-1] = (replace(rows[-1][0], memory_id=new_memory_id(at, i)), rows[-1][1])
    await store.insert("t1", rows)
    actor = Actor("t1", "a1")
    mine = sorted(r.memory_id for r, _ in rows if r.agent_id == "a1")
    read: list[int] = []
    real = lance_cold_reads._ids

    async def counted(table: Any, where: str) -> Any:
        ids = await real(table, where)
        read.append(ids.num_rows)
        return ids

    monkeypatch.setattr(lance_cold_reads, "_ids", counted)

    pages, after = [], ""
    while page := await store.page_ids(actor, MemoryFilter(), after, 7):
        pages.append(page)
        after = page[-1]
    assert [m for page in pages for m in page] == mine
    read.clear()
    assert await store.page_ids(actor, MemoryFilter(), "", 7) == mine[:7]
    assert read == [68]  # the first second's window: the imported row and a1's 67 of the burst, not the day after
    read.clear()
    assert await store.page_ids(actor, MemoryFilter(source_id=mine[0]), "", 7) == []
    assert read == [0]  # a memory's annotations (few rows): one read, not a dozen empty windows
    read.clear()
    assert await store.page_ids(actor, MemoryFilter(category="none such"), "", 7) == []
    assert read == [0, 0]  # another filter: one window, then every match at once
    read.clear()
    long_ago = MemoryFilter(since=datetime(2000, 1, 1, tzinfo=UTC))
    assert await store.page_ids(actor, long_ago, "", 7) == mine[:7]
    assert read == [68]  # one that most rows meet: the first window holds the page, the rest is not read
    db.close()


async def test_new_tables_are_written_in_the_format_that_reads_scattered_rows_quickly(tmp_path: Path) -> None:
    db, store = await cold_store(tmp_path)
    await store.insert("t1", [(record(i, "a1", f"note {i}"), near(i)) for i in range(3)])

    for name in (ARCHIVE_PREFIX + "t1", "store_meta"):
        assert lance.dataset(str(tmp_path / f"{name}.lance")).data_storage_version == TABLE_FORMAT == "2.1"
    db.close()
