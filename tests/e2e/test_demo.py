"""`memoryd demo` works offline on the embedded default and shows what memoryd kept."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from memoryd.testing.provider import FakeProvider

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
    assert "=== corrections" in stdout and record["superseded_memories"] == 0  # no model, no correction read
    assert record["turns"] == 42 and record["compactions"] >= 1 and record["paths"] == ["extractive"]
    assert record["model_calls_per_compaction"] == 0 and record["filed_memories"] >= 1
    assert record["final_context_tokens"] <= record["window"] == 768
    assert record["get_context_ms"]["n"] == 42


def test_demo_replays_a_locomo_conversation(tmp_path: Path) -> None:
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "locomo_tiny.json"
    _, record = _demo(tmp_path, "--locomo", str(fixture), "--conversation", "1", "--window", "256")
    assert record["conversation"] and record["turns"] > 0 and record["final_context_tokens"] <= 256


def test_what_the_user_said_before_a_compaction_is_recalled_after_it(tmp_path: Path) -> None:
    """Without a model an extractive summary quotes a fifth of its messages; the user's others were lost to Recall."""
    topics = ["the garden", "a trip to Lisbon", "the chess club", "the quarterly report", "marathon training"]
    turns = [{"speaker": "Ida", "dia_id": "D1:1", "text": "I keep the spare key under the blue flowerpot by the door."}]
    for i in range(2, 41):
        speaker = "Ida" if i % 2 else "Bo"
        text = f"Turn {i} on {topics[i % 5]}: we went over what happened, what comes next and who does each part."
        turns.append({"speaker": speaker, "dia_id": f"D1:{i}", "text": text})
    sample = {
        "sample_id": "key",
        "conversation": {"speaker_a": "Ida", "speaker_b": "Bo", "session_1_date_time": "1:00 pm on 8 May, 2023"}
        | {"session_1": turns},
        "qa": [{"question": "Where does Ida keep the spare key?", "category": 4, "evidence": ["D1:1"]}],
    }
    path = tmp_path / "key.json"
    path.write_text(json.dumps([sample]))
    _, record = _demo(tmp_path, "--locomo", str(path), "--window", "256")
    assert record["compactions"] >= 1 and record["paths"] == ["extractive"]
    assert (record["questions_on_compacted_turns"], record["evidence_recalled"]) == (1, 1.0)


JOINS = "Maya's sister Lena joins her in Tokyo for the first four days"
CANCELLED = "Lena cancelled: Maya travels solo the whole trip"


def _model(system: str, user: str) -> str:
    """A scripted chat model that reads what it is shown: summaries of what the messages say, then memories."""
    if "Existing memories" in system:  # the maintenance call: file what the summary says, correct what it shows
        summary = system.rsplit("Summary:", 1)[-1]
        memories: list[dict[str, str]] = []
        if "Lena may join" in summary:
            memories.append({"content": JOINS, "subject": "Lena"})
        if "Lena cancelled" in summary:
            shown = re.search(rf"^(M\d+): {re.escape(JOINS)}$", system, re.MULTILINE)
            memories.append({"content": CANCELLED, "subject": "Lena", "supersedes": shown.group(1) if shown else ""})
        return json.dumps({"memories": memories})
    said = []
    if "Lena might join me" in system:
        said.append("Maya's sister Lena may join her in Tokyo.")
    if "Lena cancelled" in system:
        said.append("Lena cancelled; Maya travels solo.")
    return json.dumps({"summary": " ".join(said) or "They planned the trip.", "compressed": "They planned a trip."})


def test_demo_with_a_model_shows_a_correction_superseding_a_memory(tmp_path: Path) -> None:
    with FakeProvider() as provider:
        provider.answer_with(_model)
        config = tmp_path / "model.toml"
        config.write_text(f'[provider]\nbase_url = "{provider.base_url}"\nextraction_model = "fake-model"\n')
        stdout, record = _demo(tmp_path, "--config", str(config), "--window", "256")
    assert record["paths"] == ["model"] and record["superseded_memories"] == 1, stdout
    assert f"- {JOINS}\n    → {CANCELLED}" in stdout
