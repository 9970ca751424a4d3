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
    except (OSError, TimeoutError) as exc:
        raise Unavailable(f"storage unavailable: {exc}") from exc
    except RuntimeError as exc:
        if "Retryable commit conflict" in str(exc):  # lance gave up retrying a concurrent commit
            raise Conflict(f"storage: a concurrent write won ({str(exc).split(',')[0]})") from exc
        raise
