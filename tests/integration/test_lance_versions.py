"""LatestVersion: a local table's latest version from its next manifest's name, on real Lance tables."""

from __future__ import annotations

import asyncio
from pathlib import Path

import lance
import lancedb
import pyarrow as pa
import pytest

from memoryd.adapters.lance import versions as lance_versions
from memoryd.adapters.lance.versions import LatestVersion, VersionChecks


def _row(n: int) -> pa.Table:
    return pa.table({"n": [n]})


async def test_the_next_commit_is_found_by_its_manifests_name(tmp_path: Path) -> None:
    db = await lancedb.connect_async(str(tmp_path))
    table = await db.create_table("t", _row(0))
    directory = str(tmp_path / "t.lance" / "_versions")
    mark = LatestVersion.of(directory, await table.version())
    assert mark is not None
    assert mark.now(directory) == mark  # nothing committed since
    for n in range(3):
        await table.add(_row(n))
    later = mark.now(directory)
    assert later is not None and later.version == mark.version + 3 == await table.version()


async def test_a_table_created_again_or_too_far_ahead_is_left_to_the_binding(tmp_path: Path) -> None:
    db = await lancedb.connect_async(str(tmp_path))
    table = await db.create_table("t", _row(0))
    await table.add(_row(1))
    directory = str(tmp_path / "t.lance" / "_versions")
    mark = LatestVersion.of(directory, await table.version())
    assert mark is not None
    await db.drop_table("t")
    again = await db.create_table("t", _row(0))
    await again.add(_row(1))  # the same version number, another table
    assert await again.version() == mark.version and mark.now(directory) is None
    fresh = LatestVersion.of(directory, await again.version())
    assert fresh is not None
    for n in range(lance_versions._PROBES + 1):
        await again.add(_row(n))
    assert fresh.now(directory) is None  # more commits than a look walks over


async def test_a_table_of_the_first_naming_scheme_is_followed_too(tmp_path: Path) -> None:
    lance.write_dataset(_row(0), str(tmp_path / "t.lance"), enable_v2_manifest_paths=False)
    table = await (await lancedb.connect_async(str(tmp_path))).open_table("t")
    directory = str(tmp_path / "t.lance" / "_versions")
    mark = LatestVersion.of(directory, await table.version())
    assert mark is not None and not mark.v2
    await table.add(_row(1))
    later = mark.now(directory)
    assert later is not None and later.version == mark.version + 1


async def test_a_settled_directory_costs_one_look_until_the_next_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the manifests' names found a commit and the directory has settled, a check is one ``stat``
    of the directory: found by name, the version used to be looked for by name at every call after."""
    db = await lancedb.connect_async(str(tmp_path))
    table = await db.create_table("t", _row(0))
    checks = VersionChecks()
    first = await checks.latest("acme", table)  # the binding's check
    await table.add(_row(1))
    await asyncio.sleep(lance_versions._SETTLED_NS / 1e9 + 0.05)
    assert await checks.latest("acme", table) == first + 1  # found by the next manifest's name
    looks = 0
    identity = lance_versions._identity

    def counted(path: str) -> tuple[int, int] | None:
        nonlocal looks
        looks += 1
        return identity(path)

    monkeypatch.setattr(lance_versions, "_identity", counted)
    for _ in range(5):
        assert await checks.latest("acme", table) == first + 1
    assert looks == 0
    await table.add(_row(2))  # the directory changes: the names are looked at again
    assert await checks.latest("acme", table) == first + 2 and looks > 0
