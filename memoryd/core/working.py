"""Working memory's rules: the tool-result pipeline, compaction plans, merges, context assembly. Pure.

Every function is a function of conversation values (``core.conversation``) and a
token counter, so the service, the compaction job and the tests agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from memoryd.core.conversation import (
    CompactionPlan,
    ContextAssembly,
    ContextPart,
    Conversation,
    Count,
    Message,
    Options,
    PartKind,
    Role,
    StorageScope,
    Strategy,
    Summary,
    WorkingPolicy,
)


def apply_overrides(policy: WorkingPolicy, options: Options) -> WorkingPolicy:
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
            text = m.content[: policy.tool_truncate_chars] + f" … [truncated, {m.token_count} tokens in full]"
        else:
            first = m.content.strip().splitlines()[0][:80] if m.content.strip() else ""
            text = f"[{m.tool_name or 'tool'} result collapsed, {m.token_count} tokens: {first}]"
        out[i] = replace(m, content=text, token_count=count(text))
    return out


def plan_compaction(
    conv: Conversation,
    raw: Sequence[Message],
    summaries: Sequence[Summary],
    policy: WorkingPolicy,
    *,
    force: bool = False,
    end: bool = False,
) -> CompactionPlan | None:
    """The compaction due for this state, or None. ``raw`` is the tail after ``compacted_through``.

    ``force`` (Compact, and the job itself) skips the threshold: whatever lies before the
    keep-window is compacted. ``end`` (EndSession) compacts the whole tail.
    """
    if not raw:
        return None
    if end:
        return CompactionPlan(tuple(raw), (), summarize=policy.strategy != Strategy.BUFFER_WINDOW)
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
        keep_budget = min(
            policy.keep_percent / 100 * window, policy.threshold_percent / 100 * window - projected - window / 10
        )
    kept: list[Message] = []
    used = 0
    for m in reversed(raw):
        if kept and used + m.token_count > keep_budget:
            break
        kept.append(m)
        used += m.token_count
    kept.reverse()
    dropped = tuple(raw[: len(raw) - len(kept)])
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


def assemble(
    profile_block: str,
    summaries: Sequence[Summary],
    raw: Sequence[Message],
    memories: Sequence[tuple[str, datetime]],
    policy: WorkingPolicy,
    window: int,
    count: Count,
    graph_block: str = "",
) -> ContextAssembly:
    """The context to send, in order: profile, dated summaries, kept raw messages, recalled memories, the graph.

    Never over ``window`` tokens: the profile is placed first, then the newest raw
    messages (they win over older ones), then summaries (newest first), then memories.
    """
    left = window
    parts_head: list[ContextPart] = []
    if profile_block:
        tokens = count(profile_block)
        if tokens <= left:
            parts_head.append(ContextPart(PartKind.PROFILE, Role.SYSTEM, profile_block, tokens))
            left -= tokens
    tail = shrink_tool_results(raw, policy, count)
    if policy.strategy == Strategy.BUFFER_WINDOW:
        tail = tail[-policy.window_messages :]
        summaries = ()
    kept: list[ContextPart] = []
    for m in reversed(tail):
        if m.token_count > left:
            break
        kept.append(ContextPart(PartKind.MESSAGE, m.role, m.content, m.token_count, m.seq, m.tool_name, m.created_at))
        left -= m.token_count
    kept.reverse()
    summary_parts: list[ContextPart] = []
    for s in reversed(summaries):
        text = s.render()
        tokens = count(text)
        if tokens > left:
            break
        summary_parts.append(ContextPart(PartKind.SUMMARY, Role.SYSTEM, text, tokens, s.to_seq, at=s.last_at))
        left -= tokens
    summary_parts.reverse()
    memory_parts: list[ContextPart] = []
    for text, at in memories:
        line = f"[memory, {at:%Y-%m-%d}] {text}"
        tokens = count(line)
        if tokens > left:
            break
        memory_parts.append(ContextPart(PartKind.MEMORY, Role.SYSTEM, line, tokens, at=at))
        left -= tokens
    graph_parts: list[ContextPart] = []
    if graph_block and (tokens := count(graph_block)) <= left:
        graph_parts.append(ContextPart(PartKind.GRAPH, Role.SYSTEM, graph_block, tokens))
    parts = (*parts_head, *summary_parts, *kept, *memory_parts, *graph_parts)
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


def extractive_summary(
    messages: Sequence[Message], picked: Sequence[Message], count: Count, max_tokens: int, max_chars: int = 300
) -> str:
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


def byte_pieces(text: str, max_bytes: int) -> list[str]:
    """``text`` cut into pieces of at most ``max_bytes`` of UTF-8 each, joined back they are ``text``.

    A cut falls after the last whitespace of a piece when there is one in its second half, else on a
    character boundary (never inside a character: a slice by characters, not bytes, let a message in
    Chinese through at twice the archive's limit). Filing a long message whole, piece by piece, keeps
    what a truncation would drop.
    """
    pieces: list[str] = []
    rest = text
    while len(rest.encode()) > max_bytes:
        head = rest.encode()[:max_bytes].decode(errors="ignore")  # a character cut in two is left out
        space = max(head.rfind(" "), head.rfind("\n"), head.rfind("\t"))
        cut = space + 1 if space >= len(head) // 2 else max(len(head), 1)  # a limit under one character: one
        pieces.append(rest[:cut])
        rest = rest[cut:]
    return [*pieces, rest] if rest or not pieces else pieces
