"""The in-memory copy of small tables answers exactly as LanceDB does, and follows every write."""

from __future__ import annotations

import asyncio
import os
import random
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from memoryd.adapters.lance import archive_tables
from memoryd.adapters.lance import rows as lance_rows
from memoryd.adapters.lance.copies import cache as lance_copy_cache
from memoryd.adapters.lance.copies import columns as copy_columns
from memoryd.adapters.lance.copies.archive import ArchiveCopy
from memoryd.adapters.lance.copies.cache import _rows_kept
from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.maintenance import LanceMaintenance
from memoryd.adapters.lance.rows import RECORD_COLUMNS, memory_schema, to_table
from memoryd.adapters.lance.versions import LatestVersion
from memoryd.core.errors import Conflict
from memoryd.core.ids import new_memory_id
from memoryd.core.models import (
    Actor,
    FullTextQuery,
    MemoryFilter,
    MemoryRecord,
    MemoryStatus,
    MemoryType,
    Scope,
    TagMode,
)
from memoryd.core.vectors import normalised
from memoryd.core.visibility import is_visible
from tests.fakes import memory_record
from tests.lance_stores import WholeLanceArchive, counted_version_checks

DIM = 16
T0 = datetime(2026, 1, 1, tzinfo=UTC)
AGENTS, USERS, TAGS = ("a0", "a1", "a2"), ("", "u0", "u1"), ("ops", "home", "work")
SOURCES = (f"{1:032x}", f"{2:032x}")


def vector(rng: random.Random) -> list[float]:
    return normalised([rng.gauss(0, 1) for _ in range(DIM)], DIM, "v")


def rows(rng: random.Random, n: int) -> list[tuple[MemoryRecord, list[float]]]:
    out = []
    for i in range(n):
        scope = rng.choice(list(Scope))
        record = memory_record(
            f"{i + 1:032x}",
            f"memory {i}",
            tenant_id="acme",
            agent_id=rng.choice(AGENTS),
            end_user_id=rng.choice(USERS[1:]) if scope is Scope.END_USER else rng.choice(USERS),
            scope=scope,
            memory_type=rng.choice(list(MemoryType)),
            category=rng.choice(["", "food", "travel"]),
            subject=rng.choice(["", "caroline"]),
            tags=tuple(rng.sample(TAGS, rng.randint(0, 2))),
            salience=round(rng.random(), 2),
            occurred_at=T0 + timedelta(days=rng.randint(0, 60)),
            status=rng.choice([MemoryStatus.ACTIVE, MemoryStatus.ACTIVE, MemoryStatus.ARCHIVED]),
            source_id=rng.choice(["", "", SOURCES[i % 2]]),  # GetMemory's annotated_by pages by source_id
        )
        out.append((record, vector(rng)))
    return out


def a_filter(rng: random.Random) -> MemoryFilter:
    return MemoryFilter(
        subject=rng.choice(["", "", "caroline"]),
        category=rng.choice(["", "", "food"]),
        since=rng.choice([None, None, T0 + timedelta(days=30)]),
        memory_type=rng.choice([None, None, MemoryType.SEMANTIC]),
        tags=tuple(rng.sample(TAGS, rng.choice([0, 0, 1, 2]))),
        tag_mode=rng.choice(list(TagMode)),
        scopes=frozenset(rng.sample(list(Scope), rng.choice([0, 0, 1, 2]))),
        min_salience=rng.choice([0.0, 0.0, 0.5]),
        statuses=rng.choice([frozenset({MemoryStatus.ACTIVE}), frozenset(MemoryStatus)]),
    )


def a_column_filter(rng: random.Random) -> MemoryFilter:
    """A filter the copy's columns answer: statuses, scopes, a source (a dedup lookup's is its scopes' pool)."""
    flt = a_filter(rng)
    return MemoryFilter(scopes=flt.scopes, statuses=flt.statuses, source_id=rng.choice(["", "", *SOURCES]))


