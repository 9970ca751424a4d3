"""Two daemons on one store and one Redis: one maintains at a time, and the other takes over (real Valkey)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from contextlib import AsyncExitStack
from pathlib import Path

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import App, build_app
from memoryd.config import Settings
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
