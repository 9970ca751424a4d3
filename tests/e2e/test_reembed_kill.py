"""``memoryd reembed`` killed with SIGKILL mid-way, then run again, beside a live daemon.

The daemon answers Recall and takes writes the whole time (0 errors); the second run resumes
(it fills only what is missing), switches both tenants, and every row ends with the new model's
vector of its own text: no row lost, none left behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

import grpc
import lancedb
import pytest

from memoryd.adapters.lance.rows import space_column
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.config import load_settings
from memoryd.rpc.client import MemoryServiceStub, pb
from memoryd.testing.provider import FakeProvider, hashed_embedding
from tests.conftest import LiveServer, tenant

pytestmark = pytest.mark.timeout(180)

MODEL, DIM = "fake-embed", 256
TENANTS = ["t-a", "t-b"]
WORDS = ["espresso", "glacier", "violin", "harbor", "quartz", "meadow", "lantern", "tundra"]


def _config(path: Path, data: Path, provider: FakeProvider) -> Path:
    path.write_text(f"""
[storage]
uri = "{data}"
maintenance_enabled = false
[reembed]
enabled = true
provider = "openai"
base_url = "{provider.base_url}"
model = "{MODEL}"
dimension = {DIM}
send_dimensions = true
refresh_seconds = 0.2
settle_seconds = 0.5
[log]
level = "WARNING"
""")
    return path


def _reembed(config: Path, stderr: IO[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "memoryd", "reembed", "--to", MODEL, "--batch", "8", "--config", str(config)],
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        env={**os.environ, "LANCEDB_LOG": "error"},
        cwd=config.parent,  # not beside a `make run` of this checkout: its var/up.json names another store
    )


def test_a_killed_reembed_resumes_and_recall_never_stops(tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder) -> None:
    with FakeProvider(latency=0.01) as provider:
        config = _config(tmp_path / "memoryd.toml", tmp_path / "data", provider)
        server = LiveServer(load_settings(config), onnx_embedder)
        server.start()
        errors: list[str] = []
        written = {t: 0 for t in TENANTS}
        stop = threading.Event()
        with (
            grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel,
            (tmp_path / "reembed.log").open("w+") as log,
        ):
            stub = MemoryServiceStub(channel)
            for t in TENANTS:
                items = [pb.MemoryInput(content=f"{t} note {i} on the {WORDS[i % 8]} {i}") for i in range(150)]
                stub.MemorizeBatch(pb.MemorizeBatchRequest(agent_id="a", items=items), metadata=tenant(t))
                written[t] = 150

            def traffic() -> None:
                n = 0
                while not stop.is_set():
                    t = TENANTS[n % 2]
                    try:
                        reply = stub.Recall(
                            pb.RecallRequest(agent_id="a", query="glacier 9", limit=5), metadata=tenant(t)
                        )
                        if not any("note 9 on the glacier" in h.memory.content for h in reply.hits):
                            errors.append(f"recall of {t} missed its memory")
                        if n % 5 == 0:
                            item = pb.MemoryInput(content=f"{t} live write {n} about a {WORDS[n % 8]}")
                            stub.Memorize(pb.MemorizeRequest(agent_id="a", memory=item), metadata=tenant(t))
                            written[t] += 1
                    except grpc.RpcError as err:
                        errors.append(f"{err.code()}: {err.details()}")
                    n += 1
                    time.sleep(0.01)

            reader = threading.Thread(target=traffic, daemon=True)
            reader.start()
            try:
                first = _reembed(config, log)
                assert first.stdout is not None
                seen = []
                for line in first.stdout:  # progress lines: "t-a: 48/300 rows, ..." (rows stored)
                    seen.append(line)
                    if "rows/s" in line and int(line.split(": ", 1)[1].split("/")[0]) >= 48:
                        break
                else:  # it ended before: say why rather than count its unfilled rows
                    log.seek(0)
                    pytest.fail(f"reembed exited {first.wait()} before 48 rows: {log.read()[-2000:]}")
                os.kill(first.pid, signal.SIGKILL)
                first.wait()
                first.stdout.close()
                stored = [v for rows in _vectors(tmp_path / "data").values() for _, v in rows]
                left = sum(v is None for v in stored)
                # Killed mid-way: some rows unfilled, and at least the 48 the progress reported as stored
                # survive the kill. Count against every row now, not the 300 written first: live writes
                # that landed before the run added the column are unfilled too.
                if not (left > 0 and len(stored) - left >= 48):
                    log.seek(0)
                    pytest.fail(f"{left} rows unfilled after {seen[-3:]}; stderr: {log.read()[-2000:]}")
                second = _reembed(config, log)
                out, _ = second.communicate(timeout=120)
                assert second.returncode == 0, out
                time.sleep(0.5)  # the daemon's view of the switch (refresh_seconds) catches up
                calls = provider.calls["/v1/embeddings"]
                vector_only = pb.RecallRequest(agent_id="a", query="lantern 14", limit=3, arms=pb.RECALL_ARMS_VECTOR)
                hits = stub.Recall(vector_only, metadata=tenant("t-a")).hits
                assert provider.calls["/v1/embeddings"] > calls  # the query was embedded by the new model
                assert "note 14 on the lantern" in hits[0].memory.content
            finally:
                stop.set()
                reader.join(timeout=10)
                server.stop()
        assert errors == []
        assert "t-a" in out and "t-b" in out and out.count(MODEL) >= 2
    vectors = _vectors(tmp_path / "data")
    for t in TENANTS:
        rows = vectors[t]
        assert len(rows) == written[t]  # nothing lost
        for content, vector in rows:
            assert vector is not None, content  # nothing left behind, live writes included
            assert vector == pytest.approx(hashed_embedding(content, DIM), abs=1e-6)


def _vectors(data: Path) -> dict[str, list[tuple[str, list[float] | None]]]:
    db = lancedb.connect(str(data))
    out = {}
    for t in TENANTS:
        rows = db.open_table(f"memories_{t}").to_arrow().select(["content", space_column(MODEL)]).to_pylist()
        out[t] = [(r["content"], r[space_column(MODEL)]) for r in rows]
    return out
