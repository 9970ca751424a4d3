"""Past ``ann_min_rows`` visible rows the in-memory copy's vector search asks an IVF index for candidates.

Its answers must stay those of an exact search in all but a few places, and never hold a row the
searcher may not see, a deleted row, a row of another status, or (for an older copy) a newer row.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memoryd.adapters.lance.archive_tables import ARCHIVE_PREFIX
from memoryd.adapters.lance.copies import cache as lance_copy_cache
from memoryd.adapters.lance.copies.archive import ArchiveCopy
from memoryd.adapters.lance.copies.faiss_rows import RowIndex
from memoryd.adapters.lance.db import LanceDatabase
from memoryd.core.models import Actor, MemoryFilter, MemoryRecord, MemoryStatus, Scope
from memoryd.core.vectors import normalised
from tests.fakes import memory_record
from tests.lance_stores import WholeLanceArchive

DIM = 32
ROWS = 3000
MIN_ROWS = 1000


def clustered(rng: np.random.Generator, n: int, centres: np.ndarray) -> list[list[float]]:
    """Vectors around topics, as real embeddings cluster (uniform noise in 32 dimensions has no neighbours)."""
    picked = centres[rng.integers(0, len(centres), n)] + rng.normal(0, 0.15, (n, DIM))
    return [normalised(v.tolist(), DIM, "v") for v in picked]


def rows(seed: int, n: int) -> tuple[list[tuple[MemoryRecord, list[float]]], np.ndarray]:
    rng = np.random.default_rng(seed)
    pick = random.Random(seed)
    centres = rng.normal(0, 1, (60, DIM))
    out = []
    for i, v in enumerate(clustered(rng, n, centres)):
        record = memory_record(
            f"{i + 1:032x}",
            f"memory {i}",
            tenant_id="acme",
            agent_id=pick.choice(["a0", "a0", "a0", "a1"]),
            scope=pick.choice([Scope.PRIVATE, Scope.PRIVATE, Scope.TENANT]),
            status=pick.choice([MemoryStatus.ACTIVE] * 5 + [MemoryStatus.ARCHIVED]),
        )
        out.append((record, v))
    return out, centres


def _counted_candidates(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of queries each call of the index answered, from here on."""
    calls: list[int] = []
    real = RowIndex.candidates

    def counted(self: RowIndex, queries: np.ndarray, *args: Any) -> Any:
        calls.append(len(queries))
        return real(self, queries, *args)

    monkeypatch.setattr(RowIndex, "candidates", counted)
    return calls


async def _search(copy: ArchiveCopy, actor: Actor, query: list[float]) -> None:
    copy.nearest(actor, query, MemoryFilter(), 10, -1.0)


async def _until_indexed(search: Any, calls: list[int], since: int = 0) -> None:
    """Search until the copy's index (built on a thread) answers (``since``: the calls counted before)."""
    deadline = time.monotonic() + 60
    while len(calls) == since:
        assert time.monotonic() < deadline, "the copy's index was never built"
        await search()
        await asyncio.sleep(0.05)


