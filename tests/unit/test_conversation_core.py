"""Pure working-memory rules: the tool-result pipeline, compaction plans, merges, context assembly."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memoryd.core.conversation import (
    CompactMode,
    Conversation,
    Message,
    Role,
    Strategy,
    Summary,
    WorkingPolicy,
    compact_key,
    parse_compact_key,
)
from memoryd.core.working import assemble, byte_pieces, plan_compaction, shrink_tool_results, summaries_to_merge

T0 = datetime(2024, 5, 1, tzinfo=UTC)


def count(text: str) -> int:
    return len(text.split())


def msg(seq: int, words: int = 10, role: Role = Role.USER, tool: str = "") -> Message:
    text = " ".join(f"w{seq}" for _ in range(words))
    return Message(seq, f"m{seq}", role, text, T0 + timedelta(hours=seq), words, tool_name=tool)


def summary(n: int, tokens: int, level: int = 0) -> Summary:
    return Summary(
        f"s{n}",
        n * 10,
        n * 10 + 9,
        T0 + timedelta(days=n),
        T0 + timedelta(days=n, hours=5),
        " ".join(["x"] * tokens),
        tokens,
        level,
    )


def test_tool_results_shrink_by_age_newest_intact_middle_truncated_oldest_collapsed() -> None:
    policy = WorkingPolicy(tool_intact=2, tool_truncated=2, tool_truncate_chars=30)
    messages = [msg(i, 40, Role.TOOL, "search") if i % 2 else msg(i, 5) for i in range(1, 13)]
    out = shrink_tool_results(messages, policy, count)
    tools = [m for m in out if m.role == Role.TOOL]  # seqs 1,3,5,7,9,11: oldest first
    assert tools[-1].content == messages[-2].content and tools[-2].content == messages[-4].content
    assert all("[truncated, 40 tokens in full]" in m.content and m.content.startswith("w") for m in tools[2:4])
    assert all(m.content.startswith("[search result collapsed, 40 tokens:") for m in tools[:2])
    assert all(m.token_count == count(m.content) for m in out)
    assert [m.content for m in out if m.role != Role.TOOL] == [m.content for m in messages if m.role != Role.TOOL]


def test_accumulate_compacts_above_the_threshold_and_keeps_a_raw_window() -> None:
    conv = Conversation("c", "a", context_window=1000)
    policy = WorkingPolicy(threshold_percent=75, keep_percent=40, summary_budget_percent=15)
    below = [msg(i, 50) for i in range(1, 16)]  # 750 tokens: not above 75%
    assert plan_compaction(conv, below, [], policy) is None
    above = [msg(i, 50) for i in range(1, 17)]  # 800 tokens
    plan = plan_compaction(conv, above, [], policy)
    assert plan is not None and plan.summarize and plan.through == plan.dropped[-1].seq
    kept_tokens = sum(m.token_count for m in plan.kept)
    assert kept_tokens <= 400 and [m.seq for m in plan.kept] == list(range(plan.through + 1, 17))
    # what stays (kept + projected summaries) is clearly under the threshold: no compaction on the next message
    assert kept_tokens + 100 + 100 < 750
    forced = plan_compaction(conv, below[:10], [], policy, force=True)
    assert forced is not None and forced.dropped  # Compact ignores the threshold
    assert plan_compaction(conv, below[:2], [], policy, force=True) is None  # all fits the keep-window


def test_buffer_window_and_summary_buffer() -> None:
    conv = Conversation("c", "a", context_window=100_000)
    window = WorkingPolicy(strategy=Strategy.BUFFER_WINDOW, window_messages=5)
    plan = plan_compaction(conv, [msg(i) for i in range(1, 9)], [], window)
    assert plan is not None and not plan.summarize and [m.seq for m in plan.kept] == [4, 5, 6, 7, 8]
    buffer = WorkingPolicy(strategy=Strategy.SUMMARY_BUFFER, budget_tokens=200)
    assert plan_compaction(conv, [msg(i, 10) for i in range(1, 17)], [], buffer) is None  # 160 = 0.8 × 200
    plan = plan_compaction(conv, [msg(i, 10) for i in range(1, 18)], [], buffer)
    assert plan is not None and sum(m.token_count for m in plan.kept) <= 120  # down to 0.6 × 200


def test_the_oldest_summaries_merge_when_too_many_or_too_large_never_the_newest() -> None:
    policy = WorkingPolicy(max_summaries=3, summary_budget_percent=50)
    assert summaries_to_merge([summary(i, 10) for i in range(3)], policy, 1000) == ()
    merged = summaries_to_merge([summary(i, 10) for i in range(5)], policy, 1000)
    assert [s.summary_id for s in merged] == ["s0", "s1", "s2"]  # 5 → 3 live: merge the oldest three into one
    big = summaries_to_merge([summary(i, 200) for i in range(3)], policy, 1000)  # 600 > 500 tokens
    assert [s.summary_id for s in big] == ["s0", "s1"]


def test_assembly_fits_any_window_in_order_and_prefers_recent_messages() -> None:
    policy = WorkingPolicy()
    raw = [msg(i, 20) for i in range(1, 21)]
    summaries = [summary(1, 30, level=1), summary(2, 30)]
    for window in (5, 50, 120, 300, 10_000):
        ctx = assemble("## Pinned\n- be brief", summaries, raw, [("likes tea", T0)], policy, window, count)
        assert ctx.tokens() <= window
        kinds = [p.kind for p in ctx.parts]
        assert kinds == sorted(kinds, key=["profile", "summary", "message", "memory"].index)
        seqs = [p.seq for p in ctx.parts if p.kind == "message"]
        assert seqs == list(range(21 - len(seqs), 21))  # the newest, contiguous
        assert ctx.left_out == 20 - len(seqs)
    full = assemble("", summaries, raw, [], policy, 10_000, count)
    heads = [p.content[:40] for p in full.parts if p.kind == "summary"]
    assert heads[0].startswith("[compressed] [2024-05-02]") and heads[1].startswith("[2024-05-03]")


def test_compaction_keys_round_trip_with_colons_in_ids() -> None:
    assert parse_compact_key(compact_key("chat:42", 17)) == ("chat:42", 17, CompactMode.AUTO)
    assert parse_compact_key(compact_key("chat:42", 17, mode=CompactMode.FORCE)) == ("chat:42", 17, CompactMode.FORCE)
    assert parse_compact_key(compact_key("a:end", 3, mode=CompactMode.END)) == ("a:end", 3, CompactMode.END)


@pytest.mark.parametrize(
    ("text", "limit"),
    [
        ("我们 明天 去 北京。 " * 700, 16384),  # 8,400 characters, 19,600 bytes: a cut by characters was over
        ("wohnt in Berlin " * 40, 64),
        ("é" * 9, 3),
        ("a" * 10, 3),
        ("🙂" * 3, 1),  # a limit under one character still ends
    ],
)
def test_byte_pieces_keep_every_character_within_the_limit(text: str, limit: int) -> None:
    pieces = byte_pieces(text, limit)
    assert "".join(pieces) == text
    assert all(len(p.encode()) <= max(limit, 4) for p in pieces) and len(pieces) > 1


def test_byte_pieces_cut_after_a_space_when_one_is_near() -> None:
    assert byte_pieces("hello world foo", 6) == ["hello ", "world ", "foo"]
    assert byte_pieces("short", 64) == ["short"]
