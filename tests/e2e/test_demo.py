"""`memoryd demo` works offline on the embedded default and shows what memoryd kept."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

# Slow end to end: an explicit limit of its own instead of the suite's 60 s default.
pytestmark = pytest.mark.timeout(120)


def _demo(tmp_path: Path, *args: str) -> tuple[str, dict[str, Any]]:
    """Run ``memoryd demo`` offline (no Redis); its stdout and its JSON record."""
    out = tmp_path / "demo.json"
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"} | {"LANCEDB_LOG": "error"}
    result = subprocess.run(
        [sys.executable, "-m", "memoryd", "demo", *args, "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout, json.loads(out.read_text())


def test_demo_replays_its_conversation_offline(tmp_path: Path) -> None:
    stdout, record = _demo(tmp_path)
    assert "=== context the model gets" in stdout and "=== summaries" in stdout
    assert "=== memories filed into the archive" in stdout
    assert record["turns"] == 42 and record["compactions"] >= 1 and record["paths"] == ["extractive"]
    assert record["model_calls_per_compaction"] == 0 and record["filed_memories"] >= 1
    assert record["final_context_tokens"] <= record["window"] == 768
    assert record["get_context_ms"]["n"] == 42


def test_demo_replays_a_locomo_conversation(tmp_path: Path) -> None:
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "locomo_tiny.json"
    _, record = _demo(tmp_path, "--locomo", str(fixture), "--conversation", "1", "--window", "256")
    assert record["conversation"] and record["turns"] > 0 and record["final_context_tokens"] <= 256
