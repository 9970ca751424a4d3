"""The whole service graph built by build_app on fakes only: bodies of every job kind run in milliseconds."""

from __future__ import annotations

import pytest

from memoryd.app import build_app
from memoryd.config import load_settings
from memoryd.core.conversation import MessageInput, PartKind, Role
from memoryd.core.errors import Unavailable
from memoryd.core.job_records import JobKind, JobState, bootstrap_done_flag
from memoryd.core.models import Actor, MemoryDraft, MemoryFilter, MemoryStatus, Scope
from tests.fakes import HashEmbedder, InMemoryStore
from tests.unit.conftest import World, fake_world, runner

ME = Actor("acme", "a1")
PROFILE: dict[str, object] = {"profile": "## Preferences\n- likes green tea", "demoted": []}


async def test_build_app_on_fakes_runs_a_regeneration_end_to_end(world: World) -> None:
    app = world.app
    await app.memory.memorize.memorize(ME, MemoryDraft("a1 likes green tea"))
    await app.memory.memorize.memorize(Actor("acme", "a1", "ida"), MemoryDraft("Ida is allergic to peanuts"))
    job = await app.jobs.bootstrap.regenerate(ME)
    assert job.kind == JobKind.REGENERATE and world.queue.submitted == [(job.message_id, 0)]
    prompts: list[str] = []

    def compile_profile(system: str, user: str) -> dict[str, object]:
        prompts.append(system)
        return PROFILE

    world.chat.script.append(compile_profile)
    assert await runner(world).run("acme", job.key, app.jobs.bootstrap.compile) is None
    assert "green tea" in prompts[0] and "peanuts" not in prompts[0]  # written serving a contact: not every one's
    done = await app.jobs.service.get("acme", job.key)
    assert done.state == JobState.SUCCEEDED and done.result["outcome"] == "compiled"
    assert "likes green tea" in (await app.working.profile.get(ME)).document


async def test_the_bootstrap_batch_fans_out_and_sets_its_flag(world: World) -> None:
    app = world.app
    await app.memory.memorize.memorize(ME, MemoryDraft("a1 likes green tea"))
    batch = await app.jobs.bootstrap.start_batch()
    assert batch is not None
    run = runner(world)
    assert await run.run(batch.tenant_id, batch.key, app.jobs.bootstrap.run_batch) is not None  # waits
    child = (await app.jobs.service.list_jobs("acme", JobKind.BOOTSTRAP, None, "a1", 10, 0))[0][0]
    world.chat.script.append(PROFILE)
    await run.run("acme", child.key, app.jobs.bootstrap.compile)
    assert await run.run(batch.tenant_id, batch.key, app.jobs.bootstrap.run_batch) is None
    assert await world.ledger.flag(bootstrap_done_flag(1))


async def test_the_bootstrap_batch_looks_again_sooner_as_its_agents_near_the_end(world: World) -> None:
    app = world.app
    agents = [Actor("acme", f"a{i}") for i in range(5)]
    for actor in agents:
        await app.memory.memorize.memorize(actor, MemoryDraft(f"{actor.agent_id} likes green tea"))
    batch = await app.jobs.bootstrap.start_batch()
    assert batch is not None
    run = runner(world)

    async def finish(actor: Actor) -> None:
        world.chat.script.append(PROFILE)
        job = (await app.jobs.service.list_jobs("acme", JobKind.BOOTSTRAP, None, actor.agent_id, 10, 0))[0][0]
        assert await run.run("acme", job.key, app.jobs.bootstrap.compile) is None

    assert await run.run(batch.tenant_id, batch.key, app.jobs.bootstrap.run_batch) == 1.0  # fanned out: no pace yet
    for actor in agents[:2]:
        await finish(actor)
    world.clock.advance(seconds=0.4)  # 2 agents in 0.4 s, 3 left: 0.6 s
    assert await run.run(batch.tenant_id, batch.key, app.jobs.bootstrap.run_batch) == pytest.approx(0.6)
    for actor in agents[2:4]:
        await finish(actor)
    world.clock.advance(seconds=0.4)  # 4 in 0.8 s, 1 left: 0.2 s
    assert await run.run(batch.tenant_id, batch.key, app.jobs.bootstrap.run_batch) == pytest.approx(0.2)
    world.clock.advance(seconds=0.2)  # the last one straggles: 1.5 times the last wait each time
    assert await run.run(batch.tenant_id, batch.key, app.jobs.bootstrap.run_batch) == pytest.approx(0.3)
    world.clock.advance(seconds=0.3)
    assert await run.run(batch.tenant_id, batch.key, app.jobs.bootstrap.run_batch) == pytest.approx(0.45)
    await finish(agents[4])
    assert await run.run(batch.tenant_id, batch.key, app.jobs.bootstrap.run_batch) is None
    assert await world.ledger.flag(bootstrap_done_flag(1))


