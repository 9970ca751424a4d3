"""Every code example of the docs is a file under examples/, and every example runs against a live daemon."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.client import ClientClosed, MemoryClient
from memoryd.config import load_settings
from tests.conftest import LiveServer
from tests.jobs.conftest import job_settings

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
DOCS = [ROOT / "README.md", ROOT / "ARCHITECTURE.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"^( *)```(python|toml|js)\n(.*?)^\1```", re.S | re.M)
pytestmark = pytest.mark.timeout(180)


def _blocks() -> list[tuple[Path, str, str]]:
    found = []
    for doc in DOCS:
        for indent, language, body in BLOCK.findall(doc.read_text()):
            found.append((doc, language, "".join(line.removeprefix(indent) for line in body.splitlines(True))))
    return found


def test_every_python_and_toml_block_of_the_docs_is_an_example_file() -> None:
    files = {p.read_text(): p for ext in ("py", "toml", "js") for p in EXAMPLES.rglob(f"*.{ext}")}
    blocks = _blocks()
    assert len([b for b in blocks if b[1] == "python"]) >= 7
    strays = [f"{doc.name}: {body[:60]!r}" for doc, _, body in blocks if body not in files]
    assert strays == [], "a docs block that is not an examples/ file, verbatim"
    shown = {files[body] for _, _, body in blocks}
    assert set(files.values()) == shown, "an example no doc shows"


@pytest.mark.parametrize("name", ["object-storage", "reembed"])
def test_the_config_examples_load(name: str) -> None:
    path = EXAMPLES / "config" / f"{name}.toml"
    assert load_settings(path) is not None


@pytest.fixture(scope="module")
def daemon(
    tmp_path_factory: pytest.TempPathFactory, valkey_server: str, onnx_embedder: OnnxMiniLMEmbedder
) -> Iterator[LiveServer]:
    settings = job_settings(tmp_path_factory.mktemp("examples"), valkey_server, None)
    with LiveServer(settings, onnx_embedder) as server:
        yield server


EXPECTED = {
    "quickstart": "Caroline prefers espresso in the morning",
    "settings": "recall.limit",
    "profile": "- Caroline takes her espresso black",
    "conversation": "I'm vegetarian, by the way.",
    "jobs": "queued",  # no worker beside this daemon: the job waits, and the example says so by name
    "scores": "Caroline drinks a double espresso every morning",
    "graph": "Omar handles billing at Acme from October.",
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_example_runs_against_a_live_daemon(daemon: LiveServer, name: str) -> None:
    run = subprocess.run(
        [sys.executable, str(EXAMPLES / "python" / f"{name}.py"), f"127.0.0.1:{daemon.port}"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert EXPECTED[name] in run.stdout, run.stdout


def test_the_node_example_runs_against_a_live_daemon(daemon: LiveServer) -> None:
    node = shutil.which("node")
    assert node, "Node.js is required"
    run = subprocess.run(
        [node, str(EXAMPLES / "node" / "quickstart.js"), f"127.0.0.1:{daemon.port}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "Caroline prefers espresso in the morning" in run.stdout and "refused: query" in run.stdout


def test_a_closed_client_refuses_calls_and_its_channel_with_a_clear_error(daemon: LiveServer) -> None:
    with MemoryClient(f"127.0.0.1:{daemon.port}", tenant="acme") as memory:
        assert isinstance(memory.channel, grpc.Channel)
    with pytest.raises(ClientClosed, match="with` block"):
        memory.channel  # noqa: B018  # grpcio crashes making a stub on a closed channel: never handed out
    with pytest.raises(ClientClosed):
        memory.recall("assistant", "anything")
    with pytest.raises(ClientClosed):
        memory.graph.search("assistant", "anything")
