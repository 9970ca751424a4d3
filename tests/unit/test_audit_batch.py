"""The audit batch on fakes: once per period, a review per changed agent, reports kept, failures re-driven."""

from __future__ import annotations

from datetime import UTC, datetime

from memoryd.core.job_records import SYSTEM_TENANT, JobKind, JobState
from memoryd.core.models import Actor, MemoryDraft
from tests.unit.conftest import World, fake_world, runner

SLOT = datetime(2026, 6, 30, 3, 0, tzinfo=UTC)


async def seed(w: World) -> None:
    for tenant, agent, text in (
        ("acme", "a1", "The VPN needs a hardware key"),
        ("acme", "a1", "thanks!"),
        ("acme", "a2", "Priya leads the search team in Lisbon"),
        ("globex", "b1", "The build server is in Frankfurt"),
    ):
        await w.app.memory.memorize.memorize_batch(Actor(tenant, agent), [MemoryDraft(text)], True)


async def finish(w: World, batch_key: str) -> JobState:
    """Run the batch and its reviews until the batch ends (as the workers would)."""
    run = runner(w, with_model=False)
    for _ in range(5):
        await run.run(SYSTEM_TENANT, batch_key, w.app.jobs.review_batch.run)
        for tenant, key in await w.app.jobs.review_batch.reviews_of(batch_key):
            record = await w.app.jobs.service.get(tenant, key)
            if record.live:
                await run.run(tenant, key, w.app.jobs.review.run)
        batch = await w.app.jobs.service.get(SYSTEM_TENANT, batch_key)
        if not batch.live:
            return batch.state
    raise AssertionError("the batch did not end")


async def test_ticks_and_a_manual_start_in_one_period_are_one_batch() -> None:
    async with fake_world(audits={"schedule": "0 3 * * *"}) as w:
        await seed(w)
        w.clock.current = SLOT.replace(minute=2)
        first = await w.app.jobs.review_batch.tick()
        second = await w.app.jobs.review_batch.tick()
        manual = await w.app.jobs.review_batch.start()
        assert first is not None and second is not None
        assert first.key == second.key == manual.key == "review_all:@all:20260630T0300Z"
        assert [m for m, _ in w.queue.submitted if m.startswith("review_all")] == [f"{first.key}#1"]
        assert await finish(w, first.key) is JobState.SUCCEEDED
        again = await w.app.jobs.review_batch.tick()
        assert again is not None and again.state is JobState.SUCCEEDED and again.run == 1  # not run again
        reviews = [m for m, _ in w.queue.submitted if m.startswith("review:")]
        assert len(reviews) == 3  # one per agent, once


async def test_a_tick_outside_the_catch_up_window_or_without_a_schedule_starts_nothing() -> None:
    async with fake_world(audits={"schedule": "0 3 * * *"}) as w:
        w.clock.current = SLOT.replace(hour=9)
        assert await w.app.jobs.review_batch.tick() is None
    async with fake_world() as w:
        w.clock.current = SLOT
        assert await w.app.jobs.review_batch.tick() is None
        manual = await w.app.jobs.review_batch.start("acme")
        assert manual.key == "review_all:acme:20260630"  # no schedule: a manual run's period is the UTC day


async def test_the_batch_reviews_each_agent_and_keeps_a_report_per_tenant(world: World) -> None:
    await seed(world)
    batch = await world.app.jobs.review_batch.start()
    assert await finish(world, batch.key) is JobState.SUCCEEDED
    done = await world.app.jobs.service.get(SYSTEM_TENANT, batch.key)
    r = done.result
    assert (r["agents"], r["succeeded"], r["failed"], r["unchanged"], r["tenants"]) == (3, 3, 0, 0, 2)
    assert int(r["findings"]) >= 1  # "thanks!" is clutter
    reviewed = {(t, k.split(":")[2]) for t, k in await world.app.jobs.review_batch.reviews_of(batch.key)}
    assert reviewed == {("acme", "a1"), ("acme", "a2"), ("globex", "b1")}
    kept = await world.reviews.reports("acme", 5)
    assert [i for i, _ in kept] == [batch.key] and kept[0][1].memories == 3
    assert [i for i, _ in await world.reviews.reports("globex", 5)] == [batch.key]


async def test_only_agents_whose_archive_changed_are_reviewed_again(world: World) -> None:
    await seed(world)
    first = await world.app.jobs.review_batch.start("acme")
    assert await finish(world, first.key) is JobState.SUCCEEDED
    await world.app.memory.memorize.memorize_batch(Actor("acme", "a2"), [MemoryDraft("Priya moved to Porto")], True)
    world.clock.advance(days=1)
    second = await world.app.jobs.review_batch.start("acme")
    assert second.key != first.key
    assert await finish(world, second.key) is JobState.SUCCEEDED
    result = (await world.app.jobs.service.get(SYSTEM_TENANT, second.key)).result
    assert result["unchanged"] == 1 and result["agents"] == 2  # a1 unchanged: its review is reused
    a2_reviews = [m for m, _ in world.queue.submitted if m.startswith("review:acme:a2:")]
    assert len(a2_reviews) == 2


async def test_a_failed_review_fails_the_batch_and_a_redrive_reruns_only_it(world: World) -> None:
    await seed(world)
    batch = await world.app.jobs.review_batch.start()
    run = runner(world, with_model=True)
    world.chat.script.append({"verdicts": "nope"})  # a1's clutter goes to the model, which answers badly
    await run.run(SYSTEM_TENANT, batch.key, world.app.jobs.review_batch.run)
    for tenant, key in await world.app.jobs.review_batch.reviews_of(batch.key):
        await run.run(tenant, key, world.app.jobs.review.run)
    await run.run(SYSTEM_TENANT, batch.key, world.app.jobs.review_batch.run)
    failed = await world.app.jobs.service.get(SYSTEM_TENANT, batch.key)
    assert failed.state is JobState.FAILED and "1 of 3 reviews failed" in failed.last_error
    assert failed.result["tenants"] == 2  # the reports are kept anyway
    redriven = await world.app.jobs.service.retry(SYSTEM_TENANT, batch.key)
    assert redriven.run == 2
    assert await finish(world, batch.key) is JobState.SUCCEEDED
    done = await world.app.jobs.service.get(SYSTEM_TENANT, batch.key)
    assert done.result["unchanged"] == 2 and done.result["failed"] == 0


async def test_batch_kind_is_listed_under_its_own_name(world: World) -> None:
    batch = await world.app.jobs.review_batch.start()
    assert batch.kind is JobKind.REVIEW_ALL and batch.tenant_id == SYSTEM_TENANT


async def test_the_batch_looks_again_sooner_as_its_reviews_near_the_end(world: World) -> None:
    await seed(world)
    batch = await world.app.jobs.review_batch.start()
    run = runner(world, with_model=False)
    assert await run.run(SYSTEM_TENANT, batch.key, world.app.jobs.review_batch.run) == 1.0  # fanned out: no pace yet
    for tenant, key in (await world.app.jobs.review_batch.reviews_of(batch.key))[:2]:
        await run.run(tenant, key, world.app.jobs.review.run)
    world.clock.advance(seconds=0.5)  # two reviews in half a second, one left: a quarter of a second
    assert await run.run(SYSTEM_TENANT, batch.key, world.app.jobs.review_batch.run) == 0.25
    world.clock.advance(seconds=0.25)  # none since: 1.5 times the last wait
    assert await run.run(SYSTEM_TENANT, batch.key, world.app.jobs.review_batch.run) == 0.375
