"""The LanceDB adapter against a real store on disk."""

from __future__ import annotations

import asyncio
import random
import shutil
import subprocess
import sys
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import lance
import lancedb
import pyarrow as pa
import pytest
from lancedb.index import FTS

from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.maintenance import LanceMaintenance
from memoryd.core.errors import NotReady, Unavailable
from memoryd.core.models import PENDING_MODEL, Actor, FullTextQuery, MemoryFilter, MemoryRecord, Scope
from memoryd.core.query_terms import FTS_STOP_WORDS, full_text_query
from tests.fakes import memory_record
from tests.lance_stores import WholeLanceArchive, open_store

NOW = datetime(2026, 3, 1, tzinfo=UTC)


def record(mid: int, content: str, agent: str = "a1", scope: Scope = Scope.PRIVATE) -> MemoryRecord:
    return memory_record(
        f"{mid:032x}", content, agent_id=agent, scope=scope, created_at=NOW, updated_at=NOW, occurred_at=NOW
    )


def unit(i: int) -> list[float]:
    v = [0.0] * 8
    v[i % 8] = 1.0
    return v


async def test_store_refuses_another_embedding_model(tmp_path: Path) -> None:
    store = await open_store(str(tmp_path), "model-a", 8)
    store.close()
    with pytest.raises(NotReady, match="model-a") as refused:
        await open_store(str(tmp_path), "model-b", 8)
    assert "memoryd reembed --to model-b" in str(refused.value)  # the way forward, named
    with pytest.raises(NotReady, match="8 dims"):
        await open_store(str(tmp_path), "model-a", 16)


async def test_stop_word_list_matches_the_index_tokenizer(tmp_path: Path) -> None:
    # A word we drop must be one the index drops too, or AND queries would lose a real term.
    db = lancedb.connect(str(tmp_path / "tok"))
    table = db.create_table("t", data=pa.table({"content": ["x"]}))
    table.create_index("content", config=FTS(with_position=True))
    kept = [w for w in sorted(FTS_STOP_WORDS) if table.tokenize(w, column="content")]
    assert kept == []
    assert table.tokenize("caroline hiking", column="content")


async def test_tenants_are_separate_tables(tmp_path: Path) -> None:
    store = await open_store(str(tmp_path), "m", 8)
    await store.insert("t1", [(record(1, "alpha note"), unit(1))])
    assert await store.get(Actor("t2", "a1"), f"{1:032x}") is None
    assert await store.nearest(Actor("t2", "a1"), unit(1), MemoryFilter(), 5, -1) == []
    db = lancedb.connect(str(tmp_path))
    names = db.list_tables().tables
    assert "memories_t1" in names and "memories_t2" not in names
    indexed = {tuple(ix.columns) for ix in db.open_table("memories_t1").list_indices()}
    assert {("scope",), ("agent_id",), ("status",)} <= indexed  # what every arm's predicate names
    assert ("source_id",) in indexed  # GetMemory's annotations
    assert {("memory_type",), ("category",), ("subject",), ("collection",)} <= indexed  # Recall's filters
    assert {("tags",), ("salience",), ("occurred_at",)} <= indexed
    store.close()


async def test_full_text_and_then_prefix(tmp_path: Path) -> None:
    store = await open_store(str(tmp_path), "m", 8)
    await store.insert(
        "t1",
        [
            (record(1, "espresso machine descaling"), unit(1)),
            (record(2, "espresso beans"), unit(2)),
            (record(3, "green tea"), unit(3)),
        ],
    )
    actor = Actor("t1", "a1")
    hits = await store.full_text(actor, full_text_query("espresso machine"), MemoryFilter(), 10, require_all=True)
    assert [h.memory_id for h in hits] == [f"{1:032x}"]
    hits = await store.full_text(actor, full_text_query("espres"), MemoryFilter(), 10, require_all=False)
    assert {h.memory_id for h in hits} == {f"{1:032x}", f"{2:032x}"}
    assert await store.full_text(actor, FullTextQuery((), ()), MemoryFilter(), 10, True) == []
    store.close()


