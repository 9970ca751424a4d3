"""Two daemons on one store and one Redis: one maintains at a time, and the other takes over (real Valkey)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import AsyncExitStack
from pathlib import Path

import redis.asyncio

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import App, build_app
from memoryd.config import Settings
from memoryd.services.maintenance_loop import LEASE
from tests.conftest import make_settings


def settings_for(tmp_path: Path, redis_url: str) -> Settings:
    return make_settings(
        tmp_path / "data",
        redis={"dsn": redis_url},
        jobs={"bootstrap_at_start": False},
        storage={
            "maintenance_enabled": True,
            "maintenance_written_seconds": 0.05,
            "maintenance_interval_seconds": 0.2,
            "maintenance_lease_seconds": 2.0,
        },
    )


async def until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.05)


async def test_one_replica_maintains_and_another_takes_over_when_it_leaves(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    settings = settings_for(tmp_path, redis_url)
    async with AsyncExitStack() as first_stack, AsyncExitStack() as second_stack:
        first: App = await first_stack.enter_async_context(build_app(settings, embedder=onnx_embedder))
        second: App = await second_stack.enter_async_context(build_app(settings, embedder=onnx_embedder))
        assert first.maintenance_loop is not None and second.maintenance_loop is not None
        loops = [first.maintenance_loop, second.maintenance_loop]
        await until(lambda: loops[0].passes + loops[1].passes >= 5)
        await asyncio.sleep(0.5)
        holder, standby = (0, 1) if loops[0].passes else (1, 0)
        assert loops[standby].passes == 0 and loops[holder].holding and not loops[standby].holding

        await (first_stack if holder == 0 else second_stack).aclose()  # the holder shuts down: lease released
        before = loops[standby].passes
        await until(lambda: loops[standby].passes > before, timeout=3.0)
        assert loops[standby].holding


async def test_a_killed_holder_is_replaced_within_the_lease_time(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    """kill -9 of the replica holding the lease: it never releases it; another takes over once it expires."""
    settings = settings_for(tmp_path, redis_url)
    config = tmp_path / "memoryd.toml"
    config.write_text(f"""
[redis]
dsn = "{redis_url}"
[jobs]
bootstrap_at_start = false
[storage]
uri = "{tmp_path / "data"}"
maintenance_enabled = true
maintenance_written_seconds = 0.05
maintenance_interval_seconds = 0.2
maintenance_lease_seconds = 2.0
[metrics]
enabled = false
""")
    client = redis.asyncio.Redis.from_url(redis_url)
    daemon = subprocess.Popen(
        [sys.executable, "-m", "memoryd", "serve", "--listen", "127.0.0.1:0", "--config", str(config)],
        env={**os.environ, "LANCEDB_LOG": "error"},
    )
    try:
        deadline = time.monotonic() + 60
        while (held := await client.get(f"memoryd:lock:{LEASE}")) is None:
            assert time.monotonic() < deadline and daemon.poll() is None, "the daemon never took the lease"
            await asyncio.sleep(0.1)
        assert held.decode().split(":")[1] == str(daemon.pid)
        async with build_app(settings, embedder=onnx_embedder) as standby:
            loop = standby.maintenance_loop
            assert loop is not None
            await asyncio.sleep(1.0)
            assert loop.passes == 0  # the daemon holds it
            os.kill(daemon.pid, signal.SIGKILL)
            daemon.wait()
            killed = time.monotonic()
            await until(lambda: loop.passes > 0, timeout=5.0)
            took = time.monotonic() - killed
        assert took <= 2.0 + 1.5  # the lease time, plus a pass interval and scheduling slack
    finally:
        if daemon.poll() is None:
            daemon.kill()
            daemon.wait()
        await client.aclose()
