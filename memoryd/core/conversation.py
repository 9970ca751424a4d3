"""Working memory as values: messages, summaries, policies, plans, the assembled context. Pure.

A conversation is an append-only list of messages (seq 1, 2, ...) plus dated
summaries of the stretches that were compacted. ``compacted_through`` is the
last seq a summary (or, for ``buffer_window``, the window) has absorbed; the
messages after it are the raw tail. The rules over these values are in
``core.working``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from memoryd.core.data_rights import digest
from memoryd.core.models import Scope

Count = Callable[[str], int]
Options = dict[str, str | int | float | bool]
"""Per-conversation overrides of an agent's WorkingPolicy, by field name."""


class Role(StrEnum):
    """Who said it."""

    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"
    TOOL = "tool"


class Strategy(StrEnum):
    """How the context is kept within the model's window."""

    BUFFER_WINDOW = "buffer_window"
    """The last N messages; older ones are dropped (and filed per ``storage_scope``)."""
    SUMMARY_BUFFER = "summary_buffer"
    """A token budget: at ``threshold`` × budget, the oldest messages are summarised down to ``target``."""
    ACCUMULATE = "accumulate"
    """At ``threshold_percent`` of the window, all but a keep-window become a new dated summary."""


class StorageScope(StrEnum):
    """What messages leave in the archive when compaction drops them from the raw tail."""

    ALL = "all"
    """Every dropped message becomes an episodic memory."""
    SESSION = "session"
    """Each compaction's summary becomes one memory."""
    CONVERSATIONAL = "conversational"
    """Dropped user messages become memories."""
    SUMMARIES_ONLY = "summaries_only"
    """Nothing beyond the summaries kept with the conversation (and what maintenance extracts)."""


class PartKind(StrEnum):
    """What a part of the assembled context is."""

    PROFILE = "profile"
    SUMMARY = "summary"
    MESSAGE = "message"
    MEMORY = "memory"
    GRAPH = "graph"


MIN_WINDOW, MAX_WINDOW = 256, 4_000_000
"""Context windows a runtime may state, in tokens."""

POLICY_BOUNDS: dict[str, tuple[float, float]] = {
    "window_messages": (1, 10_000),
    "budget_tokens": (100, MAX_WINDOW),
    "buffer_threshold": (0.01, 1.0),
    "buffer_target": (0.01, 1.0),
    "threshold_percent": (1, 100),
    "keep_percent": (1, 100),
    "max_summaries": (2, 1_000),
    "summary_budget_percent": (1, 100),
    "tool_intact": (0, 10_000),
    "tool_truncated": (0, 10_000),
    "tool_truncate_chars": (20, 1_000_000),
    "recall_limit": (1, 50),
    "recall_threshold": (-1.0, 1.0),
    "batch_size": (0, 10_000),
}
"""The accepted range of every numeric policy value (config, per-agent and per-conversation alike)."""

CONVERSATION_OPTIONS = frozenset({"strategy", "window_messages", "budget_tokens", "storage_scope", "auto_recall"})
"""The policy values one conversation may override (``ConversationOptions``)."""


@dataclass(frozen=True, slots=True)
class WorkingPolicy:
    """Per-agent (and per-conversation) working-memory settings; the defaults here are the shipped defaults."""

    strategy: Strategy = Strategy.ACCUMULATE
    window_messages: int = 20
    budget_tokens: int = 2000
    buffer_threshold: float = 0.8
    buffer_target: float = 0.6
    threshold_percent: int = 75
    keep_percent: int = 40
    max_summaries: int = 8
    summary_budget_percent: int = 15
    tool_intact: int = 3
    """The newest tool results kept whole."""
    tool_truncated: int = 5
    """The next ones truncated to ``tool_truncate_chars``; older ones collapse to one line."""
    tool_truncate_chars: int = 400
    storage_scope: StorageScope = StorageScope.SESSION
    auto_recall: bool = False
    recall_limit: int = 5
    recall_threshold: float = 0.7
    batch_size: int = 1
    """File what compaction drops once this many messages are pending; 0: only when the session ends."""
    compaction_model: str = ""
    """The provider's model for this agent's compaction calls; empty: the configured default."""
    collection: str = ""
    """The named collection compaction files memories in (e.g. "support_history"); empty: none."""
    redo_fallback_summaries: bool = True
    """The first compaction with a model rewrites summaries made without one (one more call each)."""


