"""`memoryd demo` works offline on the embedded default and shows what memoryd kept."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Slow end to end: an explicit limit of its own instead of the suite's 60 s default.
pytestmark = pytest.mark.timeout(120)


def test_demo_replays_its_conversation_offline(tmp_path: Path) -> None:
    out = tmp_path / "demo.json"
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"} | {"LANCEDB_LOG": "error"}
    result = subprocess.run(
        [sys.executable, "-m", "memoryd", "demo", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "=== context the model gets" in result.stdout and "=== summaries" in result.stdout
    assert "=== memories filed into the archive" in result.stdout
    record = json.loads(out.read_text())
    assert record["turns"] == 42 and record["compactions"] >= 1 and record["paths"] == ["extractive"]
    assert record["model_calls_per_compaction"] == 0 and record["filed_memories"] >= 1
    assert record["final_context_tokens"] <= record["window"] == 768
    assert record["get_context_ms"]["n"] == 42


def test_demo_replays_a_locomo_conversation(tmp_path: Path) -> None:
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "locomo_tiny.json"
    out = tmp_path / "demo.json"
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"} | {"LANCEDB_LOG": "error"}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "memoryd",
            "demo",
            "--locomo",
            str(fixture),
            "--conversation",
            "1",
            "--window",
            "256",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    record = json.loads(out.read_text())
    assert record["conversation"] and record["turns"] > 0 and record["final_context_tokens"] <= 256