async def test_compaction_without_a_model_takes_the_extractive_path(world: World) -> None:
    app = world.app
    run = runner(world, with_model=False)
    turns = [
        MessageInput(f"m{i}", Role.USER if i % 2 else Role.ASSISTANT, f"turn {i} " + "word " * 60) for i in range(40)
    ]
    result = await app.working.conversations.append(ME, "c1", turns, context_window=1024)
    assert result.compaction is not None
    await run.run("acme", result.compaction.key, app.jobs.compaction.run)
    done = await app.jobs.service.get("acme", result.compaction.key)
    assert done.state == JobState.SUCCEEDED and done.result["path"] == "extractive"
    context = await app.working.conversations.context(ME, "c1", 1024)
    assert context.tokens() <= 1024 and context.tokens(PartKind.SUMMARY) > 0


async def test_an_extractive_compaction_files_every_user_message_in_batches(world: World) -> None:
    """Over 1,000 user messages in one stretch: one MemorizeBatch would be refused, failing the job for good."""
    app = world.app
    run = runner(world, with_model=False)
    for start in range(0, 2100, 500):
        turns = [
            MessageInput(f"m{i}", Role.USER if i % 2 else Role.ASSISTANT, f"turn {i} of the long session")
            for i in range(start, min(start + 500, 2100))
        ]
        result = await app.working.conversations.append(ME, "c1", turns, context_window=1024)
    assert result.compaction is not None
    await run.run("acme", result.compaction.key, app.jobs.compaction.run)
    done = await app.jobs.service.get("acme", result.compaction.key)
    assert done.state == JobState.SUCCEEDED, done.last_error
    filed = {m.content for m in await app.memory.store.page(ME, MemoryFilter(), "", 5000)}
    state = await app.working.conversation_store.state("acme", "c1")
    assert state is not None
    through = state.compacted_through
    assert through > 2000 and {f"user: turn {i} of the long session" for i in range(1, through, 2)} <= filed


async def test_what_a_conversation_with_a_contact_files_is_that_contact_s(world: World) -> None:
    """Filed as the agent's private memories, one contact's words came back while the agent served another."""
    app = world.app
    alice, bob = Actor("acme", "a1", "alice"), Actor("acme", "a1", "bob")
    turns = [
        MessageInput(f"m{i}", Role.USER if i % 2 else Role.ASSISTANT, f"turn {i}: my locker code is {4700 + i}. " * 12)
        for i in range(40)
    ]
    said: dict[str, object] = {
        "summary": "Alice gave her locker codes.",
        "memories": [{"content": "Alice's locker code is 4711"}],
    }
    world.chat.script += [said, said]
    for conversation, with_model in (("extractive", False), ("model", True)):
        result = await app.working.conversations.append(alice, conversation, turns, context_window=1024)
        assert result.compaction is not None
        await runner(world, with_model=with_model).run("acme", result.compaction.key, app.jobs.compaction.run)
        done = await app.jobs.service.get("acme", result.compaction.key)
        assert done.state == JobState.SUCCEEDED and done.result["path"] == conversation
    filed = await app.memory.store.page(alice, MemoryFilter(), "", 500)
    assert "Alice's locker code is 4711" in {m.content for m in filed} and any(
        m.content.startswith("user: turn 1:") for m in filed
    )
    assert all(m.scope is Scope.END_USER and m.end_user_id == "alice" for m in filed)
    assert await app.memory.store.page(bob, MemoryFilter(), "", 500) == []