@dataclass(frozen=True, slots=True)
class Message:
    """One message of a conversation."""

    seq: int
    message_id: str
    role: Role
    content: str
    created_at: datetime
    token_count: int
    tool_name: str = ""
    tool_call_id: str = ""


@dataclass(frozen=True, slots=True)
class Summary:
    """A dated summary of messages ``from_seq``..``to_seq``; level > 0 is a merge of summaries."""

    summary_id: str
    from_seq: int
    to_seq: int
    first_at: datetime
    last_at: datetime
    text: str
    token_count: int
    level: int = 0
    fallback: bool = False
    """Made without a model (the extractive path): marked in the context, and redone by the first
    compaction with a model when ``redo_fallback_summaries`` is on."""

    def render(self) -> str:
        """How the summary reads in the context: dates first, ``[compressed]`` / ``[extractive]`` marks."""
        span = (
            f"{self.first_at:%Y-%m-%d}"
            if self.first_at.date() == self.last_at.date()
            else f"{self.first_at:%Y-%m-%d} to {self.last_at:%Y-%m-%d}"
        )
        mark = ("[compressed] " if self.level else "") + ("[extractive] " if self.fallback else "")
        return f"{mark}[{span}] {self.text}"


@dataclass(frozen=True, slots=True)
class Conversation:
    """The state row of a conversation (changed only by compare-and-swap on ``revision``)."""

    conversation_id: str
    agent_id: str
    end_user_id: str = ""
    context_window: int = 8192
    next_seq: int = 1
    compacted_through: int = 0
    summary_ids: tuple[str, ...] = ()
    """The live summaries, oldest first."""
    options: Options = field(default_factory=dict)
    """Per-conversation overrides of the agent's policy."""
    revision: int = 0
    created_at: datetime | None = None
    updated_at: datetime | None = None
    filed_through: int = 0
    """The last seq whose messages (or summary) went to the archive per ``storage_scope``; it trails
    ``compacted_through`` while fewer than ``batch_size`` compacted messages wait (``batch_size`` 0:
    until EndSession)."""

    @property
    def filing_scope(self) -> Scope:
        """Where what compaction files from it goes: a contact's conversation is that contact's.

        The agent's private rows are seen whichever contact it serves; filed there, one contact's
        words came back to another's session.
        """
        return Scope.END_USER if self.end_user_id else Scope.PRIVATE


def filing_due(conv: Conversation, through: int, batch_size: int, *, end: bool) -> bool:
    """Whether compacting through ``through`` files what waits: at EndSession always, else once ``batch_size`` did."""
    pending = through - conv.filed_through
    if pending <= 0:
        return False
    return end or (batch_size > 0 and pending >= batch_size)


@dataclass(frozen=True, slots=True)
class CompactionPlan:
    """What one compaction does: summarise ``dropped`` (unless buffer_window), maybe merge old summaries."""

    dropped: tuple[Message, ...]
    kept: tuple[Message, ...]
    summarize: bool
    merge: tuple[Summary, ...] = ()
    """The oldest live summaries to fold into one ``[compressed]`` summary."""

    @property
    def through(self) -> int:
        """The last seq this compaction absorbs."""
        return self.dropped[-1].seq


@dataclass(frozen=True, slots=True)
class ContextPart:
    """One message of the assembled context."""

    kind: PartKind
    role: Role
    content: str
    token_count: int
    seq: int = 0
    tool_name: str = ""
    at: datetime | None = None


@dataclass(frozen=True, slots=True)
class ContextAssembly:
    """What GetContext returns."""

    parts: tuple[ContextPart, ...]
    strategy: Strategy
    window: int
    left_out: int
    """Raw messages that did not fit (a compaction is due or running)."""
    degraded: str = ""
    """Why a part is poorer than usual (auto-recall on full text alone, the graph block left out); "" when not."""
    recalled: int | None = None
    """Memories auto-recall found above the threshold (some may not fit the window); None: auto-recall off."""
    graph_facts: int = 0
    """Facts in the graph block (0: none added)."""

    def tokens(self, kind: PartKind | None = None) -> int:
        """Tokens of every part, or of one kind."""
        return sum(p.token_count for p in self.parts if kind is None or p.kind == kind)


