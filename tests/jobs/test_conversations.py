"""Working memory end to end: appends, compaction jobs on real Valkey/arq/LanceDB, GetContext fits."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.adapters.tiktoken_counter import TiktokenCounter
from memoryd.app import App
from memoryd.core.conversation import MessageInput, Role
from memoryd.core.job_records import JobKind
from memoryd.core.models import (
    Actor,
    EditKind,
    ListQuery,
    MemoryDraft,
    MemoryFilter,
    ProfileEdit,
    RecallQuery,
    Scope,
)
from memoryd.testing.provider import FakeProvider
from tests.jobs.conftest import job_settings, running

ME = Actor("acme", "a1")


@pytest.fixture
async def app(tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder) -> AsyncIterator[App]:
    """The App without a model, its workers polling fast: compactions follow the appends at once."""
    async with running(job_settings(tmp_path, redis_url, None, poll_seconds=0.01), onnx_embedder) as started:
        yield started


@pytest.fixture
async def idle_app(tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder) -> AsyncIterator[App]:
    """The App without a model and without workers: nothing is compacted."""
    async with running(job_settings(tmp_path, redis_url, None), onnx_embedder, workers=False) as started:
        yield started


START = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
TOPICS = [
    "the garden",
    "the billing migration",
    "a trip to Lisbon",
    "the new espresso machine",
    "chess club",
    "the quarterly report",
    "Caroline's adoption plans",
    "the marathon training",
]
REPLY = json.dumps(
    {
        "summary": "They discussed plans and agreed on next steps.",
        "compressed": "Earlier they discussed plans.",
        "memories": [
            {"content": "Caroline is training for a marathon", "memory_type": "semantic"},
            {"content": "Caroline is training for a marathon", "memory_type": "semantic"},
        ],
        "profile": "## Preferences\n- likes espresso",
    }
)


def message(i: int) -> MessageInput:
    role = Role.USER if i % 2 == 0 else Role.ASSISTANT
    text = (
        f"Message {i} about {TOPICS[i % len(TOPICS)]}: " + "we talked about the details at some length, "
        "covering what happened, what comes next and who is responsible for each part. " * 2
    )
    return MessageInput(f"m{i}", role, text, START + timedelta(days=i // 6, minutes=i))


async def settle(app: App, timeout: float = 60) -> None:
    """Wait until no compaction job of the tenant is live."""
    deadline = time.monotonic() + timeout
    while any(j.live for j in (await app.jobs.service.list_jobs("acme", JobKind.COMPACT, None, "", 500, 0))[0]):
        assert time.monotonic() < deadline, "compaction jobs still live"
        await asyncio.sleep(0.05)


async def replay(app: App, count: int, window: int = 1500) -> None:
    assert app.working.conversations is not None
    for i in range(count):
        await app.working.conversations.append(ME, "c1", [message(i)], context_window=window)
        await settle(app)


async def snapshot(app: App) -> dict[str, Any]:
    assert app.working.conversations is not None
    store = app.working.conversation_store
    assert store is not None
    conv = await store.state("acme", "c1")
    assert conv is not None
    summaries = await store.summaries("acme", "c1", conv.summary_ids)
    memories = sorted(m.content for m in await app.memory.store.page(ME, MemoryFilter(), "", 500))
    return {
        "through": conv.compacted_through,
        "summaries": [(s.from_seq, s.to_seq, s.level, s.text) for s in summaries],
        "memories": memories,
        "profile": (await app.working.profile.get(ME)).document,
    }


async def test_without_a_model_summaries_accumulate_merge_and_the_context_always_fits(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    settings = job_settings(tmp_path, redis_url, None, poll_seconds=0.01)
    async with running(settings, onnx_embedder) as app:
        assert app.working.conversations is not None
        await app.working.profile.edit(ME, 0, ProfileEdit(EditKind.APPEND, text="- answer briefly", pinned=True))
        await replay(app, 60)
        state = await snapshot(app)
        jobs = [j for j in (await app.jobs.service.list_jobs("acme", JobKind.COMPACT, None, "", 500, 0))[0]]
        done = [j for j in jobs if j.result.get("outcome") == "compacted"]
        assert len(done) >= 4 and all(j.result["path"] == "extractive" and j.result["model_calls"] == 0 for j in done)
        assert state["through"] > 30 and len(state["summaries"]) >= 2
        assert any(level > 0 for _, _, level, _ in state["summaries"])  # the oldest merged
        assert [s[0] for s in state["summaries"]] == sorted(s[0] for s in state["summaries"])  # chronological
        counter = TiktokenCounter("o200k_base")
        for window in (400, 1500, 6000):
            ctx = await app.working.conversations.context(ME, "c1", window)
            assert ctx.tokens() <= window
            for part in ctx.parts:
                assert part.token_count == counter.count(part.content)
            kinds = [p.kind for p in ctx.parts]
            assert kinds == sorted(kinds, key=["profile", "summary", "message", "memory"].index)
            raw = [p for p in ctx.parts if p.kind == "message"]
            assert raw and all(p.content == message(p.seq - 1).content for p in raw)  # the kept window is raw
            assert [p.seq for p in raw] == list(range(raw[0].seq, 61))
            assert "answer briefly" in ctx.parts[0].content  # Pinned profile first
        big = await app.working.conversations.context(ME, "c1", 6000)
        summary_text = [p.content for p in big.parts if p.kind == "summary"]
        assert summary_text[0].startswith("[compressed] [extractive] [2024-03-")
        assert all("[2024-03-" in t and "[extractive]" in t for t in summary_text)  # dated, and marked: no model
        # session scope: compaction summaries were filed into the archive (near-duplicates merged by dedup)
        filed = [m for m in state["memories"] if "Excerpts of" in m]
        assert 1 <= len(filed) <= len(done) and len(set(filed)) == len(filed)
        # ...beside what the user said in the compacted stretch, as said: an extractive summary quotes at
        # most a fifth of its messages, and the rest was in no memory Recall could find.
        said = {m for m in state["memories"] if m.startswith("user: ")}
        assert said == {f"user: {message(i).content}" for i in range(0, state["through"], 2)}
        events = await app.working.conversation_store.events("acme", "c1", None)
        phases = [e.kind for e in events]
        assert phases.count("compaction_started") == phases.count("compaction_finished") == len(done)
    assert (await snapshot_profile(settings, onnx_embedder)) == "## Pinned\n- answer briefly"


async def snapshot_profile(settings: Any, embedder: Any) -> str:
    async with running(settings, embedder, workers=False) as app:
        return (await app.working.profile.get(ME)).document.strip()


async def test_duplicate_appends_do_not_double_a_message(idle_app: App) -> None:
    first = await idle_app.working.conversations.append(ME, "c1", [message(0), message(1)])
    again = await idle_app.working.conversations.append(ME, "c1", [message(1), message(2), message(2)])
    assert first.seqs == (1, 2) and again.seqs == (0, 3, 3) and again.duplicates == 2
    both = await asyncio.gather(*[idle_app.working.conversations.append(ME, "c1", [message(3)]) for _ in range(3)])
    assert sorted(r.duplicates for r in both) in ([0, 1, 1], [0, 0, 1], [0, 0, 0])
    ctx = await idle_app.working.conversations.context(ME, "c1", 100_000)
    assert [p.content for p in ctx.parts if p.kind == "message"] == [message(i).content for i in range(4)]
    fresh = await idle_app.working.conversations.append(
        ME, "c2", [message(0), message(0), message(1)]
    )  # a new conversation
    assert fresh.seqs == (1, 1, 2) and fresh.duplicates == 1
    racing = await asyncio.gather(*[idle_app.working.conversations.append(ME, "c3", [message(5)]) for _ in range(3)])
    assert sorted(r.duplicates for r in racing)[0] == 0  # one of them created it and stored the message
    ctx3 = await idle_app.working.conversations.context(ME, "c3", 100_000)
    assert [p.content for p in ctx3.parts if p.kind == "message"] == [message(5).content]


async def test_with_a_model_two_calls_per_compaction_no_duplicate_memories_and_pinned_kept(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.reply_with(*[REPLY] * 100)
    settings = job_settings(tmp_path, redis_url, provider, poll_seconds=0.01)
    async with running(settings, onnx_embedder) as app:
        await app.working.profile.edit(ME, 0, ProfileEdit(EditKind.APPEND, text="- answer briefly", pinned=True))
        await replay(app, 30)
        state = await snapshot(app)
        jobs = [
            j
            for j in (await app.jobs.service.list_jobs("acme", JobKind.COMPACT, None, "", 500, 0))[0]
            if j.result.get("outcome") == "compacted"
        ]
        assert jobs and all(j.result["path"] == "model" and j.result["model_calls"] == 2 for j in jobs)
        # usage as the provider reported it for each of the two calls
        assert all(
            int(j.result["summary_tokens_in"]) > 100 and int(j.result["maintenance_tokens_in"]) > 50 for j in jobs
        )
        assert all(
            j.result["summary_tokens_out"] == j.result["maintenance_tokens_out"] == len(REPLY) // 4 + 1 for j in jobs
        )
    assert provider.calls["/v1/chat/completions"] == 2 * len(jobs)
    assert state["memories"].count("Caroline is training for a marathon") == 1
    assert "- answer briefly" in state["profile"] and "likes espresso" in state["profile"]


async def test_an_outage_during_compaction_retries_to_the_same_end_state(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    ends = []
    for outage in (False, True):
        with FakeProvider() as provider:
            provider.reply_with(*[REPLY] * 100)
            if outage:
                provider.script("503", "503", "ok", "503")
            settings = job_settings(tmp_path / str(outage), redis_url, provider, poll_seconds=0.01)
            async with running(settings, onnx_embedder) as app:
                await replay(app, 24)
                ends.append(await snapshot(app))
                jobs = (await app.jobs.service.list_jobs("acme", JobKind.COMPACT, None, "", 500, 0))[0]
                if outage:  # the summary kept after its call is reused when the maintenance call fails
                    assert any(j.attempts > 1 for j in jobs)
                    compactions = sum(1 for j in jobs if j.result.get("outcome") == "compacted")
                    assert provider.calls["/v1/chat/completions"] == 2 * compactions + 3
                assert all(j.result["model_calls"] == 2 for j in jobs if j.result.get("outcome") == "compacted")
                assert all(j.state.value == "succeeded" for j in jobs)
        import redis as sync_redis

        client = sync_redis.Redis.from_url(redis_url)
        client.flushall()
        client.close()
    assert ends[0] == ends[1] and ends[0]["summaries"]


async def test_buffer_window_files_dropped_user_messages_for_the_conversational_scope(app: App) -> None:
    options: dict[str, str | int | float | bool] = {
        "strategy": "buffer_window",
        "window_messages": 4,
        "storage_scope": "conversational",
    }
    for i in range(10):
        await app.working.conversations.append(ME, "c1", [message(i)], options=options)
        await settle(app)
    ctx = await app.working.conversations.context(ME, "c1", 100_000)
    assert [p.seq for p in ctx.parts if p.kind == "message"] == [7, 8, 9, 10]
    assert not [p for p in ctx.parts if p.kind == "summary"]
    memories = await app.memory.store.page(ME, MemoryFilter(), "", 100)
    filed = sorted(m.content for m in memories)
    assert filed == sorted(f"user: {message(i).content}" for i in range(0, 6, 2))  # user messages 1..6 only
    assert all(m.source_context.startswith("conversation c1 message ") for m in memories)
    assert {m.occurred_at for m in memories} == {message(i).created_at for i in range(0, 6, 2)}


async def test_what_a_conversation_with_a_contact_files_stays_with_that_contact(app: App) -> None:
    """Filed as the agent's private memories, Alice's summaries and words were Recall's hits while it served Bob."""
    assert app.working.conversations is not None
    alice, bob = Actor("acme", "a1", "alice"), Actor("acme", "a1", "bob")
    for i in range(30):
        await app.working.conversations.append(alice, "c1", [message(i)], context_window=1500)
        await settle(app)
    filed = await app.memory.store.page(alice, MemoryFilter(), "", 500)
    assert any(m.content.startswith("user: ") for m in filed) and any("Excerpts of" in m.content for m in filed)
    assert all(m.scope is Scope.END_USER and m.end_user_id == "alice" for m in filed)
    assert await app.memory.store.page(bob, MemoryFilter(), "", 500) == []
    assert await app.memory.store.page(ME, MemoryFilter(), "", 500) == []  # nor without a contact
    hits = await app.memory.recall.recall(RecallQuery(bob, message(0).content, limit=10))
    assert hits == []


