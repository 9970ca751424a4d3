"""The compaction's maintenance call corrects the archive: it supersedes, merges, adds, ignores unknown labels."""

from __future__ import annotations

import json
import re
from pathlib import Path

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import App
from memoryd.core.conversation import MessageInput, Role
from memoryd.core.models import Actor, MemoryDraft, MemoryFilter, MemoryRecord, MemoryStatus, MemoryType, Scope
from memoryd.core.provenance import HistoryKind
from memoryd.testing.provider import FakeProvider
from tests.jobs.conftest import job_settings, running
from tests.jobs.test_conversations import ME, START, settle

STANDUP = "The team standup is on Monday at 9:30"
ESPRESSO = "Caroline's espresso is a double"
OFFICE = "The office closes at 6pm"  # another agent's shared memory: a1 sees it but may not modify it
POLICY = "Expenses are filed by the standup on Monday"  # a tenant memory: admins' to change
SUMMARY = json.dumps({"summary": "They moved the standup to Friday and talked about Caroline and Ben."})


def label_of(prompt: str, text: str) -> str:
    """The label the maintenance prompt gave ``text`` ("" when it was not shown)."""
    found = re.search(rf"^(M\d+): {re.escape(text)}$", prompt, re.MULTILINE)
    return found.group(1) if found else ""


class Model:
    """A scripted model that reads the maintenance prompt for the labels it names."""

    def __init__(self, memories: object) -> None:
        self.memories = memories
        self.prompts: list[str] = []

    def __call__(self, system: str, user: str) -> str:
        if "Existing memories" not in system:
            return SUMMARY
        self.prompts.append(system)
        memories = self.memories(system) if callable(self.memories) else self.memories
        return json.dumps({"memories": memories, "profile": "## Preferences\n- likes espresso"})


async def seeded(app: App) -> dict[str, MemoryRecord]:
    own = [
        MemoryDraft(STANDUP, memory_type=MemoryType.SEMANTIC),
        MemoryDraft(ESPRESSO, memory_type=MemoryType.SEMANTIC),
    ]
    stored = await app.memory.memorize.memorize_batch(ME, own, skip_deduplication=True)
    office = await app.memory.memorize.memorize(Actor("acme", "planner"), MemoryDraft(OFFICE, scope=Scope.SHARED))
    policy = await app.memory.memorize.memorize(Actor("acme", "ops"), MemoryDraft(POLICY, scope=Scope.TENANT))
    return {r.memory.content: r.memory for r in [*stored, office, policy]}


async def compact_with(app: App) -> dict[str, object]:
    for i, text in enumerate(("The standup moves to Friday.", "Caroline still drinks a double.", "Ben got a cat.")):
        role = Role.USER if i % 2 == 0 else Role.ASSISTANT
        await app.working.conversations.append(ME, "c1", [MessageInput(f"m{i}", role, text, START)])
    job = await app.working.conversations.end_session(ME, "c1")  # the whole tail
    await settle(app)
    done = await app.jobs.service.record("acme", job.key)
    assert done is not None
    return {"state": done.state.value, **done.result, "error": done.last_error}


async def active_texts(app: App) -> list[str]:
    return sorted(m.content for m in await app.memory.store.page(ME, MemoryFilter(), "", 100))


