"""Per-key rate budgets through Redis against two real daemons: shared buckets, RetryInfo, reads apart."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.core.keys import Role
from memoryd.rpc.client import MemoryServiceStub, bearer, pb
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
            # Reads have their own budget; another key has its own buckets.
            recall = pb.RecallRequest(agent_id="a1", query="note")
            for stub in stubs:
                stub.Recall(recall, metadata=(bearer(token),))
            stubs[0].Memorize(write, metadata=(bearer(other),))
    finally:
        two.stop()
        one.stop()