async def test_auto_recall_adds_archive_memories_above_the_threshold(idle_app: App) -> None:
    await idle_app.memory.memorize.memorize_batch(
        ME,
        [
            MemoryDraft(content="Caroline takes her espresso without sugar"),
            MemoryDraft(content="The quarterly report is due in June"),
        ],
        skip_deduplication=True,
    )
    question = MessageInput("q1", Role.USER, "How does Caroline take her espresso?")
    await idle_app.working.conversations.append(ME, "off", [question])
    assert not [p for p in (await idle_app.working.conversations.context(ME, "off", 4000)).parts if p.kind == "memory"]
    await idle_app.working.conversations.append(ME, "on", [question], options={"auto_recall": True})
    recalled = [p for p in (await idle_app.working.conversations.context(ME, "on", 4000)).parts if p.kind == "memory"]
    assert len(recalled) == 1 and "espresso without sugar" in recalled[0].content
    # An injection is not a retrieval: it is counted apart (the usage report's "never retrieved").
    await idle_app.memory.retrievals.flush()
    page = await idle_app.memory.archive.list_memories(ListQuery(ME, page_size=10))
    espresso = next(m for m in page.memories if "espresso" in m.content)
    assert (espresso.retrieval_count, espresso.injection_count) == (0, 1)


