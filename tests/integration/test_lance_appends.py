"""Appenders: the archive's appends through handles that never re-read, kept at the latest by look."""

from __future__ import annotations

from pathlib import Path

import pytest
from lancedb.table import AsyncTable

from memoryd.core.models import Actor, MemoryFilter, MemoryRecord, Scope
from tests.fakes import memory_record
from tests.lance_stores import OwnedStore, open_store


def record(mid: int, content: str) -> MemoryRecord:
    return memory_record(memory_id=f"{mid:032x}", agent_id="a1", scope=Scope.TENANT, content=content)


def unit(i: int) -> list[float]:
    v = [0.0] * 8
    v[i % 8] = 1.0
    return v


def counted_moves(monkeypatch: pytest.MonkeyPatch, store: OwnedStore) -> list[str]:
    """One entry per move of one of ``store``'s append handles to the latest version, from here on."""
    moves: list[str] = []
    real = AsyncTable.checkout_latest

    async def counted(self: AsyncTable) -> None:
        appenders = store.db.appenders
        if appenders is not None and any(self is table for table, _ in appenders._handles.values()):
            moves.append(self.name)
        await real(self)

    monkeypatch.setattr(AsyncTable, "checkout_latest", counted)
    return moves


async def _ids(store: OwnedStore, tenant: str) -> set[str]:
    return {r.memory_id for r in await store.page(Actor(tenant, "a1"), MemoryFilter(), "", 100)}


async def test_this_processs_appends_keep_its_handle_at_the_latest_without_a_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await open_store(str(tmp_path))
    assert store.db.appenders is not None  # a local directory
    await store.insert("t1", [(record(0, "first"), unit(0))])
    moves = counted_moves(monkeypatch, store)
    for i in range(1, 6):
        await store.insert("t1", [(record(i, f"note {i}"), unit(i))])
    assert moves == []  # each append's own version was the next look's latest
    assert await _ids(store, "t1") == {f"{i:032x}" for i in range(6)}
    store.close()


async def test_another_processs_commit_moves_the_handle_and_both_rows_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await open_store(str(tmp_path))
    other = await open_store(str(tmp_path))  # another process on the same directory
    await store.insert("t1", [(record(0, "ours"), unit(0))])
    moves = counted_moves(monkeypatch, store)
    await other.insert("t1", [(record(1, "theirs"), unit(1))])
    await store.insert("t1", [(record(2, "ours again"), unit(2))])
    assert moves == ["memories_t1"]
    await other.insert("t1", [(record(3, "theirs again"), unit(3))])
    await other.replace(Actor("t1", "a1"), record(1, "theirs, corrected"), unit(1))  # a rewrite, not an append
    await store.insert("t1", [(record(4, "ours last"), unit(4))])
    assert moves == ["memories_t1"] * 2
    reader = await open_store(str(tmp_path))
    assert await _ids(reader, "t1") == {f"{i:032x}" for i in range(5)}
    corrected = await reader.get(Actor("t1", "a1"), f"{1:032x}")
    assert corrected is not None and corrected.content == "theirs, corrected"
    for s in (store, other, reader):
        s.close()


async def test_appends_after_a_compaction_and_a_new_column_land_in_the_table_as_it_is_now(tmp_path: Path) -> None:
    store = await open_store(str(tmp_path))
    other = await open_store(str(tmp_path))
    for i in range(4):
        await store.insert("t1", [(record(i, f"note {i}"), unit(i))])
    await other.maintain()  # another process compacts the fragments the handle knew
    await other.add_space("t1", "other-model", 4)  # and widens the schema
    await store.insert("t1", [(record(4, "after both"), unit(4))])
    reader = await open_store(str(tmp_path))
    assert await _ids(reader, "t1") == {f"{i:032x}" for i in range(5)}
    assert await reader.space_progress("t1", "other-model") == (5, 5)  # the new row has the column too
    for s in (store, other, reader):
        s.close()


async def test_an_append_after_an_erasures_purge_of_every_old_version_lands(tmp_path: Path) -> None:
    store = await open_store(str(tmp_path))
    other = await open_store(str(tmp_path))
    for i in range(3):
        await store.insert("t1", [(record(i, f"note {i}"), unit(i))])
    await other.maintenance.purge(["memories_t1"])  # the version the handle stands on is gone from disk
    await store.insert("t1", [(record(3, "after the purge"), unit(3))])
    reader = await open_store(str(tmp_path))
    assert await _ids(reader, "t1") == {f"{i:032x}" for i in range(4)}
    for s in (store, other, reader):
        s.close()
