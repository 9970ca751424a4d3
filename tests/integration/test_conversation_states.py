"""Conversation state rows against real LanceDB: read from an in-memory copy that follows every writer."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memoryd.adapters.lance.conversations import LanceConversationStore
from memoryd.adapters.lance.db import LanceDatabase
from memoryd.core.conversation import Conversation, Message, Role, Summary
from tests.lance_stores import counted_copy_loads, counted_version_checks, slow_table_reads

AT = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)


async def _store(path: Path, *, copies: bool = True) -> LanceConversationStore:
    return LanceConversationStore(await LanceDatabase.open(str(path), "m", 8), copies=copies)


async def test_a_state_another_process_wrote_is_read_at_once(tmp_path: Path) -> None:
    mine, theirs = await _store(tmp_path), await _store(tmp_path)
    assert await mine.state("acme", "c1") is None
    first = Conversation("c1", "a1", "u1", 4096, 3, 0, (), {"auto_recall": True}, 1, AT, AT, 0)
    assert await mine.swap_state("acme", first, 0)
    assert await mine.state("acme", "c1") == first  # this process's insert, applied to its copy
    compacted = replace(first, compacted_through=2, summary_ids=("s1",), revision=2, filed_through=2)
    assert await theirs.swap_state("acme", compacted, 1)  # a worker's compaction
    assert await mine.state("acme", "c1") == compacted
    assert not await mine.swap_state("acme", replace(first, next_seq=9, revision=2), 1)  # a stale swap loses
    other = Conversation("c2", "a2", created_at=AT, updated_at=AT, revision=1)
    assert await theirs.swap_state("acme", other, 0)  # not in this process's copy yet
    appended = replace(compacted, next_seq=5, revision=3)
    assert await mine.swap_state("acme", appended, 2)  # committed after theirs: the copy must not skip it
    assert await mine.state("acme", "c1") == appended and await mine.state("acme", "c2") == other
    cold = await _store(tmp_path, copies=False)  # LanceDB's own answer agrees
    assert await cold.state("acme", "c1") == appended and await cold.state("acme", "c2") == other
    assert await mine.state("acme", "nobody") is None and await mine.state("other-tenant", "c1") is None


async def test_message_tails_answer_as_lancedb_does_whoever_writes(tmp_path: Path) -> None:
    # GetContext's tail comes from memory when a read at the table's version, or this process's own
    # append right after it, says what it holds: never a message missing, doubled or out of order.
    rng = random.Random(7)
    mine, theirs, cold = await _store(tmp_path), await _store(tmp_path), await _store(tmp_path, copies=False)
    conversations = ["c1", "c2", "c3"]
    last = dict.fromkeys(conversations, 0)

    def message(conversation: str, seq: int, message_id: str = "") -> Message:
        at = AT + timedelta(seconds=seq)
        return Message(
            seq, message_id or f"m{seq}", rng.choice([Role.USER, Role.ASSISTANT]), f"{conversation} {seq}", at, 3
        )

    base = dict.fromkeys(conversations, 0)  # what GetContext asks after: the last compaction's seq
    for step in range(80):
        conversation, writer, roll = rng.choice(conversations), rng.choice([mine, mine, theirs]), rng.random()
        if roll < 0.8:
            fresh = [message(conversation, last[conversation] + 1 + i) for i in range(rng.randint(1, 3))]
            if base[conversation] and rng.random() < 0.3:  # a retry: an id the table holds, under another seq
                fresh.append(message(conversation, fresh[-1].seq + 1, f"m{rng.randint(1, base[conversation])}"))
            last[conversation] = fresh[-1].seq
            await writer.add_messages("acme", conversation, fresh)
        else:  # another kind of row in the same table (a compaction's summary), and the tail moves on
            base[conversation] = rng.randint(base[conversation], last[conversation])
            summary = Summary(f"s{step}", 1, max(1, base[conversation]), AT, AT, f"summary {step}", 5)
            await writer.put_summary("acme", conversation, summary)
        if rng.random() < 0.5:  # reads now and then: writes of both processes pile up in between
            continue
        for _ in range(2):
            asked = rng.choice(conversations)
            after = base[asked] if rng.random() < 0.8 else rng.randint(0, max(1, last[asked]))
            expected = await cold.messages("acme", asked, after)
            assert await mine.messages("acme", asked, after) == expected, (step, asked, after)
            assert await theirs.messages("acme", asked, after) == expected, (step, asked, after)
    stored = [len(await cold.messages("acme", c, 0)) for c in conversations]
    assert sum(stored) > 60


async def test_a_tail_carried_over_an_append_reads_as_the_table_does_naive_times_included(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TZ", "America/New_York")  # a server not on UTC: a naive time is still stored as UTC
    time.tzset()
    try:
        await _naive_times_included(tmp_path)
    finally:
        monkeypatch.undo()
        time.tzset()


async def _naive_times_included(tmp_path: Path) -> None:
    mine, cold = await _store(tmp_path), await _store(tmp_path, copies=False)
    await mine.add_messages("acme", "c1", [Message(1, "m1", Role.USER, "hello", AT, 1)])
    assert await mine.messages("acme", "c1", 0) == await cold.messages("acme", "c1", 0)  # read: the tail is kept
    naive = datetime(2026, 12, 3, 9, 30)  # an in-process caller's time without a zone: stored as UTC
    await mine.add_messages("acme", "c1", [Message(2, "m2", Role.ASSISTANT, "hi", naive, 1)])  # carried over
    carried = await mine.messages("acme", "c1", 0)
    assert carried == await cold.messages("acme", "c1", 0)
    assert carried[1].created_at == naive.replace(tzinfo=UTC)


async def test_state_copies_follow_concurrent_swaps_and_other_processes_without_loading_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Many conversations of one tenant appending at once: each read of a state used to load the table,
    # and the load failed on the next swap's commit; another process's swaps loaded it too.
    mine, theirs = await _store(tmp_path), await _store(tmp_path, copies=False)
    states = [Conversation(f"c{i}", "a1", created_at=AT, updated_at=AT, revision=1) for i in range(24)]
    for state in states:
        assert await mine.swap_state("acme", state, 0)
    loads = counted_copy_loads(monkeypatch)
    slow_table_reads(monkeypatch, 0.02)

    async def append(i: int) -> None:
        await asyncio.sleep(0.003 * (i % 8))  # reads and swaps overlap
        if i % 2:
            assert await mine.state("acme", f"c{i}") == states[i]
        assert await mine.swap_state("acme", replace(states[i], next_seq=2, revision=2), 1)
        assert await mine.state("acme", f"c{(i + 1) % 24}") is not None

    await asyncio.gather(*(append(i) for i in range(24)))
    assert len(loads) <= 2, loads  # the copy followed every swap (a load for the first read)
    loaded = len(loads)
    moved = replace(states[0], next_seq=7, revision=3)
    assert await theirs.swap_state("acme", moved, 2)  # another process: a rewrite of a row
    newcomer = Conversation("c99", "a2", created_at=AT, updated_at=AT, revision=1)
    assert await theirs.swap_state("acme", newcomer, 0)  # and an insert
    assert await mine.state("acme", "c0") == moved and await mine.state("acme", "c99") == newcomer
    assert [await mine.state("acme", f"c{i}") for i in range(1, 24)] == [
        replace(s, next_seq=2, revision=2) for s in states[1:]
    ]
    assert len(loads) == loaded, loads  # another process's commits read back, not the whole table


async def test_a_tenants_concurrent_appends_commit_together_and_a_racing_retry_stays_one_row(tmp_path: Path) -> None:
    store = await _store(tmp_path)
    for c in range(8):  # the tails of every conversation read, so the shared commit must carry them all
        assert await store.messages("acme", f"c{c}", 0) == []

    def message(seq: int, message_id: str) -> Message:
        return Message(seq, message_id, Role.USER, f"turn {message_id}", AT, 3)

    items = await store._items("acme")
    before = await items.version()
    await asyncio.gather(
        *(store.add_messages("acme", f"c{c}", [message(1, f"m{c}")]) for c in range(7, -1, -1)),
        # a retry racing its original (both waiting for the first commit): never in one commit with it
        store.add_messages("acme", "c0", [message(1, "m0")]),
    )
    # the first append (c7) commits alone; the other seven conversations' together; the retry after
    assert await items.version() - before == 3
    fresh = await _store(tmp_path)
    for reader in (store, fresh):
        for c in range(8):
            assert await reader.messages("acme", f"c{c}", 0) == [message(1, f"m{c}")]


async def test_in_a_shared_commit_each_state_swap_is_still_its_own_compare(tmp_path: Path) -> None:
    store = await _store(tmp_path)

    def state(conversation: str, revision: int, next_seq: int = 1) -> Conversation:
        return Conversation(conversation, "a1", "", 4096, next_seq, created_at=AT, updated_at=AT, revision=revision)

    for c in ("c1", "c2", "c3", "c4"):
        assert await store.swap_state("acme", state(c, 1), 0)
    states = await store._states("acme")
    before = await states.version()
    calls = [
        (state("c1", 2, 5), 1),  # commits alone; the others arrive during its commit
        (state("c2", 2, 3), 1),
        (state("c3", 3, 9), 2),  # c3 is at revision 1: loses
        (state("c2", 2, 7), 1),  # the same row: waits for the commit after, then loses
        (state("c4", 2, 4), 1),
        (state("c5", 1), 0),
        (state("c1", 1), 0),  # an insert of a row that exists: loses
    ]
    outcomes = await asyncio.gather(*(store.swap_state("acme", c, expected) for c, expected in calls))
    assert outcomes == [True, True, False, False, True, True, False]
    assert await states.version() - before <= 4  # c1 alone; the others' updates and inserts; c2's second writer
    for reader in (store, await _store(tmp_path)):
        assert [await reader.state("acme", c) for c in ("c1", "c2", "c3", "c4", "c5")] == [
            state("c1", 2, 5),
            state("c2", 2, 3),
            state("c3", 1),
            state("c4", 2, 4),
            state("c5", 1),
        ]
    with pytest.raises(ValueError, match="revision 4 does not follow 2"):
        await store.swap_state("acme", state("c1", 4), 2)


async def test_tail_reads_after_this_processs_appends_need_no_listing_of_the_tables_versions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each tail read checked the items table's version through the binding (a listing of _versions),
    # twice per GetContext; after one check the next version's manifest name tells it.
    mine = await _store(tmp_path)
    await mine.add_messages("acme", "c1", [Message(1, "m1", Role.USER, "hello", AT, 1)])
    await mine.messages("acme", "c1", 0)
    checks = counted_version_checks(monkeypatch)
    for seq in range(2, 6):
        await mine.add_messages("acme", "c1", [Message(seq, f"m{seq}", Role.USER, f"turn {seq}", AT, 1)])
        assert [m.seq for m in await mine.messages("acme", "c1", 0)] == list(range(1, seq + 1))
    assert not checks