async def test_a_contact_s_conversation_changes_nothing_other_contacts_see(world: World) -> None:
    """The agent's profile and private memories reach every contact: one contact's words wrote into both."""
    app = world.app
    agent, alice, bob = Actor("acme", "a1"), Actor("acme", "a1", "alice"), Actor("acme", "a1", "bob")
    policy = await app.memory.memorize.memorize(agent, MemoryDraft("Refunds are accepted within 30 days"))
    coffee = await app.memory.memorize.memorize(alice, MemoryDraft("Alice takes her refund coffee black"))  # private
    prompts: list[str] = []

    def maintenance(system: str, user: str) -> dict[str, object]:
        prompts.append(system)
        said = "M1" if "M1: Alice takes her refund coffee black" in system else "?"
        return {
            "memories": [
                {"content": "Refunds are accepted within 365 days", "supersedes": "M2"},
                {"content": "Alice takes her refund coffee with milk", "supersedes": said},
            ],
            "profile": "## People\n- Alice is allergic to peanuts\n## Policy\n- Always refund in full",
            "demoted": [],
        }

    world.chat.script += [{"summary": "Alice spoke of her allergy and of refunds."}, maintenance]
    turns = [
        MessageInput(f"m{i}", Role.USER if i % 2 else Role.ASSISTANT, f"turn {i}: refunds. " * 12) for i in range(40)
    ]
    result = await app.working.conversations.append(alice, "c1", turns, context_window=1024)
    assert result.compaction is not None
    await runner(world, with_model=True).run("acme", result.compaction.key, app.jobs.compaction.run)
    assert (await app.jobs.service.get("acme", result.compaction.key)).state == JobState.SUCCEEDED
    assert "Refunds are accepted within 30 days" not in prompts[0]
    assert (await app.working.profile.get(bob)).document == ""
    kept = await app.memory.store.get_many(bob, [policy.memory.memory_id], with_retrievals=False)
    assert kept[policy.memory.memory_id].status is MemoryStatus.ACTIVE
    assert {m.content for m in await app.memory.store.page(bob, MemoryFilter(), "", 50)} == {policy.memory.content}
    heard = {m.content: m for m in await app.memory.store.page(alice, MemoryFilter(), "", 50)}
    learnt = {"Refunds are accepted within 365 days", "Alice is allergic to peanuts", "Always refund in full"}
    assert learnt | {"Alice takes her refund coffee with milk"} <= set(heard)
    assert all(m.scope is Scope.END_USER for c, m in heard.items() if c != policy.memory.content)
    was = await app.memory.store.get_many(alice, [coffee.memory.memory_id], with_retrievals=False)
    assert was[coffee.memory.memory_id].status is MemoryStatus.SUPERSEDED  # hers to correct, for her alone


async def test_without_job_parts_the_app_answers_unavailable() -> None:
    async with fake_world(with_jobs=False) as world:
        app = world.app
        assert app.job_parts is None
        with pytest.raises(Unavailable, match="REDIS_URL"):
            app.jobs.service  # noqa: B018  # the property is what is tested


async def test_stores_and_job_ports_come_all_or_none() -> None:
    with pytest.raises(ValueError, match="every store"):
        async with build_app(load_settings(None), store=InMemoryStore(), embedder=HashEmbedder()):
            pass


async def test_a_stretch_compressed_before_it_was_filed_files_what_the_user_said() -> None:
    """Held back until EndSession, the first summaries were compressed away: only "[compressed] …" was filed."""
    async with fake_world(working={"default": {"batch_size": 0}}) as world:
        app, summaries = world.app, iter(range(1, 1000))

        def summary(system: str, user: str) -> dict[str, object]:
            return {"summary": f"the code is {1000 + next(summaries)}", "compressed": "codes were given"}

        world.chat.script += [summary] * 100
        for start in range(0, 120, 10):
            said = [
                MessageInput(f"m{i}", Role.USER if i % 2 else Role.ASSISTANT, f"turn {i}: my code. " * 12)
                for i in range(start, start + 10)
            ]
            result = await app.working.conversations.append(ME, "c1", said, context_window=1024)
            if result.compaction is not None:
                await runner(world).run("acme", result.compaction.key, app.jobs.compaction.run)
        job = await app.working.conversations.end_session(ME, "c1")
        await runner(world).run("acme", job.key, app.jobs.compaction.run)
        done = await app.jobs.service.get("acme", job.key)
        assert done.state == JobState.SUCCEEDED and done.result["merged_summaries"] == 2
        filed = {m.content for m in await app.memory.store.page(ME, MemoryFilter(), "", 500)}
        assert any(text.startswith("[compressed]") for text in filed)
        assert {"user: " + f"turn {i}: my code. " * 12 for i in range(1, 52, 2)} <= filed
        assert not any(text.startswith("user: turn 53:") for text in filed)  # its own summary was filed


