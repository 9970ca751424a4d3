"""A tenant's full-text language: its index rebuilt in it, followed by tables made later, ranked alike in memory."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.maintenance import LanceMaintenance
from memoryd.adapters.lance.text_analysis import built_language
from memoryd.core.models import Actor, FullTextQuery, MemoryFilter, MemoryRecord, Scope
from tests.fakes import memory_record
from tests.integration.test_copy_path import DIM, vector
from tests.lance_stores import WholeLanceArchive

WORDS = (  # noqa: SIM905  # a sentence reads better than 30 quoted words
    "mi hermana trabajaba trabajamos trabajan en una panadería de lisboa los niños viajaron viajamos a sevilla "
    "cantaban cantamos ciudades ciudad perros perro comiendo comieron el verano pasado mañana vivía viviremos"
).split()


def spanish(rng: random.Random, n: int, tenant: str, start: int = 0) -> list[tuple[MemoryRecord, list[float]]]:
    texts = [" ".join(rng.choices(WORDS, k=rng.randint(3, 10))).capitalize() + "." for _ in range(n)]
    return [
        (memory_record(f"{i + 1:032x}", text, tenant_id=tenant, agent_id="a1", scope=Scope.TENANT), vector(rng))
        for i, text in enumerate(texts, start=start)
    ]


async def index_language(db: LanceDatabase, tenant: str) -> str:
    table = await db.open_existing("memories_" + tenant)
    (index,) = [ix for ix in await table.list_indices() if ix.columns == ["search_text"]]
    return built_language(index.index_details)


async def ranking(store: Any, tenant: str, terms: tuple[str, ...], every: bool) -> list[tuple[str, float]]:
    hits = await store.full_text(Actor(tenant, "a1"), FullTextQuery(terms, ()), MemoryFilter(), 200, every)
    return [(h.memory_id, h.score) for h in hits]


def alike(got: list[tuple[str, float]], expected: list[tuple[str, float]]) -> bool:
    """The same memories in the same order, the same scores to float32's precision (as ``test_copy_text``)."""
    return [m for m, _ in got] == [m for m, _ in expected] and all(
        abs(a - b) <= 1e-5 * max(1.0, b) for (_, a), (_, b) in zip(got, expected, strict=True)
    )


async def test_a_tenants_language_rebuilds_its_index_and_its_copy_ranks_as_lancedb_in_it(tmp_path: Path) -> None:
    rng = random.Random(7)
    db = await LanceDatabase.open(str(tmp_path), "m", DIM)
    cold, held = WholeLanceArchive(db, DIM, copy_max_rows=0), WholeLanceArchive(db, DIM)
    maintenance = LanceMaintenance(db, optimize_min_fragments=1)
    for tenant in ("acme", "other"):
        await cold.insert(tenant, spanish(rng, 120, tenant))
    await maintenance.maintain()
    english = await ranking(held, "acme", ("trabajamos",), False)
    others = await ranking(held, "other", ("trabajamos",), False)
    await maintenance.use_text_language("acme", "spanish")
    assert (await index_language(db, "acme"), await index_language(db, "other")) == ("spanish", "english")
    # 'trabajamos' and 'trabajaba' share the Spanish stem 'trabaj': the English index keeps them apart
    spanish_hits = await ranking(held, "acme", ("trabajamos",), False)
    assert len(spanish_hits) > len(english) and await ranking(held, "other", ("trabajamos",), False) == others
    for round_ in range(40):
        terms = tuple(dict.fromkeys(rng.sample(WORDS, rng.randint(1, 3))))
        every = round_ % 2 == 0
        assert alike(await ranking(held, "acme", terms, every), await ranking(cold, "acme", terms, every)), terms
    # appended rows (flat, then folded by the maintenance) keep the index's language
    await held.insert("acme", spanish(rng, 20, "acme", start=1000))
    await maintenance.maintain()
    assert await index_language(db, "acme") == "spanish"
    for _ in range(20):
        terms = tuple(dict.fromkeys(rng.sample(WORDS, rng.randint(1, 3))))
        assert alike(await ranking(held, "acme", terms, False), await ranking(cold, "acme", terms, False)), terms


async def test_a_table_made_after_the_choice_follows_it_at_the_next_pass_of_any_process(tmp_path: Path) -> None:
    db = await LanceDatabase.open(str(tmp_path), "m", DIM)
    store = WholeLanceArchive(db, DIM)
    setter, other_process = LanceMaintenance(db), LanceMaintenance(db)
    await setter.use_text_language("new", "german")  # no table yet: recorded only
    await store.insert("new", spanish(random.Random(1), 5, "new"))
    assert await index_language(db, "new") == "english"  # created as every table is
    await setter.maintain(full=False)  # the pass after the write
    assert await index_language(db, "new") == "german"
    await setter.use_text_language("new", "english")  # back: rebuilt at once
    assert await index_language(db, "new") == "english"
    await other_process.maintain()  # a full pass reads the record: nothing to change
    assert await index_language(db, "new") == "english"
    await setter.use_text_language("late", "spanish")
    await store.insert("late", spanish(random.Random(2), 5, "late"))
    await other_process.maintain()  # another process, which never saw the choice made, follows the record
    assert await index_language(db, "late") == "spanish"
    await setter.use_text_language("late", "english")  # the other process still has Spanish in mind
    await store.insert("late", spanish(random.Random(3), 2, "late", start=100))
    await other_process.maintain(full=False)  # its pass after the write reads the record before rebuilding
    assert await index_language(db, "late") == "english"
