"""LanceDB error mapping shared by the Lance adapters."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from memoryd.core.errors import Unavailable


@asynccontextmanager
async def map_lance_errors() -> AsyncIterator[None]:
    """Storage I/O failures become Unavailable; anything else is a bug and propagates."""
    try:
        yield
    except (OSError, TimeoutError) as exc:
        raise Unavailable(f"storage unavailable: {exc}") from exc
