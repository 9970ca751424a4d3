"""`memoryd up` (behind `make run`): embedded Valkey with AOF plus the daemon, stopped by SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import grpc
import valkey
from grpc_health.v1 import health_pb2, health_pb2_grpc

from memoryd.bench.daemon import free_port


def wait_serving(address: str, proc: subprocess.Popen[str], timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    with grpc.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            try:
                if stub.Check(health_pb2.HealthCheckRequest(), timeout=1).status == 1:
                    return
            except grpc.RpcError:
                time.sleep(0.3)
    raise TimeoutError(address)


def test_up_starts_valkey_and_daemon_and_stops_both(tmp_path: Path) -> None:
    address = f"127.0.0.1:{free_port()}"
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"} | {"LANCEDB_LOG": "error"}
    proc = subprocess.Popen([sys.executable, "-m", "memoryd", "up", "--run-dir", str(tmp_path / "run"),
                             "--listen", address], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env)
    try:
        assert proc.stdout is not None
        banner = proc.stdout.readline()
        assert "embedded Valkey at" in banner
        url = banner.split(" at ", 1)[1].split(" ", 1)[0]
        wait_serving(address, proc)
        client = valkey.Valkey.from_url(url)
        assert client.ping() and client.config_get("appendonly")["appendonly"] == "yes"
        assert (tmp_path / "run" / "data" / "store_meta.lance").exists()
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
        if proc.stdout is not None:
            proc.stdout.close()
    try:
        valkey.Valkey.from_url(url, socket_connect_timeout=1).ping()
        raise AssertionError("valkey still running after memoryd up stopped")
    except valkey.ConnectionError:
        pass
