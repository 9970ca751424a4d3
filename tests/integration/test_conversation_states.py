"""Conversation state rows against real LanceDB: read from an in-memory copy that follows every writer."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from memoryd.adapters.lance_conversations import LanceConversationStore
from memoryd.adapters.lance_db import LanceDatabase
from memoryd.core.conversation import Conversation

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