async def test_a_correction_supersedes_a_restatement_merges_a_new_fact_adds_and_an_unknown_label_is_ignored(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    def answer(prompt: str) -> list[dict[str, object]]:
        return [
            {"content": "The team standup is on Friday at 9:30", "supersedes": label_of(prompt, STANDUP),
             "subject": "standup", "salience": 0.8},
            {"content": "Caroline's espresso is a double", "restates": label_of(prompt, ESPRESSO)},
            {"content": "Ben adopted a cat", "memory_type": "episodic", "subject": "Ben"},
            {"content": "The office closes at 7pm", "supersedes": "M99"},
        ]  # fmt: skip

    model = Model(answer)
    provider.answer_with(model)
    async with running(job_settings(tmp_path, redis_url, provider, poll_seconds=0.01), onnx_embedder) as app:
        before = await seeded(app)
        result = await compact_with(app)
        assert result["state"] == "succeeded", result
        counts = [result.get(k) for k in ("superseded", "merged_restatements", "ignored_labels")]
        assert counts == [1, 1, 1], result
        shown = model.prompts[0]
        assert label_of(shown, STANDUP) and not label_of(shown, OFFICE) and not label_of(shown, POLICY)
        texts = await active_texts(app)
        assert STANDUP not in texts and "The team standup is on Friday at 9:30" in texts
        assert texts.count(ESPRESSO) == 1 and "Ben adopted a cat" in texts
        old = await app.memory.archive.get(ME, before[STANDUP].memory_id)
        assert old.status is MemoryStatus.SUPERSEDED
        friday = await app.memory.archive.get(ME, old.superseded_by)
        assert (friday.content, friday.subject, friday.salience) == (
            "The team standup is on Friday at 9:30",
            "standup",
            0.8,
        )
        office = await app.memory.archive.get(ME, before[OFFICE].memory_id)
        assert office.status is MemoryStatus.ACTIVE and office.content == OFFICE
        history = await app.memory.archive.history(ME, before[ESPRESSO].memory_id)
        merged = [e for e in history.events if e.kind is HistoryKind.MERGED]
        assert merged and merged[0].detail["restatement"] == ESPRESSO and merged[0].via == "job:compact"
        superseded = (await app.memory.archive.history(ME, old.memory_id)).events[-1]
        assert superseded.kind is HistoryKind.SUPERSEDED and superseded.detail["correction"] == "compaction"
        await app.memory.archive.restore(ME, old.memory_id)  # undone as any supersede
        assert STANDUP in await active_texts(app)


async def test_a_restatement_that_adds_a_word_is_kept_as_a_memory_of_its_own(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    model = Model(lambda p: [{"content": "Caroline's espresso is a decaf double", "restates": label_of(p, ESPRESSO)}])
    provider.answer_with(model)
    async with running(job_settings(tmp_path, redis_url, provider, poll_seconds=0.01), onnx_embedder) as app:
        await seeded(app)
        result = await compact_with(app)
        assert result["merged_restatements"] == 0, result
        assert {ESPRESSO, "Caroline's espresso is a decaf double"} <= set(await active_texts(app))


async def test_a_correction_that_takes_a_word_out_is_filed_not_merged_away(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    """The shorter text is the news when the word it drops was the fact: "nicht", "used to"."""
    stored = {"de": "Ida wohnt nicht in Berlin", "en": "Ida used to live in Oslo"}
    fixed = {"de": "Ida wohnt in Berlin", "en": "Ida lives in Oslo"}
    model = Model(
        lambda p: [
            {"content": fixed["de"], "supersedes": label_of(p, stored["de"])},
            {"content": fixed["en"], "restates": label_of(p, stored["en"])},
        ]
    )
    provider.answer_with(model)
    async with running(job_settings(tmp_path, redis_url, provider, poll_seconds=0.01), onnx_embedder) as app:
        drafts = [MemoryDraft(t, memory_type=MemoryType.SEMANTIC) for t in stored.values()]
        before = await app.memory.memorize.memorize_batch(ME, drafts, skip_deduplication=True)
        said = ("Ida wohnt doch in Berlin.", "Sie lebt jetzt in Berlin.", "And Ida lives in Oslo as well?")
        for i, text in enumerate(said):
            role = Role.USER if i % 2 == 0 else Role.ASSISTANT
            await app.working.conversations.append(ME, "c1", [MessageInput(f"m{i}", role, text, START)])
        job = await app.working.conversations.end_session(ME, "c1")
        await settle(app)
        done = await app.jobs.service.record("acme", job.key)
        assert done is not None and done.state.value == "succeeded", done
        assert all(label_of(model.prompts[0], t) for t in stored.values())  # both were shown to the model
        assert done.result.get("merged_restatements") == 0, done.result
        texts = await active_texts(app)
        assert {fixed["de"], fixed["en"], stored["en"]} <= set(texts) and stored["de"] not in texts
        old = await app.memory.archive.get(ME, before[0].memory.memory_id)
        assert old.status is MemoryStatus.SUPERSEDED  # undone by a restore, as any correction


async def test_a_malformed_maintenance_answer_changes_nothing(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    model = Model(
        lambda p: [{"content": "The standup is on Friday", "supersedes": label_of(p, STANDUP), "restates": "M2"}]
    )
    provider.answer_with(model)
    settings = job_settings(tmp_path, redis_url, provider, poll_seconds=0.01)
    async with running(settings, onnx_embedder) as app:
        await seeded(app)
        texts = await active_texts(app)
        profile = (await app.working.profile.get(ME)).document
        result = await compact_with(app)
        assert result["state"] in ("failed", "dead") and "supersedes and restates" in str(result["error"]), result
        assert await active_texts(app) == texts
        assert (await app.working.profile.get(ME)).document == profile


async def test_a_correction_is_filed_where_the_old_memory_was_and_new_ones_in_the_policy_collection(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    def answer(prompt: str) -> list[dict[str, object]]:
        return [
            {"content": "The team standup is on Friday at 9:30", "supersedes": label_of(prompt, STANDUP)},
            {"content": "Ben adopted a cat", "memory_type": "episodic", "subject": "Ben"},
        ]

    provider.answer_with(Model(answer))
    async with running(job_settings(tmp_path, redis_url, provider, poll_seconds=0.01), onnx_embedder) as app:
        shared = MemoryDraft(STANDUP, scope=Scope.SHARED, category="meetings", tags=("team",), collection="calendar")
        old = await app.memory.memorize.memorize(ME, shared)
        await app.working.configs.set_agent(Actor("acme", "ops"), "a1", {"working.collection": "support"}, (), 0)
        result = await compact_with(app)
        assert result["state"] == "succeeded" and result["superseded"] == 1, result
        friday = await app.memory.archive.get(
            ME, (await app.memory.archive.get(ME, old.memory.memory_id)).superseded_by
        )
        filed_as = (friday.scope, friday.category, friday.tags, friday.collection)
        assert filed_as == (Scope.SHARED, "meetings", ("team",), "calendar")
        planner = Actor("acme", "planner")  # saw the shared standup; sees its correction, not nothing
        seen = {m.content for m in await app.memory.store.page(planner, MemoryFilter(), "", 100)}
        assert seen == {"The team standup is on Friday at 9:30"}
        support = await app.memory.store.page(ME, MemoryFilter(collection="support"), "", 100)
        filed = {m.content for m in support}  # with the session's summary, filed by compaction itself
        assert "Ben adopted a cat" in filed and friday.content not in filed


async def test_a_contact_s_conversation_corrects_only_that_contact_s_memories(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    """The agent's memories and profile reach every contact: one contact's conversation changes neither."""
    alice, bob = Actor("acme", "a1", "alice"), Actor("acme", "a1", "bob")
    mug = "Alice's mug is the blue one"

    def answer(prompt: str) -> list[dict[str, object]]:
        return [
            {"content": "The team standup is on Friday at 9:30", "supersedes": label_of(prompt, STANDUP)},
            {"content": "Alice's mug is the green one", "supersedes": label_of(prompt, mug)},
        ]

    model = Model(answer)
    provider.answer_with(model)
    async with running(job_settings(tmp_path, redis_url, provider, poll_seconds=0.01), onnx_embedder) as app:
        before = await seeded(app)
        hers = await app.memory.memorize.memorize(alice, MemoryDraft(mug, scope=Scope.END_USER))
        for i, text in enumerate(("The standup moves to Friday.", "Noted.", "My mug is the green one now.")):
            role = Role.USER if i % 2 == 0 else Role.ASSISTANT
            await app.working.conversations.append(alice, "c1", [MessageInput(f"m{i}", role, text, START)])
        job = await app.working.conversations.end_session(alice, "c1")
        await settle(app)
        done = await app.jobs.service.record("acme", job.key)
        assert done is not None and done.state.value == "succeeded" and done.result["superseded"] == 1, done
        assert label_of(model.prompts[0], mug) and not label_of(model.prompts[0], STANDUP)
        assert (await app.memory.archive.get(bob, before[STANDUP].memory_id)).status is MemoryStatus.ACTIVE
        assert (await app.memory.archive.get(alice, hers.memory.memory_id)).status is MemoryStatus.SUPERSEDED
        assert (await app.working.profile.get(bob)).document == ""  # the model's "likes espresso" is hers
        theirs = {m.content: m.scope for m in await app.memory.store.page(alice, MemoryFilter(), "", 100)}
        assert theirs["likes espresso"] is theirs["The team standup is on Friday at 9:30"] is Scope.END_USER
        seen_by_bob = {m.content for m in await app.memory.store.page(bob, MemoryFilter(), "", 100)}
        assert seen_by_bob == {STANDUP, ESPRESSO, OFFICE, POLICY}