async def test_auto_recall_thresholds_the_calibrated_score_so_a_paraphrase_is_injected(idle_app: App) -> None:
    # Raw MiniLM cosine of this pair is 0.61: under the old rule (0.7 on raw cosine) nothing was injected.
    drafts = [MemoryDraft(content="Ben adopted a cat named Miso"), MemoryDraft(content="The boiler was serviced")]
    await idle_app.memory.memorize.memorize_batch(ME, drafts, skip_deduplication=True)
    ask = MessageInput("q1", Role.USER, "Does Ben have any pets?")
    await idle_app.working.conversations.append(ME, "c1", [ask], options={"auto_recall": True})
    context = await idle_app.working.conversations.context(ME, "c1", 4000)
    assert [p.content.split("] ", 1)[-1] for p in context.parts if p.kind == "memory"] == [
        "Ben adopted a cat named Miso"
    ]
    assert context.recalled == 1
    hit = (await idle_app.memory.recall.recall(RecallQuery(ME, "Does Ben have any pets?")))[0]
    assert hit.parts.vector_similarity < 0.7 <= hit.score


async def test_auto_recall_from_the_agents_stored_setting_names_the_author_of_shared_memories(idle_app: App) -> None:
    colleague = Actor("acme", "planner")
    await idle_app.memory.memorize.memorize(
        colleague, MemoryDraft(content="Caroline's espresso is a double", scope=Scope.SHARED)
    )
    await idle_app.memory.memorize.memorize(ME, MemoryDraft(content="Caroline takes her espresso without sugar"))
    await idle_app.working.configs.set_agent(Actor("acme", "ops"), "a1", {"working.auto_recall": True}, (), 0)
    question = MessageInput("q1", Role.USER, "How does Caroline take her espresso?")
    await idle_app.working.conversations.append(ME, "c1", [question])
    recalled = [
        p.content for p in (await idle_app.working.conversations.context(ME, "c1", 4000)).parts if p.kind == "memory"
    ]
    assert len(recalled) == 2
    assert any(line.endswith("[shared by planner] Caroline's espresso is a double") for line in recalled)
    assert any("] Caroline takes her espresso without sugar" in line and "shared by" not in line for line in recalled)
    # The tenant turns auto-recall off: tighten-only, the agent's stored "on" no longer applies.
    await idle_app.working.configs.set_tenant(Actor("acme", "ops"), {"working.auto_recall": False}, (), 0)
    assert not [p for p in (await idle_app.working.conversations.context(ME, "c1", 4000)).parts if p.kind == "memory"]