async def test_an_idle_conversation_files_what_it_holds_before_retention_deletes_it() -> None:
    """Never compacted and never ended, its messages went with it: nothing reached the archive."""
    async with fake_world(retention={"conversations_days": 7}) as world:
        app = world.app
        alice, bob = Actor("acme", "a1", "alice"), Actor("acme", "a1", "bob")
        said = [MessageInput("m1", Role.USER, "My locker code is 4711"), MessageInput("m2", Role.ASSISTANT, "Noted.")]
        await app.working.conversations.append(alice, "kept", said)
        await app.working.conversations.append(alice, "brief", said, options={"storage_scope": "summaries_only"})
        world.clock.advance(days=8)
        dry = await app.admin.retention.purge("acme", dry_run=True)
        assert (dry.counts["conversations"], dry.counts["filed_from_conversations"]) == (2, 1)
        assert await app.memory.store.page(alice, MemoryFilter(), "", 10) == []
        done = await app.admin.retention.purge("acme", dry_run=False)
        assert done.counts == dry.counts
        [filed] = await app.memory.store.page(alice, MemoryFilter(), "", 10)
        assert (filed.content, filed.scope, filed.end_user_id) == (
            "user: My locker code is 4711",
            Scope.END_USER,
            "alice",
        )
        assert await app.memory.store.page(bob, MemoryFilter(), "", 10) == []
        assert await app.working.conversation_store.state("acme", "kept") is None


async def test_a_compacted_stretch_held_back_is_filed_before_retention_deletes_it() -> None:
    async with fake_world(retention={"conversations_days": 7}, working={"default": {"batch_size": 0}}) as world:
        app = world.app
        turns = [MessageInput(f"m{i}", Role.USER if i % 2 else Role.ASSISTANT, f"turn {i}. " * 30) for i in range(40)]
        result = await app.working.conversations.append(ME, "c1", turns, context_window=1024)
        assert result.compaction is not None
        await runner(world, with_model=False).run("acme", result.compaction.key, app.jobs.compaction.run)
        state = await app.working.conversation_store.state("acme", "c1")
        assert state is not None and state.compacted_through > 0 and state.filed_through == 0  # held back
        world.clock.advance(days=8)
        dry = await app.admin.retention.purge("acme", dry_run=True)
        done = await app.admin.retention.purge("acme", dry_run=False)
        assert done.counts["conversations"] == 1 and done.counts == dry.counts
        filed = {m.content for m in await app.memory.store.page(ME, MemoryFilter(), "", 100)}
        assert done.counts["filed_from_conversations"] == len(filed)
        assert {"user: " + f"turn {i}. " * 30 for i in range(1, 40, 2)} <= filed
        assert any(text.startswith("[extractive]") for text in filed)  # the summary, as a compaction files it


@pytest.mark.parametrize(("words", "limit"), [("我们 明天 去 北京。 " * 700, 16 * 1024), ("turn. " * 300, 1000)])
async def test_a_message_over_the_archive_s_limit_is_filed_whole_in_parts(words: str, limit: int) -> None:
    """Cut by characters, a message in Chinese was over the limit in bytes: the compaction failed for good."""
    async with fake_world(memorize={"max_content_bytes": limit}) as world:
        app = world.app
        turns = [MessageInput(f"m{i}", Role.USER if i % 2 else Role.ASSISTANT, f"{i}: {words}") for i in range(12)]
        result = await app.working.conversations.append(ME, "c1", turns, context_window=40000 if limit > 1000 else 1024)
        assert result.compaction is not None
        await runner(world, with_model=False).run("acme", result.compaction.key, app.jobs.compaction.run)
        done = await app.jobs.service.get("acme", result.compaction.key)
        assert done.state == JobState.SUCCEEDED, done.last_error
        filed = await app.memory.store.page(ME, MemoryFilter(), "", 500)
        parts = sorted(
            (m for m in filed if " message 2 part " in m.source_context),
            key=lambda m: int(m.source_context.split()[-3]),
        )
        assert len(parts) > 1 and "".join(m.content.removeprefix("user: ") for m in parts) == f"1: {words}"


