"""A span per RPC, continuing the caller's trace (W3C ``traceparent`` in the call metadata).

OpenTelemetry's API only: without a configured tracer provider (``tracing.enabled`` off) every call
here is a no-op. Spans are named ``memoryd.v1.MemoryService/Recall`` and carry the RPC semantic
conventions (``rpc.system``, ``rpc.service``, ``rpc.method``, ``rpc.grpc.status_code``); a call that
fails has an error status. Never an argument, an id or text: traces leave the trust boundary.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import grpc
from opentelemetry import propagate, trace
from opentelemetry.trace import Span, SpanKind, Status, StatusCode

_tracer = trace.get_tracer("memoryd.rpc")


@contextmanager
def server_span(context: Any, service: str, method: str) -> Iterator[Span]:
    """The call's span, a child of the caller's ``traceparent`` when it sent one."""
    carrier = {key: value for key, value in (context.invocation_metadata() or ()) if isinstance(value, str)}
    # Not made the current span: a streaming method yields across awaits, where attaching and
    # detaching the context would happen in different contexts.
    span = _tracer.start_span(
        f"{service}/{method}",
        context=propagate.extract(carrier),
        kind=SpanKind.SERVER,
        attributes={"rpc.system": "grpc", "rpc.service": service, "rpc.method": method},
        record_exception=False,
    )
    try:
        yield span
    finally:
        span.end()


def ended(span: Span, code: grpc.StatusCode) -> None:
    """Record the call's status on its span."""
    span.set_attribute("rpc.grpc.status_code", code.value[0])
    if code is not grpc.StatusCode.OK:
        span.set_status(Status(StatusCode.ERROR, code.name))
