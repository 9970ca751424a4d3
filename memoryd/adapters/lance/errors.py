"""LanceDB error mapping shared by the Lance adapters."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from memoryd.core.errors import Conflict, Unavailable


@asynccontextmanager
async def map_lance_errors() -> AsyncIterator[None]:
    """Storage I/O failures become Unavailable; a commit preempted by another writer is a Conflict.

    Anything else is a bug and propagates.
    """
    try:
        yield
    except (OSError, TimeoutError, RuntimeError) as exc:
        if isinstance(exc, RuntimeError) and not _contended(exc):
            raise
        if not _contended(exc):
            raise Unavailable(f"storage unavailable: {exc}") from exc
        # Lance gave up retrying a commit that concurrent writers kept preempting: "Retryable commit
        # conflict" after its retries, "Too many concurrent writers" when its 30 s retry budget ran
        # out (seen with two daemons and two workers on one object store); "incompatible with
        # concurrent transaction Overwrite" when two processes created the table at the same instant
        # and the slower creation committed as an Overwrite. Nothing was written. A compaction
        # preempted by a concurrent update raises it as an OSError. A commit whose conflict check
        # needed a version an erasure's purge had just dropped (its transaction file is gone)
        # committed nothing either.
        raise Conflict(f"storage: a concurrent write won ({str(exc).split(',')[0]})") from exc


def _contended(exc: BaseException) -> bool:
    text = str(exc)
    return any(marker in text for marker in _CONTENTION) or ("Not found" in text and "/_transactions/" in text)


_CONTENTION = (
    "Retryable commit conflict",
    "Too many concurrent writers",
    "incompatible with concurrent transaction Overwrite",
)
