"""AgentConfigStore on LanceDB: one row per tenant level and per agent, compare-and-swap on version.

Table per tenant, like the archive: ``agent_config_<tenant>`` (primary key ``key``: ``""`` holds
the tenant's own settings, an agent id holds that agent's). Values are stored as JSON: the
catalogue in ``core.agent_config`` checked them, and reads re-check nothing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pyarrow as pa

from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.filters import literal
from memoryd.adapters.lance.rows import PRIMARY_KEY, TIMESTAMP
from memoryd.core.agent_config import StoredConfig

CONFIG_SCHEMA = pa.schema(
    [
        pa.field("key", pa.string(), nullable=False, metadata=PRIMARY_KEY),
        pa.field("values", pa.string(), nullable=False),
        pa.field("version", pa.int64(), nullable=False),
        pa.field("updated_by", pa.string(), nullable=False),
        pa.field("updated_at", TIMESTAMP, nullable=False),
    ]
)
PREFIX = "agent_config_"


class LanceAgentConfigStore:
    """Stored settings on the same LanceDB connection as the archive."""

    def __init__(self, db: LanceDatabase) -> None:
        self._db = db

    async def configs(self, tenant_id: str, agent_ids: Sequence[str]) -> dict[str, StoredConfig]:
        """The stored rows of ``agent_ids`` ("" for the tenant level) that exist."""
        async with map_lance_errors():
            table = await self._db.table_if_exists(PREFIX + tenant_id)
            if table is None:
                return {}
            keys = ", ".join(literal(a) for a in agent_ids)
            rows = (await table.query().where(f"key IN ({keys})").to_arrow()).to_pylist()
        return {r["key"]: StoredConfig(json.loads(r["values"]), r["version"], r["updated_by"]) for r in rows}

    async def swap_config(self, tenant_id: str, agent_id: str, config: StoredConfig, expected_version: int) -> bool:
        """Write ``config`` if the stored version is still ``expected_version`` (0: no row yet)."""
        row: dict[str, Any] = {
            "key": agent_id,
            "values": json.dumps(config.values, sort_keys=True),
            "version": config.version,
            "updated_by": config.updated_by,
            "updated_at": datetime.now(UTC),
        }
        async with map_lance_errors():
            table = await self._db.table(PREFIX + tenant_id, CONFIG_SCHEMA, write=True)
            merge = table.merge_insert("key")
            if expected_version == 0:
                merge = merge.when_not_matched_insert_all()
            else:
                merge = merge.when_matched_update_all(where=f"target.version = {int(expected_version)}")
            result = await merge.execute(pa.Table.from_pylist([row], CONFIG_SCHEMA))
        return bool(result.num_updated_rows + result.num_inserted_rows == 1)
