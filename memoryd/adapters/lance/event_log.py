"""EventLogStore on LanceDB: ``audit_events_<tenant>``, upserts on the time-ordered event id.

System keys act for every tenant; their events go to ``system_audit_events``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC
from typing import Any

import pyarrow as pa
from lancedb.index import BTree
from lancedb.query import ColumnOrdering

from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.filters import literal, timestamp
from memoryd.adapters.lance.rows import PRIMARY_KEY, TIMESTAMP
from memoryd.core.errors import Conflict
from memoryd.core.event_log import EventQuery, LogEvent, Operation
from memoryd.core.job_records import SYSTEM_TENANT

_TEXT = pa.string()
EVENT_SCHEMA = pa.schema(
    [
        pa.field("event_id", _TEXT, nullable=False, metadata=PRIMARY_KEY),
        pa.field("at", TIMESTAMP, nullable=False),
        pa.field("operation", _TEXT, nullable=False),
        pa.field("key_id", _TEXT, nullable=False),
        pa.field("role", _TEXT, nullable=False),
        pa.field("agent_id", _TEXT, nullable=False),
        pa.field("ids", pa.list_(_TEXT), nullable=False),
        pa.field("scopes", pa.list_(_TEXT), nullable=False),
        pa.field("counts", _TEXT, nullable=False),
    ]
)
EVENT_INDEXES = [("at", BTree())]


SYSTEM_EVENTS_TABLE = "system_audit_events"
"""The log of the all-tenant scope (system keys): a name no tenant's ``audit_events_<tenant>`` can take."""


def events_table(tenant_id: str) -> str:
    """The table of a tenant's audit log (the all-tenant scope's for ``SYSTEM_TENANT``)."""
    return SYSTEM_EVENTS_TABLE if tenant_id == SYSTEM_TENANT else f"audit_events_{tenant_id}"


def _row(e: LogEvent) -> dict[str, Any]:
    return {
        "event_id": e.event_id,
        "at": e.at,
        "operation": e.operation.value,
        "key_id": e.key_id,
        "role": e.role,
        "agent_id": e.agent_id,
        "ids": list(e.ids),
        "scopes": list(e.scopes),
        "counts": json.dumps(e.counts, sort_keys=True),
    }


def event_of(tenant_id: str, row: dict[str, Any]) -> LogEvent:
    """An event-log row of ``tenant_id`` as the reads parse it."""
    return LogEvent(
        row["event_id"],
        row["at"].astimezone(UTC),
        tenant_id,
        Operation(row["operation"]),
        row["key_id"],
        row["role"],
        row["agent_id"],
        tuple(row["ids"]),
        tuple(row["scopes"]),
        json.loads(row["counts"]),
    )


_ATTEMPTS = 3


class LanceEventLog:
    """The audit log on the archive's LanceDB database."""

    def __init__(self, db: LanceDatabase) -> None:
        self._db = db

    async def append_events(self, tenant_id: str, events: Sequence[LogEvent]) -> None:
        """Upsert by event id (one commit; retried from the latest version when a concurrent commit refused it).

        The upsert converges, so a retry is safe. It matters at shutdown: the last flush has no next
        one, and a replica whose view is up to ``read_consistency_seconds`` old keeps failing the same
        way (another process created the table at the same instant) until it reads the latest version.
        """
        if not events:
            return
        data = pa.Table.from_pylist([_row(e) for e in events], EVENT_SCHEMA)
        for attempt in range(_ATTEMPTS):
            async with map_lance_errors():
                table = await self._db.table(events_table(tenant_id), EVENT_SCHEMA, EVENT_INDEXES, write=True)
            try:
                async with map_lance_errors():
                    merge = table.merge_insert("event_id").when_matched_update_all().when_not_matched_insert_all()
                    await merge.execute(data)
                return
            except Conflict:
                if attempt == _ATTEMPTS - 1:
                    raise
                async with map_lance_errors():
                    await table.checkout_latest()

    async def events(self, tenant_id: str, query: EventQuery) -> list[LogEvent]:
        """The matching events, oldest first: filtered, ordered and cut in LanceDB (a page reads one page's rows)."""
        where = []
        if query.since is not None:
            where.append(f"at >= {timestamp(query.since)}")
        if query.until is not None:
            where.append(f"at < {timestamp(query.until)}")
        if query.operation is not None:
            where.append(f"operation = {literal(query.operation.value)}")
        if query.after:
            where.append(f"event_id > {literal(query.after)}")
        if query.key_id:
            where.append(f"key_id = {literal(query.key_id)}")
        if query.row_id:
            where.append(f"array_has(ids, {literal(query.row_id)})")
        async with map_lance_errors():
            table = await self._db.table_if_exists(events_table(tenant_id))
            if table is None:
                return []
            scan = table.query().order_by([ColumnOrdering(column_name="event_id")])
            if where:
                scan = scan.where(" AND ".join(where))
            if query.limit:
                scan = scan.limit(query.limit)
            rows = (await scan.to_arrow()).to_pylist()
        return [event_of(tenant_id, r) for r in rows]