async def test_retention_cut_short_keeps_the_blocks_it_filed_and_deleted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Filing every idle conversation before deleting any, a job cut short (its timeout) deleted none of them."""
    monkeypatch.setattr("memoryd.services.retention._CONVERSATIONS_PER_BLOCK", 2)
    async with fake_world(retention={"conversations_days": 7}) as world:
        app = world.app
        for n in range(5):
            await app.working.conversations.append(ME, f"c{n}", [MessageInput("m1", Role.USER, f"note {n}")])
        world.clock.advance(days=8)
        filing = app.admin.retention._filing
        assert filing is not None
        real, calls = filing.before_expiry, 0

        async def cut_short(tenant_id: str, conversation_id: str, *, dry_run: bool = False) -> int:
            nonlocal calls
            calls += 1
            if calls == 3:
                raise Unavailable("the job's time is up")
            return await real(tenant_id, conversation_id, dry_run=dry_run)

        monkeypatch.setattr(filing, "before_expiry", cut_short)
        with pytest.raises(Unavailable):
            await app.admin.retention.purge("acme", dry_run=False)
        left = [c for c in ("c0", "c1", "c2", "c3", "c4") if await app.working.conversation_store.state("acme", c)]
        assert left == ["c2", "c3", "c4"]  # the first block is filed and gone; a retry goes on from there
        done = await app.admin.retention.purge("acme", dry_run=False)
        assert done.counts["conversations"] == 3 and done.counts["filed_from_conversations"] == 3
        notes = {m.content for m in await app.memory.store.page(ME, MemoryFilter(), "", 10)}
        assert notes == {f"user: note {n}" for n in range(5)}


async def test_auto_recall_serving_a_contact_leaves_out_what_was_written_serving_another(world: World) -> None:
    """Injected unasked, a private memory written serving Omar came into Ida's context."""
    app = world.app
    ida, omar = Actor("acme", "a1", "ida"), Actor("acme", "a1", "omar")
    await app.memory.memorize.memorize(omar, MemoryDraft("the alarm code is 5522"))  # private, tagged with omar
    await app.memory.memorize.memorize(ME, MemoryDraft("the alarm code is 1234"))  # the agent's own
    said = [MessageInput("m1", Role.USER, "the alarm code is")]
    await app.working.conversations.append(ida, "c1", said, options={"auto_recall": True})
    context = await app.working.conversations.context(ida, "c1", 4096)
    recalled = [p.content for p in context.parts if p.kind is PartKind.MEMORY]
    assert any("1234" in text for text in recalled) and not any("5522" in text for text in recalled)


async def test_a_conversation_id_as_long_as_allowed_compacts_and_expires() -> None:
    """Filing keyed by "file:{conversation}:{stretch}": past 128 characters, the compaction failed for good."""
    async with fake_world(retention={"conversations_days": 7}) as world:
        app, longest = world.app, "c" * 128
        turns = [MessageInput(f"m{i}", Role.USER if i % 2 else Role.ASSISTANT, f"turn {i}. " * 40) for i in range(20)]
        result = await app.working.conversations.append(ME, longest, turns, context_window=1024)
        assert result.compaction is not None
        await runner(world, with_model=False).run("acme", result.compaction.key, app.jobs.compaction.run)
        done = await app.jobs.service.get("acme", result.compaction.key)
        assert done.state == JobState.SUCCEEDED and int(done.result["filed_memories"]) > 0, done.last_error
        world.clock.advance(days=8)
        purged = await app.admin.retention.purge("acme", dry_run=False)
        assert purged.counts["conversations"] == 1 and purged.counts["filed_from_conversations"] > 0


async def test_a_line_leaving_a_section_with_a_long_generated_heading_is_filed(world: World) -> None:
    """A model's heading past a subject's 256 characters: the next rewrite that left its line out failed for good."""
    profile, heading = world.app.working.profile, "H" * 300
    await profile.rewrite(ME, f"## {heading}\n- likes tea\n## Work\n- builds boats", [], "first")
    done = await profile.rewrite(ME, "## Work\n- builds boats", [], "second")
    assert done.applied and done.filed_memories == 1
    [filed] = await world.app.memory.store.page(ME, MemoryFilter(), "", 10)
    assert (filed.content, filed.subject) == ("likes tea", heading[:200])
