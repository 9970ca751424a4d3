"""Working memory as values and rules: messages, summaries, policies, compaction plans. Pure.

A conversation is an append-only list of messages (seq 1, 2, ...) plus dated
summaries of the stretches that were compacted. ``compacted_through`` is the
last seq a summary (or, for ``buffer_window``, the window) has absorbed; the
messages after it are the raw tail. Everything here is a function of those
values and a token counter, so the service, the job and the tests agree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum

Count = Callable[[str], int]


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


@dataclass(frozen=True, slots=True)
class WorkingPolicy:
    """Per-agent (and per-conversation) working-memory settings."""

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

    def render(self) -> str:
        """How the summary reads in the context: its dates first, ``[compressed]`` when merged."""
        span = f"{self.first_at:%Y-%m-%d}" if self.first_at.date() == self.last_at.date() else \
            f"{self.first_at:%Y-%m-%d} to {self.last_at:%Y-%m-%d}"
        mark = "[compressed] " if self.level else ""
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
    options: dict[str, str | int | float | bool] = field(default_factory=dict)
    """Per-conversation overrides of the agent's policy."""
    revision: int = 0
    created_at: datetime | None = None
    updated_at: datetime | None = None


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

    kind: str
    """profile | summary | message | memory."""
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

    def tokens(self, kind: str | None = None) -> int:
        """Tokens of every part, or of one kind."""
        return sum(p.token_count for p in self.parts if kind is None or p.kind == kind)


def apply_overrides(policy: WorkingPolicy, options: dict[str, str | int | float | bool]) -> WorkingPolicy:
    """The agent's policy with a conversation's overrides (already validated) applied."""
    changes: dict[str, object] = dict(options)
    if "strategy" in changes:
        changes["strategy"] = Strategy(str(changes["strategy"]))
    if "storage_scope" in changes:
        changes["storage_scope"] = StorageScope(str(changes["storage_scope"]))
    return replace(policy, **changes)  # type: ignore[arg-type]  # keys are WorkingPolicy fields


def shrink_tool_results(messages: Sequence[Message], policy: WorkingPolicy, count: Count) -> list[Message]:
    """The progressive tool-result pipeline: newest intact, middle-aged truncated, oldest one line."""
    tool_positions = [i for i, m in enumerate(messages) if m.role == Role.TOOL]
    out = list(messages)
    for age, i in enumerate(reversed(tool_positions)):
        m = messages[i]
        if age < policy.tool_intact:
            continue
        if age < policy.tool_intact + policy.tool_truncated:
            if len(m.content) <= policy.tool_truncate_chars:
                continue
            text = m.content[:policy.tool_truncate_chars] + f" … [truncated, {m.token_count} tokens in full]"
        else:
            first = m.content.strip().splitlines()[0][:80] if m.content.strip() else ""
            text = f"[{m.tool_name or 'tool'} result collapsed, {m.token_count} tokens: {first}]"
        out[i] = replace(m, content=text, token_count=count(text))
    return out


def plan_compaction(conv: Conversation, raw: Sequence[Message], summaries: Sequence[Summary],
                    policy: WorkingPolicy, *, force: bool = False) -> CompactionPlan | None:
    """The compaction due for this state, or None. ``raw`` is the tail after ``compacted_through``.

    ``force`` (Compact, and the job itself) skips the threshold: whatever lies before the
    keep-window is compacted.
    """
    if not raw:
        return None
    if policy.strategy == Strategy.BUFFER_WINDOW:
        if len(raw) <= policy.window_messages:
            return None
        cut = len(raw) - policy.window_messages
        return CompactionPlan(tuple(raw[:cut]), tuple(raw[cut:]), summarize=False)
    raw_tokens = sum(m.token_count for m in raw)
    summary_tokens = sum(s.token_count for s in summaries)
    if policy.strategy == Strategy.SUMMARY_BUFFER:
        if not force and raw_tokens + summary_tokens <= policy.buffer_threshold * policy.budget_tokens:
            return None
        keep_budget = policy.buffer_target * policy.budget_tokens - summary_tokens
    else:
        window = conv.context_window
        if not force and raw_tokens + summary_tokens <= policy.threshold_percent / 100 * window:
            return None
        # Leave room below the threshold for the summaries this compaction leaves behind (and a
        # tenth of the window), or a small window would compact again on the very next message.
        cap = summary_cap(policy, window)
        projected = min(summary_tokens, policy.summary_budget_percent / 100 * window) + cap
        keep_budget = min(policy.keep_percent / 100 * window,
                          policy.threshold_percent / 100 * window - projected - window / 10)
    kept: list[Message] = []
    used = 0
    for m in reversed(raw):
        if kept and used + m.token_count > keep_budget:
            break
        kept.append(m)
        used += m.token_count
    kept.reverse()
    dropped = tuple(raw[:len(raw) - len(kept)])
    if not dropped:
        return None
    return CompactionPlan(dropped, tuple(kept), summarize=True)


def summaries_to_merge(summaries: Sequence[Summary], policy: WorkingPolicy, window: int) -> tuple[Summary, ...]:
    """The oldest summaries to fold into one when there are too many or they take too much room."""
    budget = policy.summary_budget_percent / 100 * window
    total = sum(s.token_count for s in summaries)
    if len(summaries) <= policy.max_summaries and total <= budget:
        return ()
    merged: list[Summary] = []
    for s in summaries[:-1]:  # the newest summary always stays as it is
        merged.append(s)
        total -= s.token_count
        if len(merged) >= 2 and len(summaries) - len(merged) + 1 <= policy.max_summaries and total <= budget:
            break
    return tuple(merged) if len(merged) >= 2 else ()


