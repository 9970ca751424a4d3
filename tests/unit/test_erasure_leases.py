"""An erasure and the jobs under way: it holds the conversation jobs' leases, and waits for running reviews."""

from __future__ import annotations

import asyncio
import re

import pytest

from memoryd.core.answer_schemas import AnswerSchema
from memoryd.core.conversation import MessageInput, Role, compaction_lease, extraction_lease
from memoryd.core.errors import Unavailable
from memoryd.core.keys import Role as KeyRole
from memoryd.core.models import Actor, MemoryDraft, MemoryFilter, Scope
from memoryd.services.erasure import ErasureService
from tests.fakes import DictLeases
from tests.unit.conftest import World, fake_world, runner

CONTACT = Actor("acme", "a1", "u-1")
ADMIN = Actor("acme", "", role=KeyRole.ADMIN)
CHAT = "chat-u-1"


def erasure(world: World, leases: DictLeases, wait: float) -> ErasureService:
    app = world.app
    return ErasureService(
        app.memory.store,
        app.working.conversation_store,
        world.reviews,
        None,
        (world.ledger, world.queue),
        app.admin.trail,
        world.clock,
        leases=leases,
        job_seconds=wait,
    )


async def planted(world: World) -> None:
    await world.app.memory.memorize.memorize(
        CONTACT, MemoryDraft("The contact's cat is called Tom", scope=Scope.END_USER)
    )
    assert world.app.working.conversations is not None
    await world.app.working.conversations.append(
        CONTACT, CHAT, [MessageInput("m1", Role.USER, "hello")], context_window=4000
    )


async def test_a_job_that_outlasts_the_wait_leaves_the_contact_untouched_and_the_job_its_lease() -> None:
    async with fake_world() as world:
        await planted(world)
        leases = DictLeases()
        await leases.lock(compaction_lease("acme", CHAT), "job-1", 60)

        with pytest.raises(Unavailable, match="end_user_id 'u-1'"):
            await erasure(world, leases, wait=0.3).erase_end_user(ADMIN, "u-1")

        assert leases.held == {compaction_lease("acme", CHAT): "job-1"}
        assert [r.content for r in await world.app.memory.store.page(CONTACT, MemoryFilter(), "", 10)] == [
            "The contact's cat is called Tom"
        ]
        assert await world.app.working.conversation_store.state("acme", CHAT) is not None


async def test_a_job_under_way_is_waited_for_then_both_leases_are_held_while_deleting_and_given_back() -> None:
    async with fake_world() as world:
        await planted(world)
        leases = DictLeases()
        await leases.lock(extraction_lease("acme", CHAT), "job-2", 60)
        held_while_deleting: list[dict[str, str]] = []
        store_erase = world.app.memory.store.erase_end_user

        async def erase_end_user(tenant_id: str, end_user_id: str) -> tuple[list[str], list[str]]:
            held_while_deleting.append(dict(leases.held))
            return await store_erase(tenant_id, end_user_id)

        world.app.memory.store.erase_end_user = erase_end_user  # type: ignore[method-assign]

        async def job_finishes() -> None:
            await asyncio.sleep(0.3)
            assert held_while_deleting == []  # the erasure waits for the job before it deletes anything
            await leases.unlock(extraction_lease("acme", CHAT), "job-2")

        finishing = asyncio.create_task(job_finishes())
        receipt = await erasure(world, leases, wait=10).erase_end_user(ADMIN, "u-1")
        await finishing

        assert receipt.counts["memories"] == 1 and receipt.counts["conversations"] == 1
        [during] = held_while_deleting
        assert set(during) == {compaction_lease("acme", CHAT), extraction_lease("acme", CHAT)}
        assert all(holder.startswith("erase:") for holder in during.values())
        assert leases.held == {}
        assert await world.app.working.conversation_store.state("acme", CHAT) is None


async def test_findings_a_running_review_writes_after_the_memories_are_deleted_are_erased_too() -> None:
    async with fake_world() as world:
        app, author = world.app, Actor("acme", "a1")
        for text in ("The contact's locker code is 4471", "The contact's locker code is 9902"):  # a contradiction
            await app.memory.memorize.memorize_batch(Actor("acme", "a1", "u-1"), [MemoryDraft(text)], True)
        asked, answer = asyncio.Event(), asyncio.Event()

        async def slow_model(
            system: str, user: str, model: str = "", schema: AnswerSchema | None = None
        ) -> tuple[dict[str, object], int, int]:
            asked.set()
            await answer.wait()
            found = re.findall(r"Finding ([0-9a-f]{32}) \((\w+)\)", system)
            return {"verdicts": [{"finding_id": f, "confirm": True, "action": "keep"} for f, _ in found]}, 10, 10

        world.chat.complete_json = slow_model  # type: ignore[method-assign]
        job = await app.jobs.review.request(author)
        reviewing = asyncio.create_task(runner(world).run("acme", job.key, app.jobs.review.run))
        await asyncio.wait_for(asked.wait(), 5)  # the review read the memories and asks the model

        erasing = asyncio.create_task(erasure(world, DictLeases(), wait=10).erase_end_user(ADMIN, "u-1"))
        await asyncio.sleep(0.3)
        waited = not erasing.done()  # the memories are gone; the findings wait for the review
        answer.set()
        assert await reviewing is None
        receipt = await erasing

        assert receipt.counts["memories"] == 2 and receipt.counts["findings"] >= 1
        _, findings = await app.jobs.review.get(author, job.key)
        assert findings == [] and waited
