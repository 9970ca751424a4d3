"""Per-key rate budgets through Redis against two real daemons: shared buckets, RetryInfo, reads apart."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.client import ResourceExhausted
from memoryd.client.errors import from_rpc_error
from memoryd.core.keys import Role
from memoryd.rpc.client import ConversationServiceStub, MemoryServiceStub, bearer, cpb, pb
from tests.conftest import LiveServer, make_settings

pytestmark = pytest.mark.timeout(120)


def test_a_key_spends_one_budget_across_replicas_and_is_told_when_to_retry(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    settings = make_settings(
        tmp_path / "data",
        redis={"dsn": redis_url},
        jobs={"bootstrap_at_start": False},
        auth={"writes_per_second": 0.5, "reads_per_second": 100, "burst_seconds": 6},  # a bucket of 3 writes
    )
    one, two = LiveServer(settings, onnx_embedder), LiveServer(settings.without_maintenance(), onnx_embedder)
    one.start()
    two.start()
    try:
        _, token = one.key("acme", Role.AGENT)
        _, other = one.key("acme", Role.AGENT)
        with grpc.insecure_channel(f"127.0.0.1:{one.port}") as a, grpc.insecure_channel(f"127.0.0.1:{two.port}") as b:
            stubs = [MemoryServiceStub(a), MemoryServiceStub(b)]
            write = pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="a note"))
            for i in range(3):  # the burst, spent on both replicas alike
                stubs[i % 2].Memorize(write, metadata=(bearer(token),))
            with pytest.raises(grpc.RpcError) as refused:
                stubs[1].Memorize(write, metadata=(bearer(token),))
            err = refused.value
            assert err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "write budget" in (err.details() or "")
            status = rpc_status.from_call(err)  # type: ignore[arg-type]
            assert status is not None
            info = error_details_pb2.RetryInfo()
            assert status.details[0].Unpack(info) and 1000 <= info.retry_delay.ToMilliseconds() <= 2100
            spent = from_rpc_error(err)  # the Python client reads the same detail
            assert isinstance(spent, ResourceExhausted) and spent.retry_after is not None
            assert 1.0 <= spent.retry_after <= 2.1
            # Reads have their own budget; another key has its own buckets.
            recall = pb.RecallRequest(agent_id="a1", query="note")
            for stub in stubs:
                stub.Recall(recall, metadata=(bearer(token),))
            stubs[0].Memorize(write, metadata=(bearer(other),))
    finally:
        two.stop()
        one.stop()


def test_a_key_holds_at_most_its_watch_streams_and_gets_a_place_back_when_one_ends(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    settings = make_settings(
        tmp_path / "data", redis={"dsn": redis_url}, jobs={"bootstrap_at_start": False}, auth={"streams_per_key": 2}
    )
    with LiveServer(settings, onnx_embedder) as daemon, grpc.insecure_channel(f"127.0.0.1:{daemon.port}") as channel:
        _, token = daemon.key("acme", Role.AGENT)
        _, other = daemon.key("acme", Role.AGENT)
        stub = ConversationServiceStub(channel)
        hello = cpb.MessageInput(message_id="m1", role=cpb.ROLE_USER, content="hello")
        append = cpb.AppendMessagesRequest(agent_id="a1", conversation_id="c1", messages=[hello])
        stub.AppendMessages(append, metadata=(bearer(token),))
        watch = cpb.WatchConversationRequest(agent_id="a1", conversation_id="c1")

        def opened(key: str) -> Any:
            call = stub.WatchConversation(watch, metadata=(bearer(key),), timeout=30)
            call.initial_metadata()  # sent once the daemon admitted the stream, or with its refusal
            if call.done():
                next(call)  # the refusal, raised
            return call

        held = [opened(token), opened(token)]
        with pytest.raises(grpc.RpcError) as refused:
            opened(token)  # one stream polling too many (each was 4 store reads a second, unbounded)
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "auth.streams_per_key" in (refused.value.details() or "")
        held.append(opened(other))  # another key has places of its own
        held[0].cancel()
        deadline = time.monotonic() + 10
        while True:  # the cancelled stream's place comes back once the daemon sees the cancel
            try:
                held.append(opened(token))
                break
            except grpc.RpcError:
                assert time.monotonic() < deadline, "a cancelled stream kept its place"
                time.sleep(0.05)
        for call in held:
            call.cancel()