@dataclass(frozen=True, slots=True)
class ConversationEvent:
    """A compaction step, persisted with the conversation and streamed by WatchConversation."""

    event_id: str
    kind: str
    """compaction_started | compaction_finished | compaction_failed."""
    job_id: str
    message: str
    at: datetime
    path: str = ""
    """model | extractive | window (buffer_window: nothing to summarise)."""
    summarized_messages: int = 0
    tokens_in: int = 0
    tokens_out: int = 0


@dataclass(frozen=True, slots=True)
class MessageInput:
    """One message as the runtime appends it (validated by the service)."""

    message_id: str
    role: Role | None
    content: str
    created_at: datetime | None = None
    tool_name: str = ""
    tool_call_id: str = ""


class CompactMode(StrEnum):
    """Why a compaction job runs."""

    AUTO = "auto"
    """An append crossed the threshold: re-checked when the job runs."""
    FORCE = "force"
    """The Compact RPC: whatever lies before the keep-window."""
    END = "end"
    """EndSession: the whole tail, and everything not yet filed goes to the archive."""


def compact_key(conversation_id: str, last_seq: int, *, mode: CompactMode = CompactMode.AUTO) -> str:
    """The compaction job of a conversation up to ``last_seq``: the same state gives the same key.

    A forced compaction ends in ``:force``, an EndSession in ``:end``; an automatic one re-checks
    the threshold when it runs, so jobs queued by a burst of appends do not compact more than one is due.
    """
    return f"compact:{conversation_id}:{last_seq}" + ("" if mode is CompactMode.AUTO else f":{mode.value}")


def compaction_lease(tenant_id: str, conversation_id: str) -> str:
    """Held by the conversation's compaction while it runs (one at a time), and by an erasure of its contact.

    Named by the conversation's digest: an erasure takes it after it rewrote Redis's files, and a
    conversation id may name the contact.
    """
    return f"compact:{tenant_id}:{digest(tenant_id, conversation_id)}"


def extraction_lease(tenant_id: str, conversation_id: str) -> str:
    """Held by the conversation's graph extraction while it runs, and by an erasure of its contact."""
    return f"graph:{tenant_id}:{digest(tenant_id, conversation_id)}"


def job_leases(tenant_id: str, conversation_id: str) -> tuple[str, str]:
    """The leases of the jobs that write what they made of a conversation after reading it.

    A deletion of the conversation (an erasure, retention) holds them, so none is under way while it goes.
    """
    return compaction_lease(tenant_id, conversation_id), extraction_lease(tenant_id, conversation_id)


def parse_compact_key(key: str) -> tuple[str, int, CompactMode]:
    """(conversation_id, last_seq, mode) of a compaction key (conversation ids may contain ':')."""
    body = key.removeprefix("compact:")
    mode = CompactMode.AUTO
    for special in (CompactMode.FORCE, CompactMode.END):
        if body.endswith(f":{special.value}"):
            body, mode = body.removesuffix(f":{special.value}"), special
    conversation_id, _, seq = body.rpartition(":")
    return conversation_id, int(seq), mode


@dataclass(frozen=True, slots=True)
class CompactionSignal:
    """What one finished compaction job did, for metrics and the log."""

    trigger: CompactMode
    outcome: str
    """compacted, filed, nothing_to_compact, no_conversation; or the job's final state when it did not succeed."""
    path: str
    """model | extractive | window; "" when nothing was compacted."""
    summarized_messages: int
    summaries_written: int
    """The new summary, and the summary the older ones were merged into."""
    filed_memories: int


def compaction_signal(key: str, state: str, result: Mapping[str, object]) -> CompactionSignal:
    """The signal of a finished compaction job from its key, final state and result."""
    _, _, trigger = parse_compact_key(key)
    path = str(result.get("path", ""))

    def number(name: str) -> int:
        value = result.get(name, 0)
        return int(value) if isinstance(value, int | float) else 0

    written = (1 + (number("merged_summaries") > 0)) if path in ("model", "extractive") else 0
    outcome = str(result.get("outcome", "")) if state == "succeeded" else state
    return CompactionSignal(trigger, outcome, path, number("summarized_messages"), written, number("filed_memories"))
