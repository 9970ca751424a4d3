"""A serving process hands the allocator's free pages back to the system on its own schedule."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

import memoryd.runtime.loops
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import build_app
from tests.conftest import make_settings


class Releases:
    """Counts the calls of the allocator's release, and the threads they ran on."""

    def __init__(self) -> None:
        self.threads: list[int] = []

    def __call__(self) -> bool:
        self.threads.append(threading.get_ident())
        return True


@pytest.mark.parametrize("seconds", [0.05, 0.0])
async def test_free_memory_is_released_every_few_seconds_unless_turned_off(
    tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder, monkeypatch: pytest.MonkeyPatch, seconds: float
) -> None:
    releases = Releases()
    monkeypatch.setattr(memoryd.runtime.loops, "release_free_memory", releases)
    settings = make_settings(tmp_path / "data", storage={"memory_release_seconds": seconds})
    async with build_app(settings, embedder=onnx_embedder):
        await asyncio.sleep(0.6)
    if seconds:
        assert len(releases.threads) >= 3
        # off the event loop: the release takes each arena's lock in turn
        assert threading.get_ident() not in releases.threads
    else:
        assert releases.threads == []
