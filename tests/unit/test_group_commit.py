"""Group commit: concurrent writes of a tenant share one embedding batch and one commit, and stay correct."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from memoryd.core.errors import AlreadyExists, Unavailable
from memoryd.core.models import Actor, MemoryDraft, Scope
from tests.unit.conftest import World, fake_world

A1, A2 = Actor("acme", "a1"), Actor("acme", "a2")


async def test_concurrent_calls_are_one_commit_and_one_embedding_batch(world: World) -> None:
    app, embedder = world.app, world.embedder
    calls_before = embedder.calls
    results = await asyncio.gather(
        *(app.memory.memorize.memorize(A1, MemoryDraft(f"fact number {i} about topic {i}")) for i in range(20))
    )
    assert world.store.commits == 1 and embedder.calls == calls_before + 1
    ids = [r.memory.memory_id for r in results]
    assert len(set(ids)) == 20 and all(i in world.store.rows for i in ids)
    assert [r.memory.content for r in results] == [f"fact number {i} about topic {i}" for i in range(20)]
    assert ids == sorted(ids)  # ids keep the calls' arrival order


async def test_two_concurrent_writers_of_one_new_text_make_one_memory(world: World) -> None:
    first, second = await asyncio.gather(
        world.app.memory.memorize.memorize(A1, MemoryDraft("The deploy window is Tuesday 10:00", tags=("ops",))),
        world.app.memory.memorize.memorize(A1, MemoryDraft("The deploy window is Tuesday 10:00", tags=("release",))),
    )
    assert first.memory.memory_id == second.memory.memory_id and second.deduplicated
    assert len(world.store.rows) == 1
    assert set(world.store.rows[first.memory.memory_id][0].tags) == {"ops", "release"}


async def test_a_groups_calls_of_one_agent_share_one_dedup_lookup(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    stored = await world.app.memory.memorize.memorize(A1, MemoryDraft("The deploy window is Tuesday 10:00"))
    lookups: list[tuple[Actor, int]] = []
    real = world.store.nearest_many

    async def counted(actor: Actor, vectors: list[list[float]], *args: object) -> object:
        lookups.append((actor, len(vectors)))
        return await real(actor, vectors, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(world.store, "nearest_many", counted)
    results = await asyncio.gather(
        world.app.memory.memorize.memorize(A1, MemoryDraft("The deploy window is Tuesday 10:00", tags=("ops",))),
        *(world.app.memory.memorize.memorize(A1, MemoryDraft(f"fact number {i} about topic {i}")) for i in range(5)),
        *(world.app.memory.memorize.memorize(A2, MemoryDraft(f"another fact {i}")) for i in range(2)),
    )
    assert sorted(lookups, key=lambda x: x[0].agent_id) == [(A1, 6), (A2, 2)]  # one per agent, not one per call
    assert results[0].deduplicated and results[0].memory.memory_id == stored.memory.memory_id
    assert not any(r.deduplicated for r in results[1:]) and len(world.store.rows) == 8


async def test_a_group_never_merges_across_what_a_caller_cannot_see(world: World) -> None:
    mine, theirs = await asyncio.gather(
        world.app.memory.memorize.memorize(A1, MemoryDraft("My locker code is 4471", scope=Scope.PRIVATE)),
        world.app.memory.memorize.memorize(A2, MemoryDraft("My locker code is 4471", scope=Scope.PRIVATE)),
    )
    assert mine.memory.memory_id != theirs.memory.memory_id and not theirs.deduplicated
    assert {r.agent_id for r, _ in world.store.rows.values()} == {"a1", "a2"}


async def test_one_bad_call_fails_alone(world: World) -> None:
    app = world.app
    await app.memory.memorize.memorize(A1, MemoryDraft("first text"), request_id="r1")
    reused, fine = await asyncio.gather(
        app.memory.memorize.memorize(A1, MemoryDraft("another text"), request_id="r1"),
        app.memory.memorize.memorize(A1, MemoryDraft("a good write")),
        return_exceptions=True,
    )
    assert isinstance(reused, AlreadyExists)
    assert not isinstance(fine, BaseException) and fine.memory.content == "a good write"


async def test_a_store_failure_reaches_every_call_of_the_group(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*_: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(world.store, "insert", broken)
    outcomes = await asyncio.gather(
        *(world.app.memory.memorize.memorize(A1, MemoryDraft(f"text {i}")) for i in range(3)), return_exceptions=True
    )
    assert all(isinstance(o, OSError) for o in outcomes) and not world.store.rows


async def test_two_concurrent_calls_with_one_request_id_store_once(world: World) -> None:
    first, retry = await asyncio.gather(
        world.app.memory.memorize.memorize(A1, MemoryDraft("the order number is 48213"), request_id="r9"),
        world.app.memory.memorize.memorize(A1, MemoryDraft("the order number is 48213"), request_id="r9"),
    )
    assert first.memory.memory_id == retry.memory.memory_id and len(world.store.rows) == 1
    other = await asyncio.gather(
        world.app.memory.memorize.memorize(A1, MemoryDraft("first words"), request_id="r10"),
        world.app.memory.memorize.memorize(A1, MemoryDraft("other words"), request_id="r10"),
        return_exceptions=True,
    )
    assert isinstance(other[1], AlreadyExists) and len(world.store.rows) == 2


async def test_a_committer_stopped_mid_group_leaves_no_caller_waiting(world: World) -> None:
    started = asyncio.Event()

    async def stuck(*_: object) -> None:
        started.set()
        await asyncio.Event().wait()  # a commit that never ends, until the process stops

    world.store.insert = stuck  # type: ignore[method-assign,assignment]
    calls = [asyncio.create_task(world.app.memory.memorize.memorize(A1, MemoryDraft(f"text {i}"))) for i in range(3)]
    await started.wait()
    for task in asyncio.all_tasks():
        if task.get_coro().__qualname__.endswith("_commit_waiting"):  # type: ignore[union-attr]
            task.cancel()
    outcomes = await asyncio.wait_for(asyncio.gather(*calls, return_exceptions=True), timeout=5)
    assert all(isinstance(o, Unavailable) for o in outcomes)


class _HeldInsert:
    """The store's first insert waits until released; the ones after it go straight through."""

    def __init__(self, world: World) -> None:
        self.entered, self.release = asyncio.Event(), asyncio.Event()
        self._insert = world.store.insert
        world.store.insert = self  # type: ignore[method-assign]

    async def __call__(self, *args: object, **kwargs: object) -> None:
        self.entered.set()
        await self.release.wait()
        await self._insert(*args, **kwargs)  # type: ignore[arg-type]


