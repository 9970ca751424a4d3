"""The served log's spool: servings wait in files, reach LanceDB on a read or after the hold, survive a crash."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.provenance import SERVINGS_PREFIX, LanceProvenance
from memoryd.adapters.lance.servings_spool import SpooledProvenance
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import build_app
from memoryd.core.models import Actor, MemoryDraft, RecallQuery, Scope
from memoryd.core.provenance import ServedItem, ServingFilter, served_call_line
from tests.conftest import make_settings

AT = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)


def call(n: int, contact: str, *items: str) -> bytes:
    scored = [(item, 1.0 - i / 10) for i, item in enumerate(items)]
    return served_call_line(
        f"{n:032x}", AT, ("a1", contact, "k1", "agent", "Recall", ""), scored, ServedItem.MEMORY
    ).encode()


async def table_rows(db: LanceDatabase, tenant: str) -> int:
    table = await db.table_if_exists(SERVINGS_PREFIX + tenant)
    return 0 if table is None else int(await table.count_rows())


def spooled_files(directory: Path) -> list[Path]:
    return sorted(directory.rglob("*.tsv"))


async def test_servings_wait_in_files_until_a_read_of_their_tenant_moves_them(tmp_path: Path) -> None:
    db = await LanceDatabase.open(str(tmp_path / "data"), "m", 8)
    spool = SpooledProvenance(LanceProvenance(db), tmp_path / "spool", hold=3600)
    await spool.open()
    await spool.append_servings("acme", call(1, "alice", "m1", "m2"))
    await spool.append_servings("other", call(2, "bob", "m9"))
    assert await table_rows(db, "acme") == 0 and len(spooled_files(tmp_path / "spool")) == 2
    served = await spool.servings("acme", ServingFilter(), "", 10)
    assert [(s.item_id, s.rank, s.end_user_id) for s in served] == [("m1", 1, "alice"), ("m2", 2, "alice")]
    assert await table_rows(db, "acme") == 2 and await table_rows(db, "other") == 0  # one tenant moved
    assert len(spooled_files(tmp_path / "spool")) == 1


async def test_a_crashed_processs_files_are_moved_by_the_next_once_even_when_two_move_them(tmp_path: Path) -> None:
    db = await LanceDatabase.open(str(tmp_path / "data"), "m", 8)
    crashed = SpooledProvenance(LanceProvenance(db), tmp_path / "spool", hold=3600)
    await crashed.open()
    both = call(1, "alice", "m1") + call(2, "alice", "m2")
    await crashed.append_servings("acme", both)
    # a move that appended the file and died before removing it: the next process appends it again
    await LanceProvenance(db).append_servings("acme", both)
    restarted = SpooledProvenance(LanceProvenance(db), tmp_path / "spool", hold=3600)
    await restarted.open()  # moves at start
    assert spooled_files(tmp_path / "spool") == [] and await table_rows(db, "acme") == 4
    served = await restarted.servings("acme", ServingFilter(), "", 10)
    assert [s.item_id for s in served] == ["m1", "m2"]  # read once


async def test_the_files_move_once_the_oldest_is_held_long_enough_and_broken_lines_are_left_out(
    tmp_path: Path,
) -> None:
    db = await LanceDatabase.open(str(tmp_path / "data"), "m", 8)
    spool = SpooledProvenance(LanceProvenance(db), tmp_path / "spool", hold=0)
    await spool.open()
    folder = tmp_path / "spool" / b"acme".hex()
    folder.mkdir()
    (folder / "00000000000000000001-1-00000000.tsv").write_bytes(b"not\ta\tserving\n")
    await spool.append_servings("acme", call(1, "alice", "m1")[:-9])  # a line cut short: left out
    await spool.append_servings("acme", call(3, "alice", "m3", "m4")[:-5])  # cut after an id
    await spool.append_servings("acme", call(2, "alice", "m2"))  # held 0 s: moved at once
    assert await table_rows(db, "acme") == 1 and spooled_files(tmp_path / "spool") == []
    served = await spool.servings("acme", ServingFilter(), "", 10)
    assert [(s.item_id, s.at, s.score) for s in served] == [("m2", AT, 1.0)]


async def test_the_daemon_spools_servings_and_erasure_export_and_shutdown_leave_no_file_behind(
    tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    settings = make_settings(tmp_path / "data")
    spool = settings.storage.servings_spool()
    assert spool == tmp_path / "data-spool"
    alice, bob = Actor("acme", "a1", "alice"), Actor("acme", "a1", "bob")
    async with build_app(settings, embedder=onnx_embedder) as app:
        assert app.admin.provenance is not None
        await app.memory.memorize.memorize(alice, MemoryDraft("Alice is allergic to nuts", scope=Scope.END_USER))
        await app.memory.memorize.memorize(bob, MemoryDraft("Bob is allergic to shellfish", scope=Scope.END_USER))
        for who in (alice, bob):
            await app.memory.recall.recall(RecallQuery(who, "allergies"))
        await app.admin.provenance.flush()
        assert len(spooled_files(spool)) == 1
        bad = spool / b"acme".hex() / "00000000000000000001-1-00000000.bad"  # unreadable, may name alice
        bad.write_bytes(b"alice\tunreadable\n")
        await app.admin.erasure.erase_end_user(Actor("acme", ""), "alice")
        assert spooled_files(spool) == [] and not bad.exists()
        await app.memory.recall.recall(RecallQuery(bob, "allergies"))
        await app.admin.provenance.flush()
        exported = [row async for row in app.admin.exports.export(Actor("acme", ""), None, False)]
        assert [r["row"]["end_user_id"] for r in exported if r["type"] == "serving"] == ["bob", "bob"]
        assert spooled_files(spool) == []
        await app.memory.recall.recall(RecallQuery(bob, "allergies"))
    assert spooled_files(spool) == []  # shutdown moved the last one
    async with build_app(settings, embedder=onnx_embedder) as app:
        assert app.admin.provenance is not None
        page = await app.admin.provenance.servings("acme", ServingFilter(end_user_id="bob"), 10, "")
        assert len(page.servings) == 3


async def test_two_processes_moving_one_tenants_files_at_once_append_each_once(tmp_path: Path) -> None:
    db = await LanceDatabase.open(str(tmp_path / "data"), "m", 8)
    writer = SpooledProvenance(LanceProvenance(db), tmp_path / "spool", hold=3600)
    await writer.open()
    for n in range(20):
        await writer.append_servings("acme", call(n, "alice", *(f"m{n}-{i}" for i in range(10))))
    other = SpooledProvenance(LanceProvenance(db), tmp_path / "spool", hold=3600)
    await asyncio.gather(writer.settle("acme"), other.settle("acme"))
    assert await table_rows(db, "acme") == 200 and spooled_files(tmp_path / "spool") == []
