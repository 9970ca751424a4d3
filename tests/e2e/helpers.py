"""Helpers for end-to-end tests: read the store directly to prove what changed."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import grpc
import lancedb

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.rpc.client import MemoryServiceStub, pb
from tests.conftest import LiveServer, make_settings, tenant


def snapshot(uri: str, tenant_id: str) -> list[dict[str, Any]]:
    """Every row of a tenant's table (vector and all), sorted by id; [] if the table is absent."""
    db = lancedb.connect(uri)
    try:
        table = db.open_table(f"memories_{tenant_id}")
    except ValueError:
        return []
    rows = table.to_arrow().to_pylist()
    return sorted(rows, key=lambda r: r["id"])


@contextmanager
def fuzz_target(data: Path) -> Iterator[LiveServer]:
    """A daemon whose tenant ``fuzz`` holds one memory (the fuzz tests check refusals leave it alone)."""
    server = LiveServer(make_settings(data), OnnxMiniLMEmbedder(threads=2))
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            MemoryServiceStub(channel).Memorize(
                pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="the seed memory")),
                metadata=tenant("fuzz"),
            )
        yield server
    finally:
        server.stop()