async def test_batch_size_holds_filing_back_until_enough_waits_or_the_session_ends(app: App) -> None:
    ops = Actor("acme", "ops")
    window: dict[str, bool | int | float | str] = {
        "working.strategy": "buffer_window",
        "working.window_messages": 4,
        "working.storage_scope": "all",
    }
    filing = {**window, "working.batch_size": 0, "working.collection": "support_history"}
    await app.working.configs.set_agent(ops, "a1", filing, (), 0)
    for i in range(10):
        await app.working.conversations.append(ME, "c1", [message(i)])
        await settle(app)
    state = await app.working.conversation_store.state("acme", "c1")
    assert state is not None and (state.compacted_through, state.filed_through) == (6, 0)
    assert not await app.memory.store.page(ME, MemoryFilter(), "", 100)  # batch_size 0: nothing until the end
    job = await app.working.conversations.end_session(ME, "c1")
    await settle(app)
    done = await app.jobs.service.record("acme", job.key)
    assert done is not None
    assert done.state.value == "succeeded", done.last_error
    in_collection = await app.memory.store.page(ME, MemoryFilter(collection="support_history"), "", 100)
    filed = sorted(m.content for m in in_collection)
    assert filed == sorted(f"{'user' if i % 2 == 0 else 'assistant'}: {message(i).content}" for i in range(10))
    state = await app.working.conversation_store.state("acme", "c1")
    assert state is not None and (state.compacted_through, state.filed_through) == (10, 10)
    # The session is over: the same state gives the same job, and nothing is filed twice.
    assert (await app.working.conversations.end_session(ME, "c1")).key == job.key
    await settle(app)
    assert len(await app.memory.store.page(ME, MemoryFilter(), "", 100)) == 10
    # batch_size 3: a compaction files once 3 compacted messages wait.
    await app.working.configs.set_agent(ops, "a1", {"working.batch_size": 3}, (), 1)
    for i in range(10, 15):
        await app.working.conversations.append(ME, "c1", [message(i)])
        await settle(app)
    state = await app.working.conversation_store.state("acme", "c1")
    assert state is not None and state.compacted_through == 11 and state.filed_through == 10  # 1 waits
    await app.working.conversations.append(ME, "c1", [message(15), message(16)])
    await settle(app)
    state = await app.working.conversation_store.state("acme", "c1")
    assert state is not None and state.compacted_through == 13 and state.filed_through == 13
    assert len(await app.memory.store.page(ME, MemoryFilter(), "", 100)) == 13


