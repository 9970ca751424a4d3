"""Concurrent compare-and-swaps of one tenant's profiles, committed together against real LanceDB."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import lancedb
import pytest

from memoryd.adapters.lance import profiles as lance_profiles
from memoryd.adapters.lance.copies import keyed as lance_keyed_copy
from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.profiles import LanceProfileStore
from memoryd.core.models import Profile

AT = datetime(2026, 12, 4, 9, 0, tzinfo=UTC)


def profile(agent: str, revision: int, line: str = "ships memoryd") -> Profile:
    return Profile(agent, f"## Work\n- {line}\n", 4, 100, revision, AT, "edit")


async def versions(path: Path, table: str) -> int:
    db = await lancedb.connect_async(str(path))
    return await (await db.open_table(table)).version()


async def test_a_tenants_concurrent_swaps_and_logs_commit_together(tmp_path: Path) -> None:
    store = LanceProfileStore(await LanceDatabase.open(str(tmp_path), "m", 8))
    firsts = [profile(f"a{i}", 1) for i in range(16)]
    assert await asyncio.gather(*(store.swap("acme", p, 0) for p in firsts)) == [True] * 16
    await asyncio.gather(*(store.log_revision("acme", p) for p in firsts))
    before = await versions(tmp_path, "profiles_acme"), await versions(tmp_path, "profile_revisions_acme")
    seconds = [profile(f"a{i}", 2, f"job {i}") for i in range(16)]
    assert await asyncio.gather(*(store.swap("acme", p, 1) for p in seconds)) == [True] * 16
    await asyncio.gather(*(store.log_revision("acme", p) for p in seconds))
    after = await versions(tmp_path, "profiles_acme"), await versions(tmp_path, "profile_revisions_acme")
    # the first swap commits alone; the fifteen arriving during its commit share the next (one each before)
    assert (after[0] - before[0], after[1] - before[1]) == (2, 2)
    for i, p in enumerate(seconds):
        assert await store.current("acme", p.agent_id) == p
        assert await store.revisions("acme", p.agent_id, 3, 10) == [p, firsts[i]]
    fresh = LanceProfileStore(await LanceDatabase.open(str(tmp_path), "m", 8))  # as stored, not as the copy says
    assert [await fresh.current("acme", p.agent_id) for p in seconds] == seconds


@pytest.mark.parametrize("commit_unreadable", [False, True])
async def test_in_a_shared_commit_each_swap_is_still_its_own_compare(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, commit_unreadable: bool
) -> None:
    if commit_unreadable:  # which rows the commit wrote is then read from the table as stored

        async def unreadable(*args: object, **kwargs: object) -> None:
            return None

        monkeypatch.setattr(lance_keyed_copy, "commits_since", unreadable)
    store = LanceProfileStore(await LanceDatabase.open(str(tmp_path), "m", 8))
    for agent in ("a1", "a2", "a3", "a4"):
        assert await store.swap("acme", profile(agent, 1), 0)
    calls = [
        (profile("a1", 2), 1),  # commits alone; the others arrive during its commit
        (profile("a2", 2, "on call"), 1),
        (profile("a3", 3, "stale"), 2),  # a3 is at revision 1: loses
        (profile("a2", 2, "a second writer"), 1),  # the same row: waits for the commit after, then loses
        (profile("a4", 2, "kept"), 1),
        (profile("gone", 4), 3),  # an update of a row that is not there (erased): never inserted
        (profile("a5", 1, "new"), 0),
        (profile("a1", 1, "already there"), 0),  # an insert of a row that exists: loses
    ]
    outcomes = await asyncio.gather(*(store.swap("acme", p, expected) for p, expected in calls))
    assert outcomes == [True, True, False, False, True, False, True, False]
    fresh = LanceProfileStore(await LanceDatabase.open(str(tmp_path), "m", 8))
    for reader in (store, fresh):
        assert await reader.current("acme", "a1") == profile("a1", 2)
        assert await reader.current("acme", "a2") == profile("a2", 2, "on call")
        assert await reader.current("acme", "a3") == profile("a3", 1)
        assert await reader.current("acme", "a4") == profile("a4", 2, "kept")
        assert await reader.current("acme", "a5") == profile("a5", 1, "new")
        assert await reader.current("acme", "gone") is None


async def test_a_swap_must_name_the_revision_after_the_one_it_compares(tmp_path: Path) -> None:
    store = LanceProfileStore(await LanceDatabase.open(str(tmp_path), "m", 8))
    assert await store.swap("acme", profile("a1", 1), 0)
    with pytest.raises(ValueError, match="revision 3 does not follow 1"):
        await store.swap("acme", replace(profile("a1", 1), revision=3), 1)
    assert await store.current("acme", "a1") == profile("a1", 1)


async def test_profiles_of_more_tenants_than_sixty_four_read_in_turn_are_each_loaded_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With copies of 64 tenants at most, a 65th read in turn pushed one out, and each read loaded its
    # tenant's table again; the rows bound keeps their memory.
    store = LanceProfileStore(await LanceDatabase.open(str(tmp_path), "m", 8))
    tenants = [f"t{i}" for i in range(70)]
    for tenant in tenants:
        assert await store.swap(tenant, profile("a1", 1), 0)
    loads: list[int] = []
    real = lance_profiles._BUILD

    def counted(version: int, data: Any) -> Any:
        loads.append(version)
        return real(version, data)

    monkeypatch.setattr(lance_profiles, "_BUILD", counted)
    for _ in range(2):
        for tenant in tenants:
            found = await store.current(tenant, "a1")
            assert found is not None and found.revision == 1
    assert len(loads) == len(tenants)
