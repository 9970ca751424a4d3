"""The PII floor: the redactor's rules, the shipped fixture, and where each policy applies."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest

from memoryd.commands.bench.pii_bench import measure
from memoryd.core.conversation import MessageInput, Role
from memoryd.core.errors import InvalidRequest
from memoryd.core.job_records import RetryPolicy
from memoryd.core.models import Actor, EditKind, MemoryDraft, MemoryPatch, ProfileEdit
from memoryd.core.pii import iban_valid, luhn_valid, redact
from memoryd.services.job_runner import JobRunner
from tests.fakes import DictLeases, OpenGate
from tests.unit.conftest import World, fake_world

ME = Actor("acme", "a1")
CARD = "4111 1111 1111 1111"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Mail jo.doe+x@mail.example.org today", "Mail [email] today"),
        (f"Card {CARD}, exp 09/27", "Card [card], exp 09/27"),
        ("Card 4111 1111 1111 1112 fails Luhn", "Card 4111 1111 1111 1112 fails Luhn"),
        ("IBAN GB82 WEST 1234 5698 7654 32 please", "IBAN [iban] please"),
        ("Call +44 20 7946 0958 or (415) 555-0132.", "Call [phone] or [phone]."),
        ("Customer 483920174 called", "Customer [id] called"),
        ("key sk-abcdefghijklmnopqrstuvwxyz012345 leaked", "key [secret] leaked"),
        ("password: hunter2hunter", "[secret]"),
        (
            "Met on 2024-03-15 at 10:30, paid $1,299.99 for v3.11.7",
            "Met on 2024-03-15 at 10:30, paid $1,299.99 for v3.11.7",
        ),
        ("From 1998 to 2004 in room 1204", "From 1998 to 2004 in room 1204"),
    ],
)
def test_the_redactor_replaces_identifiers_and_leaves_dates_prices_and_versions(text: str, expected: str) -> None:
    assert redact(text).text == expected


def test_the_checksums() -> None:
    assert luhn_valid("4111111111111111") and not luhn_valid("4111111111111112")
    assert iban_valid("DE89 3704 0044 0532 0130 00") and not iban_valid("DE88 3704 0044 0532 0130 00")
    assert "iban" not in redact("IBAN GB83 WEST 1234 5698 7654 32 is wrong").counts  # the check digits fail


def test_the_shipped_fixture_keeps_its_measured_rates() -> None:
    items = json.loads(resources.files("memoryd.commands.bench").joinpath("data/pii_planted.json").read_text())["items"]
    record = measure(items)
    assert record["detection"] >= 0.98 and len(record["false_positives"]) <= 1
    assert all(v["planted"] >= 25 for v in record["by_type"].values()) and record["decoy_sentences"] >= 30


async def test_policy_off_keeps_callers_text_and_derived_text_is_always_redacted(world: World) -> None:
    app = world.app
    stored = await app.memory.memorize.memorize(ME, MemoryDraft(f"My card is {CARD}"))
    assert CARD in stored.memory.content
    derived = await app.memory.memorize.memorize_batch(ME, [MemoryDraft(f"Summary: card {CARD}")], False, derived=True)
    assert derived[0].memory.content == "Summary: card [card]" and app.admin.pii.redacted["card"] == 1
    runner = JobRunner(app.jobs.service, OpenGate(), DictLeases(), None, app.clock, RetryPolicy(), rng=random.Random(1))
    turns = [
        MessageInput(f"m{i}", Role.USER, f"turn {i} write to ops.{i}@example.com " + "word " * 60) for i in range(40)
    ]
    result = await app.working.conversations.append(ME, "c1", turns, context_window=1024)
    assert result.compaction is not None
    await runner.run("acme", result.compaction.key, app.jobs.compaction.run)
    conv = await world.app.working.conversation_store.state("acme", "c1")
    assert conv is not None and conv.summary_ids
    summaries = await world.app.working.conversation_store.summaries("acme", "c1", conv.summary_ids)
    assert all("@example.com" not in s.text for s in summaries) and any("[email]" in s.text for s in summaries)
    raw = await world.app.working.conversation_store.messages("acme", "c1", 0)
    assert any("@example.com" in m.content for m in raw)  # the caller's own messages, policy off
    filed = [r.content for r, _ in world.store.rows.values() if r.category == "conversation summary"]
    assert filed and all("@example.com" not in text for text in filed)  # a filed summary is memoryd's text


async def test_messages_filed_as_they_were_stay_the_callers_words(world: World) -> None:
    app = world.app
    runner = JobRunner(app.jobs.service, OpenGate(), DictLeases(), None, app.clock, RetryPolicy(), rng=random.Random(1))
    turns = [
        MessageInput(f"m{i}", Role.USER, f"turn {i} call me at ops.{i}@example.com " + "word " * 60) for i in range(40)
    ]
    result = await app.working.conversations.append(
        ME, "c2", turns, context_window=1024, options={"storage_scope": "conversational"}
    )
    assert result.compaction is not None
    await runner.run("acme", result.compaction.key, app.jobs.compaction.run)
    filed = [r.content for r, _ in world.store.rows.values() if "call me at" in r.content]
    assert filed and all("@example.com" in text for text in filed)  # policy off: kept as the user wrote it


async def test_policy_redact_and_block_apply_to_every_direct_write() -> None:
    async with fake_world(pii={"tenants": {"acme": "redact", "strict": "block"}}) as world:
        app = world.app
        written = await app.memory.memorize.memorize(ME, MemoryDraft("Reach me at ana@example.com"))
        assert written.memory.content == "Reach me at [email]"
        updated = await app.memory.archive.update(ME, written.memory.memory_id, MemoryPatch(content=f"Card {CARD}"))
        assert updated.content == "Card [card]"
        profile = await app.working.profile.edit(
            ME, 0, ProfileEdit(EditKind.APPEND, section="Contact", text="- +44 20 7946 0958")
        )
        assert "[phone]" in profile.document and "7946" not in profile.document
        strict = Actor("strict", "a1")
        with pytest.raises(InvalidRequest, match=r"memory\.content.*1 email") as refused:
            await app.memory.memorize.memorize(strict, MemoryDraft("Reach me at ana@example.com"))
        assert "ana@" not in str(refused.value)
        with pytest.raises(InvalidRequest, match=r"messages\[1\]\.content"):
            await app.working.conversations.append(
                strict,
                "c1",
                [MessageInput("m1", Role.USER, "fine"), MessageInput("m2", Role.USER, f"card {CARD}")],
            )
        assert [r for r in world.store.rows.values() if r[0].tenant_id == "strict"] == []
        assert await app.working.conversation_store.state("strict", "c1") is None
