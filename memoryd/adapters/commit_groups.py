"""CommitGroups: a key's concurrent small writes committed together, one commit per group.

Every LanceDB commit writes a data file, a transaction and a manifest (a one-row merge-insert costs
10-15 ms of CPU, an append 3-4 ms), whatever the rows. Calls for one key (a tenant's table) that
arrive while its commit is in flight are written together by the next one; a lone call is committed
at once, so no call waits for company. Each call is answered after the commit holding its row, with
that row's own outcome.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from memoryd.core.errors import Unavailable

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")
R = TypeVar("R")


def _retrieved(done: asyncio.Future[Any]) -> None:
    if not done.cancelled():
        done.exception()


@dataclass(eq=False)
class _Lane(Generic[T, R]):
    waiting: list[tuple[T, asyncio.Future[R]]] = field(default_factory=list)
    runner: asyncio.Task[None] | None = None
    """The lane's committer, referenced here so the loop cannot collect it."""


class CommitGroups(Generic[K, T, R]):
    """Calls of one key waiting during a commit form the next commit's group.

    ``commit(key, items)`` writes a group and returns one result per item, in order; an exception
    reaches every call of the group.
    """

    def __init__(self, commit: Callable[[K, Sequence[T]], Awaitable[Sequence[R]]], max_items: int = 256) -> None:
        self._commit = commit
        self._max_items = max_items
        self._lanes: dict[K, _Lane[T, R]] = {}

    async def submit(self, key: K, item: T) -> R:
        """The item's result once the commit holding it returned."""
        done: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        done.add_done_callback(_retrieved)  # a caller gone before its answer must not leave it unread
        lane = self._lanes.get(key)
        if lane is None:
            lane = self._lanes[key] = _Lane()
            lane.runner = asyncio.create_task(self._run(key, lane))
        lane.waiting.append((item, done))
        # A caller that goes away does not stop the write: it was accepted, its group commits.
        return await asyncio.shield(done)

    async def _run(self, key: K, lane: _Lane[T, R]) -> None:
        group: list[tuple[T, asyncio.Future[R]]] = []
        try:
            while lane.waiting:
                group, lane.waiting = lane.waiting[: self._max_items], lane.waiting[self._max_items :]
                try:
                    results = await self._commit(key, [item for item, _ in group])
                except Exception as exc:  # noqa: BLE001  # whatever it is, the callers waiting must hear it
                    for _, done in group:
                        if not done.done():
                            done.set_exception(exc)
                else:
                    for (_, done), result in zip(group, results, strict=True):
                        if not done.done():
                            done.set_result(result)
                group = []
        finally:
            del self._lanes[key]
            # Only on cancellation (shutdown): the group in flight may or may not have committed.
            for _, done in [*group, *lane.waiting]:
                if not done.done():
                    done.set_exception(Unavailable("memoryd is shutting down; retry the call"))
