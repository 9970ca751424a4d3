"""review_memories on fakes: findings, the model's verdicts, applying without deleting, restoring, outages."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

import pytest

from memoryd.core.errors import NotFound, Unavailable
from memoryd.core.job_records import JobState
from memoryd.core.models import Actor, MemoryDraft, MemoryFilter, MemoryPatch, MemoryStatus, RecallQuery
from memoryd.core.review import Action, FindingKind, FindingSource, FindingStatus
from tests.unit.conftest import World, fake_world, runner

ME = Actor("acme", "a1")


async def seed(w: World) -> dict[str, str]:
    texts = {
        "dup_a": ("The VPN needs a hardware key", ("ops",)),
        "dup_b": ("The VPN needs a hardware key", ("security",)),
        "fix_a": ("The customer order number is 48213 for the blue chairs", ()),
        "fix_b": ("The customer order number is 99017 for the blue chairs", ()),
        "junk": ("thanks!", ()),
    }
    ids = {}
    for name, (text, tags) in texts.items():
        result = await w.app.memory.memorize.memorize_batch(ME, [MemoryDraft(text, tags=tags)], True)
        ids[name] = result[0].memory.memory_id
    return ids


async def review(w: World, *, with_model: bool = False) -> str:
    job = await w.app.jobs.review.request(ME)
    assert await runner(w, with_model=with_model).run("acme", job.key, w.app.jobs.review.run) is None
    done = await w.app.jobs.service.get("acme", job.key)
    assert done.state == JobState.SUCCEEDED, done.last_error
    return job.key


async def test_rules_find_the_planted_problems_and_change_nothing(world: World) -> None:
    ids = await seed(world)
    key = await review(world)
    reviewed, findings = await world.app.jobs.review.get(ME, key)
    kinds = {f.kind: set(f.memory_ids) for f in findings}
    assert kinds[FindingKind.DUPLICATE] == {ids["dup_a"], ids["dup_b"]}
    assert kinds[FindingKind.CONTRADICTION] == {ids["fix_a"], ids["fix_b"]}
    assert kinds[FindingKind.CLUTTER] == {ids["junk"]}
    assert reviewed.memories_reviewed == 5 and reviewed.counts["duplicate"] == 1 and reviewed.model_calls == 0
    assert all(r.status is MemoryStatus.ACTIVE for r, _ in world.store.rows.values())  # proposals only
    assert (await world.app.jobs.review.request(ME)).key == key  # an unchanged archive: the same review


async def test_applying_a_merge_supersedes_the_loser_and_restore_brings_it_back(world: World) -> None:
    ids = await seed(world)
    key = await review(world)
    _, findings = await world.app.jobs.review.get(ME, key)
    merge = next(f for f in findings if f.kind is FindingKind.DUPLICATE)
    applied = await world.app.jobs.review.apply(ME, key, [merge.finding_id])
    assert applied[0].status is FindingStatus.APPLIED
    keep, lose = merge.survivor_id, next(i for i in merge.memory_ids if i != merge.survivor_id)
    kept, lost = world.store.rows[keep][0], world.store.rows[lose][0]
    assert kept.status is MemoryStatus.ACTIVE and set(kept.tags) == {"ops", "security"}
    assert lost.status is MemoryStatus.SUPERSEDED and lost.superseded_by == keep
    hits = await world.app.memory.recall.recall(RecallQuery(ME, "VPN hardware key"))
    assert lose not in {h.memory.memory_id for h in hits} and keep in {h.memory.memory_id for h in hits}
    assert (await world.app.memory.archive.get(ME, lose)).status is MemoryStatus.SUPERSEDED  # still readable by id
    again = await world.app.jobs.review.apply(ME, key, [merge.finding_id])  # twice: nothing more happens
    assert again == applied and world.store.rows[lose][0] == lost
    restored = await world.app.memory.archive.restore(ME, lose)
    assert restored.status is MemoryStatus.ACTIVE and restored.superseded_by == ""
    page = await world.store.page(ME, MemoryFilter(), "", 100)
    assert lose in {r.memory_id for r in page}
    assert ids["dup_a"] in world.store.rows  # nothing was deleted


async def test_a_memory_rewritten_since_the_review_is_not_touched_by_applying(world: World) -> None:
    ids = await seed(world)
    key = await review(world)
    _, findings = await world.app.jobs.review.get(ME, key)
    junk = next(f for f in findings if f.kind is FindingKind.CLUTTER)
    await world.app.memory.archive.update(ME, ids["junk"], MemoryPatch(content="thanks! the invoice is 4410"))
    applied = await world.app.jobs.review.apply(ME, key, [junk.finding_id])
    assert applied[0].status is FindingStatus.PROPOSED and "rewritten since the review" in applied[0].outcome
    assert world.store.rows[ids["junk"]][0].status is MemoryStatus.ACTIVE


def judge(decide: Callable[[str, str], dict[str, object]]) -> Callable[[str, str], dict[str, object]]:
    """A model that gives ``decide(finding_id, kind)``'s verdict for every finding its prompt lists."""

    def answer(system: str, user: str) -> dict[str, object]:
        asked = re.findall(r"Finding ([0-9a-f]{32}) \((\w+)\)", system)
        return {"verdicts": [{"finding_id": fid, **decide(fid, kind)} for fid, kind in asked]}

    return answer


