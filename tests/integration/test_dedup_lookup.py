"""A write's dedup lookup reads the records of the neighbours its text restates, and no others."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from memoryd.app import App
from memoryd.core.models import Actor, MemoryDraft, MemoryFilter, Scope

A1 = Actor("acme", "a1")


async def test_near_rows_that_state_other_facts_are_never_read_as_records(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    stored = [
        await app.memory.memorize.memorize(A1, MemoryDraft(f"The staging deploy window is Tuesday at {hour}:00"))
        for hour in (10, 11, 12, 13)
    ]
    store: Any = app.memory.store
    fetched: list[list[str]] = []
    real = store.get_many

    async def counted(actor: Actor, ids: Sequence[str], **kwargs: Any) -> Any:
        fetched.append(list(ids))
        return await real(actor, ids, **kwargs)

    monkeypatch.setattr(store, "get_many", counted)
    new_hour = "The staging deploy window is Tuesday at 15:00"
    vector = (await app.embedder.embed([new_hour]))[0]
    pool = MemoryFilter(scopes=frozenset({Scope.PRIVATE, Scope.SHARED}))
    near = (await store.nearest_many(A1, [vector], pool, 5, 0.9))[0]
    assert len(near) >= 2  # the other hours are near enough to be dedup candidates

    fetched.clear()
    other = await app.memory.memorize.memorize(A1, MemoryDraft(new_hour))
    assert not other.deduplicated and fetched == []  # a correction's neighbours: nothing read
    again = await app.memory.memorize.memorize(A1, MemoryDraft("the staging deploy window is Tuesday at 11:00"))
    assert again.deduplicated and again.memory.memory_id == stored[1].memory.memory_id
    assert fetched == [[stored[1].memory.memory_id]]  # the one it restates, to merge into
