"""`memoryd serve` as operators run it: flags, health, SIGTERM, and a refusal on a mismatched store."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from memoryd.bench.daemon import Daemon
from tests.lance_stores import open_store


def test_serve_listens_where_told_and_stops_on_sigterm(tmp_path: Path) -> None:
    with Daemon(tmp_path / "data") as daemon, grpc.insecure_channel(daemon.address) as channel:
        reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=5)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
    assert (tmp_path / "data" / "store_meta.lance").exists()


def test_serve_refuses_a_store_built_with_another_embedder(tmp_path: Path) -> None:
    async def build() -> None:
        (await open_store(str(tmp_path / "data"), "some-other-model", 768)).close()

    asyncio.run(build())
    result = subprocess.run(
        [sys.executable, "-m", "memoryd", "serve", "--listen", "127.0.0.1:0", "--data", str(tmp_path / "data")],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "LANCEDB_LOG": "error"},
        check=False,
    )
    assert result.returncode != 0
    assert "some-other-model" in result.stderr and "all-MiniLM-L6-v2-int8" in result.stderr
