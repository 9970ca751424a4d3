"""LanceDB error mapping shared by the Lance adapters."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from memoryd.core.errors import Conflict, Unavailable


@asynccontextmanager
async def map_lance_errors(opening: str = "") -> AsyncIterator[None]:
    """Storage I/O failures become Unavailable; a commit preempted by another writer is a Conflict.

    ``opening``: the store's uri while connecting to it. Anything else is a bug and propagates.
    """
    try:
        yield
    except ValueError as exc:
        # lancedb reports a store it cannot reach at connect (no credentials, a refused endpoint,
        # a missing bucket) as "Invalid input, Failed to connect to namespace: IO {...}", a nested
        # debug dump of several hundred characters: the operator gets its innermost reason.
        if not opening or "Failed to connect" not in str(exc):
            raise
        raise Unavailable(f"storage unavailable: cannot open {opening}: {unreachable_reason(str(exc))}") from exc
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


def unreachable_reason(text: str) -> str:
    """The readable cause inside an object store's nested error dump (the dump's start if none is found)."""
    for pattern in (r'message: "([^"]+)"', r"Code>([^<]+)</Code", r'source: "([^"(]+?)(?:: \w+\(|")'):
        found = re.findall(pattern, text)
        if found:
            return str(found[-1])
    return text[:200]
