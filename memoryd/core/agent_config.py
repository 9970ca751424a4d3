"""Per-tenant and per-agent settings as values: the catalogue, validation, tighten-only keys, resolution.

Resolution runs down four levels, the most specific one that sets a key winning:

    default        the daemon's configuration (its TOML and environment)
    tenant         the tenant's stored settings (SetTenantConfig)
    daemon_agent   the daemon file's ``[working.agents.<agent_id>]`` overrides
    agent          the agent's stored settings (SetAgentConfig)

A tighten-only key cannot be loosened below the tenant: a tenant that turns auto-recall or reviews
off, or shortens a budget, is not overridden by either agent level. Setting a looser agent value
is refused while the tenant's stands; a looser value stored before the tenant tightened resolves
to the tenant's (and the effective view says it was capped). Pure.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from memoryd.core.conversation import POLICY_BOUNDS, StorageScope, Strategy
from memoryd.core.errors import InvalidRequest, PreconditionFailed
from memoryd.core.query_terms import TEXT_LANGUAGES
from memoryd.core.review import ApplyPolicy

Value = bool | int | float | str
COLLECTION_PATTERN = r"[A-Za-z0-9._-]{1,64}"
RETENTION_LEAST_DAYS = 1.0
"""The shortest period retention deletes after (0 keeps forever). The pass runs once a day, so a shorter period
keeps nothing for its length: below a day a value reads as a typo that empties the tenant at the next pass."""
Values = Mapping[str, Value]


class Level(StrEnum):
    """Where an effective value came from, least specific first."""

    DEFAULT = "default"
    TENANT = "tenant"
    DAEMON_AGENT = "daemon_agent"
    AGENT = "agent"


class Tighten(StrEnum):
    """Which way a tighten-only key may move below the tenant."""

    NONE = "none"
    OFF_WINS = "off_wins"
    """A switch: false is tighter."""
    LOWER_WINS = "lower_wins"
    """A number: smaller is tighter."""
    ON_WINS = "on_wins"
    """A switch: true is tighter (e.g. an approval requirement)."""
    EARLIER_WINS = "earlier_wins"
    """A choice: the earlier in ``choices`` is tighter."""


@dataclass(frozen=True, slots=True)
class Setting:
    """One configurable key."""

    key: str
    kind: type
    doc: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    tighten: Tighten = Tighten.NONE
    tenant_only: bool = False
    pattern: str = ""
    """A string key's non-empty values must match this whole (a regular expression)."""
    least: float = 0.0
    """A number key's non-zero values are at least this (0 keeps its own meaning, e.g. "forever")."""

    def check(self, value: object, where: str) -> Value:
        """``value`` as this key's type, or InvalidRequest naming ``where``."""
        if self.kind is bool:
            if not isinstance(value, bool):
                raise InvalidRequest(where, f"{self.key} takes true or false, got {value!r}")
            return value
        if self.kind is str:
            return self._check_text(value, where)
        return self._check_number(value, where)

    def _check_text(self, value: object, where: str) -> str:
        if not isinstance(value, str):
            raise InvalidRequest(where, f"{self.key} takes a string, got {value!r}")
        if self.choices and value not in self.choices:
            raise InvalidRequest(where, f"{self.key} must be one of {', '.join(self.choices)}; got {value!r}")
        if len(value) > 200:
            raise InvalidRequest(where, f"{self.key} is at most 200 characters")
        if self.pattern and value and not re.fullmatch(self.pattern, value):
            raise InvalidRequest(where, f"{self.key} must match {self.pattern}, got {value!r}")
        return value

    def _check_number(self, value: object, where: str) -> int | float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InvalidRequest(where, f"{self.key} takes a number, got {value!r}")
        if self.kind is int:
            if isinstance(value, float) and not value.is_integer():
                raise InvalidRequest(where, f"{self.key} takes a whole number, got {value!r}")
            number: float = int(value)
        else:
            number = float(value)
            if not math.isfinite(number):
                raise InvalidRequest(where, f"{self.key} must be finite")
        if (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
            raise InvalidRequest(where, f"{self.key} must be in [{_num(self.low)}, {_num(self.high)}], got {value!r}")
        if 0 < number < self.least:
            raise InvalidRequest(where, f"{self.key} must be 0 or at least {_num(self.least)}, got {value!r}")
        return int(number) if self.kind is int else number

    def tighter(self, a: Value, b: Value) -> Value:
        """The tighter of two values of a tighten-only key."""
        if self.tighten is Tighten.OFF_WINS:
            return bool(a) and bool(b)
        if self.tighten is Tighten.ON_WINS:
            return bool(a) or bool(b)
        if self.tighten is Tighten.EARLIER_WINS:
            return min(a, b, key=lambda v: self.choices.index(str(v)))
        return min(a, b)

    def loosens(self, ceiling: Value, value: Value) -> bool:
        """Whether ``value`` is looser than ``ceiling``."""
        return self.tighten is not Tighten.NONE and self.tighter(ceiling, value) != value


def _num(x: float | None) -> str:
    return "" if x is None else f"{x:g}"


def _working(name: str, kind: type, doc: str, tighten: Tighten = Tighten.NONE) -> Setting:
    low, high = POLICY_BOUNDS.get(name, (None, None))
    return Setting(f"working.{name}", kind, doc, low, high, tighten=tighten)


SETTINGS: dict[str, Setting] = {
    s.key: s
    for s in (
        Setting("working.strategy", str, "How the context fits the window.", choices=tuple(x.value for x in Strategy)),
        _working("window_messages", int, "buffer_window: the last N messages."),
        _working("budget_tokens", int, "summary_buffer: the messages' token budget.", Tighten.LOWER_WINS),
        _working("buffer_threshold", float, "summary_buffer: compact at this share of the budget."),
        _working("buffer_target", float, "summary_buffer: compact down to this share."),
        _working("threshold_percent", int, "accumulate: compact above this share of the window."),
        _working("keep_percent", int, "accumulate: the raw keep-window's share of the window."),
        _working("max_summaries", int, "More live summaries and the oldest merge."),
        _working("summary_budget_percent", int, "Summaries over this share of the window merge."),
        _working("tool_intact", int, "The newest tool results kept whole."),
        _working("tool_truncated", int, "The next tool results, truncated."),
        _working("tool_truncate_chars", int, "Characters a truncated tool result keeps."),
        Setting(
            "working.storage_scope",
            str,
            "What compaction leaves in the archive.",
            choices=tuple(x.value for x in StorageScope),
        ),
        _working("batch_size", int, "File what compaction drops once N messages are pending; 0: at EndSession."),
        _working("auto_recall", bool, "GetContext injects recalled memories.", Tighten.OFF_WINS),
        _working("recall_limit", int, "Memories auto-recall injects at most.", Tighten.LOWER_WINS),
        _working("recall_threshold", float, "Auto-recall's least score (Recall's calibrated 0-1 score)."),
        Setting(
            "working.compaction_model", str, "The provider's model for this agent's compaction; empty: the default."
        ),
        _working("redo_fallback_summaries", bool, "The first compaction with a model rewrites extractive summaries."),
        Setting(
            "working.collection",
            str,
            "The named collection compaction files memories in; empty: none.",
            pattern=COLLECTION_PATTERN,
        ),
        Setting("recall.limit", int, "Recall's limit when a request leaves it 0.", 1, 100),
        Setting("recall.min_score", float, "Recall's min_score when a request leaves it unset.", 0.0, 1.0),
        Setting("recall.vector_weight", float, "The vector arm's weight in the fusion.", 0.0, 10.0),
        Setting("recall.full_text_weight", float, "The full-text arm's weight in the fusion.", 0.0, 10.0),
        Setting(
            "recall.similarity_floor",
            float,
            "Vector hits below this cosine similarity stay out (a spam filter; default: the embedder's calibration).",
            -1.0,
            1.0,
        ),
        Setting(
            "recall.text_language",
            str,
            "The language the tenant's memories are indexed in for full text (its stemmer); CJK works in any.",
            choices=TEXT_LANGUAGES,
            tenant_only=True,
        ),
        Setting("review.enabled", bool, "The audit batch reviews this agent's memories.", tighten=Tighten.OFF_WINS),
        Setting(
            "review.apply",
            str,
            "Which findings a review applies on its own: none (proposals only), rules, all.",
            choices=tuple(p.value for p in ApplyPolicy),
            tighten=Tighten.EARLIER_WINS,
        ),
        Setting(
            "review.agents_apply",
            bool,
            "Agent keys may apply (ApplyFindings) the findings of their own agent's reviews; off: operators only.",
            tenant_only=True,
        ),
        Setting(
            "graph.enabled",
            bool,
            "The memory graph: extraction after compaction, the block in GetContext.",
            tighten=Tighten.OFF_WINS,
        ),
        Setting("graph.write_approval", bool, "Extracted facts land pending until approved.", tighten=Tighten.ON_WINS),
        Setting(
            "graph.max_hops", int, "SearchGraph's expansion depth for this agent.", 0, 3, tighten=Tighten.LOWER_WINS
        ),
        Setting("graph.budget_tokens", int, "The graph block's token budget.", 20, 8000, tighten=Tighten.LOWER_WINS),
        Setting(
            "retention.memories_days",
            float,
            "Memories older than this are deleted; 0 keeps them forever.",
            0.0,
            36_500.0,
            tenant_only=True,
            least=RETENTION_LEAST_DAYS,
        ),
        Setting(
            "retention.conversations_days",
            float,
            "Conversations untouched for longer are deleted; 0 keeps them forever.",
            0.0,
            36_500.0,
            tenant_only=True,
            least=RETENTION_LEAST_DAYS,
        ),
        Setting(
            "retention.servings_days",
            float,
            "The served log keeps what was served to whom this long; 0 keeps it forever.",
            0.0,
            36_500.0,
            tenant_only=True,
            least=RETENTION_LEAST_DAYS,
        ),
        Setting(
            "retention.graph_days",
            float,
            "Non-pinned graph facts and episodes older than this are deleted (then orphaned entities); 0 keeps them.",
            0.0,
            36_500.0,
            tenant_only=True,
            least=RETENTION_LEAST_DAYS,
        ),
        Setting(
            "retention.graph_decay_days",
            float,
            "Non-pinned facts below the decay confidence, not stated for this long, are archived; 0: never.",
            0.0,
            36_500.0,
            tenant_only=True,
        ),
        Setting(
            "retention.graph_decay_confidence",
            float,
            "Facts less sure than this (0-1) may be archived by the decay pass.",
            0.0,
            1.0,
            tenant_only=True,
        ),
    )
}
"""Every key a tenant or agent may set; anything else is refused by name."""


@dataclass(frozen=True, slots=True)
class StoredConfig:
    """One level's stored values (a tenant's, or one agent's) and its compare-and-swap version."""

    values: dict[str, Value] = field(default_factory=dict)
    version: int = 0
    updated_by: str = ""


@dataclass(frozen=True, slots=True)
class Effective:
    """One key's resolved value and where it came from."""

    key: str
    value: Value
    level: Level
    capped: bool = False
    """A looser value set below the tenant was overridden by the tenant's tighten-only value."""


def changed(
    stored: StoredConfig, set_values: Values, unset: tuple[str, ...], *, tenant_level: bool
) -> dict[str, Value]:
    """The values after setting ``set_values`` and removing ``unset``, each checked by name."""
    out = dict(stored.values)
    for key in unset:
        _setting(key, "unset", tenant_level)
        out.pop(key, None)
    for key, value in set_values.items():
        if key in unset:
            raise InvalidRequest(f"values[{key}]", "is both set and unset")
        out[key] = _setting(key, f"values[{key}]", tenant_level).check(value, f"values[{key}]")
    return out


def _setting(key: str, where: str, tenant_level: bool) -> Setting:
    setting = SETTINGS.get(key)
    if setting is None:
        raise InvalidRequest(where, f"unknown setting {key!r}; known: {', '.join(sorted(SETTINGS))}")
    if setting.tenant_only and not tenant_level:
        raise InvalidRequest(where, f"{key} is set per tenant, not per agent")
    return setting


def refuse_loosening(tenant: Values, agent: Values) -> None:
    """PreconditionFailed when an agent value loosens a tighten-only key the tenant set."""
    for key, value in agent.items():
        setting = SETTINGS[key]
        if key in tenant and setting.loosens(tenant[key], value):
            raise PreconditionFailed(
                f"values[{key}]: the tenant set {key} = {tenant[key]!r} and it is tighten-only; "
                f"an agent may not set {value!r}"
            )


def resolve(defaults: Values, tenant: Values, daemon_agent: Values, agent: Values) -> dict[str, Effective]:
    """Every key's effective value, level by level (see the module docstring)."""
    out: dict[str, Effective] = {}
    for key, setting in SETTINGS.items():
        eff = Effective(key, defaults[key], Level.DEFAULT)
        if key in tenant:
            eff = Effective(key, tenant[key], Level.TENANT)
        for level, values in ((Level.DAEMON_AGENT, daemon_agent), (Level.AGENT, agent)):
            if key not in values or setting.tenant_only:
                continue
            value = values[key]
            if key in tenant and setting.loosens(tenant[key], value):
                eff = Effective(key, tenant[key], Level.TENANT, capped=True)
            else:
                eff = Effective(key, value, level)
        out[key] = eff
    return out


_DELETING_DAYS = (
    "retention.memories_days",
    "retention.conversations_days",
    "retention.servings_days",
    "retention.graph_days",
)
"""Retention keys whose pass deletes rows: 0 keeps forever, a smaller positive value deletes sooner."""


def widens_destruction(before: Values, after: Values) -> list[tuple[str, bool]]:
    """Each key whose value in ``after`` lets memoryd delete (True) or apply findings (False) where ``before`` did not.

    A retention period that shortens deletes on the caller's behalf what only an admin may erase, and a
    non-destructive key may neither delete nor apply: without this it could set ``retention.memories_days``
    to a minute and let the next retention pass delete every memory, or set ``review.apply = all`` and
    let reviews apply what it may not. Moving the other way is always fine.
    """
    widened = []
    for key in _DELETING_DAYS:
        old, new = float(before[key]), float(after[key])
        if new > 0 and (old == 0 or new < old):
            widened.append((key, True))
    order = [p.value for p in ApplyPolicy]
    if order.index(str(after["review.apply"])) > order.index(str(before["review.apply"])):
        widened.append(("review.apply", False))
    if after["review.agents_apply"] and not before["review.agents_apply"]:
        widened.append(("review.agents_apply", False))
    return widened
