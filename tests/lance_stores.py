"""The LanceDB stores for adapter tests, wired the way build_app wires them (one database each)."""

from __future__ import annotations

from typing import Any

from memoryd.adapters.lance_db import LanceDatabase
from memoryd.adapters.lance_maintenance import LanceMaintenance
from memoryd.adapters.lance_store import LanceMemoryStore


class OwnedStore(LanceMemoryStore):
    """An archive store that owns its database: ``close`` closes it, ``maintain`` runs a pass on it."""

    def __init__(self, db: LanceDatabase, dimension: int, maintenance: LanceMaintenance) -> None:
        super().__init__(db, dimension)
        self.db = db
        self.maintenance = maintenance

    async def maintain(self, *, full: bool = True) -> None:
        await self.maintenance.maintain(full=full)
        await self.maintenance.settled()  # an ANN index build runs beside the pass: the tests read its result

    def close(self) -> None:
        self.db.close()


async def open_store(uri: str, model: str = "m", dimension: int = 8, **maintenance: Any) -> OwnedStore:
    db = await LanceDatabase.open(uri, model, dimension)
    return OwnedStore(db, dimension, LanceMaintenance(db, **maintenance))
