"""The write groups of ``MemorizeService``: the calls waiting per tenant, how a group is taken, request keys.

A tenant's concurrent Memorize and MemorizeBatch calls are written as one group: each call is a
``Write`` in its tenant's ``Lane`` until the commit holding its rows is durable.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

from memoryd.core.ids import request_fingerprint
from memoryd.core.models import Actor, MemorizeResult, MemoryDraft, MemoryRecord

_GROUP_ROWS = 1024
"""A group is closed at this many rows (a MemorizeBatch of 1,000 still fits in one)."""


@dataclass(eq=False)
class Write:
    """One Memorize or MemorizeBatch call waiting for its group."""

    actor: Actor
    drafts: Sequence[MemoryDraft]
    vectors: list[list[float] | None]
    """The caller's embeddings; None until the group embeds the rest."""
    skip: bool
    keys: Sequence[str]
    request_id: str
    earlier: dict[int, MemoryRecord] = field(default_factory=dict)
    pending: set[int] = field(default_factory=set)
    """Items stored with their embedding pending (the embedder was unreachable)."""
    done: asyncio.Future[list[MemorizeResult]] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )

    def finish(self, results: list[MemorizeResult]) -> None:
        """Answer the call (once)."""
        if not self.done.done():
            self.done.set_result(results)

    def fail(self, exc: BaseException) -> None:
        """Fail the call (once)."""
        if not self.done.done():
            self.done.set_exception(exc)


@dataclass(eq=False)
class Lane:
    """One tenant's writes in this process: waiting, being prepared (looked up, embedded), ready to write."""

    waiting: list[Write] = field(default_factory=list)
    batch: list[Write] = field(default_factory=list)
    ready: list[Write] = field(default_factory=list)
    flight: set[tuple[str, str]] = field(default_factory=set)
    """The requests (agent, request_id) between their lookup and their commit."""
    preparing: asyncio.Task[None] | None = None
    prepared: asyncio.Event = field(default_factory=asyncio.Event)
    writing: bool = False
    writer: asyncio.Task[None] | None = None
    """The lane's committer (``_commit_waiting``), referenced here so the loop cannot collect it."""


def request_of(job: Write) -> tuple[str, str] | None:
    """The call's (agent, request_id), or None without a request id."""
    return (job.actor.agent_id, job.request_id) if job.request_id else None


def take(queue: list[Write], flight: set[tuple[str, str]] | None = None) -> list[Write]:
    """Take calls off ``queue``, in arrival order, up to ``_GROUP_ROWS`` rows (at least one call).

    With ``flight`` (the requests between their lookup and their commit), a call repeating one of
    them stays queued: it is a retry of the first, and it must find the first's rows committed
    (not race it to an insert). The calls taken join ``flight``.
    """
    taken: list[Write] = []
    rows, later = 0, []
    while queue and (not taken or rows + len(queue[0].drafts) <= _GROUP_ROWS):
        job = queue.pop(0)
        request = request_of(job)
        if flight is not None and request is not None:
            if request in flight:
                later.append(job)
                continue
            flight.add(request)
        taken.append(job)
        rows += len(job.drafts)
    queue[:0] = later
    return taken


def request_keys(actor: Actor, request_id: str, drafts: Sequence[MemoryDraft]) -> list[str]:
    """Each item's request key: ``agent/request_id/index/fingerprint`` of everything the request stores."""
    fingerprint = request_fingerprint(
        [actor.end_user_id, [[[f.name, getattr(d, f.name)] for f in dataclasses.fields(d)] for d in drafts]]
    )
    return [f"{actor.agent_id}/{request_id}/{i}/{fingerprint}" for i in range(len(drafts))]


def retrieved(done: asyncio.Future[list[MemorizeResult]]) -> None:
    """Read a call's outcome so a caller gone before its answer leaves no unread exception."""
    if not done.cancelled():
        done.exception()


def vector_of(job: Write, i: int) -> list[float]:
    """Item ``i``'s vector, embedded by now."""
    vector = job.vectors[i]
    assert vector is not None, "the group embeds every missing vector before deduplication"
    return vector