async def test_past_the_bound_the_copy_ranks_as_exact_search_and_sees_only_what_it_may(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _counted_candidates(monkeypatch)
    db = await LanceDatabase.open(str(tmp_path), "m", DIM)
    held = WholeLanceArchive(db, DIM, ann_min_rows=MIN_ROWS)
    cold = WholeLanceArchive(db, DIM, copy_max_rows=0)  # LanceDB's flat search: exact, no index built here
    written, centres = rows(7, ROWS)
    await held.insert("acme", written)
    actor, other = Actor("acme", "a0"), Actor("acme", "a1")
    queries = clustered(np.random.default_rng(99), 40, centres)

    await _until_indexed(lambda: held.nearest(actor, queries[0], MemoryFilter(), 10, -1.0), calls)
    found = expected = 0
    private = MemoryFilter(scopes=frozenset({Scope.PRIVATE}))  # a dedup lookup's pool: the columns answer it
    for query in queries:
        for who, flt in ((actor, MemoryFilter()), (other, MemoryFilter()), (actor, private)):
            got = await held.nearest(who, query, flt, 10, -1.0)
            exact = await cold.nearest(who, query, flt, 10, -1.0)
            seen = await cold.get_many(who, [h.memory_id for h in got])
            assert len(seen) == len(got), "a hit the searcher may not see"
            assert all(r.status is MemoryStatus.ACTIVE for r in seen.values()), "a hit of another status"
            assert all(r.scope in (flt.scopes or Scope) for r in seen.values()), "a hit of another scope"
            found += len({h.memory_id for h in got} & {h.memory_id for h in exact})
            expected += len(exact)
    assert sum(calls) >= 3 * len(queries)  # all see past the bound (a0 2,492 rows, a1 1,483): the index answers
    assert found / expected >= 0.95
    # a filter leaving fewer rows than the bound (a sixth are archived): exact, as the index would starve it
    archived, before = MemoryFilter(statuses=frozenset({MemoryStatus.ARCHIVED})), sum(calls)
    for query in queries[:10]:
        got = await held.nearest(actor, query, archived, 10, -1.0)
        assert [h.memory_id for h in got] == [h.memory_id for h in await cold.nearest(actor, query, archived, 10, -1.0)]
    assert sum(calls) == before

    # a delete and an append are followed: the nearest row gone, a new row where a query points
    top = (await held.nearest(actor, queries[1], MemoryFilter(), 1, -1.0))[0]
    assert await held.delete(actor, top.memory_id)
    fresh = memory_record(f"{ROWS + 1:032x}", "new", tenant_id="acme", agent_id="a0")
    await held.insert("acme", [(fresh, list(queries[2]))])
    assert top.memory_id not in {h.memory_id for h in await held.nearest(actor, queries[1], MemoryFilter(), 10, -1.0)}
    assert (await held.nearest(actor, queries[2], MemoryFilter(), 1, -1.0))[0].memory_id == fresh.memory_id


async def test_an_older_copy_never_answers_with_rows_a_newer_one_added(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _counted_candidates(monkeypatch)
    db = await LanceDatabase.open(str(tmp_path), "m", DIM)
    store = WholeLanceArchive(db, DIM)
    written, centres = rows(3, ROWS)
    await store.insert("acme", written)
    table: Any = await db.table_if_exists(ARCHIVE_PREFIX + "acme")
    older = ArchiveCopy.from_arrow(await table.version(), await table.query().to_arrow(), ann_min_rows=MIN_ROWS)
    actor = Actor("acme", "a0")
    query = clustered(np.random.default_rng(5), 1, centres)[0]

    async def search() -> None:
        older.nearest(actor, query, MemoryFilter(), 10, -1.0)

    await _until_indexed(search, calls)
    fresh = memory_record(f"{ROWS + 1:032x}", "new", tenant_id="acme", agent_id="a0")
    newer = older.inserted(older.version + 1, [(fresh, query)])
    assert newer.nearest(actor, query, MemoryFilter(), 1, -1.0)[0].memory_id == fresh.memory_id
    before = len(calls)
    assert fresh.memory_id not in {h.memory_id for h in older.nearest(actor, query, MemoryFilter(), 10, -1.0)}
    assert len(calls) == before + 1  # the older copy asked the index the newer one extended
    # a group's lookups (several vectors at once) take the same path
    many = newer.nearest_many(actor, [query, query], MemoryFilter(), 1, -1.0)
    assert [hits[0].memory_id for hits in many] == [fresh.memory_id, fresh.memory_id]

    # another copy made from the older one puts another row where the newer one put ``fresh``: its
    # searches must find its own row there, not miss it for the index holding the newer copy's
    other_query = next(v for v in clustered(np.random.default_rng(6), 50, centres) if np.dot(v, query) < 0.2)
    other = memory_record(f"{ROWS + 2:032x}", "other", tenant_id="acme", agent_id="a0")
    branch = older.inserted(older.version + 1, [(other, other_query)])
    before = len(calls)
    await _until_indexed(lambda: _search(branch, actor, other_query), calls, since=before)
    assert branch.nearest(actor, other_query, MemoryFilter(), 1, -1.0)[0].memory_id == other.memory_id


async def test_a_large_copy_loaded_gives_the_memory_its_load_freed_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trims: list[int] = []
    monkeypatch.setattr(lance_copy_cache, "_TRIMMED_FROM_ROWS", 100)
    monkeypatch.setattr(lance_copy_cache, "_return_freed_memory", lambda: trims.append(1))
    db = await LanceDatabase.open(str(tmp_path), "m", DIM)
    writer, reader = WholeLanceArchive(db, DIM, copy_max_rows=0), WholeLanceArchive(db, DIM)
    small, _ = rows(1, 60)
    large, centres = rows(2, 150)
    await writer.insert("small", [(replace(r, tenant_id="small"), v) for r, v in small])
    await writer.insert("acme", large)
    query = clustered(np.random.default_rng(1), 1, centres)[0]
    assert await reader.nearest(Actor("small", "a0"), query, MemoryFilter(), 5, -1.0)
    assert trims == []  # a small load leaves the heap alone (a trim costs more than it returns)
    assert await reader.nearest(Actor("acme", "a0"), query, MemoryFilter(), 5, -1.0)
    assert trims == [1]
