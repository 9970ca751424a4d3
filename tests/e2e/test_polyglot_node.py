"""Agent runtimes in other languages are our users: a Node.js client drives the daemon."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import grpc

from tests.conftest import LiveServer

ROOT = Path(__file__).resolve().parents[2]


def test_node_client_memorizes_and_recalls(live_server: LiveServer) -> None:
    node = shutil.which("node")
    assert node, "Node.js is required"
    assert (ROOT / "node_modules" / "@grpc" / "grpc-js").exists(), "run `make install` (npm ci)"
    out = subprocess.run(
        [node, str(ROOT / "tests" / "polyglot" / "client.js"), f"127.0.0.1:{live_server.port}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    result = json.loads(out.stdout)
    memory = result["mem"]["ok"]["memory"]
    assert memory["content"] == "Node runtimes can store memories too" and memory["scope"] == "SCOPE_PRIVATE"
    hits = result["recall"]["ok"]["hits"]
    assert hits[0]["memory"]["id"] == memory["id"] and hits[0]["score"] > 0
    assert result["bad"]["code"] == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert "memory.content" in result["bad"]["details"]