async def test_the_model_judges_and_its_update_keeps_the_old_fact(world: World) -> None:
    ids = await seed(world)

    def decide(finding: str, kind: str) -> dict[str, object]:
        if kind == "contradiction":
            return {
                "confirm": True,
                "action": "update",
                "memory_id": ids["fix_a"],
                "text": "The order number is 99017 (it was 48213)",
            }
        if kind == "duplicate":
            return {"confirm": True, "action": "merge", "survivor_id": ids["dup_a"]}
        return {"confirm": False, "action": "keep"}

    world.chat.script.append(judge(decide))
    key = await review(world, with_model=True)
    reviewed, judged = await world.app.jobs.review.get(ME, key)
    assert reviewed.model_calls == 1 and reviewed.tokens_in > 0 and reviewed.model == "scripted"
    by_kind = {f.kind: f for f in judged}
    assert by_kind[FindingKind.CLUTTER].status is FindingStatus.REJECTED
    update = by_kind[FindingKind.CONTRADICTION]
    assert update.source is FindingSource.MODEL and update.action is Action.UPDATE
    await world.app.jobs.review.apply(ME, key, [update.finding_id, by_kind[FindingKind.CLUTTER].finding_id])
    old = world.store.rows[ids["fix_a"]][0]
    new = world.store.rows[old.superseded_by][0]
    assert old.status is MemoryStatus.SUPERSEDED and new.content == "The order number is 99017 (it was 48213)"
    assert world.store.rows[ids["junk"]][0].status is MemoryStatus.ACTIVE  # rejected: never applied
    await world.app.jobs.review.apply(ME, key, [update.finding_id])  # a retried apply writes no second memory
    assert sum(1 for r, _ in world.store.rows.values() if r.content == new.content) == 1


async def test_a_malformed_answer_fails_the_review_and_applies_nothing() -> None:
    async with fake_world(audits={"apply": "all"}) as w:
        await seed(w)
        w.chat.script.append({"verdicts": [{"finding_id": "nope", "confirm": True, "action": "keep"}]})
        job = await w.app.jobs.review.request(ME)
        assert await runner(w).run("acme", job.key, w.app.jobs.review.run) is None
        failed = await w.app.jobs.service.get("acme", job.key)
        assert failed.state == JobState.FAILED and "not asked about" in failed.last_error
        assert all(r.status is MemoryStatus.ACTIVE for r, _ in w.store.rows.values())


async def test_an_outage_mid_review_converges_to_the_clean_findings() -> None:
    async def findings_after(steps: list[str]) -> list[tuple[str, ...]]:
        async with fake_world(audits={"findings_per_call": 1}) as w:
            await seed(w)
            keep = judge(lambda finding, kind: {"confirm": kind != "clutter", "action": "keep"})
            w.chat.script.extend(Unavailable("503") if step == "fail" else keep for step in steps)
            job = await w.app.jobs.review.request(ME)
            while (await w.app.jobs.service.get("acme", job.key)).live:
                await runner(w).run("acme", job.key, w.app.jobs.review.run)
            assert (await w.app.jobs.service.get("acme", job.key)).state == JobState.SUCCEEDED
            _, final = await w.app.jobs.review.get(ME, job.key)
            return sorted((f.kind.value, f.status.value, f.action.value, str(f.judged)) for f in final)

    clean = await findings_after(["ok", "ok", "ok"])
    stormy = await findings_after(["ok", "fail", "fail", "ok", "fail", "ok"])
    assert stormy == clean and all(judged == "True" for *_, judged in clean)


