"""An audit flush refused by a concurrent commit is retried from the latest version (the last flush has no next)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.event_log import EVENT_INDEXES, EVENT_SCHEMA, LanceEventLog, events_table
from memoryd.core.event_log import EventQuery, LogEvent, Operation

_REFUSED = (
    "lance error: Incompatible transaction: This Update transaction is incompatible with concurrent "
    "transaction Overwrite at version 2., conflict_resolver.rs:821:30"
)


async def test_a_flush_refused_by_a_concurrent_creation_is_retried_and_lands_once(tmp_path: Path) -> None:
    db = await LanceDatabase.open(str(tmp_path / "data"), "m", 8)
    log = LanceEventLog(db)
    table = await db.table(events_table("t1"), EVENT_SCHEMA, EVENT_INDEXES, write=True)
    real, refusals = table.merge_insert, [_REFUSED]

    class Refusing:  # the first commit is refused as a racing creation's Overwrite refuses it
        def __init__(self, builder: Any) -> None:
            self._builder = builder

        def __getattr__(self, name: str) -> Any:
            attr = getattr(self._builder, name)
            return (lambda *a, **k: Refusing(attr(*a, **k))) if name.startswith("when") else attr

        async def execute(self, data: Any) -> Any:
            if refusals:
                raise RuntimeError(refusals.pop())
            return await self._builder.execute(data)

    table.merge_insert = lambda on: Refusing(real(on))
    event = LogEvent("0" * 32, datetime(2026, 12, 1, tzinfo=UTC), "t1", Operation.MEMORIZE, ids=("m1",))
    await log.append_events("t1", [event])
    assert not refusals
    assert [e.event_id for e in await log.events("t1", EventQuery())] == [event.event_id]
    db.close()
