"""A daemon started on a port another one serves refuses to start, naming the address."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import build_app
from memoryd.core.errors import NotReady
from memoryd.rpc.client import TENANT_METADATA_KEY, MemoryServiceStub, pb
from memoryd.rpc.server import serving
from tests.conftest import LiveServer, make_settings


async def test_a_second_daemon_on_a_port_in_use_refuses_to_start(
    tmp_path: Path, live_server: LiveServer, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    # gRPC binds with SO_REUSEPORT unless told not to: the second daemon "served" beside the first and
    # the kernel split the clients' connections between two stores.
    async with build_app(make_settings(tmp_path / "other"), embedder=onnx_embedder) as app:
        with pytest.raises(NotReady, match=f"cannot listen on 127.0.0.1:{live_server.port}"):
            async with serving(app, "127.0.0.1", live_server.port, 0.5):
                pass
    metadata = ((TENANT_METADATA_KEY, "acme"),)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{live_server.port}") as channel:
        stub = MemoryServiceStub(channel)
        written = await stub.Memorize(
            pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="the first daemon keeps its port")),
            metadata=metadata,
        )
        got = await stub.GetMemory(pb.GetMemoryRequest(agent_id="a1", memory_id=written.memory.id), metadata=metadata)
    assert got.memory.content == "the first daemon keeps its port"
