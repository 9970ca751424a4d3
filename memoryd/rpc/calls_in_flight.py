"""The count of memoryd calls being served: the event loop polls for the next call only while it is 0.

Unary calls only: a server stream such as ``WatchConversation`` holds its call open while it waits
for news, and a daemon with a watcher would never poll.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import grpc

_OWN_METHODS = "/memoryd.v1."

if TYPE_CHECKING:
    _Interceptor = grpc.aio.ServerInterceptor[Any, Any]
else:  # generic only in grpc-stubs, not at run time
    _Interceptor = grpc.aio.ServerInterceptor


class CallsInFlight(_Interceptor):
    """Counts the memoryd unary calls from their admission to their answer."""

    def __init__(self) -> None:
        self._count = 0

    def quiet(self) -> bool:
        """Whether no memoryd call is being served."""
        return self._count == 0

    async def intercept_service(
        self, continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Any]], details: grpc.HandlerCallDetails
    ) -> Any:
        """The method's handler, counted while it runs."""
        handler: Any = await continuation(details)
        if handler is None or handler.unary_unary is None or not details.method.startswith(_OWN_METHODS):
            return handler
        unary = handler.unary_unary

        async def counted(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
            self._count += 1
            try:
                return await unary(request, context)
            finally:
                self._count -= 1

        return grpc.unary_unary_rpc_method_handler(
            counted, request_deserializer=handler.request_deserializer, response_serializer=handler.response_serializer
        )
