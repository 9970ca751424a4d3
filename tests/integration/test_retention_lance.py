"""Retention against LanceDB: old memories and idle conversations go, everything newer stays."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from memoryd.adapters.lance.conversations import LanceConversationStore
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import App, build_app
from memoryd.core.conversation import MessageInput, Role
from memoryd.core.models import Actor, MemoryDraft, MemoryFilter, MemoryPatch, RecallQuery
from tests.conftest import make_settings
from tests.fakes import FrozenClock

ME = Actor("acme", "a1", "u1")


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(datetime(2026, 1, 1, tzinfo=UTC))


@pytest.fixture
async def app(tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder, clock: FrozenClock) -> AsyncIterator[App]:
    """The App on ``clock``, keeping memories 30 days and idle conversations 7."""
    settings = make_settings(tmp_path, retention={"memories_days": 30, "conversations_days": 7})
    async with build_app(settings, embedder=onnx_embedder, clock=clock) as started:
        yield started


async def test_lance_expires_by_age_and_a_dry_run_only_counts(app: App, clock: FrozenClock) -> None:
    await app.memory.memorize.memorize(ME, MemoryDraft("written in January"))
    await app.working.conversations.append(ME, "old-chat", [MessageInput("m1", Role.USER, "hello in January")])
    clock.advance(days=40)
    await app.memory.memorize.memorize(ME, MemoryDraft("written in February"))
    await app.working.conversations.append(ME, "new-chat", [MessageInput("m1", Role.USER, "hello in February")])
    dry = await app.admin.retention.purge("acme", dry_run=True)
    assert dry.counts == {
        "memories": 1,
        "conversations": 1,
        "conversation_items": 1,
        "filed_from_conversations": 1,
        "servings": 0,
        "graph_archived": 0,
        "graph_entities_archived": 0,
    }
    assert len(await app.memory.store.page(ME, MemoryFilter(), "", 10)) == 2
    done = await app.admin.retention.purge("acme", dry_run=False)
    assert done.counts == dry.counts
    left = await app.memory.store.page(ME, MemoryFilter(), "", 10)
    assert sorted(m.content for m in left) == ["user: hello in January", "written in February"]  # said, then gone
    assert await app.working.conversation_store.state("acme", "old-chat") is None
    assert await app.working.conversation_store.state("acme", "new-chat") is not None


async def test_a_pinned_memory_outlives_retention_and_a_restatement_can_pin_one(app: App, clock: FrozenClock) -> None:
    """retention.memories_days deletes by age; what a caller pinned stays, however old and unused."""
    kept = await app.memory.memorize.memorize(ME, MemoryDraft("Ida is allergic to peanuts", pinned=True))
    later = await app.memory.memorize.memorize(ME, MemoryDraft("The office moved to the third floor"))
    again = await app.memory.memorize.memorize(ME, MemoryDraft("The office moved to the third floor.", pinned=True))
    assert again.memory.memory_id == later.memory.memory_id and again.memory.pinned  # the restatement pinned it
    await app.memory.memorize.memorize(ME, MemoryDraft("Lunch is at noon today"))
    clock.advance(days=40)
    done = await app.admin.retention.purge("acme", dry_run=False)
    assert done.counts["memories"] == 1
    left = {m.memory_id for m in await app.memory.store.page(ME, MemoryFilter(), "", 10)}
    assert left == {kept.memory.memory_id, later.memory.memory_id}
    await app.memory.memorize.memorize(ME, MemoryDraft("The office kitchen has peanuts"))  # new, not pinned
    asked = RecallQuery(ME, "peanuts in the office", filter=MemoryFilter(pinned_only=True), min_score=0.0)
    assert {h.memory.memory_id for h in await app.memory.recall.recall(asked)} == left  # the pinned two only
    unpinned = await app.memory.archive.update(ME, kept.memory.memory_id, MemoryPatch(pinned=False))
    assert not unpinned.pinned
    assert (await app.admin.retention.purge("acme", dry_run=True)).counts["memories"] == 1  # now it would go


async def test_a_conversation_appended_to_while_retention_deletes_it_keeps_what_was_acknowledged(
    app: App, clock: FrozenClock
) -> None:
    # Retention picked the idle conversation; an append lands before its rows go. The acknowledged
    # message must stay readable under its state row, not sit orphaned under a deleted one.
    await app.working.conversations.append(ME, "idle-chat", [MessageInput("m1", Role.USER, "hello in January")])
    clock.advance(days=40)
    store = app.working.conversation_store
    assert isinstance(store, LanceConversationStore)
    db = store._db  # the hook goes where the deletes are issued
    opened = db.table_if_exists
    appended: list[int] = []

    async def table_if_exists(name: str, **options: Any) -> Any:
        table = await opened(name, **options)
        if table is None or not name.startswith("conversation"):
            return table
        delete = table.delete

        async def delete_after_an_append(where: str) -> Any:
            if not appended:  # the first delete of the pass: the append arrives just before it
                done = await app.working.conversations.append(ME, "idle-chat", [MessageInput("m2", Role.USER, "back")])
                appended.extend(done.seqs)
            return await delete(where)

        table.delete = delete_after_an_append
        return table

    db.table_if_exists = table_if_exists  # type: ignore[method-assign]
    await app.admin.retention.purge("acme", dry_run=False)
    db.table_if_exists = opened  # type: ignore[method-assign]

    assert appended == [2]
    state = await app.working.conversation_store.state("acme", "idle-chat")
    messages = await app.working.conversation_store.messages("acme", "idle-chat", 0)
    assert state is not None and [m.message_id for m in messages] == ["m1", "m2"]
