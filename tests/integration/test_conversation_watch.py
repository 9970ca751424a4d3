"""WatchConversation on real LanceDB: each poll reads what is new, late commits within a minute still arrive."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from memoryd.app import App
from memoryd.core.conversation import ConversationEvent, MessageInput, Role
from memoryd.core.models import Actor

ALICE = Actor("acme", "a1", "alice")


def _event(n: int, at: datetime) -> ConversationEvent:
    return ConversationEvent(f"e{n}", "compaction_finished", f"job{n}", f"compaction {n}", at)


async def test_a_watch_reads_only_the_new_and_the_late(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    conversations = app.working.conversations
    await conversations.append(ALICE, "c1", [MessageInput("m1", Role.USER, "hello")], context_window=1000)
    store = conversations._store
    now = datetime.now(UTC)
    for n in range(3):
        await store.add_event("acme", "c1", _event(n, now - timedelta(hours=3 - n)))
    read: list[int] = []
    real = store.events

    async def counted(tenant_id: str, conversation_id: str, after: datetime | None) -> list[ConversationEvent]:
        found = await real(tenant_id, conversation_id, after)
        read.append(len(found))
        return found

    monkeypatch.setattr(store, "events", counted)
    got: list[str] = []

    async def watch() -> None:
        async for event in conversations.watch(ALICE, "c1", from_start=True, poll_seconds=0.01):
            got.append(event.event_id)

    task = asyncio.create_task(watch())
    try:
        while len(read) < 5:
            await asyncio.sleep(0.01)
        await store.add_event("acme", "c1", _event(3, now))
        while len(got) < 4:
            await asyncio.sleep(0.01)
        await store.add_event("acme", "c1", _event(4, now - timedelta(seconds=20)))  # stamped earlier, sent later
        while len(got) < 5:
            await asyncio.sleep(0.01)
    finally:
        task.cancel()
    assert got == ["e0", "e1", "e2", "e3", "e4"]
    assert read[0] == 3 and max(read[1:]) <= 2  # the hours-old events were read once, not each poll
