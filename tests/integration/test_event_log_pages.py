"""The event log is paged in LanceDB: filtered, ordered by id and cut at the page, whatever order rows landed in."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memoryd.adapters.clock import SystemClock
from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.event_log import LanceEventLog
from memoryd.core.event_log import EventQuery, LogEvent, Operation
from memoryd.services.event_log import EventLog

T0 = datetime(2026, 12, 1, tzinfo=UTC)
KEYS = ("", "k1", "k2")
OPERATIONS = (Operation.MEMORIZE, Operation.FORGET, Operation.UPDATE)


def logged(rng: random.Random, n: int) -> list[LogEvent]:
    return [
        LogEvent(
            f"{i:032x}",
            T0 + timedelta(seconds=i),
            "t1",
            OPERATIONS[i % 3],
            key_id=rng.choice(KEYS),
            ids=tuple(f"m{rng.randrange(20)}" for _ in range(rng.randint(1, 3))),
        )
        for i in range(n)
    ]


async def test_pages_follow_the_query_in_the_store_in_id_order(tmp_path: Path) -> None:
    db = await LanceDatabase.open(str(tmp_path / "data"), "m", 8)
    store, rng = LanceEventLog(db), random.Random(7)
    events = logged(rng, 300)
    shuffled = events[:]
    rng.shuffle(shuffled)
    for start in range(0, 300, 60):  # five commits, each holding events from all over the log
        await store.append_events("t1", shuffled[start : start + 60])
    log = EventLog(store, SystemClock())
    for operation, key, row in [(None, "", ""), (Operation.FORGET, "", ""), (None, "k1", "m3"), (None, "", "m7")]:
        query = EventQuery(T0 + timedelta(seconds=10), T0 + timedelta(seconds=290), operation, key_id=key, row_id=row)
        wanted = [e.event_id for e in events if query.matches(e)]
        assert wanted, (operation, key, row)
        got, token = [], ""
        while True:
            page = await log.page("t1", query.since, query.until, operation, 7, token, key_id=key, row_id=row)
            assert len(page.events) <= 7
            got += [e.event_id for e in page.events]
            if not (token := page.next_page_token):
                break
        assert got == wanted, (operation, key, row)
    first = await store.events("t1", EventQuery(limit=5))
    assert [e.event_id for e in first] == [e.event_id for e in events[:5]]  # the lowest ids, not the first landed
    db.close()