async def test_maintenance_compacts_fragments_and_keeps_rows_searchable(tmp_path: Path) -> None:
    store = await open_store(str(tmp_path), "m", 8, optimize_min_fragments=4, ann_min_rows=10**9)
    for i in range(12):  # one fragment per insert
        await store.insert("t1", [(record(i, f"note {i} about gardening"), unit(i))])
    table = lancedb.connect(str(tmp_path)).open_table("memories_t1")
    before = table.stats()["fragment_stats"]["num_fragments"]  # type: ignore[index]  # a dict, typed otherwise
    await store.maintain()
    table.checkout_latest()
    assert table.stats()["fragment_stats"]["num_fragments"] < before  # type: ignore[index]
    hits = await store.full_text(Actor("t1", "a1"), full_text_query("gardening"), MemoryFilter(), 20, False)
    assert len(hits) == 12
    store.close()


async def test_a_quick_pass_merges_the_small_fragments_of_a_table_read_from_disk(tmp_path: Path) -> None:
    # Every query of a table the in-memory copy does not hold pays for each small fragment; between
    # two optimizes (the index fold) a quick pass merges them alone, leaving the index as it is.
    store = await open_store(str(tmp_path), "m", 8, copy_max_rows=0, optimize_gap=timedelta(minutes=10))
    for i in range(12):
        await store.insert("t1", [(record(i, f"note {i} about gardening"), unit(i))])
    await store.maintain(full=True)  # the first optimize: one fragment, every row indexed
    for i in range(12, 18):
        await store.insert("t1", [(record(i, f"note {i} about gardening"), unit(i))])
    table = lancedb.connect(str(tmp_path)).open_table("memories_t1")
    assert table.stats()["fragment_stats"]["num_fragments"] == 7  # type: ignore[index]  # a dict, typed otherwise
    await store.maintain(full=False)  # the optimize is not due yet: the fragments are merged
    table.checkout_latest()
    assert table.stats()["fragment_stats"]["num_fragments"] == 2  # type: ignore[index]
    assert table.index_stats("search_text_idx").num_unindexed_rows == 6  # type: ignore[union-attr]  # not folded
    hits = await store.full_text(Actor("t1", "a1"), full_text_query("gardening"), MemoryFilter(), 30, False)
    assert len(hits) == 18
    store.close()


async def test_a_quick_merge_leaves_the_large_fragments_of_a_table_as_they_are(tmp_path: Path) -> None:
    # A merge bundles the fragments the index covers apart from the rest; with Lance's own target (a
    # million rows) every covered fragment of a smaller table was a candidate, so a merge of a few new
    # rows rewrote the whole table whenever an optimize had left it more than one covered fragment.
    store = await open_store(str(tmp_path), "m", 8, copy_max_rows=0, optimize_gap=timedelta(minutes=10))
    await store.insert("t1", [(record(i, f"note {i} about gardening"), unit(i)) for i in range(9000)])
    await store.maintain(full=True)
    for i in range(9000, 9003):
        await store.insert("t1", [(record(i, f"note {i} about gardening"), unit(i))])
    await store.maintain(full=True)  # the three folded in: two covered fragments

    def fragments() -> dict[int, int]:
        dataset = lance.dataset(str(tmp_path / "memories_t1.lance"))
        return {f.fragment_id: f.count_rows() for f in dataset.get_fragments()}

    covered = fragments()
    assert sorted(covered.values()) == [3, 9000]
    for i in range(9003, 9009):
        await store.insert("t1", [(record(i, f"note {i} about gardening"), unit(i))])
    await store.maintain(full=False)  # the optimize is not due yet: the small fragments are merged
    after = fragments()
    assert {k: after[k] for k in covered if k in after} == covered  # neither covered fragment rewritten
    assert sorted(after.values()) == [3, 6, 9000]  # the six one-row fragments, merged into one
    hits = await store.full_text(Actor("t1", "a1"), full_text_query("gardening"), MemoryFilter(), 20, False)
    assert len(hits) == 20
    store.close()