async def _embedded_beyond(world: World, calls: int) -> None:
    while world.embedder.calls <= calls:
        await asyncio.sleep(0)


@pytest.fixture
async def remote() -> AsyncIterator[World]:
    """A world whose embedder is an endpoint: calls arriving during a commit are embedded meanwhile."""
    async with fake_world(embedding={"provider": "openai"}) as w:
        yield w


async def test_with_the_local_model_calls_arriving_during_a_commit_wait_for_it_as_one_batch(world: World) -> None:
    held = _HeldInsert(world)
    first = asyncio.create_task(world.app.memory.memorize.memorize(A1, MemoryDraft("the first fact is about ferries")))
    await held.entered.wait()
    calls = world.embedder.calls
    later = [
        asyncio.create_task(world.app.memory.memorize.memorize(A1, MemoryDraft(f"later fact {i}"))) for i in range(3)
    ]
    for _ in range(50):
        await asyncio.sleep(0)
    assert world.embedder.calls == calls and not first.done()  # the model's cores are the commit's too
    held.release.set()
    await asyncio.gather(first, *later)
    assert world.embedder.calls == calls + 1 and world.store.commits == 2


async def test_a_call_arriving_during_a_commit_is_embedded_before_that_commit_ends(remote: World) -> None:
    world = remote
    held = _HeldInsert(world)
    first = asyncio.create_task(world.app.memory.memorize.memorize(A1, MemoryDraft("the first fact is about ferries")))
    await held.entered.wait()
    calls = world.embedder.calls
    second = asyncio.create_task(world.app.memory.memorize.memorize(A1, MemoryDraft("the second fact is about trams")))
    await asyncio.wait_for(_embedded_beyond(world, calls), timeout=5)  # the old committer embedded only after it
    assert not first.done() and not second.done() and not world.store.rows
    held.release.set()
    one, two = await asyncio.gather(first, second)
    assert {one.memory.memory_id, two.memory.memory_id} == set(world.store.rows)


