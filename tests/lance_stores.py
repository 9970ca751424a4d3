"""The LanceDB stores for adapter tests, wired the way build_app wires them (one database each)."""

from __future__ import annotations

import asyncio
from typing import Any

import lancedb
import pytest
from lancedb.table import AsyncTable

from memoryd.adapters.lance.archive import lance_archive
from memoryd.adapters.lance.copies.cache import CopyCache
from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.maintenance import LanceMaintenance


class WholeLanceArchive:
    """Every archive port of one LanceDB archive in one object, for tests that drive several of them.

    A method is the port's that has it (the store's first); a private name (``_copies``, ``_short``)
    is the shared tables' (``ArchiveTables.copies``, ``.short``): the white-box tests reach into them.
    """

    def __init__(self, db: LanceDatabase, dimension: int, **copies: Any) -> None:
        self.tables, self.ports = lance_archive(db, dimension, **copies)
        p = self.ports
        self._parts = (p.store, p.stats, p.pending, p.snapshot, p.agents, p.filler, self.tables)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") and not name.startswith("__"):
            return getattr(self.tables, name.lstrip("_"))
        for part in self._parts:
            if hasattr(part, name):
                return getattr(part, name)
        raise AttributeError(name)


class OwnedStore(WholeLanceArchive):
    """An archive that owns its database: ``close`` closes it, ``maintain`` runs a pass on it."""

    def __init__(self, db: LanceDatabase, dimension: int, maintenance: LanceMaintenance, **store: Any) -> None:
        super().__init__(db, dimension, **store)
        self.db = db
        self.maintenance = maintenance

    async def maintain(self, *, full: bool = True) -> None:
        await self.maintenance.maintain(full=full)
        await self.maintenance.settled()  # an ANN index build runs beside the pass: the tests read its result

    def close(self) -> None:
        self.db.close()


async def open_store(uri: str, model: str = "m", dimension: int = 8, **maintenance: Any) -> OwnedStore:
    """``copy_max_rows`` bounds the store's in-memory copies as well as the maintenance's (as in build_app)."""
    db = await LanceDatabase.open(uri, model, dimension)
    copies = {"copy_max_rows": maintenance["copy_max_rows"]} if "copy_max_rows" in maintenance else {}
    return OwnedStore(db, dimension, LanceMaintenance(db, **maintenance), **copies)


def counted_copy_loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The tenants whose in-memory copy (any ``CopyCache``) reads its whole table from here on, one per load."""
    loads: list[str] = []
    real = CopyCache._load

    async def counted(self: CopyCache[Any], tenant_id: str, *args: Any, **kwargs: Any) -> Any:
        loads.append(tenant_id)
        return await real(self, tenant_id, *args, **kwargs)

    monkeypatch.setattr(CopyCache, "_load", counted)
    return loads


def counted_version_checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per version check through the binding (a listing of the table's ``_versions``) from here on."""
    checks: list[int] = []
    real = AsyncTable.version

    async def counted(self: AsyncTable) -> int:
        checks.append(1)
        return await real(self)

    monkeypatch.setattr(AsyncTable, "version", counted)
    return checks


def slow_table_reads(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """Every LanceDB query's read takes ``seconds`` longer (a large table's, read while writes commit)."""
    real = lancedb.query.AsyncQueryBase.to_arrow

    async def slow(self: Any, *args: Any, **kwargs: Any) -> Any:
        data = await real(self, *args, **kwargs)
        await asyncio.sleep(seconds)
        return data

    monkeypatch.setattr(lancedb.query.AsyncQueryBase, "to_arrow", slow)
