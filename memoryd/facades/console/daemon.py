"""The console's way to the daemon: one gRPC channel, each page's calls with its session's credentials.

The console is a client like any other: every action reaches the daemon's validation, roles, rate
limits and audit log, and the console never opens the store. A page's calls are counted
(``Calls.count``) so the benchmark can state how many RPCs a page makes, whatever the data size.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import grpc

from memoryd.client.errors import from_rpc_error
from memoryd.rpc.client import (
    TENANT_METADATA_KEY,
    AuditServiceStub,
    ConversationServiceStub,
    GraphServiceStub,
    JobServiceStub,
    KeyServiceStub,
    MemoryServiceStub,
    ProfileServiceStub,
    bearer,
)

CALL_SECONDS = 10.0
"""A page's call to the daemon that takes longer fails (the page says so) instead of hanging."""


class Daemon:
    """The channel to the daemon and a stub of each service on it (``connect`` inside the serving loop)."""

    def __init__(self, target: str, credentials: grpc.ChannelCredentials | None = None) -> None:
        self.target = target
        self._credentials = credentials
        self.channel: grpc.aio.Channel | None = None

    def connect(self) -> None:
        """Open the channel and its stubs; a grpc.aio channel belongs to the event loop it is made in."""
        made = self._credentials
        self.channel = grpc.aio.secure_channel(self.target, made) if made else grpc.aio.insecure_channel(self.target)
        self.memory = MemoryServiceStub(self.channel)
        self.audit = AuditServiceStub(self.channel)
        self.jobs = JobServiceStub(self.channel)
        self.keys = KeyServiceStub(self.channel)
        self.profiles = ProfileServiceStub(self.channel)
        self.conversations = ConversationServiceStub(self.channel)
        self.graph = GraphServiceStub(self.channel)

    async def close(self) -> None:
        """Close the channel."""
        if self.channel is not None:
            await self.channel.close(None)


@dataclass(slots=True)
class Refused(Exception):
    """The daemon refused a page's call: its status and message, as the page shows them."""

    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class Calls:
    """One request's calls to the daemon, with one session's credentials."""

    def __init__(self, daemon: Daemon, token: str, tenant: str) -> None:
        self.daemon = daemon
        metadata: tuple[tuple[str, str], ...] = ((TENANT_METADATA_KEY, tenant),) if tenant else ()
        self._metadata = metadata + ((bearer(token),) if token else ())
        self.count = 0

    async def __call__(self, method: Any, request: Any) -> Any:
        """Call ``method`` (a stub's bound method) with ``request``; a refusal raises ``Refused``."""
        self.count += 1
        try:
            return await method(request, metadata=self._metadata, timeout=CALL_SECONDS)
        except grpc.aio.AioRpcError as err:
            problem = from_rpc_error(err)
            raise Refused(problem.code.name, problem.details) from None

    async def stream(self, method: Any, request: Any, *, limit: int, seconds: float) -> list[Any]:
        """The first ``limit`` replies of a streaming call, or those sent within ``seconds`` (one call)."""
        self.count += 1
        call = method(request, metadata=self._metadata, timeout=CALL_SECONDS)
        replies: list[Any] = []
        try:
            async with asyncio.timeout(seconds):
                async for reply in call:
                    replies.append(reply)
                    if len(replies) >= limit:
                        break
        except TimeoutError:  # a live job's stream stays open: what came so far is the page's
            pass
        except grpc.aio.AioRpcError as err:
            problem = from_rpc_error(err)
            raise Refused(problem.code.name, problem.details) from None
        finally:
            call.cancel()
        return replies
