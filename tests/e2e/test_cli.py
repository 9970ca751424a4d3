"""`memoryd serve` as operators run it: flags, health, SIGTERM, and a refusal on a mismatched store."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from memoryd.commands.bench.daemon import Daemon
from tests.conftest import SUITE_EMBEDDER
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
    shipped = {k: v for k, v in os.environ.items() if k != SUITE_EMBEDDER}  # auto: the store's model, if embedded
    result = subprocess.run(
        [sys.executable, "-m", "memoryd", "serve", "--listen", "127.0.0.1:0", "--data", str(tmp_path / "data")],
        capture_output=True,
        text=True,
        timeout=120,
        env={**shipped, "LANCEDB_LOG": "error"},
        check=False,
    )
    assert result.returncode != 0 and result.stderr.count("\n") == 1
    assert "built with embedding model 'some-other-model': set embedding.provider = 'openai'" in result.stderr


def _memoryd(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memoryd", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "LANCEDB_LOG": "error"},
        check=False,
        cwd=Path(__file__).parent,  # not beside a `make run` of this checkout: its var/up.json names another store
    )


@pytest.mark.timeout(300)  # seven commands and a daemon, each a new process: past 60 s on a loaded 2-core machine
def test_keys_erase_retention_and_an_exposed_listener_from_the_command_line(tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    created = _memoryd("keys", "create", "--data", data, "--tenant", "acme", "--role", "admin", "--name", "ops")
    assert created.returncode == 0, created.stderr
    token = created.stdout.rsplit("store it now): ", 1)[1].strip()
    key_id = token.split("_")[1]
    listed = _memoryd("keys", "list", "--data", data)
    assert key_id in listed.stdout and "admin" in listed.stdout and token.split("_", 2)[2] not in listed.stdout
    with Daemon(tmp_path / "data") as daemon, grpc.insecure_channel(daemon.address) as channel:
        from memoryd.rpc.client import MemoryServiceStub, bearer, pb

        stub = MemoryServiceStub(channel)
        request = pb.MemorizeRequest(
            agent_id="a1", end_user_id="u1", memory=pb.MemoryInput(content="hi", scope=pb.SCOPE_END_USER)
        )
        stub.Memorize(request, metadata=(bearer(token),))
        try:
            stub.Memorize(request, metadata=(("x-tenant-id", "acme"),))
            raise AssertionError("a call without a key was accepted")
        except grpc.RpcError as err:
            assert err.code() == grpc.StatusCode.UNAUTHENTICATED
    dry = _memoryd("retention", "--data", data, "--tenant", "acme", "--dry-run")
    assert dry.returncode == 0 and "dry run" in dry.stdout
    erased = _memoryd("erase", "--data", data, "--tenant", "acme", "--end-user", "u1")
    assert erased.returncode == 0, erased.stderr
    assert "memories" in erased.stdout and "u1" not in erased.stdout  # the receipt names the contact by digest
    revoked = _memoryd("keys", "revoke", key_id, "--data", data)
    assert revoked.returncode == 0 and "revoked" in revoked.stdout
    exposed = _memoryd("serve", "--data", str(tmp_path / "open"), "--listen", "0.0.0.0:0")
    assert exposed.returncode != 0 and "without API keys" in exposed.stderr + exposed.stdout


@pytest.mark.parametrize("listen", ["127.0.0.1:²", "127.0.0.1:٣", "127.0.0.1:x", ":50051"])
def test_serve_refuses_a_listen_address_that_is_not_host_and_port(
    listen: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # '²' and '٣' are digits to str.isdigit; int() takes neither (the first) or reads a port no one typed.
    from memoryd.commands.main import parser

    with pytest.raises(SystemExit) as stopped:
        parser("serve").parse_args(["serve", "--listen", listen])
    assert stopped.value.code == 2 and "expected HOST:PORT" in capsys.readouterr().err
