"""Traces: a span per RPC, a child of the caller's W3C traceparent, with the RPC conventions and status."""

from __future__ import annotations

import time
from collections.abc import Iterator

import grpc
import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from memoryd.rpc.client import MemoryServiceStub, pb
from tests.conftest import LiveServer, tenant

TRACE_ID, PARENT_ID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"


@pytest.fixture(scope="module")
def spans() -> Iterator[InMemorySpanExporter]:
    """An SDK provider for this process (the daemon under test runs in it); its spans kept in memory."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)  # for the rest of this process: a provider cannot be unset
    yield exporter
    exporter.shutdown()  # later spans are dropped quietly (a shut-down provider would log each one)


def test_each_rpc_is_a_span_continuing_the_callers_trace(live_server: LiveServer, spans: InMemorySpanExporter) -> None:
    spans.clear()
    traced = (*tenant("acme"), ("traceparent", f"00-{TRACE_ID}-{PARENT_ID}-01"))
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as channel:
        stub = MemoryServiceStub(channel)
        stub.Memorize(pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="likes tea")), metadata=traced)
        with pytest.raises(grpc.RpcError):
            stub.Recall(pb.RecallRequest(agent_id="a1", query=""), metadata=tenant("acme"))
    deadline = time.monotonic() + 5  # an aborted call's status reaches the client before its span ends
    while len(spans.get_finished_spans()) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    memorize, recall = sorted(spans.get_finished_spans(), key=lambda s: s.name)
    assert memorize.name == "memoryd.v1.MemoryService/Memorize" and memorize.kind is SpanKind.SERVER
    assert format(memorize.context.trace_id, "032x") == TRACE_ID  # the caller's trace...
    assert memorize.parent is not None and format(memorize.parent.span_id, "016x") == PARENT_ID  # ...its child
    assert memorize.attributes is not None and dict(memorize.attributes) == {
        "rpc.system": "grpc",
        "rpc.service": "memoryd.v1.MemoryService",
        "rpc.method": "Memorize",
        "rpc.grpc.status_code": 0,
    }
    assert memorize.status.status_code is StatusCode.UNSET
    # No traceparent: a trace of its own. A refused call: an error status with the gRPC code.
    assert recall.parent is None and format(recall.context.trace_id, "032x") != TRACE_ID
    assert recall.attributes is not None and recall.attributes["rpc.grpc.status_code"] == 3
    assert recall.status.status_code is StatusCode.ERROR and recall.status.description == "INVALID_ARGUMENT"
