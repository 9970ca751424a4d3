"""EmbeddingSpaces on LanceDB: the re-embed's target and each tenant's Recall space, in ``store_meta``.

Rows beside the store's ``embedding`` row (same table, ``key`` is the primary key, so every write
is one atomic upsert): ``reembed`` names the model being re-embedded to; ``space:<tenant>`` the
model a switched tenant's Recall searches ("" once switched back).
"""

from __future__ import annotations

from typing import Any

from memoryd.adapters.lance.db import META_TABLE, LanceDatabase, meta_values, put_meta
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.filters import literal
from memoryd.core.errors import PreconditionFailed

_TARGET = "reembed"
_SPACE = "space:"


class LanceEmbeddingSpaces:
    """The re-embed's state, read fresh on every call (callers cache it for as long as they may lag)."""

    def __init__(self, db: LanceDatabase) -> None:
        self._db = db

    async def _meta(self) -> Any:
        return await self._db.open_existing(META_TABLE)

    async def target(self) -> tuple[str, int] | None:
        """The model being re-embedded to, if any."""
        async with map_lance_errors():
            rows = (await (await self._meta()).query().where(f"key = {literal(_TARGET)}").to_arrow()).to_pylist()
        return (rows[0]["model"], int(rows[0]["dimension"])) if rows and rows[0]["model"] else None

    async def begin(self, model: str, dimension: int) -> None:
        """Record the target; another model's re-embed under way is refused (finish or abandon it first)."""
        current = await self.target()
        if current is not None and current != (model, dimension):
            raise PreconditionFailed(
                f"a re-embed to {current[0]!r} ({current[1]} dims) is under way; finish it before starting another"
            )
        await put_meta(self._db, _TARGET, model, dimension)

    async def active(self) -> dict[str, str]:
        """Tenant → model, for the tenants whose Recall left the store's model."""
        return {tenant: model for tenant, model in (await meta_values(self._db, _SPACE)).items() if model}

    async def switch(self, tenant_id: str, model: str) -> None:
        """One upsert: the tenant's Recall moves at once for every process that reads it afterwards."""
        await put_meta(self._db, _SPACE + tenant_id, model)