async def test_a_restatement_arriving_while_its_twin_commits_merges_into_it(remote: World) -> None:
    world = remote
    held = _HeldInsert(world)
    text = "The deploy window is Tuesday 10:00"
    first = asyncio.create_task(world.app.memory.memorize.memorize(A1, MemoryDraft(text, tags=("ops",))))
    await held.entered.wait()
    calls = world.embedder.calls
    second = asyncio.create_task(world.app.memory.memorize.memorize(A1, MemoryDraft(text, tags=("release",))))
    await asyncio.wait_for(_embedded_beyond(world, calls), timeout=5)
    held.release.set()
    one, two = await asyncio.gather(first, second)
    assert two.deduplicated and two.memory.memory_id == one.memory.memory_id and len(world.store.rows) == 1
    assert set(world.store.rows[one.memory.memory_id][0].tags) == {"ops", "release"}


async def test_a_retry_arriving_while_its_first_attempt_commits_is_stored_once(remote: World) -> None:
    world = remote
    held = _HeldInsert(world)
    draft = MemoryDraft("the order number is 48213")
    first = asyncio.create_task(world.app.memory.memorize.memorize(A1, draft, request_id="r7"))
    await held.entered.wait()
    retry = asyncio.create_task(world.app.memory.memorize.memorize(A1, draft, request_id="r7"))
    other = asyncio.create_task(world.app.memory.memorize.memorize(A1, MemoryDraft("a write of its own")))
    calls = world.embedder.calls
    await asyncio.wait_for(_embedded_beyond(world, calls), timeout=5)  # the other call goes ahead meanwhile
    held.release.set()
    one, again, _ = await asyncio.gather(first, retry, other)
    assert again.memory.memory_id == one.memory.memory_id and not again.deduplicated
    assert len(world.store.rows) == 2


@pytest.fixture
async def lingering() -> AsyncIterator[World]:
    """A world whose write groups wait up to a second for the writers of a shared group to come back."""
    async with fake_world(memorize={"group_linger_ms": 1000}) as w:
        yield w


async def _one_by_one(world: World, texts: list[str]) -> None:
    """Writers coming back from their answers one after another, a few turns of the loop apart."""
    calls = []
    for text in texts:
        calls.append(asyncio.create_task(world.app.memory.memorize.memorize(A1, MemoryDraft(text))))
        for _ in range(20):
            await asyncio.sleep(0)
    await asyncio.gather(*calls)


async def test_writers_coming_back_from_a_shared_group_are_one_group_again(lingering: World) -> None:
    world = lingering
    await asyncio.gather(
        *(world.app.memory.memorize.memorize(A1, MemoryDraft(f"first round fact {i}")) for i in range(4))
    )
    commits, calls = world.store.commits, world.embedder.calls
    await _one_by_one(world, [f"second round fact {i}" for i in range(4)])
    # the first writer back was taken alone before: two embeddings and two commits
    assert world.store.commits == commits + 1 and world.embedder.calls == calls + 1


async def test_a_writer_alone_never_waits_for_company(lingering: World) -> None:
    world = lingering
    for i in range(5):  # each call's group holds one call: none lingers (a second each)
        await asyncio.wait_for(
            world.app.memory.memorize.memorize(A1, MemoryDraft(f"a fact of its own {i}")), timeout=0.5
        )
    assert world.store.commits == 5
