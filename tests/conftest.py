"""Shared fixtures: real LanceDB in tmp_path, the real ONNX embedder, a real gRPC server."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import grpc
import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import App, build_app
from memoryd.config import Settings, load_settings
from memoryd.core.ports import Embedder
from memoryd.rpc.client import MemoryServiceStub
from memoryd.rpc.server import serving


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

    def __init__(self, settings: Settings, embedder: Embedder) -> None:
        self._settings = settings
        self._embedder = embedder
        self._ready: Future[int] = Future()
        self._loop = asyncio.new_event_loop()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._loop.run_until_complete, args=(self._main(),), daemon=True)
        self.app: App | None = None

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        try:
            async with build_app(self._settings, embedder=self._embedder) as app, \
                    serving(app, "127.0.0.1", 0, 0.5) as port:
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

    def stop(self) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout=30)
        self._loop.close()


@pytest.fixture
def live_server(settings: Settings, onnx_embedder: OnnxMiniLMEmbedder) -> Iterator[LiveServer]:
    server = LiveServer(settings, onnx_embedder)
    server.start()
    yield server
    server.stop()


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