def assemble(profile_block: str, summaries: Sequence[Summary], raw: Sequence[Message],
             memories: Sequence[tuple[str, datetime]], policy: WorkingPolicy, window: int,
             count: Count) -> ContextAssembly:
    """The context to send, in order: profile, dated summaries, kept raw messages, recalled memories.

    Never over ``window`` tokens: the profile is placed first, then the newest raw
    messages (they win over older ones), then summaries (newest first), then memories.
    """
    left = window
    parts_head: list[ContextPart] = []
    if profile_block:
        tokens = count(profile_block)
        if tokens <= left:
            parts_head.append(ContextPart("profile", Role.SYSTEM, profile_block, tokens))
            left -= tokens
    tail = shrink_tool_results(raw, policy, count)
    if policy.strategy == Strategy.BUFFER_WINDOW:
        tail = tail[-policy.window_messages:]
        summaries = ()
    kept: list[ContextPart] = []
    for m in reversed(tail):
        if m.token_count > left:
            break
        kept.append(ContextPart("message", m.role, m.content, m.token_count, m.seq, m.tool_name, m.created_at))
        left -= m.token_count
    kept.reverse()
    summary_parts: list[ContextPart] = []
    for s in reversed(summaries):
        text = s.render()
        tokens = count(text)
        if tokens > left:
            break
        summary_parts.append(ContextPart("summary", Role.SYSTEM, text, tokens, s.to_seq, at=s.last_at))
        left -= tokens
    summary_parts.reverse()
    memory_parts: list[ContextPart] = []
    for text, at in memories:
        line = f"[memory, {at:%Y-%m-%d}] {text}"
        tokens = count(line)
        if tokens > left:
            break
        memory_parts.append(ContextPart("memory", Role.SYSTEM, line, tokens, at=at))
        left -= tokens
    parts = (*parts_head, *summary_parts, *kept, *memory_parts)
    return ContextAssembly(parts, policy.strategy, window, len(tail) - len(kept))


def central_messages(messages: Sequence[Message], vectors: Sequence[Sequence[float]], keep: int) -> list[Message]:
    """The ``keep`` messages closest to the stretch's centroid, in their original order (extractive summary)."""
    if len(messages) <= keep:
        return list(messages)
    dim = len(vectors[0])
    centroid = [sum(v[d] for v in vectors) / len(vectors) for d in range(dim)]
    scores = [sum(a * b for a, b in zip(v, centroid, strict=True)) for v in vectors]
    best = sorted(range(len(messages)), key=lambda i: -scores[i])[:keep]
    return [messages[i] for i in sorted(best)]


def extractive_summary(messages: Sequence[Message], picked: Sequence[Message], count: Count, max_tokens: int,
                       max_chars: int = 300) -> str:
    """A summary made of the picked messages, each with its date and speaker, within ``max_tokens``."""
    lines = [f"Excerpts of {len(messages)} messages:"]
    for m in picked:
        text = " ".join(m.content.split())
        if len(text) > max_chars:
            text = text[:max_chars] + " …"
        line = f"- {m.created_at:%Y-%m-%d} {m.role.value}: {text}"
        if len(lines) > 1 and count("\n".join([*lines, line])) > max_tokens:
            break
        lines.append(line)
    return "\n".join(lines)


def merge_extractive(merge: Sequence[Summary], count: Count, max_tokens: int) -> str:
    """Older summaries folded into one without a model: their newest lines, within ``max_tokens``."""
    lines = [line for s in merge for line in s.text.splitlines() if line.startswith("- ")]
    kept: list[str] = []
    header = f"Merged {len(merge)} summaries:"
    for line in reversed(lines):
        if kept and count("\n".join([header, line, *kept])) > max_tokens:
            break
        kept.insert(0, line)
    return "\n".join([header, *kept])


def summary_cap(policy: WorkingPolicy, window: int, ceiling: int = 400) -> int:
    """Tokens one summary may take: a third of the summaries' share of the window (so a few fit)."""
    return max(100, min(ceiling, int(policy.summary_budget_percent / 100 * window / 3)))


def summary_id(conversation_id: str, from_seq: int, to_seq: int, level: int) -> str:
    """Deterministic: a re-run of the same compaction writes the same summary row."""
    return f"{conversation_id}:summary:{from_seq}-{to_seq}:L{level}"


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


def compact_key(conversation_id: str, last_seq: int, *, force: bool = False) -> str:
    """The compaction job of a conversation up to ``last_seq``: the same state gives the same key.

    A forced compaction (the Compact RPC) ends in ``:force``: it compacts whatever lies
    before the keep-window; an automatic one re-checks the threshold when it runs, so
    jobs queued by a burst of appends do not compact more than one is due.
    """
    return f"compact:{conversation_id}:{last_seq}" + (":force" if force else "")


def parse_compact_key(key: str) -> tuple[str, int, bool]:
    """(conversation_id, last_seq, forced) of a compaction key (conversation ids may contain ':')."""
    body = key.removeprefix("compact:")
    force = body.endswith(":force")
    conversation_id, _, seq = body.removesuffix(":force").rpartition(":")
    return conversation_id, int(seq), force
