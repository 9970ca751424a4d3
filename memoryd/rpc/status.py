"""The one table from memoryd errors to gRPC status codes, and the translator that applies it."""

from __future__ import annotations

import contextlib
import functools
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import grpc
from google.protobuf import any_pb2
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from memoryd.core.errors import (
    AlreadyExists,
    Conflict,
    InvalidRequest,
    LimitExceeded,
    MemorydError,
    NotFound,
    NotReady,
    PermissionDenied,
    PreconditionFailed,
    RateLimited,
    Unauthenticated,
    Unavailable,
)
from memoryd.rpc.tracing import ended, server_span

log = logging.getLogger(__name__)

_STATUS_BY_ERROR: dict[type[MemorydError], grpc.StatusCode] = {
    InvalidRequest: grpc.StatusCode.INVALID_ARGUMENT,
    Unauthenticated: grpc.StatusCode.UNAUTHENTICATED,
    NotFound: grpc.StatusCode.NOT_FOUND,
    PermissionDenied: grpc.StatusCode.PERMISSION_DENIED,
    Conflict: grpc.StatusCode.ABORTED,
    AlreadyExists: grpc.StatusCode.ALREADY_EXISTS,
    NotReady: grpc.StatusCode.FAILED_PRECONDITION,
    PreconditionFailed: grpc.StatusCode.FAILED_PRECONDITION,
    LimitExceeded: grpc.StatusCode.RESOURCE_EXHAUSTED,
    Unavailable: grpc.StatusCode.UNAVAILABLE,
    RateLimited: grpc.StatusCode.RESOURCE_EXHAUSTED,
}


def status_for(exc: MemorydError) -> grpc.StatusCode:
    """The most specific mapped class in the exception's MRO (a subclass may refine its parent)."""
    for cls in type(exc).__mro__:
        code = _STATUS_BY_ERROR.get(cls)
        if code is not None:
            return code
    return grpc.StatusCode.INTERNAL


ERROR_DOMAIN = "memoryd"
"""``google.rpc.ErrorInfo.domain`` of memoryd's reasons."""
_REASON = re.compile(r"([A-Z][A-Z0-9_]{2,}): ")


def status_details(exc: MemorydError) -> list[any_pb2.Any]:
    """The standard details a client of any language reads without parsing the message.

    ``google.rpc.BadRequest`` names the field of an INVALID_ARGUMENT; ``google.rpc.ErrorInfo`` carries
    the reason a refusal opens with (``ENTITY_NAME_TAKEN: …``, ``FACT_SUPERSEDED: …``) to switch on;
    ``google.rpc.RetryInfo`` says how long to wait before a retry.
    """
    found: list[Message] = []
    if isinstance(exc, InvalidRequest):
        violation = error_details_pb2.BadRequest.FieldViolation(field=exc.field, description=exc.problem)
        found.append(error_details_pb2.BadRequest(field_violations=[violation]))
    if reason := _REASON.match(str(exc)):
        found.append(error_details_pb2.ErrorInfo(reason=reason.group(1), domain=ERROR_DOMAIN))
    if exc.retry_after is not None and exc.retry_after > 0:
        info = error_details_pb2.RetryInfo()
        info.retry_delay.FromMilliseconds(max(1, round(exc.retry_after * 1000)))
        found.append(info)
    packed = []
    for message in found:
        detail = any_pb2.Any()
        detail.Pack(message)
        packed.append(detail)
    return packed


async def abort_with(context: grpc.aio.ServicerContext[Any, Any], exc: MemorydError) -> None:
    """Abort the call with the error's status and its standard details (``status_details``).

    The details travel as ``grpc-status-details-bin``; the message states the same for people.
    """
    code = status_for(exc)
    details = status_details(exc)
    if not details:
        await context.abort(code, str(exc))
    status = status_pb2.Status(code=getattr(code_pb2, code.name), message=str(exc), details=details)
    await context.abort(code, str(exc), trailing_metadata=rpc_status.to_status(status).trailing_metadata)


Req = TypeVar("Req")
Resp = TypeVar("Resp")
Handler = Callable[[Any, Req, grpc.aio.ServicerContext[Req, Resp]], Awaitable[Resp]]


def translated(method: Handler[Req, Resp]) -> Handler[Req, Resp]:
    """Wrap a servicer method: MemorydError -> its status; anything else -> INTERNAL, logged once."""

    @functools.wraps(method)
    async def wrapper(self: Any, request: Req, context: grpc.aio.ServicerContext[Req, Resp]) -> Resp:
        async with _handled(self, method.__name__, context):
            return await method(self, request, context)
        raise AssertionError("context.abort always raises")  # pragma: no cover

    return wrapper


@contextlib.asynccontextmanager
async def _handled(servicer: Any, name: str, context: grpc.aio.ServicerContext[Any, Any]) -> AsyncIterator[None]:
    """One call: its span, its status from what it raised, its metrics."""
    started, code = time.perf_counter(), grpc.StatusCode.OK
    with server_span(context, _service_name(type(servicer)), name) as span:
        try:
            yield
        except MemorydError as exc:
            code = status_for(exc)
            await abort_with(context, exc)
        except Exception:  # the one catch-all of the transport: log, then INTERNAL
            code = grpc.StatusCode.INTERNAL
            log.exception("unhandled error in %s", name)
            await context.abort(grpc.StatusCode.INTERNAL, "internal error (logged by the server)")
        finally:
            ended(span, code)
            _observe(servicer, name, code, time.perf_counter() - started)


def _observe(servicer: Any, method: str, code: grpc.StatusCode, seconds: float) -> None:
    """Record the call on the app's metrics (servicers hold the app as ``_app``)."""
    app = getattr(servicer, "_app", None)
    if app is not None:
        app.metrics.rpc(_service_name(type(servicer)), method, code.name, seconds)


def _service_name(cls: type) -> str:
    """``memoryd.v1.MemoryService`` for a subclass of the generated ``MemoryServiceServicer``."""
    base = next((b for b in cls.__mro__[1:] if b.__name__.endswith("Servicer")), cls)
    return f"memoryd.v1.{base.__name__.removesuffix('Servicer')}"


StreamHandler = Callable[[Any, Req, grpc.aio.ServicerContext[Req, Resp]], AsyncIterator[Resp]]


def translated_stream(method: StreamHandler[Req, Resp]) -> StreamHandler[Req, Resp]:
    """``translated`` for server-streaming methods (errors before or between messages)."""

    @functools.wraps(method)
    async def wrapper(self: Any, request: Req, context: grpc.aio.ServicerContext[Req, Resp]) -> AsyncIterator[Resp]:
        async with _handled(self, method.__name__, context):
            async for item in method(self, request, context):
                yield item

    return wrapper
