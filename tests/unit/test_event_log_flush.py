"""The event log's flush: a page read right after a mutation sees it, even while the periodic flush writes."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from memoryd.core.event_log import LogEvent, Operation
from memoryd.core.keys import Role
from memoryd.core.models import Actor
from memoryd.services.event_log import EventLog
from tests.fakes import FrozenClock, InMemoryEventLog


class _SlowStore(InMemoryEventLog):
    """Appends that wait for a gate (the periodic flush's commit under way)."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()

    async def append_events(self, tenant_id: str, events: Sequence[LogEvent]) -> None:
        await self.gate.wait()
        await super().append_events(tenant_id, events)


async def test_a_page_waits_for_the_flush_under_way_and_sees_its_events() -> None:
    store = _SlowStore()
    log = EventLog(store, FrozenClock())
    log.note(Actor("acme", "a1", "", Role.ADMIN, "k1"), Operation.FORGET, ["m1"], ["private"])
    periodic = asyncio.create_task(log.flush())  # takes the buffer, then waits on its commit
    await asyncio.sleep(0)
    reading = asyncio.create_task(log.page("acme", None, None, None, 10, ""))
    await asyncio.sleep(0.01)
    assert not reading.done()  # the page's own flush waits for the one under way
    store.gate.set()
    await periodic
    page = await reading
    assert [(e.operation, e.ids) for e in page.events] == [(Operation.FORGET, ("m1",))]
