"""EventLog: one audit event per mutation, never the content.

Frequent mutations (memorize, update, forget, restore, profile edits) are buffered and written
every second by the composition root's loop, and at shutdown: a crash loses at most that second of
events, never a row of data. Rare, consequential ones (keys, erase, retention, applied findings,
imports) are written before their call answers.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from memoryd.core.errors import InvalidRequest
from memoryd.core.event_log import MAX_IDS, EventQuery, LogEvent, Operation
from memoryd.core.ids import new_memory_id
from memoryd.core.models import Actor
from memoryd.core.ports import Clock, EventLogStore


@dataclass(frozen=True, slots=True)
class EventPage:
    """A page of events, oldest first, and the token of the next page (empty at the end)."""

    events: tuple[LogEvent, ...]
    next_page_token: str


class EventLog:
    """Records and lists audit events."""

    def __init__(self, store: EventLogStore, clock: Clock) -> None:
        self._store = store
        self._clock = clock
        self._pending: dict[str, list[LogEvent]] = {}
        self._flushing = asyncio.Lock()
        """One flush at a time: a flush that found the buffer empty because the periodic one had just
        taken it must still wait for that one's commit (a page read right after would miss its events)."""

    def _event(
        self,
        tenant_id: str,
        operation: Operation,
        actor: Actor | None,
        ids: Iterable[str],
        scopes: Iterable[str],
        counts: dict[str, int] | None,
    ) -> LogEvent:
        now = self._clock.now()
        all_ids = list(ids)
        counts = dict(counts or {})
        counts.setdefault("rows", len(all_ids))
        return LogEvent(
            new_memory_id(int(now.timestamp() * 1000), secrets.randbits(74)),
            now,
            tenant_id,
            operation,
            actor.key_id if actor else "",
            actor.role.label if actor else "memoryd",
            actor.agent_id if actor else "",
            tuple(all_ids[:MAX_IDS]),
            tuple(sorted(set(scopes))),
            counts,
        )

    def note(
        self,
        actor: Actor,
        operation: Operation,
        ids: Iterable[str],
        scopes: Iterable[str] = (),
        counts: dict[str, int] | None = None,
    ) -> None:
        """Buffer the event of a frequent mutation (written within a second)."""
        event = self._event(actor.tenant_id, operation, actor, ids, scopes, counts)
        self._pending.setdefault(actor.tenant_id, []).append(event)

    async def write(
        self,
        tenant_id: str,
        operation: Operation,
        actor: Actor | None,
        ids: Iterable[str],
        scopes: Iterable[str] = (),
        counts: dict[str, int] | None = None,
    ) -> LogEvent:
        """Write the event of a rare mutation now."""
        event = self._event(tenant_id, operation, actor, ids, scopes, counts)
        await self._store.append_events(tenant_id, [event])
        return event

    @property
    def pending(self) -> int:
        """Events waiting to be written."""
        return sum(len(v) for v in self._pending.values())

    async def flush(self) -> None:
        """Write the buffered events, one commit per tenant; on failure they wait for the next flush.

        Returns once every event buffered before the call is written, by this flush or one under way.
        """
        async with self._flushing:
            batch, self._pending = self._pending, {}
            for tenant_id, events in batch.items():
                try:
                    await self._store.append_events(tenant_id, events)
                except BaseException:
                    self._pending.setdefault(tenant_id, [])[:0] = events
                    raise

    async def page(
        self,
        tenant_id: str,
        since: datetime | None,
        until: datetime | None,
        operation: Operation | None,
        page_size: int,
        page_token: str,
        *,
        key_id: str = "",
        row_id: str = "",
    ) -> EventPage:
        """Events in [since, until) after ``page_token`` (an event id), oldest first.

        ``key_id``: only those of calls made with that key; ``row_id``: only those naming that row.
        """
        if page_token and not all(c in "0123456789abcdef" for c in page_token):
            raise InvalidRequest("page_token", "is not a token this server issued")
        await self.flush()
        query = EventQuery(since, until, operation, page_token, key_id, row_id, limit=page_size + 1)
        found = await self._store.events(tenant_id, query)  # one more than a page: is there a next one?
        return EventPage(tuple(found[:page_size]), found[page_size - 1].event_id if len(found) > page_size else "")
