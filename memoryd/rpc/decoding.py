"""Undecodable requests get INVALID_ARGUMENT, not UNKNOWN and a logged traceback per call.

grpc deserialises a request before any servicer code runs; a body protobuf cannot parse
(a string field holding invalid UTF-8, a truncated message) raises inside grpc, which
answers UNKNOWN and logs a traceback, so any client could fill the logs. This interceptor
wraps the deserializer of memoryd's own methods: a parse failure becomes a marker value,
and the method answers INVALID_ARGUMENT without running.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

import grpc
from google.protobuf.message import DecodeError

_OWN_METHODS = "/memoryd.v1."


class _Undecodable:
    """Stands in for a request protobuf could not parse."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _safe(deserialize: Callable[[bytes], Any]) -> Callable[[bytes], Any]:
    def parse(data: bytes) -> Any:
        try:
            return deserialize(data)
        except DecodeError as exc:
            return _Undecodable(str(exc))

    return parse


async def _refuse(request: _Undecodable, context: grpc.aio.ServicerContext[Any, Any]) -> None:
    await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"request: cannot be decoded ({request.reason})")


if TYPE_CHECKING:
    _Interceptor = grpc.aio.ServerInterceptor[Any, Any]
else:  # generic only in grpc-stubs, not at run time
    _Interceptor = grpc.aio.ServerInterceptor


class RejectUndecodable(_Interceptor):
    """Answer INVALID_ARGUMENT to a request body that does not parse (unary and server-streaming methods)."""

    async def intercept_service(
        self, continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Any]], details: grpc.HandlerCallDetails
    ) -> Any:
        """The method's handler, its deserializer made safe."""
        # grpc-stubs type handlers for the sync server; the aio behaviours are coroutines.
        handler: Any = await continuation(details)
        if handler is None or not details.method.startswith(_OWN_METHODS) or handler.request_deserializer is None:
            return handler
        parse = _safe(handler.request_deserializer)
        if handler.unary_unary is not None:
            unary = handler.unary_unary

            async def unary_call(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
                if isinstance(request, _Undecodable):
                    await _refuse(request, context)
                return await unary(request, context)

            return grpc.unary_unary_rpc_method_handler(
                unary_call, request_deserializer=parse, response_serializer=handler.response_serializer
            )
        if handler.unary_stream is not None:
            stream = handler.unary_stream

            async def stream_call(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> AsyncIterator[Any]:
                if isinstance(request, _Undecodable):
                    await _refuse(request, context)
                async for item in stream(request, context):
                    yield item

            return grpc.unary_stream_rpc_method_handler(
                stream_call, request_deserializer=parse, response_serializer=handler.response_serializer
            )
        return handler
