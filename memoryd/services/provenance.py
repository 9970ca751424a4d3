"""Provenance: a memory's history and the served log, both written behind the replies.

``record`` and ``served`` are dictionary appends on the request path; ``flush`` (every second, by
the composition root's loop, and at shutdown) writes one commit per tenant and table. A crash loses
at most that second of history and servings, never a row of data. Reads flush first, so a caller
sees its own last call.

Event ids are time-ordered, except where a retry must find the event it wrote: a memory's creation
is keyed by the memory's id, and an event of a call with a request id by that id, so a retried call
after a lost reply writes the same event again and the history reads it once.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from memoryd.core.errors import InvalidRequest
from memoryd.core.ids import new_memory_id
from memoryd.core.models import Actor, MemoryRecord
from memoryd.core.ports import Clock, ProvenanceStore
from memoryd.core.provenance import (
    HistoryEvent,
    HistoryKind,
    ServedItem,
    Serving,
    ServingFilter,
    served_call_line,
)

_IDS = random.Random()
"""Call ids' random part, from a generator of its own: the global one is the host program's (seeded tests' too)."""

SERVINGS_IN_HISTORY = 200
"""A history lists a memory's latest servings up to this many (ListServings pages through all)."""
OWN_WORK = "memoryd"
"""``via`` of memoryd's own work when no job or RPC named itself."""


@dataclass(frozen=True, slots=True)
class ServingPage:
    """Servings oldest first, and the token of the next page (empty at the end)."""

    servings: tuple[Serving, ...]
    next_page_token: str


@dataclass(frozen=True, slots=True)
class MemoryHistory:
    """A memory's events in order, its latest servings among them, and how many servings it has had."""

    events: tuple[HistoryEvent, ...]
    servings_total: int


_CALLS_PER_SLICE = 10
"""Served calls made into lines between two turns of the event loop (~0.1 ms).

Each turn lets every call in flight take one step, so a call that awaits k times during a flush
waits up to k slices: with 50 calls a slice (~0.5 ms) that put milliseconds on the calls that met a
flush, which is where a Recall's p99 lies."""
_ServedCall = tuple[datetime, tuple[str, ...], tuple[str, ...], tuple[float, ...], str]
"""When, to whom (``served_call_line``'s caller), which item ids with which scores, of which kind.

Only strings, numbers and tuples of them: the cyclic collector stops tracking such a tuple at its
first collection, so a second's calls held for the flush add nothing to the older generations'
walks (held as a list of pairs and an enum, they made a ``bench paired`` daemon run one more full
collection, ~50 ms, and ~14 % more young ones)."""
_Waiting = _ServedCall | str
"""A served call, or the lines a flush made and could not write (kept, so a write that did land
before its failure was seen is read once: the same call ids again)."""


def _served_lines(calls: Sequence[_Waiting]) -> str:
    """The calls' lines (``served_call_line``), each call given a new time-ordered id; made lines as they are."""
    return "".join(
        c
        if isinstance(c, str)
        else served_call_line(_call_id(c[0]), c[0], c[1], zip(c[2], c[3], strict=True), ServedItem(c[4]))
        for c in calls
    )


async def _turn() -> None:
    """Let the calls that came meanwhile go first."""
    await asyncio.sleep(0)


def _call_id(at: datetime) -> str:
    return new_memory_id(int(at.timestamp() * 1000), _IDS.getrandbits(74))  # unique, not secret


def _stable_id(*parts: str) -> str:
    return hashlib.blake2b("\x1f".join(parts).encode(), digest_size=16).hexdigest()


class Provenance:
    """Buffers, writes and reads histories and servings."""

    def __init__(self, store: ProvenanceStore, clock: Clock) -> None:
        self._store = store
        self._clock = clock
        self._history: dict[str, list[HistoryEvent]] = {}
        self._servings: dict[str, list[_Waiting]] = {}
        """Per tenant, the calls served since the last flush."""
        self._flushing = asyncio.Lock()

    def record(
        self,
        actor: Actor,
        kind: HistoryKind,
        memory: MemoryRecord,
        *,
        request_id: str = "",
        detail: dict[str, str] | None = None,
    ) -> None:
        """Note an event on ``memory`` done by ``actor`` (cheap, synchronous; written within a second)."""
        event = self._event(actor, kind, memory, request_id, detail)
        self._history.setdefault(actor.tenant_id, []).append(event)

    async def applied(self, tenant_id: str, memory_id: str, kind: HistoryKind, request_id: str) -> bool:
        """Whether a call with this request id already recorded its ``kind`` event on the memory."""
        await self.flush()
        found = await self._store.history(tenant_id, memory_id)
        return any(e.kind is kind and e.request_id == request_id for e in found)

    async def record_now(
        self, actor: Actor, kind: HistoryKind, memories: Sequence[tuple[MemoryRecord, dict[str, str]]], request_id: str
    ) -> None:
        """Write the events of one call now, in one commit: the mark a retry of it finds (``applied``)."""
        events = [self._event(actor, kind, memory, request_id, detail) for memory, detail in memories]
        await self._store.append_history(actor.tenant_id, events)

    def _event(
        self, actor: Actor, kind: HistoryKind, memory: MemoryRecord, request_id: str, detail: dict[str, str] | None
    ) -> HistoryEvent:
        now = self._clock.now()
        if kind is HistoryKind.CREATED:
            event_id = memory.memory_id
        elif request_id:
            event_id = _stable_id(memory.memory_id, kind.value, request_id)
        else:
            event_id = new_memory_id(int(now.timestamp() * 1000), secrets.randbits(74))
        return HistoryEvent(
            event_id,
            memory.created_at if kind is HistoryKind.CREATED else now,
            memory.memory_id,
            kind,
            memory.end_user_id,
            actor.key_id,
            actor.role.label if actor.key_id or actor.via else OWN_WORK,
            actor.agent_id,
            actor.via or OWN_WORK,
            request_id,
            dict(detail or {}),
        )

    def served(
        self, actor: Actor, items: Sequence[tuple[str, float]], kind: ServedItem, conversation_id: str = ""
    ) -> None:
        """Note that ``items`` (id, score), in this order, were served to ``actor``.

        Only a tuple is appended here: the call's id and its line are made at the flush, a slice of
        calls at a time between the loop's other work (``bench paired``: made here, the line cost the
        daemon ~1.5 % more CPU a Recall; made in a worker thread, it took the GIL from the calls in flight for
        milliseconds each second, and the p99 rose).
        """
        if not items:
            return
        role = actor.role.label if actor.key_id or actor.via else OWN_WORK
        caller = (actor.agent_id, actor.end_user_id, actor.key_id, role, actor.via or OWN_WORK, conversation_id)
        ids, scores = zip(*items, strict=True)
        self._servings.setdefault(actor.tenant_id, []).append((self._clock.now(), caller, ids, scores, kind.value))

    @property
    def pending(self) -> int:
        """History events and served calls waiting to be written (a failed flush's made lines count as one)."""
        return sum(map(len, self._history.values())) + sum(map(len, self._servings.values()))

    async def flush(self) -> None:
        """Write what is buffered; when it returns, everything noted before the call is written.

        On failure the rows wait for the next flush.
        """
        async with self._flushing:
            history, self._history = self._history, {}
            servings, self._servings = self._servings, {}
            unwritten = list(history.items())
            for i, (tenant_id, events) in enumerate(unwritten):
                try:  # one event id once (a retried call within the second noted its event twice)
                    await self._store.append_history(tenant_id, list({e.event_id: e for e in events}.values()))
                except BaseException:  # this tenant's events, the later ones' and every serving wait
                    for t, e in unwritten[i:]:
                        self._history.setdefault(t, [])[:0] = e
                    for t, s in servings.items():
                        self._servings.setdefault(t, [])[:0] = s
                    raise
            waiting = list(servings.items())
            for i, (tenant_id, calls) in enumerate(waiting):
                lines, made = [], 0
                try:
                    for start in range(0, len(calls), _CALLS_PER_SLICE):
                        lines.append(_served_lines(calls[start : start + _CALLS_PER_SLICE]))
                        made = start + _CALLS_PER_SLICE
                        await _turn()
                    await self._store.append_servings(tenant_id, "".join(lines).encode())
                except BaseException:  # failed or cancelled: this tenant's calls and the later ones wait
                    waiting[i] = (tenant_id, ["".join(lines), *calls[made:]] if lines else calls)
                    for t, c in waiting[i:]:
                        self._servings.setdefault(t, [])[:0] = c
                    raise

    async def settle(self, tenant_id: str | None = None) -> None:
        """Write what is buffered, and what the store holds aside, into the tables (before an export; at shutdown)."""
        await self.flush()
        await self._store.settle(tenant_id)

    async def history(self, tenant_id: str, memory_id: str, servings: ServingFilter | None = None) -> MemoryHistory:
        """The memory's events and latest servings, in time order (the caller checked it may see it).

        ``servings`` narrows the servings shown and counted (an agent's own): the served log is the operators'.
        """
        await self.flush()
        served_it = replace(servings or ServingFilter(), item_id=memory_id)
        events, latest, count = await asyncio.gather(
            self._store.history(tenant_id, memory_id),
            self._store.servings(tenant_id, served_it, "", SERVINGS_IN_HISTORY, newest=True),
            self._store.count_servings(tenant_id, served_it),
        )
        served = [
            HistoryEvent(
                s.serving_id,
                s.at,
                memory_id,
                HistoryKind.SERVED,
                s.end_user_id,
                s.key_id,
                s.role,
                s.agent_id,
                s.via,
                "",
                {"rank": str(s.rank), "score": f"{s.score:.4f}", "conversation_id": s.conversation_id},
            )
            for s in reversed(latest)
        ]
        merged = sorted([*events, *served], key=lambda e: (e.at, e.event_id))
        return MemoryHistory(tuple(merged), count)

    async def servings(self, tenant_id: str, where: ServingFilter, page_size: int, page_token: str) -> ServingPage:
        """One page of the tenant's servings matching ``where``, oldest first."""
        if page_token and (len(page_token) != 34 or not all(c in "0123456789abcdef" for c in page_token)):
            raise InvalidRequest("page_token", "is not a token this server issued")
        await self.flush()
        found = await self._store.servings(tenant_id, where, page_token, page_size + 1)
        page = tuple(found[:page_size])
        return ServingPage(page, page[-1].serving_id if len(found) > page_size else "")

    async def forget(self, tenant_id: str, memory_ids: Sequence[str]) -> list[str]:
        """Delete these memories' histories and servings (a Forget, a retention purge); tables touched."""
        await self.flush()
        return await self._store.forget(tenant_id, memory_ids)

    async def expire_servings(self, tenant_id: str, before: datetime, dry_run: bool) -> int:
        """Delete (or count) the tenant's servings older than ``before`` (retention)."""
        await self.flush()
        return await self._store.expire_servings(tenant_id, before, dry_run)

    async def erase_end_user(
        self, tenant_id: str, end_user_id: str, memory_ids: Sequence[str]
    ) -> tuple[int, list[str]]:
        """Delete the contact's histories and servings and those of its memories; (rows, tables touched)."""
        await self.flush()
        return await self._store.erase_end_user(tenant_id, end_user_id, memory_ids)
