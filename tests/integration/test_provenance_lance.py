"""Histories and servings on LanceDB: what an update keeps, and what Forget, retention and erasure remove."""

from __future__ import annotations

import asyncio
import gc
import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.provenance import LanceProvenance, serving_columns
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import App, build_app
from memoryd.core.errors import InvalidRequest, Unavailable
from memoryd.core.models import Actor, MemoryDraft, MemoryPatch, RecallQuery, Scope
from memoryd.core.provenance import HistoryEvent, HistoryKind, ServedItem, ServingFilter, served_call_line
from memoryd.services import provenance as provenance_service
from memoryd.services.provenance import SERVINGS_IN_HISTORY, Provenance
from tests.conftest import make_settings
from tests.fakes import FrozenClock, memory_record

ALICE = Actor("acme", "a1", "alice")
BOB = Actor("acme", "a1", "bob")
OPERATOR = Actor("acme", "")


def provenance(app: App) -> Provenance:
    assert app.admin.provenance is not None
    return app.admin.provenance


async def servings_of(app: App, memory_id: str) -> int:
    page = await provenance(app).servings("acme", ServingFilter(item_id=memory_id), 500, "")
    return len(page.servings)


async def test_an_update_keeps_the_earlier_text_and_forget_takes_the_history_with_the_memory(
    tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    async with build_app(make_settings(tmp_path), embedder=onnx_embedder) as app:
        stored = await app.memory.memorize.memorize(ALICE, MemoryDraft("The standup is at 9:30", source_context="chat"))
        memory_id = stored.memory.memory_id
        await app.memory.archive.update(ALICE, memory_id, MemoryPatch(content="The standup is at 10:00"))
        await app.memory.recall.recall(RecallQuery(ALICE, "When is the standup?"))
        history = await app.memory.archive.history(ALICE, memory_id)
        assert [e.kind for e in history.events] == [HistoryKind.CREATED, HistoryKind.UPDATED, HistoryKind.SERVED]
        assert history.events[0].detail == {"source_context": "chat"} and history.events[0].via == "memoryd"
        assert history.events[1].detail == {"content": "The standup is at 9:30"}
        assert history.servings_total == 1
        await app.memory.archive.forget(ALICE, memory_id)
        assert (await provenance(app).history("acme", memory_id)).events == ()
        assert await servings_of(app, memory_id) == 0
        with pytest.raises(InvalidRequest, match="page_token"):
            await provenance(app).servings("acme", ServingFilter(), 10, "not-a-token")


async def test_retention_expires_old_servings_and_the_histories_of_expired_memories(
    tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    settings = make_settings(tmp_path, retention={"memories_days": 30, "servings_days": 7})
    clock = FrozenClock(datetime(2026, 1, 1, tzinfo=UTC))
    async with build_app(settings, embedder=onnx_embedder, clock=clock) as app:
        old = (await app.memory.memorize.memorize(ALICE, MemoryDraft("Alice's printer is a Brother"))).memory
        await app.memory.recall.recall(RecallQuery(ALICE, "Which printer does Alice have?"))
        clock.advance(days=10)
        await app.memory.recall.recall(RecallQuery(ALICE, "Which printer does Alice have?"))
        assert await servings_of(app, old.memory_id) == 2
        dry = await app.admin.retention.purge("acme", dry_run=True)
        assert dry.counts["servings"] == 1 and await servings_of(app, old.memory_id) == 2
        done = await app.admin.retention.purge("acme", dry_run=False)
        assert done.counts["servings"] == 1 and await servings_of(app, old.memory_id) == 1
        clock.advance(days=25)
        done = await app.admin.retention.purge("acme", dry_run=False)
        assert done.counts["memories"] == 1
        assert (await provenance(app).history("acme", old.memory_id)).events == ()
        assert await servings_of(app, old.memory_id) == 0


async def test_erasure_removes_the_contacts_histories_and_servings_and_leaves_the_others(
    tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    async with build_app(make_settings(tmp_path), embedder=onnx_embedder) as app:
        hers = await app.memory.memorize.memorize(ALICE, MemoryDraft("Alice is allergic to nuts", scope=Scope.END_USER))
        his = await app.memory.memorize.memorize(BOB, MemoryDraft("Bob is allergic to shellfish", scope=Scope.END_USER))
        note = MemoryDraft("Allergies are noted on the order form", scope=Scope.SHARED)
        shared = await app.memory.memorize.memorize(Actor("acme", "a1"), note)
        for who in (ALICE, BOB):
            await app.memory.recall.recall(RecallQuery(who, "allergies"))
        receipt = await app.admin.erasure.erase_end_user(OPERATOR, "alice")
        assert receipt.counts["history_and_servings"] > 0
        store = provenance(app)
        assert (await store.history("acme", hers.memory.memory_id)).events == ()
        remaining = (await store.servings("acme", ServingFilter(), 500, "")).servings
        assert remaining and {s.end_user_id for s in remaining} == {"bob"}
        assert hers.memory.memory_id not in {s.item_id for s in remaining}
        kinds = [e.kind for e in (await store.history("acme", his.memory.memory_id)).events]
        assert kinds == [HistoryKind.CREATED, HistoryKind.SERVED]
        kept = await store.history("acme", shared.memory.memory_id)  # served to both: Bob's serving stays
        assert [e.kind for e in kept.events] == [HistoryKind.CREATED, HistoryKind.SERVED] and kept.servings_total == 1


async def test_servings_are_ordered_and_cut_in_the_store_and_a_history_shows_the_latest(tmp_path: Path) -> None:
    db = await LanceDatabase.open(str(tmp_path / "data"), "m", 8)
    store, t0 = LanceProvenance(db), datetime(2026, 12, 1, tzinfo=UTC)
    calls = [(f"{i:030x}", t0 + timedelta(seconds=i)) for i in range(260)]
    shuffled = calls[:]
    random.Random(3).shuffle(shuffled)
    caller = ("a1", "u1", "k1", "agent", "Recall", "")
    for start in range(0, 260, 65):  # four appends, each with calls from all over the log
        lines = "".join(
            served_call_line(c, at, caller, [("m1", 0.9)], ServedItem.MEMORY) for c, at in shuffled[start : start + 65]
        )
        await store.append_servings("acme", lines.encode())
    again = "".join(served_call_line(c, at, caller, [("m1", 0.9)], ServedItem.MEMORY) for c, at in calls[-3:])
    await store.append_servings("acme", again.encode())  # a spool file moved twice: its rows twice
    ids = [f"{c}01" for c, _ in calls]  # a serving: its call and its rank
    first = await store.servings("acme", ServingFilter(item_id="m1"), "", 10)
    assert [s.serving_id for s in first] == ids[:10]
    assert [s.serving_id for s in await store.servings("acme", ServingFilter(), ids[9], 5)] == ids[10:15]
    newest = await store.servings("acme", ServingFilter(item_id="m1"), "", 5, newest=True)
    assert [s.serving_id for s in newest] == ids[::-1][:5]  # the doubled rows once each
    assert await store.count_servings("acme", ServingFilter(item_id="m1")) == 263
    history = await Provenance(store, FrozenClock(t0)).history("acme", "m1")
    served = [e.event_id for e in history.events if e.kind is HistoryKind.SERVED]
    assert served == ids[-SERVINGS_IN_HISTORY:] and history.servings_total == 263
    db.close()


def test_a_served_calls_line_becomes_one_serving_per_item_in_rank_order() -> None:
    at = datetime(2026, 12, 1, 9, 30, 15, 250_000, tzinfo=UTC)
    long_call = [(f"{i:032x}", 1.0 - i / 1000) for i in range(300)]  # ranks past two hex digits
    lines = served_call_line("c" * 30, at, ("a1", "", "k1", "agent", "Recall", "conv"), long_call, ServedItem.MEMORY)
    other = ("a2", "bob", "", "admin", "GetContext", "")
    lines += served_call_line("d" * 30, at, other, [("f9", 0.5)], ServedItem.FACT)
    rows = serving_columns(lines.encode()).to_pylist()
    assert len(rows) == 301
    assert [r["id"] for r in rows[:2]] == ["c" * 30 + "01", "c" * 30 + "02"]
    assert rows[15]["id"].endswith("10") and rows[299]["id"] == "c" * 30 + "12c"  # rank 300
    assert [r["item_id"] for r in rows[:300]] == [item for item, _ in long_call]
    assert [r["rank"] for r in rows[:300]] == list(range(1, 301))
    assert rows[299]["score"] == pytest.approx(0.701) and {r["at"] for r in rows} == {at}
    assert rows[-1] == {
        "id": "d" * 30 + "01", "at": at, "item_id": "f9", "item_kind": "fact", "agent_id": "a2",
        "end_user_id": "bob", "key_id": "", "role": "admin", "via": "GetContext", "conversation_id": "",
        "rank": 1, "score": 0.5,
    }  # fmt: skip


class FailsOnce(LanceProvenance):
    """The store on disk, whose first history append fails as a full disk would, and whose first servings
    append fails after writing (a reply lost: the lines landed)."""

    def __init__(self, db: LanceDatabase) -> None:
        super().__init__(db)
        self.history_failures = self.servings_failures = 1

    async def append_history(self, tenant_id: str, events: Sequence[HistoryEvent]) -> None:
        if self.history_failures:
            self.history_failures -= 1
            raise Unavailable("disk full")
        await super().append_history(tenant_id, events)

    async def append_servings(self, tenant_id: str, lines: bytes) -> None:
        await super().append_servings(tenant_id, lines)
        if self.servings_failures:
            self.servings_failures -= 1
            raise Unavailable("connection reset")


async def test_a_failed_or_cancelled_flush_keeps_every_tenants_servings_for_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = await LanceDatabase.open(str(tmp_path / "data"), "m", 8)
    store = FailsOnce(db)
    log = Provenance(store, FrozenClock(datetime(2026, 12, 1, tzinfo=UTC)))
    for tenant in ("acme", "globex"):
        log.record(Actor(tenant, "a1"), HistoryKind.CREATED, memory_record(f"{tenant:0>32}"))
    for i in range(120):  # several slices of calls made into lines
        log.served(Actor("acme", "a1"), [(f"m{i}", 0.5), ("shared", 0.25)], ServedItem.MEMORY)
    log.served(Actor("globex", "a1"), [("g1", 0.9)], ServedItem.MEMORY)
    with pytest.raises(Unavailable):
        await log.flush()  # the first tenant's history fails: nothing after it was written either
    assert log.pending == 2 + 121
    turns = 0

    async def cancelled_at_the_second_turn() -> None:  # a shutdown cancels the flush between two slices
        nonlocal turns
        turns += 1
        if turns == 2:
            raise asyncio.CancelledError

    monkeypatch.setattr(provenance_service, "_turn", cancelled_at_the_second_turn)
    with pytest.raises(asyncio.CancelledError):
        await log.flush()
    made = 2 * provenance_service._CALLS_PER_SLICE  # acme's two slices, then its other calls, and globex's
    assert turns == 2 and log.pending == 1 + (120 - made) + 1
    with pytest.raises(Unavailable):
        await log.flush()  # acme's lines landed but the write said it failed: they wait, made
    await log.flush()
    assert log.pending == 0
    for tenant in ("acme", "globex"):
        assert [e.kind for e in await store.history(tenant, f"{tenant:0>32}")] == [HistoryKind.CREATED]
    acme = await store.servings("acme", ServingFilter(), "", 500)
    assert await store.count_servings("acme", ServingFilter()) == 480  # written twice, the same ids: read once
    assert len(acme) == 240 and len({s.serving_id[:-2] for s in acme}) == 120  # an id a call
    first = [s.item_id for s in acme if s.rank == 1]
    assert sorted(first) == sorted(f"m{i}" for i in range(120))
    assert {s.item_id for s in acme if s.rank == 2} == {"shared"}
    assert [s.item_id for s in await store.servings("globex", ServingFilter(), "", 10)] == ["g1"]
    db.close()


async def test_calls_waiting_for_the_flush_leave_the_cyclic_collector_nothing_to_walk(tmp_path: Path) -> None:
    """A second's served calls wait as tuples of strings and numbers, which the collector stops tracking:
    held as lists and enums, each call added objects that every older generation's collection walked."""
    db = await LanceDatabase.open(str(tmp_path / "data"), "m", 8)
    log = Provenance(LanceProvenance(db), FrozenClock(datetime(2026, 12, 1, tzinfo=UTC)))
    gc.collect()
    tracked = len(gc.get_objects())
    for i in range(2000):
        log.served(Actor("acme", "a1"), [(f"m{i}", 0.5), (f"n{i}", 0.25)], ServedItem.MEMORY, "conv")
    gc.collect()
    assert log.pending == 2000 and len(gc.get_objects()) - tracked < 100  # not one a call
    await log.flush()
    servings = await log.servings("acme", ServingFilter(), 5000, "")
    assert len(servings.servings) == 4000 and {s.conversation_id for s in servings.servings} == {"conv"}
    placed = {s.item_id: (s.rank, s.score) for s in servings.servings}
    assert placed["m7"] == (1, 0.5) and placed["n7"] == (2, 0.25)
    db.close()


async def test_a_flush_lets_the_calls_in_flight_step_every_ten_served_calls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each turn of the loop lets every call in flight take one step, so the work between turns is what a
    call awaiting several times during a flush waits at each await: 50 calls a turn showed in Recall's p99."""
    db = await LanceDatabase.open(str(tmp_path / "data"), "m", 8)
    store = LanceProvenance(db)
    log = Provenance(store, FrozenClock(datetime(2026, 12, 1, tzinfo=UTC)))
    for i in range(95):
        log.served(Actor("acme", "a1"), [(f"m{i}", 0.5)], ServedItem.MEMORY)
    between: list[int] = []
    made = 0
    lines_of = provenance_service._served_lines

    def counted(calls: Sequence[Any]) -> str:
        nonlocal made
        made += len(calls)
        return lines_of(calls)

    async def turn() -> None:
        nonlocal made
        between.append(made)
        made = 0

    monkeypatch.setattr(provenance_service, "_served_lines", counted)
    monkeypatch.setattr(provenance_service, "_turn", turn)
    await log.flush()
    assert sum(between) == 95 and max(between) <= 10
    assert await store.count_servings("acme", ServingFilter()) == 95
    db.close()
