"""What a client's namespace (``conversations``, ``jobs``, ``graph``) needs of its client, and how its watches end.

Each namespace goes through its client's ``call`` (metadata, deadline, retries on UNAVAILABLE only)
and asks for the channel at each call, so a closed client raises ``ClientClosed`` instead of making
a stub on a closed channel.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import grpc

from memoryd.client.errors import from_rpc_error


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


def watch_ended(err: grpc.RpcError) -> None:
    """A watch stream's deadline is how it ends; any other status is the caller's to handle."""
    if err.code() != grpc.StatusCode.DEADLINE_EXCEEDED:
        raise from_rpc_error(err) from None
