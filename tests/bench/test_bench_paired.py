"""`memoryd bench paired`: two daemons timed in alternating blocks, the idle one stopped, each side pooled."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from memoryd.commands.bench.daemon import Daemon
from memoryd.commands.bench.paired_bench import ratios

pytestmark = pytest.mark.timeout(240)

REPO = Path(__file__).resolve().parents[2]


def test_the_ratio_pairs_blocks_so_an_episode_that_slows_both_sides_cancels() -> None:
    # Four groups (before, after, after, before); the change costs 10 % in every block, and in the
    # third group the whole host is three times slower for both sides.
    blocks = []
    for group in range(4):
        slow = 3.0 if group == 2 else 1.0
        for side in (0, 1, 1, 0):
            blocks.append((side, [slow * (1.1 if side else 1.0) * (2.0 + i / 100) for i in range(100)]))
    exact = ratios(blocks)
    for q in ("p50", "p99"):
        assert exact[q]["ratio"] == pytest.approx(1.1)
        assert exact[q]["low"] == pytest.approx(1.1) and exact[q]["high"] == pytest.approx(1.1)
    # One group where the change was 50 % slower: the pooled ratio moves and the interval spans it.
    blocks[5] = (1, [1.5 * ms for ms in blocks[4][1]])
    mixed = ratios(blocks)["p50"]
    assert mixed["low"] < mixed["ratio"] < mixed["high"] and mixed["ratio"] > 1.1


def test_a_paused_daemon_answers_nothing_until_resumed_and_still_stops_cleanly(tmp_path: Path) -> None:
    with Daemon(tmp_path / "data", env={"MEMORYD_METRICS__ENABLED": "false"}) as daemon:
        check = health_pb2.HealthCheckRequest()
        with grpc.insecure_channel(daemon.address) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            assert health.Check(check, timeout=10).status == health_pb2.HealthCheckResponse.SERVING
            daemon.pause()
            assert daemon.state() == "T"
            with pytest.raises(grpc.RpcError) as waited:
                health.Check(check, timeout=0.5)
            assert waited.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            daemon.resume()
            assert health.Check(check, timeout=10).status == health_pb2.HealthCheckResponse.SERVING
        daemon.pause()  # stopped when the bench ends: the SIGTERM must still shut it down, not the SIGKILL
    assert daemon.returncode == 0


def test_bench_paired_alternates_blocks_and_pools_each_side(tmp_path: Path) -> None:
    out = tmp_path / "paired.json"
    command = [sys.executable, "-m", "memoryd", "bench", "paired", "--memories", "300", "--agents", "3"]
    command += ["--queries", "84", "--block", "10", "--after-env", "MEMORYD_LOG__LEVEL=ERROR", "--json", str(out)]
    env = {**os.environ, "LANCEDB_LOG": "error"}
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env, check=False)
    assert done.returncode == 0, done.stderr + done.stdout
    record = json.loads(out.read_text())
    # 84 questions make 8 whole blocks a side (the last 4 unasked): four groups of four blocks
    assert [b["side"] for b in record["blocks"]] == ["before", "after", "after", "before"] * 4
    assert record["before"]["n"] == record["after"]["n"] == 80 and record["after"]["blocks"] == 8
    assert all(0 < b["p50"] <= b["max"] for b in record["blocks"])
    assert record["before"]["daemon_cpu_ms_per_call"] > 0 and record["after"]["daemon_cpu_ms_per_call"] > 0
    for q in ("p50", "p99"):
        ratio = record["ratio"][q]
        assert ratio["low"] <= ratio["ratio"] <= ratio["high"]
        assert ratio["ratio"] == pytest.approx(record["after"][q] / record["before"][q])
        assert f"after / before {q}" in done.stdout
    commit = subprocess.run(["git", "-C", str(REPO), "describe", "--always", "--dirty"], capture_output=True, text=True)
    assert record["before"]["checkout"]["path"] == record["after"]["checkout"]["path"] == str(REPO)
    assert record["after"]["checkout"]["commit"] == commit.stdout.strip()
    assert record["config"]["after_env"] == [["MEMORYD_LOG__LEVEL", "ERROR"]]
    # the after side's setting reached its daemon only: the start-up warning logged by the before side alone
    assert done.stderr.count("protected mode: no API keys exist") == 1


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--before-root", "/"], "memoryd bench paired: error: argument --before-root: / holds no memoryd package"),
        (["--after-env", "FAST"], "memoryd bench paired: error: argument --after-env: 'FAST' is not KEY=VALUE"),
        (["--queries", "30", "--block", "20"], "memoryd bench paired: --queries must hold two --block of calls"),
    ],
)
def test_bench_paired_refuses_bad_arguments_in_one_line(arguments: list[str], said: str) -> None:
    command = [sys.executable, "-m", "memoryd", "bench", "paired", *arguments]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode in (1, 2) and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith(said)