async def test_reviews_belong_to_their_agent(world: World) -> None:
    await seed(world)
    key = await review(world)
    with pytest.raises(NotFound):
        await world.app.jobs.review.get(Actor("acme", "a2"), key)
    assert await world.app.jobs.review.list_reviews(Actor("acme", "a2"), 10) == []


async def test_the_rules_policy_applies_only_certain_rule_findings() -> None:
    async with fake_world(audits={"tenants": {"acme": "rules"}}) as w:
        ids = await seed(w)
        w.clock.advance(days=1)
        await review(w)
        assert w.store.rows[ids["junk"]][0].status is MemoryStatus.ARCHIVED  # clutter: certain
        superseded = [w.store.rows[ids[n]][0].status for n in ("dup_a", "dup_b")]
        assert sorted(superseded) == [MemoryStatus.ACTIVE, MemoryStatus.SUPERSEDED]  # identical texts: certain
        assert w.store.rows[ids["fix_a"]][0].status is MemoryStatus.ACTIVE  # contradictions: never by rules


async def test_a_merged_or_updated_memory_keeps_its_collection_and_weights(world: World) -> None:
    kept = {"collection": "orders", "category": "purchases", "salience": 0.9, "decay_factor": 0.5}
    filed = MemoryDraft("", collection="orders", category="purchases", salience=0.9, decay_factor=0.5)
    texts = {
        "fix_a": replace(filed, content="The customer order number is 48213 for the blue chairs"),
        "fix_b": MemoryDraft("The customer order number is 99017 for the blue chairs"),
        "dup_a": replace(filed, content="The VPN needs a hardware key"),
        "dup_b": MemoryDraft("The VPN needs a hardware key"),
    }
    ids = {}
    for name, draft in texts.items():
        result = await world.app.memory.memorize.memorize_batch(ME, [draft], True)
        ids[name] = result[0].memory.memory_id

    def decide(finding: str, kind: str) -> dict[str, object]:
        if kind == "duplicate":
            return {"confirm": True, "action": "merge", "survivor_id": ids["dup_a"], "text": "VPN: a hardware key"}
        return {"confirm": True, "action": "update", "memory_id": ids["fix_a"], "text": "The order is 99017"}

    world.chat.script.append(judge(decide))
    key = await review(world, with_model=True)
    _, judged = await world.app.jobs.review.get(ME, key)
    await world.app.jobs.review.apply(ME, key, [f.finding_id for f in judged])
    for old in ("fix_a", "dup_a"):
        successor = world.store.rows[world.store.rows[ids[old]][0].superseded_by][0]
        assert {k: getattr(successor, k) for k in kept} == kept, old
    query = RecallQuery(ME, "order number", filter=MemoryFilter(collection="orders"))
    assert "The order is 99017" in {h.memory.content for h in await world.app.memory.recall.recall(query)}


@pytest.mark.parametrize("text", ["", "VPN: a hardware key"], ids=["the survivor kept", "a merged text"])
async def test_a_merge_that_supersedes_a_pinned_memory_keeps_the_pin(world: World, text: str) -> None:
    """The model keeps the unpinned twin: what the merge keeps is pinned, or retention could delete the fact."""
    ids = {}
    for name, pinned in (("dup_a", False), ("dup_b", True)):
        draft = MemoryDraft("The VPN needs a hardware key", pinned=pinned)
        ids[name] = (await world.app.memory.memorize.memorize_batch(ME, [draft], True))[0].memory.memory_id

    def decide(finding: str, kind: str) -> dict[str, object]:
        return {"confirm": True, "action": "merge", "survivor_id": ids["dup_a"], "text": text}

    world.chat.script.append(judge(decide))
    key = await review(world, with_model=True)
    _, judged = await world.app.jobs.review.get(ME, key)
    await world.app.jobs.review.apply(ME, key, [f.finding_id for f in judged])
    merged_away = world.store.rows[ids["dup_b"]][0]
    assert merged_away.status is MemoryStatus.SUPERSEDED
    assert world.store.rows[merged_away.superseded_by][0].pinned