async def test_a_large_table_held_in_memory_is_optimized_less_often_under_writes(tmp_path: Path) -> None:
    # An optimize rewrites a table held in memory whole: a table of 20,000 rows waits two gaps between
    # two optimizes under writes, a small one one gap.
    gap = timedelta(seconds=1)
    store = await open_store(str(tmp_path), "m", 8, copy_max_rows=100_000, optimize_gap=gap, optimize_min_fragments=4)
    await store.insert("big", [(record(i, f"note {i} about gardening"), unit(i)) for i in range(20_000)])
    await store.insert("small", [(record(i, f"note {i} about gardening"), unit(i)) for i in range(100)])
    await store.maintain(full=True)
    for i in range(5):
        for tenant in ("big", "small"):
            await store.insert(tenant, [(record(30_000 + i, f"note {i} about roses"), unit(i))])

    def unindexed(tenant: str) -> int:
        index = lancedb.connect(str(tmp_path)).open_table(f"memories_{tenant}").index_stats("search_text_idx")
        assert index is not None
        return index.num_unindexed_rows

    time.sleep(gap.total_seconds() * 1.2)
    await store.maintain(full=False)
    assert (unindexed("big"), unindexed("small")) == (5, 0)  # the small table's optimize was due, not the big one's
    time.sleep(gap.total_seconds())
    await store.maintain(full=False)
    assert unindexed("big") == 0
    store.close()


async def test_optimizes_under_writes_keep_the_vector_index_in_few_segments(tmp_path: Path) -> None:
    # Each optimize indexes the rows written since the last one as a segment of its own, and each ANN
    # query searches every segment: under writes the segments (and the query's cost) grew without end.
    store = await open_store(str(tmp_path), "m", 8, copy_max_rows=0, ann_min_rows=200)
    rng = random.Random(7)

    def vector() -> list[float]:
        v = [rng.gauss(0.0, 1.0) for _ in range(8)]
        norm = sum(x * x for x in v) ** 0.5
        return [x / norm for x in v]

    await store.insert("t1", [(record(i, f"note {i}"), vector()) for i in range(400)])
    await store.maintain(full=True)  # the ANN index, built

    def segments() -> int:
        dataset = lance.dataset(str(tmp_path / "memories_t1.lance"))
        return next(len(ix.segments) for ix in dataset.describe_indices() if ix.name == "vector_idx")

    assert segments() == 1
    last: list[float] = []
    for n in range(400, 424, 2):
        last = vector()
        await store.insert("t1", [(record(n, f"note {n}"), vector()), (record(n + 1, f"note {n + 1}"), last)])
        await store.maintain(full=True)
    assert segments() <= 4  # twelve optimizes, each of which left a segment of its own
    hits = await store.nearest(Actor("t1", "a1"), last, MemoryFilter(), 1, 0.0)
    assert [h.memory_id for h in hits] == [f"{423:032x}"]  # the newest row, found through the merged segments
    store.close()


async def test_the_vector_index_is_built_by_another_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A build fills Lance's CPU pool for seconds: in the daemon, every query of a table read from disk
    # waited for it. Any build in this process fails here.
    async def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("an index was built in the serving process")

    store = await open_store(str(tmp_path), "m", 8, copy_max_rows=0, ann_min_rows=300)
    await store.insert("t1", [(record(i, f"note {i} about gardening"), unit(i)) for i in range(400)])
    monkeypatch.setattr(lancedb.table.AsyncTable, "create_index", refused)
    await store.maintain(full=True)
    table = lancedb.connect(str(tmp_path)).open_table("memories_t1")
    assert any(ix.index_type == "IvfHnswSq" and ix.columns == ["vector"] for ix in table.list_indices())
    hits = await store.nearest(Actor("t1", "a1"), unit(7), MemoryFilter(), 5, -1.0)
    assert len(hits) == 5 and all(int(h.memory_id, 16) % 8 == 7 for h in hits)  # unit(i) repeats every 8
    store.close()


