"""What a client's namespace (``conversations``, ``jobs``, ``graph``) needs of the client it belongs to.

Each namespace goes through its client's ``call`` (metadata, deadline, retries on UNAVAILABLE only)
and asks for the channel at each call, so a closed client raises ``ClientClosed`` instead of making
a stub on a closed channel.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import grpc


class Caller(Protocol):
    """What a namespace needs of its blocking client."""

    @property
    def channel(self) -> grpc.Channel:
        """The open channel (ClientClosed once closed)."""

    @property
    def metadata(self) -> tuple[tuple[str, str], ...]:
        """What every call carries: the tenant, the key."""

    def call(self, method: Callable[..., Any], request: Any) -> Any:
        """One call with the client's metadata, deadline and retries."""


class AsyncCaller(Protocol):
    """What a namespace needs of its asyncio client."""

    @property
    def channel(self) -> grpc.aio.Channel:
        """The open channel (ClientClosed once closed)."""

    @property
    def metadata(self) -> tuple[tuple[str, str], ...]:
        """What every call carries: the tenant, the key."""

    def call(self, method: Callable[..., Awaitable[Any]], request: Any) -> Awaitable[Any]:
        """One call with the client's metadata, deadline and retries."""
