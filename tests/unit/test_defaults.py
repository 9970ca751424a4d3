"""Each default has one home (the core value types); settings, README and proto comments agree with it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from memoryd.config import Settings, load_settings
from memoryd.config.errors import ConfigError
from memoryd.core.conversation import WorkingPolicy
from memoryd.core.job_records import RetryPolicy
from memoryd.core.models import DEFAULT_DECAY, DEFAULT_SALIENCE, MemoryType
from memoryd.core.ranking import RecallTuning
from memoryd.core.validation import Limits
from tests.conftest import SUITE_EMBEDDER

ROOT = Path(__file__).resolve().parents[2]


def test_settings_defaults_build_exactly_the_core_defaults() -> None:
    s = load_settings()
    assert s.recall.tuning() == RecallTuning()
    assert s.jobs.retry_policy() == RetryPolicy()
    assert s.working.default.policy() == WorkingPolicy()
    assert s.memorize.max_content_bytes == Limits().max_content_bytes


def test_a_per_agent_override_changes_only_its_keys_and_is_bounded(tmp_path: Path) -> None:
    config = tmp_path / "m.toml"
    config.write_text('[working.agents.bot]\nstrategy = "buffer_window"\nwindow_messages = 7\n')
    s = load_settings(config)
    override = s.working.agents["bot"].applied_to(WorkingPolicy())
    assert (override.strategy.value, override.window_messages, override.keep_percent) == ("buffer_window", 7, 40)
    config.write_text("[working.agents.bot]\nwindow_messages = 0\n")
    with pytest.raises(ConfigError, match="window_messages"):
        load_settings(config)


def _setting(s: Settings, dotted: str) -> Any:
    value: Any = s
    for part in dotted.split("."):
        value = getattr(value, part)
    return value


def _same(documented: str, actual: Any) -> bool:
    if isinstance(actual, bool):
        return documented == str(actual).lower()
    if isinstance(actual, int | float):
        return float(documented.replace(",", "")) == float(actual)
    return documented == str(actual)


def test_the_configuration_table_states_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every row naming settings keys and giving as many `values` states the settings' defaults."""
    monkeypatch.delenv(SUITE_EMBEDDER)  # the shipped default, not the suite's
    s, checked = load_settings(), 0
    for line in (ROOT / "docs" / "configuration.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        keys, first = [], ""
        for token in re.findall(r"`([^`]+)`", cells[0]):
            if token.startswith("."):
                token = first.rsplit(".", 1)[0] + token
            elif not re.fullmatch(r"[a-z_]+(\.[a-z_<>]+)+", token):
                break
            first = first or token
            keys.append(token)
        values = re.findall(r"`([^`]+)`", cells[2])
        if not keys or any("<" in k for k in keys) or len(values) < len(keys):
            continue
        for key, value in zip(keys, values, strict=False):
            actual = _setting(s, key)
            if actual is None or not re.fullmatch(r"[\w.,-]+", value):
                continue
            assert _same(value, actual), (key, value, actual)
            checked += 1
    assert checked >= 40


@pytest.mark.parametrize(
    ("path", "pattern", "expected"),
    [
        (
            "memory.proto",
            r"Something that happened at a time \(salience ([\d.]+), decay ([\d.]+)",
            (DEFAULT_SALIENCE[MemoryType.EPISODIC], DEFAULT_DECAY[MemoryType.EPISODIC]),
        ),
        (
            "memory.proto",
            r"A durable fact or pattern \(salience ([\d.]+), decay ([\d.]+)",
            (DEFAULT_SALIENCE[MemoryType.SEMANTIC], DEFAULT_DECAY[MemoryType.SEMANTIC]),
        ),
        ("memory.proto", r"at most ([\d,]+) KiB of UTF-8 by default", (Limits().max_content_bytes // 1024,)),
        ("memory.proto", r"MemorizeBatch stores up to ([\d,]+) memories", (Limits().max_batch_items,)),
        ("memory.proto", r"Number of hits, 1 to ([\d,]+); 0: the agent's", (Limits().max_recall_limit,)),
        (
            "conversation.proto",
            r"compaction thresholds \(default ([\d,]+)\)",
            (Settings().working.context_window_tokens,),
        ),
        (
            "conversation.proto",
            r"The agent's configured scope \(default (\w+)\)",
            (WorkingPolicy().storage_scope.value.upper(),),
        ),
        (
            "profile.proto",
            r"The most tokens the document may hold \(default ([\d,]+)\)",
            (Settings().profile.default_budget_tokens,),
        ),
    ],
)
def test_defaults_stated_in_proto_comments_equal_the_constants(
    path: str, pattern: str, expected: tuple[Any, ...]
) -> None:
    text = (ROOT / "proto" / "memoryd" / "v1" / path).read_text()
    found = re.search(pattern, text)
    assert found is not None, pattern

    def value(v: Any) -> Any:
        text = str(v).replace(",", "")
        return float(text) if text.replace(".", "").isdigit() else text

    assert tuple(value(g) for g in found.groups()) == tuple(value(e) for e in expected)
