"""KeyStore on LanceDB: one ``api_keys`` table for every tenant, upserts on the key id.

Only the secret's hash is stored. The table is small (one row per key) and read by id; a
revocation is an upsert that every process sees on its next read of the row (the key service
re-reads a verified key after ``auth.cache_seconds``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pyarrow as pa

from memoryd.adapters.lance.db import LanceDatabase, add_column
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.filters import literal
from memoryd.adapters.lance.rows import PRIMARY_KEY, TIMESTAMP, as_utc_or_none, record_of, row_of
from memoryd.core.keys import ApiKey, KeyScope, Role

KEYS_TABLE = "api_keys"
_TEXT = pa.string()
KEY_SCHEMA = pa.schema(
    [
        pa.field("key_id", _TEXT, nullable=False, metadata=PRIMARY_KEY),
        pa.field("tenant_id", _TEXT, nullable=False),
        pa.field("role", _TEXT, nullable=False),
        pa.field("agent_id", _TEXT, nullable=False),
        pa.field("name", _TEXT, nullable=False),
        pa.field("secret_hash", _TEXT, nullable=False),
        pa.field("created_at", TIMESTAMP, nullable=False),
        pa.field("last_used_at", TIMESTAMP, nullable=True),
        pa.field("revoked_at", TIMESTAMP, nullable=True),
        pa.field("scope", _TEXT, nullable=True),  # added with key scopes: null in older rows means "all"
    ]
)


def _row(key: ApiKey) -> dict[str, Any]:
    return row_of(key, role=key.role.label, scope=key.scope.value)


def _key(row: dict[str, Any]) -> ApiKey:
    return record_of(
        ApiKey,
        row,
        role=Role.parse(row["role"]),
        created_at=row["created_at"].astimezone(UTC),
        last_used_at=as_utc_or_none(row["last_used_at"]),
        revoked_at=as_utc_or_none(row["revoked_at"]),
        scope=KeyScope(row.get("scope") or KeyScope.ALL),
    )


async def _upgrade(table: Any) -> None:
    """A keys table of an older store gains the scope column (its rows read as "all")."""
    await add_column(table, KEY_SCHEMA.field("scope"))


class LanceKeyStore:
    """API keys on the archive's LanceDB database."""

    def __init__(self, db: LanceDatabase) -> None:
        self._db = db

    async def put_key(self, key: ApiKey) -> None:
        """Insert or replace the key's row."""
        data = pa.Table.from_pylist([_row(key)], KEY_SCHEMA)
        async with map_lance_errors():
            table = await self._db.table(KEYS_TABLE, KEY_SCHEMA, write=True, upgrade=_upgrade)
            await table.merge_insert("key_id").when_matched_update_all().when_not_matched_insert_all().execute(data)

    async def key(self, key_id: str) -> ApiKey | None:
        """One key by id, or None."""
        rows = await self._rows(f"key_id = {literal(key_id)}")
        return _key(rows[0]) if rows else None

    async def keys(self, tenant_id: str | None) -> list[ApiKey]:
        """A tenant's keys (every key with None), oldest first."""
        rows = await self._rows(f"tenant_id = {literal(tenant_id)}" if tenant_id is not None else None)
        return sorted((_key(r) for r in rows), key=lambda k: (k.created_at, k.key_id))

    async def touch_key(self, key_id: str, at: datetime) -> None:
        """Set ``last_used_at`` alone (an update of one column never undoes a revocation)."""
        async with map_lance_errors():
            table = await self._db.table(KEYS_TABLE, KEY_SCHEMA, write=True, upgrade=_upgrade)
            await table.update({"last_used_at": at}, where=f"key_id = {literal(key_id)}")

    async def any_key(self) -> bool:
        """Whether any key was made, revoked or not (protected mode ends with the first key, for good)."""
        return bool(await self._rows(None, limit=1))

    async def _rows(self, where: str | None, limit: int | None = None) -> list[dict[str, Any]]:
        async with map_lance_errors():
            table = await self._db.table_if_exists(KEYS_TABLE, upgrade=_upgrade)
            if table is None:
                return []
            query = table.query()
            if where:
                query = query.where(where)
            if limit:
                query = query.limit(limit)
            rows: list[dict[str, Any]] = (await query.to_arrow()).to_pylist()
        return rows