async def test_a_pass_does_not_wait_for_the_vector_index_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A pass that waited for a build (seconds) merged and optimized no table meanwhile. The table being
    # indexed is left alone until its build ends: a compaction of it would preempt the build's commit.
    release, started = asyncio.Event(), []

    async def slow_build(self: LanceMaintenance, name: str, column: str) -> None:
        started.append((name, column))
        await release.wait()
        if len(started) == 2:
            raise Unavailable("the build's process died")

    monkeypatch.setattr(LanceMaintenance, "_build_vector_index", slow_build)
    db = await LanceDatabase.open(str(tmp_path), "m", 8)
    maintenance = LanceMaintenance(db, copy_max_rows=0, ann_min_rows=300, optimize_min_fragments=4)
    store = WholeLanceArchive(db, 8)
    await store.insert("big", [(record(i, f"note {i} about gardening"), unit(i)) for i in range(400)])
    await asyncio.wait_for(maintenance.maintain(full=True), timeout=30)  # returns with the build in flight

    def fragments(tenant: str) -> int:
        return len(lance.dataset(str(tmp_path / f"memories_{tenant}.lance")).get_fragments())

    for i in range(400, 410):
        await store.insert("big", [(record(i, f"note {i} about gardening"), unit(i))])
        await store.insert("small", [(record(i, f"note {i} about gardening"), unit(i))])
    await asyncio.wait_for(maintenance.maintain(full=True), timeout=30)
    assert fragments("small") == 1  # merged while the build runs
    assert fragments("big") == 11  # left as it is until its build ends
    assert started == [("memories_big", "vector")]  # one build, not one per pass
    waiting = asyncio.create_task(maintenance.settled())
    await asyncio.sleep(0.05)
    assert not waiting.done()
    release.set()
    await asyncio.wait_for(waiting, timeout=5)
    release.clear()
    await maintenance.maintain(full=False)  # the big table was noted for the next pass
    assert fragments("big") <= 2  # merged now (the ten one-row fragments at least)
    await asyncio.sleep(0.05)  # the build's task starts running
    assert len(started) == 2  # the fake built no index: the pass started another build
    release.set()
    await maintenance.settled()  # this one fails
    await maintenance.maintain(full=True)
    await asyncio.sleep(0.05)
    assert len(started) == 2  # a failed build is not started again at every pass
    await maintenance.close()
    db.close()


async def test_a_hung_index_build_is_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # A build that never ends would hold its table's merges forever.
    spawn = asyncio.create_subprocess_exec

    async def hung(*args: Any, **kwargs: Any) -> Any:
        return await spawn(sys.executable, "-c", "import time; time.sleep(60)", **kwargs)

    monkeypatch.setattr(asyncio, "create_subprocess_exec", hung)  # the build's child: one that never ends
    db = await LanceDatabase.open(str(tmp_path), "m", 8)
    maintenance = LanceMaintenance(
        db, copy_max_rows=0, ann_min_rows=300, optimize_min_fragments=4, build_timeout=timedelta(seconds=1)
    )
    store = WholeLanceArchive(db, 8)
    await store.insert("t1", [(record(i, f"note {i} about gardening"), unit(i)) for i in range(400)])
    await maintenance.maintain(full=True)
    await asyncio.wait_for(maintenance.settled(), timeout=20)  # stopped after its second
    assert any("not built in 1 s" in getattr(r, "error", "") for r in caplog.records)
    for i in range(400, 410):
        await store.insert("t1", [(record(i, f"note {i} about gardening"), unit(i))])
    await maintenance.maintain(full=True)
    assert len(lance.dataset(str(tmp_path / "memories_t1.lance")).get_fragments()) <= 2  # merged again
    await maintenance.close()
    db.close()


def test_a_build_whose_daemon_was_killed_stops_too(tmp_path: Path) -> None:
    # kill -9 of the daemon cannot stop its child: the child must notice it was orphaned and exit.
    pid_file = tmp_path / "child.pid"
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import os, subprocess, sys, time\n"
            "child = subprocess.Popen([sys.executable, '-c', 'import sys, time\\nsys.path.insert(0, sys.argv[2])\\n"
            "from memoryd.adapters.lance.index_child import exit_when_orphaned\\n"
            "exit_when_orphaned(int(sys.argv[1]), 0.05)\\ntime.sleep(60)', str(os.getpid()), os.getcwd()])\n"
            f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
            "time.sleep(60)\n",
        ]
    )
    deadline = time.monotonic() + 30
    while not pid_file.exists() or not pid_file.read_text():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    child = int(pid_file.read_text())
    time.sleep(0.5)
    assert _alive(child)  # the watch leaves a child whose parent lives alone
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 10
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child)


