"""Tables of one LanceDB connection, opened once, created on first use, tracked for maintenance."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import lancedb
import pyarrow as pa

log = logging.getLogger(__name__)


async def ensure_indexes(table: Any, wanted: Sequence[tuple[str, Any]]) -> None:
    """Create the missing indexes; a concurrent creator (another process) winning is fine."""
    have = {tuple(ix.columns) for ix in await table.list_indices()}
    for column, config in wanted:
        if (column,) in have:
            continue
        try:
            await table.create_index(column, config=config)
        except RuntimeError as exc:  # lance: "Retryable commit conflict ... preempted by concurrent CreateIndex"
            if "concurrent" not in str(exc):
                raise
            log.info("index created concurrently elsewhere", extra={"column": column})


class LanceTables:
    """Open-or-create by name, cached per process; writes are noted for the maintenance loop.

    ``written`` is shared with the archive store (``LanceMemoryStore.written``), whose
    maintenance pass visits the tables this process wrote since the last one.
    """

    def __init__(self, db: lancedb.AsyncConnection, written: set[str] | None = None) -> None:
        self._db = db
        self._written = written if written is not None else set()
        self._tables: dict[str, Any] = {}
        self._lock = asyncio.Lock()

    async def get(self, name: str, schema: pa.Schema, indexes: Sequence[tuple[str, Any]] = (), *,
                  write: bool = False) -> Any:
        """The table (created with ``schema`` and ``indexes`` if missing); ``write`` notes it as written."""
        if write:
            self._written.add(name)
        table = self._tables.get(name)
        if table is None:
            async with self._lock:
                table = self._tables.get(name)
                if table is None:
                    try:
                        table = await self._db.open_table(name)
                    except ValueError:  # lancedb: "Table ... was not found"
                        table = await self._db.create_table(name, schema=schema, exist_ok=True)
                        await ensure_indexes(table, indexes)
                    self._tables[name] = table
        return table