def _counted_loads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The versions at which copies are built from here on (one per load)."""
    loads: list[int] = []
    real = ArchiveCopy.from_arrow

    def counted(*args: Any, **kwargs: Any) -> ArchiveCopy:
        loads.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(ArchiveCopy, "from_arrow", counted)
    return loads


@pytest.fixture
async def db(tmp_path: Path) -> LanceDatabase:
    """The LanceDB database under ``tmp_path`` (the archives' vectors of ``DIM``)."""
    return await LanceDatabase.open(str(tmp_path), "m", DIM)


async def test_nearest_and_get_many_match_lancedb_and_follow_every_write(db: LanceDatabase) -> None:
    rng = random.Random(5)
    cold = WholeLanceArchive(db, DIM, copy_max_rows=0)
    held = WholeLanceArchive(db, DIM)
    seeded = rows(rng, 300)
    await cold.insert("acme", seeded)
    used = {r.memory_id: 1 + i % 3 for i, (r, _) in enumerate(seeded[::4])}  # some rows were recalled before
    await cold.record_retrievals("acme", used, dict(list(used.items())[::2]), T0)

    async def same_answers(checks: int) -> None:
        for check in range(checks):
            actor = Actor("acme", rng.choice(AGENTS), rng.choice(USERS))
            flt, query = a_filter(rng), vector(rng)
            if check % 2:
                flt = a_column_filter(rng)
            limit, floor = rng.choice([1, 5, 20, 100]), rng.choice([-1.0, 0.0, 0.3])
            expected = await cold.nearest(actor, query, flt, limit, floor)
            got = await held.nearest(actor, query, flt, limit, floor)
            assert [h.memory_id for h in got] == [h.memory_id for h in expected], (actor, flt)
            assert all(abs(a.score - b.score) < 1e-5 for a, b in zip(got, expected, strict=True))
            # A write group's lookups: several vectors at once answer as one at a time, on both paths.
            many = [query, vector(rng), vector(rng)]
            for store in (held, cold):
                together = await store.nearest_many(actor, many, flt, limit, floor)
                alone = [await cold.nearest(actor, v, flt, limit, floor) for v in many]
                assert [[h.memory_id for h in hs] for hs in together] == [[h.memory_id for h in hs] for hs in alone]
            ids = [f"{rng.randint(1, 320):032x}" for _ in range(8)]
            assert await held.get_many(actor, ids, with_retrievals=False) == await cold.get_many(
                actor, ids, with_retrievals=False
            )
            if check % 3:
                continue
            assert await held.get_many(actor, ids) == await cold.get_many(actor, ids)  # with their statistics
            # ListMemories' pages, records with their statistics (filters beyond scope and source: LanceDB
            # answers), and annotated_by's page (a source id, one no row holds, or one with more filters).
            source = rng.choice([*SOURCES, f"{3:032x}"])
            page_filter = rng.choice(
                [
                    flt,
                    MemoryFilter(scopes=flt.scopes, statuses=flt.statuses),
                    MemoryFilter(source_id=source, scopes=flt.scopes, statuses=flt.statuses),
                    replace(flt, source_id=source),
                ]
            )
            after, size = rng.choice(["", f"{rng.randint(1, 320):032x}"]), rng.choice([1, 7, 50])
            assert await held.page(actor, page_filter, after, size) == await cold.page(actor, page_filter, after, size)
            assert await held.page_ids(actor, page_filter, after, size) == await cold.page_ids(
                actor, page_filter, after, size
            )

    await same_answers(150)
    # Another process's flush of retrieval counts is seen at the next read (the statistics' copy too).
    bumped = seeded[4][0]
    reader = Actor("acme", bumped.agent_id, bumped.end_user_id)
    counted = (await held.get_many(reader, [bumped.memory_id]))[bumped.memory_id].retrieval_count
    await cold.record_retrievals("acme", {bumped.memory_id: 7}, {}, T0)
    assert (await held.get_many(reader, [bumped.memory_id]))[bumped.memory_id].retrieval_count == counted + 7
    # Another writer (here: the store without the copy, as another process would be) is seen next read.
    extra = rows(random.Random(9), 1)[0]
    extra = (memory_record(f"{999:032x}", "late row", tenant_id="acme", scope=Scope.TENANT), extra[1])
    await cold.insert("acme", [extra])
    assert (await held.nearest(Actor("acme", "a0"), extra[1], MemoryFilter(), 1, -1))[0].memory_id == f"{999:032x}"
    # The copy's own writes keep it current without a reload.
    own = rows(random.Random(11), 1)[0]
    await held.insert("acme", [(replace(own[0], memory_id=f"{1000:032x}"), own[1])])
    victim = seeded[0][0]
    owner = Actor("acme", victim.agent_id, victim.end_user_id)
    await held.delete(owner, victim.memory_id)
    target = seeded[1][0]
    await held.replace(
        Actor("acme", target.agent_id, target.end_user_id),
        replace(target, tags=("ops", "work"), source_id=SOURCES[1]),
        None,
    )
    # A private memory shared by its author: the copy's visibility columns follow the row.
    private = next(r for r, _ in seeded[2:] if r.scope is Scope.PRIVATE)
    await held.replace(Actor("acme", private.agent_id), replace(private, scope=Scope.SHARED), None)
    await same_answers(50)


def test_copies_share_their_matrix_and_index_without_seeing_each_others_rows() -> None:
    # A write appends into spare rows of the matrix the newest copy uses; an older copy still in a
    # running search keeps its own rows, and an append to it must not overwrite a newer copy's.
    rng = random.Random(3)
    seeded = rows(rng, 40)
    data = to_table(seeded, memory_schema(DIM)).select([*RECORD_COLUMNS, "vector"])
    old = ArchiveCopy.from_arrow(1, data)
    x, y, z = (
        (memory_record(f"{900 + k:032x}", f"row {k}", tenant_id="acme", scope=Scope.TENANT), vector(rng))
        for k in range(3)
    )
    actor = Actor("acme", "a0")

    def top(copy: ArchiveCopy, row: tuple[MemoryRecord, list[float]]) -> str:
        return copy.nearest(actor, row[1], MemoryFilter(), 1, -1)[0].memory_id

    newer = old.inserted(2, [x])
    newest = newer.inserted(3, [y])  # into newer's spare rows
    sibling = newer.inserted(3, [z])  # not what the store does, but it must not overwrite y
    assert top(newer, x) == x[0].memory_id and top(newest, y) == y[0].memory_id and top(sibling, z) == z[0].memory_id
    assert set(newest.get_many(actor, [x[0].memory_id, y[0].memory_id])) == {x[0].memory_id, y[0].memory_id}
    assert newer.get_many(actor, [y[0].memory_id]) == {} and old.get_many(actor, [x[0].memory_id]) == {}
    assert sibling.get_many(actor, [y[0].memory_id]) == {} and newest.get_many(actor, [z[0].memory_id]) == {}
    assert len(old) == 40 and len(newer) == 41 and len(newest) == 42
    gone = newest.deleted(4, [x[0].memory_id])
    assert gone.get_many(actor, [x[0].memory_id]) == {} and len(gone.get_many(actor, [y[0].memory_id])) == 1


def test_a_row_read_from_an_older_copy_is_not_converted_again_by_the_newer_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Under writes a Recall often reads its hits from a copy a write has already replaced; what it
    # converted there serves the later copies. A row rewritten since is read as rewritten, not as loaded.
    seeded = rows(random.Random(5), 20)
    old = ArchiveCopy.from_arrow(1, to_table(seeded, memory_schema(DIM)).select([*RECORD_COLUMNS, "vector"]))
    converted: list[str] = []
    real = lance_rows.to_record

    def counted(row: dict[str, Any]) -> MemoryRecord:
        record = real(row)
        converted.append(record.memory_id)
        return record

    monkeypatch.setattr(copy_columns, "to_record", counted)
    actor = Actor("acme", "a0")
    first, second = [record for record, _ in seeded if is_visible(actor, record)][:2]
    newer = old.inserted(2, [(memory_record(f"{900:032x}", "new", tenant_id="acme", scope=Scope.TENANT), seeded[0][1])])
    assert old.get_many(actor, [first.memory_id]) == {first.memory_id: first}
    assert newer.get_many(actor, [first.memory_id, second.memory_id]) == {
        first.memory_id: first,
        second.memory_id: second,
    }
    assert converted == [first.memory_id, second.memory_id]  # the first row once, in the older copy
    archived = replace(first, status=MemoryStatus.ARCHIVED, content=f"{first.content}, archived")
    rewritten = newer.replaced(3, archived, None)
    assert rewritten is not None and rewritten.get_many(actor, [first.memory_id]) == {first.memory_id: archived}
    assert old.get_many(actor, [first.memory_id]) == {first.memory_id: first}


async def test_reads_during_this_processs_writes_do_not_reload_the_copy(
    db: LanceDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A read that meets a write's new version before the write has applied it to the copy waits for
    # the write instead of reading the whole table again (under load that race reloaded it 3×/s).
    rng = random.Random(12)
    store = WholeLanceArchive(db, DIM)
    await store.insert("acme", rows(rng, 200))
    loads = _counted_loads(monkeypatch)
    actor = Actor("acme", "a0")
    await store.nearest(actor, vector(rng), MemoryFilter(), 5, -1.0)
    fresh = [
        (memory_record(f"{5000 + i:032x}", f"fresh {i}", tenant_id="acme", scope=Scope.TENANT), vector(rng))
        for i in range(30)
    ]

    async def reader() -> None:
        for _ in range(40):
            await store.nearest(actor, vector(rng), MemoryFilter(), 5, -1.0)

    async def writer() -> None:
        for row in fresh:
            await store.insert("acme", [row])

    await asyncio.gather(writer(), reader(), reader(), reader())
    assert len(loads) == 1, loads  # the first read's load only; every write was applied in place
    found = await store.get_many(actor, [r.memory_id for r, _ in fresh], with_retrievals=False)
    assert len(found) == len(fresh)


async def test_a_copy_lost_under_steady_writes_is_loaded_again_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another writer's commit leaves the copy behind; this process then writes every few ms. A load
    # takes longer than the gap between writes, so a load racing them was always wasted (the copy is
    # only good at the version it read) and every read fell back to LanceDB: the writes wait instead.
    rng = random.Random(13)
    db = await LanceDatabase.open(str(tmp_path), "m", DIM)
    store = WholeLanceArchive(db, DIM)
    await store.insert("acme", rows(rng, 200))
    reads = []
    real = archive_tables._read_copy

    async def slow_read(table: Any) -> Any:
        reads.append(await table.version())
        data = await real(table)
        await asyncio.sleep(0.1)  # a larger table's read
        return data

    monkeypatch.setattr(archive_tables, "_read_copy", slow_read)
    actor = Actor("acme", "a0")
    await store.nearest(actor, vector(rng), MemoryFilter(), 5, -1.0)
    table = await db.table_if_exists("memories_acme")
    assert table is not None
    # another writer deletes more rows than a copy catches up over: the copy cannot follow it
    gone = (await table.query().select(["id"]).limit(lance_copy_cache._FOLLOWED_DELETES + 1).to_arrow())["id"]
    await table.delete("id IN (" + ", ".join(f"'{m}'" for m in gone.to_pylist()) + ")")
    fresh = [
        (memory_record(f"{5000 + i:032x}", f"fresh {i}", tenant_id="acme", scope=Scope.TENANT), vector(rng))
        for i in range(20)
    ]
    served = []

    async def writer() -> None:
        for row in fresh:
            await store.insert("acme", [row])
            await asyncio.sleep(0.005)

    async def reader() -> None:
        for _ in range(10):
            table = await db.table_if_exists("memories_acme")
            served.append(await store._copy_of("acme", table) is not None)
            await asyncio.sleep(0.01)

    await asyncio.gather(writer(), reader(), reader())
    assert len(reads) == 2, reads  # the first read's load and one after the other writer's commit
    assert all(served[2:]), served  # from then on the copy answers (the first two waited on the load)
    found = await store.nearest(actor, vector(rng), MemoryFilter(scopes=frozenset({Scope.TENANT})), 100, -1.0)
    assert {r.memory_id for r, _ in fresh} <= {h.memory_id for h in found}  # every write reached the copy
    assert len(reads) == 2


async def _this_process_and_another(tmp_path: Path, rng: random.Random) -> tuple[WholeLanceArchive, WholeLanceArchive]:
    """This process's store over a table of 50 rows, and another process's (without copies) on the same."""
    store = WholeLanceArchive(await LanceDatabase.open(str(tmp_path), "m", DIM), DIM)
    elsewhere = WholeLanceArchive(await LanceDatabase.open(str(tmp_path), "m", DIM), DIM, copy_max_rows=0)
    await store.insert("acme", rows(rng, 50))
    return store, elsewhere


async def test_a_settled_table_is_read_without_the_bindings_version_check_until_its_next_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On a local disk, a table whose _versions directory bears the stamp a check saw (and had settled)
    # is at that check's version: reads skip the binding's check until a commit (any process's) lands.
    rng = random.Random(14)
    store, elsewhere = await _this_process_and_another(tmp_path, rng)
    checks = counted_version_checks(monkeypatch)
    actor, query = Actor("acme", "a0"), vector(rng)
    an_hour_ago = time.time() - 3600
    os.utime(tmp_path / "memories_acme.lance" / "_versions", (an_hour_ago, an_hour_ago))
    await store.nearest(actor, query, MemoryFilter(), 5, -1.0)
    settled = len(checks)
    for _ in range(5):
        await store.nearest(actor, query, MemoryFilter(), 5, -1.0)
    assert len(checks) == settled  # no check while nothing was committed
    news = memory_record(f"{7000:032x}", "from another process", tenant_id="acme", scope=Scope.TENANT)
    await elsewhere.insert("acme", [(news, query)])
    found = await store.nearest(actor, query, MemoryFilter(), 5, -1.0)
    assert found[0].memory_id == news.memory_id and len(checks) > settled  # the commit is seen at once
    os.utime(tmp_path / "memories_acme.lance" / "_versions")  # as a commit just now (the reads above may be slow)
    monkeypatch.setattr(LatestVersion, "now", lambda *_: None)  # (the next manifest's name would answer)
    recent = len(checks)
    for _ in range(3):  # the directory changed just now: a stamp this fresh is not trusted
        await store.nearest(actor, query, MemoryFilter(), 5, -1.0)
    assert len(checks) == recent + 3


async def test_commits_after_a_check_are_found_by_the_next_manifests_name_not_the_bindings_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A check lists the table's _versions directory (0.6 ms of every Memorize at a minute of one writer's
    # versions); after one, a read looks for the next version's manifest instead, whoever committed it.
    rng = random.Random(15)
    store, elsewhere = await _this_process_and_another(tmp_path, rng)
    checks = counted_version_checks(monkeypatch)
    actor, query = Actor("acme", "a0"), vector(rng)
    await store.nearest(actor, query, MemoryFilter(), 5, -1.0)
    checked = len(checks)
    for i in range(5):  # this process's writes and reads in turn
        mine = memory_record(f"{8000 + i:032x}", f"mine {i}", tenant_id="acme", scope=Scope.TENANT)
        await store.insert("acme", [(mine, near := vector(rng))])
        assert (await store.nearest(actor, near, MemoryFilter(), 1, -1.0))[0].memory_id == mine.memory_id
    assert len(checks) == checked
    news = memory_record(f"{7001:032x}", "from another process", tenant_id="acme", scope=Scope.TENANT)
    await elsewhere.insert("acme", [(news, query)])
    found = await store.nearest(actor, query, MemoryFilter(), 5, -1.0)
    assert found[0].memory_id == news.memory_id  # another process's commit, seen at once (and followed)


@pytest.mark.parametrize("streamed", [False, True], ids=["gemv", "einsum"])
@pytest.mark.parametrize("owners", [20, 1], ids=["a-twentieth-visible", "all-visible"])
async def test_a_small_or_whole_visible_set_ranks_as_lancedb_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, owners: int, streamed: bool
) -> None:
    # Twenty agents' private rows in one tenant table: a Recall sees a twentieth of it, and the copy
    # multiplies only those rows (the visible-set branch of ArchiveCopy.nearest); or one agent's rows,
    # the whole matrix. Each with both kernels of ``copy_columns.dot_products``.
    if streamed:  # the kernel of large matrices, on this small one
        monkeypatch.setattr(copy_columns, "STREAMED_BYTES", 0)
    rng = random.Random(11)
    db = await LanceDatabase.open(str(tmp_path), "m", DIM)
    cold, held = WholeLanceArchive(db, DIM, copy_max_rows=0), WholeLanceArchive(db, DIM)
    agents = [f"agent-{k}" for k in range(owners)]
    seeded = [
        (memory_record(f"{i + 1:032x}", f"memory {i}", tenant_id="acme", agent_id=agents[i % owners]), vector(rng))
        for i in range(400)
    ]
    await cold.insert("acme", seeded)
    for k in range(30):
        actor, query = Actor("acme", agents[k % owners]), vector(rng)
        expected = await cold.nearest(actor, query, MemoryFilter(), 10, -1.0)
        got = await held.nearest(actor, query, MemoryFilter(), 10, -1.0)
        mine = {r.memory_id for r, _ in seeded[k % owners :: owners]}
        assert len(got) == 10 and {h.memory_id for h in got} <= mine
        assert [h.memory_id for h in got] == [h.memory_id for h in expected]
        assert all(abs(a.score - b.score) < 1e-5 for a, b in zip(got, expected, strict=True))
        # A write group's dedup lookups take the same branch: several vectors (or one), each as if alone.
        many = [query, vector(rng), vector(rng)][: 1 + k % 3]
        together = await held.nearest_many(actor, many, MemoryFilter(), 10, -1.0)
        alone = [await cold.nearest(actor, v, MemoryFilter(), 10, -1.0) for v in many]
        assert [[h.memory_id for h in hs] for hs in together] == [[h.memory_id for h in hs] for hs in alone]
        pairs = [pair for x, y in zip(together, alone, strict=True) for pair in zip(x, y, strict=True)]
        assert all(abs(a.score - b.score) < 1e-5 for a, b in pairs)


async def _copied(
    tmp_path: Path, rng: random.Random
) -> tuple[LanceDatabase, WholeLanceArchive, LanceMaintenance, Actor, list[float]]:
    """A store whose copy is loaded, its maintenance keeping the copy, and ten commits for it to fold.

    Also an actor of the tenant and a query vector.
    """
    db = await LanceDatabase.open(str(tmp_path), "m", DIM)
    store = WholeLanceArchive(db, DIM)
    maintenance = LanceMaintenance(db, optimize_min_fragments=1, copy_max_rows=10_000, keeping_copy=store.keeping_copy)
    seeded = rows(rng, 200)
    for at in range(0, 100, 10):
        await store.insert("acme", seeded[at : at + 10])
    await maintenance.maintain()
    for at in range(100, 200, 10):
        await store.insert("acme", seeded[at : at + 10])
    actor, query = Actor("acme", "a0"), vector(rng)
    assert await store.nearest(actor, query, MemoryFilter(), 5, -1.0)
    return db, store, maintenance, actor, query


def _paused_optimize(monkeypatch: pytest.MonkeyPatch) -> tuple[asyncio.Event, asyncio.Event]:
    """Events: set when an optimize has committed (its vector deltas merged next); set to let it finish."""
    real_optimize = LanceMaintenance._optimized
    paused, resume = asyncio.Event(), asyncio.Event()

    async def pausing_optimize(self: LanceMaintenance, name: str, table: Any) -> None:
        await real_optimize(self, name, table)
        paused.set()
        await resume.wait()

    monkeypatch.setattr(LanceMaintenance, "_optimized", pausing_optimize)
    return paused, resume


async def test_an_optimize_of_a_table_in_memory_is_answered_by_the_copy_and_loaded_once_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each of an optimize's commits (the fragment reservation, the compaction, the index fold) sent the
    # next read to load the table, holding the tenant's Recalls each time; the copy now answers while
    # the optimize runs, and the table is loaded once when it ends.
    rng = random.Random(15)
    db, store, maintenance, actor, query = await _copied(tmp_path, rng)
    loads = _counted_loads(monkeypatch)
    paused, resume = _paused_optimize(monkeypatch)
    table = await db.table_if_exists("memories_acme")
    assert table is not None
    before = await table.version()
    maintained = asyncio.create_task(maintenance.maintain())
    await paused.wait()
    assert await table.version() >= before + 2  # the optimize's commits have landed
    during = [await store.nearest(actor, vector(rng), MemoryFilter(), 5, -1.0) for _ in range(5)]
    assert all(during) and loads == []  # answered by the copy: no load while the optimize runs
    news = memory_record(f"{7000:032x}", "written meanwhile", tenant_id="acme", scope=Scope.TENANT)
    written = asyncio.create_task(store.insert("acme", [(news, query)]))
    resume.set()
    await maintained
    await written
    assert len(loads) == 1  # loaded once, at the optimize's end
    cold = WholeLanceArchive(db, DIM, copy_max_rows=0)
    for _ in range(5):  # the copy ranks as LanceDB at the table's last version
        probe = vector(rng)
        got = await store.nearest(actor, probe, MemoryFilter(), 10, -1.0)
        expected = await cold.nearest(actor, probe, MemoryFilter(), 10, -1.0)
        assert [h.memory_id for h in got] == [h.memory_id for h in expected]
    for words in (("memory",), ("memory", "written")):  # full text with the folded index's statistics
        query_terms = FullTextQuery(terms=words, prefix_terms=())
        got = await store.full_text(actor, query_terms, MemoryFilter(), 20, False)
        expected = await cold.full_text(actor, query_terms, MemoryFilter(), 20, False)
        assert [(h.memory_id, round(h.score, 4)) for h in got] == [(h.memory_id, round(h.score, 4)) for h in expected]
    found = await store.nearest(actor, query, MemoryFilter(), 1, -1.0)
    assert found[0].memory_id == news.memory_id  # the write acknowledged during the optimize is read


async def test_a_copy_first_loaded_during_an_optimize_is_kept_over_its_commits(
    db: LanceDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Rows written in bulk, then read as the optimize that folds them runs: the copy loaded by the first
    # read answers over the optimize's commits, and the table is loaded once more when it ends.
    rng = random.Random(21)
    store = WholeLanceArchive(db, DIM)
    maintenance = LanceMaintenance(db, optimize_min_fragments=1, copy_max_rows=10_000, keeping_copy=store.keeping_copy)
    seeded = rows(rng, 200)
    for at in range(0, 200, 20):
        await store.insert("acme", seeded[at : at + 20])  # no read yet: no copy
    loads = _counted_loads(monkeypatch)
    real_optimize = LanceMaintenance._optimized
    started, go, paused, resume = (asyncio.Event() for _ in range(4))

    async def held_optimize(self: LanceMaintenance, name: str, table: Any) -> None:
        started.set()
        await go.wait()
        await real_optimize(self, name, table)
        paused.set()
        await resume.wait()

    monkeypatch.setattr(LanceMaintenance, "_optimized", held_optimize)
    table = await db.table_if_exists("memories_acme")
    assert table is not None
    actor = Actor("acme", "a0")
    maintained = asyncio.create_task(maintenance.maintain())
    await started.wait()
    assert await store.nearest(actor, vector(rng), MemoryFilter(), 5, -1.0)
    loaded = await table.version()
    assert loads == [loaded]  # the first read loads the copy, the optimize under way
    go.set()
    await paused.wait()
    assert await table.version() >= loaded + 2  # the optimize's commits have landed
    during = [await store.nearest(actor, vector(rng), MemoryFilter(), 5, -1.0) for _ in range(5)]
    assert all(during) and loads == [loaded]  # answered by that copy: no load while the optimize runs
    resume.set()
    await maintained
    assert loads == [loaded, await table.version()]  # loaded once more, at the optimize's end
    cold = WholeLanceArchive(db, DIM, copy_max_rows=0)
    for words in (("memory",), ("memory", "17")):  # full text with the folded index's statistics
        query_terms = FullTextQuery(terms=words, prefix_terms=())
        got = await store.full_text(actor, query_terms, MemoryFilter(), 20, False)
        expected = await cold.full_text(actor, query_terms, MemoryFilter(), 20, False)
        assert [(h.memory_id, round(h.score, 4)) for h in got] == [(h.memory_id, round(h.score, 4)) for h in expected]


async def test_another_processs_write_during_an_optimize_is_read_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The copy stands for a later version only while every commit since changed no row: another
    # process's write among the optimize's commits makes the next read load the table.
    _, store, maintenance, actor, query = await _copied(tmp_path, random.Random(16))
    elsewhere = WholeLanceArchive(await LanceDatabase.open(str(tmp_path), "m", DIM), DIM, copy_max_rows=0)
    paused, resume = _paused_optimize(monkeypatch)
    maintained = asyncio.create_task(maintenance.maintain())
    await paused.wait()
    assert await store.nearest(actor, query, MemoryFilter(), 5, -1.0)  # the copy's verdict: no row changed
    news = memory_record(f"{7001:032x}", "from another process", tenant_id="acme", scope=Scope.TENANT)
    await elsewhere.insert("acme", [(news, query)])
    found = await store.nearest(actor, query, MemoryFilter(), 1, -1.0)
    resume.set()
    await maintained
    assert found[0].memory_id == news.memory_id


async def test_only_commits_that_change_no_row_let_a_copy_stand_for_a_later_version(db: LanceDatabase) -> None:
    # The verdict comes from each commit's transaction: appends, deletes and updates change rows; a
    # compaction of indexed fragments, an index fold and a fragment reservation do not.
    rng = random.Random(17)
    store = WholeLanceArchive(db, DIM)
    seeded = rows(rng, 60)
    for at in range(0, 60, 20):
        await store.insert("acme", seeded[at : at + 20])
    table = await db.table_if_exists("memories_acme")
    assert table is not None
    await table.optimize()  # the rows indexed: the next compaction remaps indexes
    appended = await table.version() + 1
    await store.insert("acme", rows(random.Random(18), 5))
    first, second = [r for r, _ in seeded if r.scope is Scope.PRIVATE][:2]
    assert await store.delete(Actor("acme", first.agent_id, first.end_user_id), first.memory_id)
    deleted = await table.version()
    assert await store.replace(Actor("acme", second.agent_id, second.end_user_id), replace(second, content="new"), None)
    updated = await table.version()
    await table.optimize()
    optimized = await table.version()
    assert optimized >= updated + 2
    assert await _rows_kept(table, updated, optimized)
    for changed in (appended, deleted, updated):
        assert not await _rows_kept(table, changed - 1, changed)
    assert not await _rows_kept(table, deleted - 1, optimized)  # a range holding any such commit


async def test_a_copy_carried_over_an_optimize_that_fails_is_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The copy answered over the optimize's commits with the statistics of before them; if the optimize
    # then fails, no load follows, so the copy goes and the next read loads the table.
    db, store, maintenance, actor, _ = await _copied(tmp_path, random.Random(19))
    news = memory_record(f"{7002:032x}", "memory written meanwhile", tenant_id="acme", scope=Scope.TENANT)

    real_optimize = LanceMaintenance._optimized

    async def failing_after(self: LanceMaintenance, name: str, table: Any) -> None:  # after the optimize's commits
        await real_optimize(self, name, table)
        await store.insert("acme", [(news, vector(random.Random(20)))])  # carried over them
        raise Conflict("preempted")

    monkeypatch.setattr(LanceMaintenance, "_optimized", failing_after)
    await maintenance.maintain()  # a conflict ends the table's pass quietly
    cold = WholeLanceArchive(db, DIM, copy_max_rows=0)
    query = FullTextQuery(terms=("memory", "written"), prefix_terms=())
    got = await store.full_text(actor, query, MemoryFilter(), 20, False)
    expected = await cold.full_text(actor, query, MemoryFilter(), 20, False)
    assert [(h.memory_id, round(h.score, 4)) for h in got] == [(h.memory_id, round(h.score, 4)) for h in expected]


async def test_another_processs_appends_are_read_back_into_the_copy_without_loading_the_table(
    db: LanceDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A worker filing a compaction's memories commits appends to a tenant the daemon holds in memory:
    # the copy reads back the new rows alone and answers as LanceDB; deletes hide their rows, rewrites are
    # both; any other commit loads the table.
    rng = random.Random(17)
    held, cold = WholeLanceArchive(db, DIM), WholeLanceArchive(db, DIM, copy_max_rows=0)
    await held.insert("acme", rows(rng, 200))
    loads = _counted_loads(monkeypatch)
    actors = [Actor("acme", a, u) for a in AGENTS for u in USERS]

    async def same_answers() -> None:
        for _ in range(20):
            actor, query, flt = rng.choice(actors), vector(rng), rng.choice([MemoryFilter(), a_filter(rng)])
            expected = await cold.nearest(actor, query, flt, 20, -1.0)
            assert [h.memory_id for h in await held.nearest(actor, query, flt, 20, -1.0)] == [
                h.memory_id for h in expected
            ]
            ids = [f"{rng.randint(1, 420):032x}" for _ in range(8)]
            assert await held.get_many(actor, ids, with_retrievals=False) == await cold.get_many(
                actor, ids, with_retrievals=False
            )

    await same_answers()
    assert len(loads) == 1
    later = [(replace(r, memory_id=f"{300 + i:032x}"), v) for i, (r, v) in enumerate(rows(rng, 30))]
    await cold.insert("acme", later[:10])  # another process, twice
    await cold.insert("acme", later[10:20])
    await same_answers()
    await cold.insert("acme", later[20:25])  # then this process right after another's commit
    await held.insert("acme", later[25:])
    await same_answers()
    assert len(loads) == 1, loads  # every one of those was read back, never the whole table
    copy = held._copies.current("acme")
    assert copy is not None and len(copy) == 230
    # Another process's deletes (a forget, an erasure) between appends: the rows are hidden, in order.
    gone = [later[3][0], later[12][0], later[26][0], later[5][0], later[7][0]]
    owners = [Actor("acme", r.agent_id, r.end_user_id) for r in gone]
    assert all(
        [await held.get_many(o, [r.memory_id], with_retrievals=False) for o, r in zip(owners, gone, strict=True)]
    )
    for record in gone[:2]:
        assert await cold.delete(Actor("acme", record.agent_id, record.end_user_id), record.memory_id)
    await cold.insert("acme", [(replace(later[1][0], memory_id=f"{400:032x}"), later[1][1])])
    assert await cold.delete(Actor("acme", gone[2].agent_id, gone[2].end_user_id), gone[2].memory_id)
    table = await db.table_if_exists("memories_acme")  # several rows in one commit, as an erasure deletes
    assert table is not None
    await table.delete(f"id IN ('{gone[3].memory_id}', '{gone[4].memory_id}')")
    await same_answers()
    assert len(loads) == 1, loads
    assert not any(
        [await held.get_many(o, [r.memory_id], with_retrievals=False) for o, r in zip(owners, gone, strict=True)]
    )
    everyone = Actor("acme", "a0")
    assert await held.get_many(everyone, [f"{400:032x}"], with_retrievals=False) == await cold.get_many(
        everyone, [f"{400:032x}"], with_retrievals=False
    )
    # Another process's rewrites (a merge, an update) are a delete and an append, as this process's own.
    victim, owner = later[0][0], Actor("acme", later[0][0].agent_id, later[0][0].end_user_id)
    assert await cold.replace(owner, replace(victim, content="moved"), None)
    await same_answers()
    assert len(loads) == 1, loads
    assert (await held.get_many(owner, [victim.memory_id], with_retrievals=False))[victim.memory_id].content == "moved"
    await table.optimize()  # any other commit (here a compaction by another process): the table is loaded again
    await same_answers()
    assert len(loads) == 2, loads


async def test_a_copy_dropped_while_its_rows_are_checked_still_answers_that_read(
    db: LanceDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    # During this process's optimize a read asks whether the commits since the copy changed rows; a load
    # or a write may drop the copy meanwhile (two daemons on one tenant: Recall failed INTERNAL, KeyError).
    rng = random.Random(19)
    held, cold = WholeLanceArchive(db, DIM), WholeLanceArchive(db, DIM, copy_max_rows=0)
    await held.insert("acme", rows(rng, 50))
    actor, query = Actor("acme", "a0"), vector(rng)
    expected = await held.nearest(actor, query, MemoryFilter(), 5, -1.0)

    async def dropped_meanwhile(tenant_id: str, table: Any, since: int, version: int) -> bool:
        held._copies.pop(tenant_id)
        return True  # the commits since kept every row

    monkeypatch.setattr(held._copies, "unchanged", dropped_meanwhile)
    await cold.insert("acme", rows(rng, 1))  # another process's commit: the version moves
    assert [h.memory_id for h in await held.nearest(actor, query, MemoryFilter(), 5, -1.0)] == [
        h.memory_id for h in expected
    ]


async def test_a_table_at_the_bound_is_not_loaded_again_at_each_rewrite(
    db: LanceDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A rewrite hides the old row and appends the new one, so a copy holds one row more per rewrite
    # until its next load: at exactly ``copy_max_rows`` live rows every rewrite dropped the copy and
    # the next read loaded the whole table (~4 s of CPU at 100,000 rows).
    rng = random.Random(21)
    store = WholeLanceArchive(db, DIM, copy_max_rows=40)
    written = [
        (memory_record(f"{i + 1:032x}", f"memory {i}", tenant_id="acme", scope=Scope.TENANT), vector(rng))
        for i in range(40)
    ]
    await store.insert("acme", written)
    actor = Actor("acme", "a0")
    assert await store.nearest(actor, vector(rng), MemoryFilter(), 5, -1.0)  # the copy is loaded
    loads = _counted_loads(monkeypatch)
    for i, (record, v) in enumerate(written[:4]):
        assert await store.replace(actor, replace(record, content=f"rewritten {i}"), v)
        assert (await store.nearest(actor, v, MemoryFilter(), 1, -1.0))[0].memory_id == record.memory_id
    assert loads == []
    # the slack has an end: appends past an eighth of the bound drop the copy, and the table, past the
    # bound, is read from LanceDB
    more = [(memory_record(f"{100 + i:032x}", f"more {i}", tenant_id="acme"), vector(rng)) for i in range(10)]
    await store.insert("acme", more)
    assert store._copies.current("acme") is None  # 54 rows held against 40 + 5
    assert await store.nearest(actor, vector(rng), MemoryFilter(), 5, -1.0)
    assert loads == []  # too big to load: 50 rows against a bound of 40


async def test_pages_in_id_order_from_the_ids_leading_bits_match_lancedb(
    db: LanceDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The copy picks a page by its ids' leading 64 bits, then orders by the whole id: ids as memoryd makes
    # them (time-ordered), many sharing their leading bits (one millisecond, the same leading random bits),
    # rows appended to the copy after its load, a rewrite, and a tenant whose ids no key stands for.
    rng = random.Random(9)
    cold, held = WholeLanceArchive(db, DIM, copy_max_rows=0), WholeLanceArchive(db, DIM)
    keyed: list[int] = []  # the loads whose ids got keys (the odd tenant's cannot)
    real = copy_columns._hex_keys

    def counted(heads: Any) -> Any:
        keyed.append(len(heads))
        return real(heads)

    monkeypatch.setattr(copy_columns, "_hex_keys", counted)

    def made(n: int, tenant: str, odd_ids: bool = False) -> list[tuple[MemoryRecord, list[float]]]:
        out = []
        for i in range(n):
            ms = 1_767_225_600_000 + rng.choice(range(12))  # a dozen milliseconds: ties on the key
            memory_id = new_memory_id(ms, rng.choice([0, 1 << 62, 3 << 62]) | rng.getrandbits(62))
            if odd_ids and i % 7 == 0:
                memory_id = "import-" + memory_id[7:]
            scope = rng.choice([Scope.PRIVATE, Scope.TENANT, Scope.SHARED])
            out.append(
                (
                    memory_record(memory_id, f"m {i}", tenant_id=tenant, agent_id=rng.choice(AGENTS), scope=scope),
                    vector(rng),
                )
            )
        return out

    await cold.insert("acme", made(240, "acme"))
    await cold.insert("odd", made(60, "odd", odd_ids=True))
    await held.page_ids(Actor("acme", "a0"), MemoryFilter(), "", 1)  # the copy is loaded; the next rows are its own
    await held.insert("acme", made(30, "acme"))
    first = (await held.page(Actor("acme", "a0"), MemoryFilter(), "", 1))[0]
    assert await held.replace(Actor("acme", first.agent_id), replace(first, content="rewritten"), None)
    for tenant in ("acme", "acme", "odd"):
        ids = sorted(
            [
                m
                for m in await cold.page_ids(
                    Actor(tenant, "a0"), MemoryFilter(statuses=frozenset(MemoryStatus)), "", 400
                )
            ]
        )
        for _ in range(60):
            actor = Actor(tenant, rng.choice(AGENTS))
            flt = rng.choice([MemoryFilter(), MemoryFilter(scopes=frozenset({Scope.PRIVATE}))])
            after = rng.choice(["", rng.choice(ids), rng.choice(ids)[:20], "0"])
            size = rng.choice([1, 3, 20, 500])
            assert await held.page_ids(actor, flt, after, size) == await cold.page_ids(actor, flt, after, size), (
                tenant,
                after,
                size,
            )
    assert keyed and all(n >= 240 for n in keyed)


async def test_the_texts_kept_for_tenants_whose_copies_went_are_bounded_by_the_copies_rows(db: LanceDatabase) -> None:
    # A tenant's vocabularies outlive its copy (its next load need not tokenize again); with many tenants
    # read in turn they kept every tenant's texts, whatever ``copy_total_rows`` said: now at most four
    # times as many texts, both indexes counted, before they start afresh.
    store = WholeLanceArchive(db, DIM, copy_tables=100, copy_total_rows=20)
    rng = random.Random(23)
    for tenant in range(6):
        seeded = [(replace(r, tenant_id=f"t{tenant}"), v) for r, v in rows(rng, 20)]
        await store.insert(f"t{tenant}", seeded)
        assert await store.nearest(Actor(f"t{tenant}", "a0"), vector(rng), MemoryFilter(), 5, -1.0) is not None
    one = sum(len(w) + len(p) for w, p in [store._vocabularies["t5"]])
    kept = sum(len(w) + len(p) for w, p in store._vocabularies.values())
    assert one >= 20 and kept <= 4 * 20 + one < 6 * one