def _alive(pid: int) -> bool:
    """Whether the process runs (a zombie, dead but not yet reaped by its new parent, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("tagged", [True, False], ids=["a-tagged-version", "no-tag"])
async def test_maintenance_prunes_old_versions_also_once_the_writes_stop(tmp_path: Path, tagged: bool) -> None:
    # Every LanceDB operation on a local disk lists the table's versions: they must not pile up. An untagged
    # table is pruned by the optimize itself, a tagged one apart (the optimize's own prune fails on a tag).
    window = timedelta(seconds=2)  # the second pass below must come well within it
    store = await open_store(str(tmp_path), "m", 8, optimize_min_fragments=4, cleanup_older_than=window)

    def versions() -> int:  # the manifests on disk, one per version kept
        return len(list((tmp_path / "memories_t1.lance" / "_versions").glob("*.manifest")))

    for i in range(6):
        await store.insert("t1", [(record(i, f"note {i} about gardening"), unit(i))])
    dataset = lance.dataset(str(tmp_path / "memories_t1.lance"))
    if tagged:
        dataset.tags.create("backup", dataset.version)  # an operator's tag: that version stays, no pass fails
    time.sleep(window.total_seconds() + 0.1)
    for i in range(6, 12):  # versions younger than the window: the pass's optimize must keep them
        await store.insert("t1", [(record(i, f"note {i} about gardening"), unit(i))])
    made = versions()
    await store.maintain(full=False)
    kept = versions()
    assert 6 < kept < made, (made, kept)  # the old ones went, the young ones (and the optimize's own) stayed
    await store.maintain(full=True)  # nothing to compact, and the young versions are still young
    assert versions() == kept
    time.sleep(window.total_seconds() + 0.1)
    await store.maintain(full=True)  # no write since: a later pass prunes what the optimize left
    assert versions() == 1 + tagged  # the latest, and the tagged one
    hits = await store.full_text(Actor("t1", "a1"), full_text_query("gardening"), MemoryFilter(), 20, False)
    assert len(hits) == 12
    store.close()


async def test_a_version_tagged_as_an_optimize_starts_is_kept_and_the_others_are_pruned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The pass asks for tags first; a tag made after that makes the optimize's own prune fail: the pass
    # must not fail with it, and the versions are then pruned apart, the tagged one kept.
    store = await open_store(str(tmp_path), "m", 8, optimize_min_fragments=4, cleanup_older_than=timedelta(seconds=1))
    for i in range(6):
        await store.insert("t1", [(record(i, f"note {i} about gardening"), unit(i))])
    path = str(tmp_path / "memories_t1.lance")
    real_optimize = lancedb.table.AsyncTable.optimize

    async def tag_first(self: Any, **kwargs: Any) -> Any:
        if not lance.dataset(path).tags.list():
            lance.dataset(path).tags.create("backup", 3)
        return await real_optimize(self, **kwargs)

    monkeypatch.setattr(lancedb.table.AsyncTable, "optimize", tag_first)
    time.sleep(1.1)
    await store.maintain(full=False)
    assert lance.dataset(path).tags.list()  # the optimize ran
    kept = {v["version"] for v in lance.dataset(path).versions()}
    assert {v for v in kept if v <= 7} == {3}, kept  # the six appends' versions pruned but the tagged one
    hits = await store.full_text(Actor("t1", "a1"), full_text_query("gardening"), MemoryFilter(), 20, False)
    assert len(hits) == 6
    store.close()


async def test_record_retrievals_adds_counts(tmp_path: Path) -> None:
    store = await open_store(str(tmp_path), "m", 8)
    await store.insert("t1", [(record(1, "a"), unit(1)), (record(2, "b"), unit(2))])
    await store.record_retrievals("t1", {f"{1:032x}": 3, f"{2:032x}": 1, f"{9:032x}": 2}, {f"{2:032x}": 5}, NOW)
    got = await store.get(Actor("t1", "a1"), f"{1:032x}")
    assert got is not None and got.retrieval_count == 3 and got.last_retrieved_at == NOW
    injected = await store.get(Actor("t1", "a1"), f"{2:032x}")
    assert injected is not None and (injected.retrieval_count, injected.injection_count) == (1, 5)
    await store.record_retrievals("t1", {}, {f"{1:032x}": 2}, NOW)
    again = await store.get(Actor("t1", "a1"), f"{1:032x}")
    assert again is not None and (again.retrieval_count, again.injection_count) == (3, 2)
    assert again.last_retrieved_at == NOW  # an injection does not date a retrieval
    # A flush of many distinct counts is three commits at most (the missing rows, each kind of count):
    # one per count left a fragment and deletion files each in a table every flush writes.
    before = lance.dataset(str(tmp_path / "retrievals_t1.lance")).version
    later = NOW + timedelta(minutes=1)
    await store.record_retrievals("t1", {f"{i:032x}": i for i in range(1, 9)}, {f"{2:032x}": 1, f"{3:032x}": 4}, later)
    assert lance.dataset(str(tmp_path / "retrievals_t1.lance")).version - before <= 3
    counted = await store.get_many(Actor("t1", "a1"), [f"{1:032x}", f"{2:032x}"])
    assert (counted[f"{1:032x}"].retrieval_count, counted[f"{1:032x}"].injection_count) == (4, 2)
    assert (counted[f"{2:032x}"].retrieval_count, counted[f"{2:032x}"].injection_count) == (3, 6)
    assert counted[f"{2:032x}"].last_retrieved_at == later
    store.close()


async def test_a_memory_is_also_found_by_the_words_of_the_one_before_it_in_its_batch(tmp_path: Path) -> None:
    store = await open_store(str(tmp_path), "m", 8)
    chat = [
        replace(record(1, "Did you ever go camping at the lake?"), source_context="chat 7"),
        replace(record(2, "Yes, last summer with the kids."), source_context="chat 7"),
        replace(record(3, "Unrelated note about invoices."), source_context="notes"),
    ]
    await store.insert("t1", [(r, unit(i)) for i, r in enumerate(chat)])
    await store.insert("t1", [(replace(record(4, "We saw herons there."), source_context="chat 7"), unit(4))])
    me = Actor("t1", "a1")
    hits = await store.full_text(me, full_text_query("camping lake"), MemoryFilter(), 10, True)
    assert {h.memory_id for h in hits} == {f"{1:032x}", f"{2:032x}"}  # the reply, through its prompt's words
    assert (await store.get(me, f"{2:032x}")).content == "Yes, last summer with the kids."
    invoices = await store.full_text(me, full_text_query("kids invoices"), MemoryFilter(), 10, False)
    assert f"{3:032x}" in {h.memory_id for h in invoices}
    assert not await store.full_text(me, full_text_query("kids invoices"), MemoryFilter(), 10, True)  # other context
    herons = await store.full_text(me, full_text_query("summer herons"), MemoryFilter(), 10, True)
    assert not herons  # another batch: memory 4 is indexed by its own words only
    store.close()


async def test_an_older_table_gains_request_keys_collections_pins_and_its_later_indexes_in_place(
    tmp_path: Path,
) -> None:
    from memoryd.adapters.lance.rows import memory_schema, to_table

    store = await open_store(str(tmp_path), "m", 8)
    store.close()
    new_schema = memory_schema(8)
    later = ["request_key", "collection", "pinned"]
    old_schema = pa.schema([f for f in new_schema if f.name not in later])
    old_rows = to_table([(record(1, "an old memory"), unit(1))], new_schema).drop_columns(later)
    db = await lancedb.connect_async(str(tmp_path))
    await db.create_table("memories_t1", data=old_rows, schema=old_schema)
    store = await open_store(str(tmp_path), "m", 8)
    me = Actor("t1", "a1")
    old = await store.get(me, f"{1:032x}")
    assert old is not None and old.request_key == "" and not old.pinned
    upgraded = await db.open_table("memories_t1")
    indexed = {tuple(ix.columns) for ix in await upgraded.list_indices()}
    assert {("request_key",), ("status",), ("source_id",)} <= indexed  # Recall's arms name status; GetMemory source_id
    assert {("memory_type",), ("category",), ("subject",), ("collection",)} <= indexed  # Recall's filters
    assert {("tags",), ("salience",), ("occurred_at",)} <= indexed
    await store.insert("t1", [(replace(record(2, "a new memory"), request_key="a1/r/0/f"), unit(2))])
    await store.insert("t1", [(replace(record(4, "another request"), request_key="a1/r2/0/f"), unit(4))])
    found = await store.by_request(me, "a1/r/", NOW)
    assert list(found) == ["a1/r/0/f"] and found["a1/r/0/f"].content == "a new memory"
    assert old.collection == ""
    await store.insert("t1", [(replace(record(3, "a filed memory"), collection="support"), unit(3))])
    filed = await store.page(me, MemoryFilter(collection="support"), "", 10)
    assert [m.memory_id for m in filed] == [f"{3:032x}"] and filed[0].collection == "support"
    assert len(await store.page(me, MemoryFilter(), "", 10)) == 4
    await store.insert("t1", [(replace(record(5, "a pinned memory"), pinned=True), unit(5))])
    assert (await store.get(me, f"{5:032x}")).pinned
    pinned_only = MemoryFilter(pinned_only=True)  # the rows from before pins hold null: not pinned
    assert [m.memory_id for m in await store.page(me, pinned_only, "", 10)] == [f"{5:032x}"]
    assert await store.expire("t1", NOW + timedelta(days=1), dry_run=True) == [f"{i:032x}" for i in (1, 2, 3, 4)]
    store.close()


def _search_text(root: Path, tenant_id: str, memory_id: str) -> str:
    """What the full-text index holds for one memory, read from the table itself."""
    table = lancedb.connect(str(root)).open_table(f"memories_{tenant_id}")
    return str(table.search().where(f"id = '{memory_id}'").to_arrow().column("search_text")[0].as_py())


@pytest.mark.parametrize("copy_rows", [10_000, 0], ids=["in-memory copy", "lancedb"])
async def test_a_pending_embedding_is_invisible_to_vector_search_until_filled(tmp_path: Path, copy_rows: int) -> None:
    store = await open_store(str(tmp_path))
    store._copies.max_rows = copy_rows  # both paths of the vector arm
    me = Actor("t1", "a1")
    try:
        ready = replace(record(1, "espresso grinder"), source_context="conversation 7")
        waiting = replace(record(2, "espresso machine"), embedding_model=PENDING_MODEL, source_context="conversation 7")
        await store.insert("t1", [(ready, unit(0)), (waiting, [0.0] * 8)])  # one batch: the turn before is indexed
        search_text = _search_text(tmp_path, "t1", waiting.memory_id)
        assert "grinder" in search_text
        found = await store.nearest(me, unit(0), MemoryFilter(), 10, -1.0)
        assert [h.memory_id for h in found] == [ready.memory_id]  # zeros are no vector: not even a fill-in
        rows, total = await store.pending_embeddings("t1", 10)
        assert [r.memory_id for r in rows] == [waiting.memory_id] and total == 1
        edited = replace(waiting, content="espresso machine, broken", content_hash="other")
        assert await store.fill_embeddings("t1", [(edited, unit(1))], "m") == 0  # the text changed: not filled
        assert await store.fill_embeddings("t1", [(waiting, unit(1))], "m") == 1
        assert await store.pending_embeddings("t1", 10) == ([], 0)
        found = await store.nearest(me, unit(1), MemoryFilter(), 10, -1.0)
        assert found[0].memory_id == waiting.memory_id and found[0].score == pytest.approx(1.0)
        stored = await store.get(me, waiting.memory_id)
        assert stored is not None and stored.embedding_model == "m" and stored.content == "espresso machine"
        after = _search_text(tmp_path, "t1", waiting.memory_id)
        assert after == search_text  # filling the vector leaves the full-text entry as written
    finally:
        store.close()


async def test_a_write_without_another_spaces_vectors_lands_in_a_table_that_has_that_space(tmp_path: Path) -> None:
    # A plain insert skips lancedb's null-vector handling; a table with a re-embed's column (added
    # earlier, or left by another process) must still take the row, its vector there to fill (null).
    store = await open_store(str(tmp_path), "m", 8)
    await store.insert("t1", [(record(1, "alpha note"), unit(1))])
    await store.add_space("t1", "other-model", 4)
    await store.insert("t1", [(record(2, "beta note"), unit(2))])
    assert await store.space_progress("t1", "other-model") == (2, 2)  # both still to fill
    found = await store.nearest(Actor("t1", "a1"), unit(2), MemoryFilter(), 1, -1)
    assert [h.memory_id for h in found] == [f"{2:032x}"]
    store.close()


async def test_a_table_nobody_created_is_read_as_empty_without_the_binding_and_found_once_created(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await open_store(str(tmp_path), "m", 8)
    other = await open_store(str(tmp_path), "m", 8)  # another process on the same directory
    opened: list[str] = []
    real = store.db.connection.open_table

    async def counted(name: str, *args: Any, **kwargs: Any) -> Any:
        opened.append(name)
        return await real(name, *args, **kwargs)

    monkeypatch.setattr(store.db.connection, "open_table", counted)
    fresh = Actor("fresh", "a1")
    query = full_text_query("alpha")
    assert await store.nearest(fresh, unit(1), MemoryFilter(), 10, 0.0) == []
    assert await store.full_text(fresh, query, MemoryFilter(), 10, False) == []
    assert await store.get(fresh, f"{1:032x}") is None
    assert opened == []  # the directory's absence answered: no open, no shared lock
    await other.insert("fresh", [(record(1, "alpha note"), unit(1))])
    assert [h.memory_id for h in await store.nearest(fresh, unit(1), MemoryFilter(), 10, 0.0)] == [f"{1:032x}"]
    assert opened  # created by the other process: seen at the very next read


async def test_an_optimize_soon_after_a_prune_folds_as_lancedbs_optimize_without_its_walk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # LanceDB's optimize always prunes, and a prune reads every kept version's manifest (1 s of CPU at the
    # ~3,000 versions one writer keeps): an optimize soon after a prune compacts and folds alone, and full
    # text must then rank exactly as after LanceDB's own optimize (same segments, same ties).
    rng = random.Random(34)
    words = ["river", "stone", "music", "coffee", "train", "garden", "winter", "paint", "lunch", "doctor"]
    store = await open_store(str(tmp_path / "a"), "m", 8, optimize_min_fragments=4)
    for i in range(80):
        if i == 40:
            await store.maintain(full=True)  # the first optimize: LanceDB's, with its prune
        text = " ".join(rng.choice(words) for _ in range(rng.randint(3, 8)))
        await store.insert("t1", [(record(i, text), unit(i))])
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    optimizes: list[int] = []
    real = lancedb.table.AsyncTable.optimize

    async def counted(self: Any, **kwargs: Any) -> Any:
        optimizes.append(1)
        return await real(self, **kwargs)

    monkeypatch.setattr(lancedb.table.AsyncTable, "optimize", counted)
    await store.maintain(full=True)
    assert not optimizes  # compacted and folded without LanceDB's optimize
    other = await open_store(str(tmp_path / "b"), "m", 8)
    theirs_table = await (await lancedb.connect_async(str(tmp_path / "b"))).open_table("memories_t1")
    await theirs_table.optimize()
    folded, optimized = (lance.dataset(str(tmp_path / side / "memories_t1.lance")) for side in ("a", "b"))
    assert len(folded.get_fragments()) == len(optimized.get_fragments()) < 40  # the small fragments merged
    for query in ("river stone", "coffee", "winter garden music", "doctor lunch paint", "train"):
        mine = await store.full_text(Actor("t1", "a1"), full_text_query(query), MemoryFilter(), 30, False)
        theirs = await other.full_text(Actor("t1", "a1"), full_text_query(query), MemoryFilter(), 30, False)
        assert [(h.memory_id, h.score) for h in mine] == [(h.memory_id, h.score) for h in theirs], query
    store.close()
    other.close()


async def test_a_search_deeper_than_the_graphs_breadth_over_the_vector_index_finds_every_row_asked(
    tmp_path: Path,
) -> None:
    # The index is asked for limit × the refine factor candidates, which HNSW refuses past its breadth
    # (ef): a Recall's vector arm (twice its depth, filtered afterwards, or three times under a filter)
    # failed on every table searched through the index once that passed 200.
    store = await open_store(str(tmp_path), "m", 8, copy_max_rows=0, ann_min_rows=300)
    await store.insert("t1", [(record(i, f"note {i} about gardening"), unit(i)) for i in range(400)])
    await store.maintain(full=True)
    table = lancedb.connect(str(tmp_path)).open_table("memories_t1")
    assert any(ix.index_type == "IvfHnswSq" and ix.columns == ["vector"] for ix in table.list_indices())
    actor = Actor("t1", "a1")

    for limit in (41, 60, 120):  # no in-memory copy here (copy_max_rows 0): searched in LanceDB
        hits = await store.nearest(actor, unit(7), MemoryFilter(), limit, -1.0)
        assert len(hits) == limit
        assert all(int(h.memory_id, 16) % 8 == 7 for h in hits[:50])  # unit(i) repeats every 8: 50 such rows
    narrowed = await store.nearest(actor, unit(7), MemoryFilter(scopes=frozenset({Scope.PRIVATE})), 60, -1.0)
    assert len(narrowed) == 60
    store.close()
