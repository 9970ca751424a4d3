"""Tables are created, written and counted safely by concurrent callers and processes."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import lancedb

from memoryd.adapters.lance.db import LanceDatabase
from memoryd.core.models import Actor, MemoryFilter
from tests.integration.test_lance_store import record, unit
from tests.lance_stores import WholeLanceArchive, open_store


async def test_concurrent_first_use_of_a_tenant_creates_one_table(tmp_path: Path) -> None:
    store = await open_store(str(tmp_path), "m", 8)
    actor = Actor("t1", "a1")
    await asyncio.gather(
        *(store.insert("t1", [(record(i, f"note {i}"), unit(i))]) for i in range(8)),
        *(store.record_retrievals("t1", {f"{i:032x}": 1}, {}, record(0, "").created_at) for i in range(8)),
    )
    assert len(await store.page(actor, MemoryFilter(), "", 100)) == 8
    store.close()


_UPSERTER = """
import asyncio, sys
from memoryd.adapters.lance.rows import memory_schema, to_table
from tests.integration.test_lance_store import record, unit
from tests.lance_stores import open_store

async def main(uri):
    store = await open_store(uri)
    table = await store.db.table_if_exists("memories_t1")
    for i in range(20):
        data = to_table([(record(i, f"same row {i}"), unit(i))], memory_schema(8))
        await table.merge_insert("id").when_not_matched_insert_all().execute(data)
    store.close()

asyncio.run(main(sys.argv[1]))
"""


async def test_two_processes_upserting_the_same_ids_never_duplicate(tmp_path: Path) -> None:
    store = await open_store(str(tmp_path), "m", 8)
    await store.insert("t1", [(record(100, "the tenant table exists"), unit(0))])
    store.close()
    root = str(Path(__file__).resolve().parents[2])
    procs = [
        subprocess.Popen([sys.executable, "-c", _UPSERTER, str(tmp_path)], cwd=root, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    rows = lancedb.connect(str(tmp_path)).open_table("memories_t1").to_arrow().column("id").to_pylist()
    assert len(rows) == 21 and len(set(rows)) == 21


def test_processes_creating_a_new_store_at_once_all_start(tmp_path: Path) -> None:
    """`memoryd up` starts the daemon and a worker together on an empty data directory."""
    code = (
        "import asyncio, sys\nfrom memoryd.adapters.lance.db import LanceDatabase\n"
        "async def main():\n    (await LanceDatabase.open(sys.argv[1], 'model', 8)).close()\n"
        "asyncio.run(main())\n"
    )
    for attempt in range(3):
        data = str(tmp_path / f"store{attempt}")
        procs = [
            subprocess.Popen([sys.executable, "-c", code, data], stderr=subprocess.PIPE, text=True) for _ in range(4)
        ]
        for proc in procs:
            _, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err
        rows = lancedb.connect(data).open_table("store_meta").to_arrow().to_pylist()
        assert rows == [{"key": "embedding", "model": "model", "dimension": 8}]


async def test_maintenance_skips_a_listed_table_another_process_is_still_creating(tmp_path: Path) -> None:
    store = await open_store(str(tmp_path), "m", 8, optimize_min_fragments=2)
    for i in range(3):
        await store.insert("t1", [(record(i, f"note {i}"), unit(i))])
    (tmp_path / "memories_t2.lance").mkdir()  # listed before its first version lands (as on object storage)
    assert "memories_t2" in [name async for name in store.db.names()]
    await store.maintain(full=True)  # before: ValueError "Table 'memories_t2' was not found"
    table = await store.db.table_if_exists("memories_t1")
    assert table is not None and (await table.stats())["fragment_stats"]["num_fragments"] == 1  # the rest was kept up
    store.close()


async def test_a_space_is_added_over_another_processs_writes_it_has_not_seen(tmp_path: Path) -> None:
    """Adding a column is preempted by any commit after the version the handle holds; it is tried again.

    The first store sees other processes' commits a minute late (object storage sees them a second
    late; a local disk races the same way within a commit): its addition starts from a stale version.
    """
    late_db = await LanceDatabase.open(str(tmp_path), "m", 8, read_consistency=timedelta(minutes=1))
    late = WholeLanceArchive(late_db, 8)
    await late.insert("t1", [(record(1, "a note the late store wrote"), unit(1))])
    other = await open_store(str(tmp_path))
    await other.insert("t1", [(record(2, "a note written elsewhere since"), unit(2))])
    await late.add_space("t1", "next-model", 4)  # without the retry: Conflict ("Retryable commit conflict")
    await late.add_space("t1", "next-model", 4)  # present: nothing to do
    assert await other.space_progress("t1", "next-model") == (2, 2)  # the column, over both rows
    late_db.close()
    other.close()
