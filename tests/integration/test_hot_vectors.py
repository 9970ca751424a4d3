"""The in-memory vector path for small tables: same answers as LanceDB, never stale."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from memoryd.adapters.lance_store import LanceMemoryStore
from memoryd.core.models import Actor, MemoryFilter, MemoryType, Scope
from tests.integration.test_lance_store import record


def vec(rng: random.Random, dim: int = 8) -> list[float]:
    v = [rng.gauss(0, 1) for _ in range(dim)]
    n = sum(x * x for x in v) ** 0.5
    return [x / n for x in v]


async def wait_hot(store: LanceMemoryStore, tenant: str) -> None:
    for _ in range(100):
        table = await store._table(tenant, create=False)
        snap = store._hot.get(tenant)
        if snap is not None and snap.version == await table.version():
            return
        await store.nearest(Actor(tenant, "a0"), [1.0] + [0.0] * 7, MemoryFilter(), 1, -1.0)
        await asyncio.sleep(0.02)
    raise AssertionError("snapshot never became current")


async def test_hot_path_matches_lancedb_for_every_filter(tmp_path: Path) -> None:
    rng = random.Random(3)
    store = await LanceMemoryStore.open(str(tmp_path), "m", 8, hot_max_rows=1000, hot_total_rows=10_000)
    cold = await LanceMemoryStore.open(str(tmp_path), "m", 8)
    rows = []
    for i in range(300):
        scope = rng.choice(list(Scope))
        base = record(i, f"memory {i}", agent=f"a{i % 3}", scope=scope)
        rows.append((base.__class__(**{**{f: getattr(base, f) for f in base.__slots__},
                                      "end_user_id": f"u{i % 2}" if scope is Scope.END_USER else "",
                                      "category": rng.choice(["x", "y"]),
                                      "memory_type": rng.choice(list(MemoryType))}), vec(rng)))
    await store.insert("t1", rows)
    await wait_hot(store, "t1")
    filters = [MemoryFilter(), MemoryFilter(category="x"), MemoryFilter(scopes=frozenset({Scope.PRIVATE})),
               MemoryFilter(memory_type=MemoryType.SEMANTIC, scopes=frozenset({Scope.SHARED, Scope.END_USER}))]
    for actor in (Actor("t1", "a0"), Actor("t1", "a1", "u1"), Actor("t1", "zz", "u0")):
        for flt in filters:
            q = vec(rng)
            hot = await store.nearest(actor, q, flt, 10, -1.0)
            assert store._hot["t1"].version == await (await store._table("t1", create=False)).version()
            lance = await cold.nearest(actor, q, flt, 10, -1.0)
            assert [h.memory_id for h in hot] == [h.memory_id for h in lance], (actor, flt)
    store.close()
    cold.close()


async def test_a_write_from_elsewhere_is_seen_at_once(tmp_path: Path) -> None:
    rng = random.Random(5)
    store = await LanceMemoryStore.open(str(tmp_path), "m", 8, hot_max_rows=1000, hot_total_rows=10_000)
    other = await LanceMemoryStore.open(str(tmp_path), "m", 8)  # another process's handle
    await store.insert("t1", [(record(i, f"m {i}", agent="a0"), vec(rng)) for i in range(20)])
    await wait_hot(store, "t1")
    target = vec(rng)
    await other.insert("t1", [(record(999, "new one", agent="a0"), target)])
    hits = await store.nearest(Actor("t1", "a0"), target, MemoryFilter(), 1, -1.0)
    assert hits[0].memory_id == f"{999:032x}"  # served by LanceDB while the snapshot is refreshed
    store.close()
    other.close()
