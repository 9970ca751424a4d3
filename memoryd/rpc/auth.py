"""The interceptor that admits every memoryd call: key, role, rate budget, then the servicer.

It wraps each memoryd method's behaviour so the check runs inside the call's own task: the
verified principal is bound there (``identity.bind``) and the servicer reads it. Health and
reflection are left open (load balancers probe them without keys).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

import grpc

from memoryd.core.errors import MemorydError
from memoryd.core.keys import Principal, Rule
from memoryd.rpc import identity
from memoryd.rpc.status import abort_with
from memoryd.services.keys import KeyService

_OWN_METHODS = "/memoryd.v1."
Admitted = Callable[[Principal, Rule], Awaitable[None]]
"""Runs after a caller is admitted (the rate budget); raises a MemorydError to refuse the call."""

if TYPE_CHECKING:
    _Interceptor = grpc.aio.ServerInterceptor[Any, Any]
else:  # generic only in grpc-stubs, not at run time
    _Interceptor = grpc.aio.ServerInterceptor


class Authenticate(_Interceptor):
    """Admit a caller before any memoryd method runs (unary and server-streaming methods)."""

    def __init__(self, keys: KeyService, *, trust_without_keys: bool, after: Admitted | None = None) -> None:
        self._keys = keys
        self._trust = trust_without_keys
        self._after = after

    async def _admit(self, method: str, context: grpc.aio.ServicerContext[Any, Any]) -> None:
        try:
            principal, rule = await identity.admit(context, method, self._keys, self._trust)
            if self._after is not None:
                await self._after(principal, rule)
        except MemorydError as exc:
            await abort_with(context, exc)
        identity.bind(principal, method)

    async def intercept_service(
        self, continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Any]], details: grpc.HandlerCallDetails
    ) -> Any:
        """The method's handler, preceded by the admission check."""
        handler: Any = await continuation(details)
        if handler is None or not details.method.startswith(_OWN_METHODS):
            return handler
        method = details.method.removeprefix(_OWN_METHODS)
        if handler.unary_unary is not None:
            unary = handler.unary_unary

            async def unary_call(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
                await self._admit(method, context)
                return await unary(request, context)

            return grpc.unary_unary_rpc_method_handler(
                unary_call,
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        if handler.unary_stream is not None:
            stream = handler.unary_stream

            async def stream_call(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> AsyncIterator[Any]:
                await self._admit(method, context)
                gen = stream(request, context)
                try:
                    async for item in gen:
                        yield item
                finally:
                    with contextlib.suppress(Exception):
                        await gen.aclose()

            return grpc.unary_stream_rpc_method_handler(
                stream_call,
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        return handler  # memoryd has no client-streaming methods; a new one must be added above