async def test_summaries_made_without_a_model_are_marked_and_redone_once_one_is_configured(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    offline = job_settings(tmp_path, redis_url, None, poll_seconds=0.01)
    async with running(offline, onnx_embedder) as app:
        await replay(app, 14, window=600)
        ctx = await app.working.conversations.context(ME, "c1", 4000)
        marked = [p.content for p in ctx.parts if p.kind == "summary"]
        assert marked and all("[extractive]" in s for s in marked)
    provider.reply_with(REPLY, REPLY, REPLY, REPLY, REPLY, REPLY, REPLY, REPLY)
    online = job_settings(tmp_path, redis_url, provider, poll_seconds=0.01)
    async with running(online, onnx_embedder) as app:
        job = await app.working.conversations.compact(ME, "c1")
        await settle(app)
        done = await app.jobs.service.record("acme", job.key)
        assert done is not None
        redone_count = int(done.result["redone_summaries"])
        assert redone_count >= 1, done.result
        state = await app.working.conversation_store.state("acme", "c1")
        assert state is not None
        live = await app.working.conversation_store.summaries("acme", "c1", state.summary_ids)
        level0 = [s for s in live if s.level == 0]
        assert level0 and not any(s.fallback for s in level0[:redone_count])
        ctx = await app.working.conversations.context(ME, "c1", 4000)
        redone = [p.content for p in ctx.parts if p.kind == "summary" and "[extractive]" not in p.content]
        assert any("They discussed plans and agreed on next steps." in s for s in redone)
