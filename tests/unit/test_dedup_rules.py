"""Insert-time dedup: only restatements merge, corrections survive, merges respect ownership."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from importlib import resources

import pytest

from memoryd.core.dedup import merge_into
from memoryd.core.models import Actor, MemoryDraft, MemoryRecord, Scope
from memoryd.core.pii import PiiPolicy
from memoryd.core.restatement import is_restatement, statement_key
from memoryd.core.validation import Limits
from memoryd.services.event_log import EventLog
from memoryd.services.memorize import MemorizeService
from memoryd.services.pii_floor import PiiFloor
from tests.fakes import FrozenClock, HashEmbedder, InMemoryEventLog, InMemoryStore, PairwiseNeighbours, memory_record

NOW = datetime(2026, 11, 30, tzinfo=UTC)
A1, A2 = Actor("t1", "a1"), Actor("t1", "a2")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Bob is allergic to peanuts", "Bob is not allergic to peanuts"),  # negation
        ("Bob is allergic to peanuts", "Bob isn't allergic to peanuts"),
        ("The customer's order number is 48213", "The customer's order number is 99017"),  # number
        ("The invoice total was 1,250 euros", "The invoice total was 1,520 euros"),
        ("The standup is on Monday at 10am", "The standup is on Friday at 3pm"),  # date and time
        ("The backup runs at 2am", "The backup runs at 2pm"),
        ("Call Noah on 555-0142", "Call Noah on 555-0199"),  # phone numbers
        ("Nadia handles billing questions", "Omar handles billing questions"),  # name
        ("The report is due tomorrow", "The report was due yesterday"),  # tense and date
        ("Chen prefers Slack over email", "Chen prefers email over Slack"),  # order carries meaning
        ("The user prefers dark mode", "The user prefers light mode"),  # any other content word
        ("The account balance is $200.", "The account balance is -$200."),  # signs
        ("The outside temperature is 5 degrees.", "The outside temperature is -5 degrees."),
        ("The customer's timezone is UTC+2.", "The customer's timezone is UTC-2."),
        ("The patient's blood type is O+.", "The patient's blood type is O-."),
        ("The project requires Python >= 3.11.", "The project requires Python < 3.11."),  # operators
        ("Maria's reaction to the proposal was 👍.", "Maria's reaction to the proposal was 👎."),  # emoji
        ("The churn rate was 5%", "The churn rate was 5"),  # percent, units, currency
        ("The oven should be at 180°C", "The oven should be at 180°F"),
        ("The invoice total is 300 €", "The invoice total is 300 $"),
        ("Use ½ cup of sugar", "Use ¼ cup of sugar"),
        ("The rate is .5", "The rate is 5"),
        ("वह कि बोला", "वह की बोला"),  # a vowel sign is part of the word
        ("The door code is Xk9p-2Lm", "The door code is xK9p-2lM"),  # a code's case is its content
        ("The Wi-Fi key is Tr0ub4dor", "The Wi-Fi key is tr0uB4dor"),
        ("The door code is Ab12", "The door code is aB12"),
        ("The gate code is ABC", "The gate code is abc"),  # capitals after a word's first letter are written
        ("The vault password is XyZ", "The vault password is xYz"),
        ("The plant produces 5 MW", "The plant produces 5 mW"),  # mega and milli
        ("The disk holds 5 MB", "The disk holds 5 Mb"),
        ("The probe reads 5K", "The probe reads 5k"),  # kelvin and kilo
        ("Is the launch on Friday?", "The launch is on Friday."),  # a question is not its answer
        ("Is Ida vegetarian?", "Ida is vegetarian"),
        ("Ida is coming to the party.", "Ida is coming to the party?"),
        ("¿Ida viene a la fiesta?", "Ida viene a la fiesta."),
        ("Ida kommt zur Party？", "Ida kommt zur Party。"),
    ],
)
def test_a_correction_is_never_a_restatement(old: str, new: str) -> None:
    assert not is_restatement(new, old)
    assert not is_restatement(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The deploy window is Friday at 4pm", "the deploy window is friday at 4pm."),
        ("Tom doesn't eat meat", "Tom does not eat meat"),
        ("Jordan is a vegetarian", "Jordan is vegetarian!"),
        ("The office Wi-Fi password changes monthly", "The office wifi password changes monthly"),
        ("The invoice total was 1,250 euros", "The invoice total was 1250 euros"),
        ("The user is learning Spanish", "The user is currently learning Spanish"),
        ("The account balance is -$200", "the account balance is −$200."),  # U+2212 is the same minus
        ("Maria's reaction was 👍", "Maria's reaction was 👍\ufe0f"),  # a variation selector is presentation
        ("Jordan ordered a café au lait", "Jordan ordered a cafe\u0301 au lait"),  # one text, two encodings
        ("Use `ruff` for linting", "Use ruff for linting"),  # Markdown's code marks
        ("Paris - London is the route", "Paris London is the route"),  # a spaced dash is punctuation
        ("The door code is Xk9p", "the door code is Xk9p."),  # a code as written, the rest in any case
        ("The meeting is at 3PM", "the meeting is at 3pm"),  # no code: one case of letters only
        ("The meeting is at 3 PM", "the meeting is at 3 pm"),
        ("Python is the team's language", "python is the team's language"),  # a first letter's case is form
        ("The API rate limit is 100", "The API's rate limit is 100"),  # the same capitals in both
        ("Is the launch on Friday?", "is the launch on friday ?"),
        ("Is the launch on Friday?", "Is the launch on Friday??"),
        ("¿Ida viene a la fiesta?", "Ida viene a la fiesta?"),
    ],
)
def test_restatements_differ_only_in_form(old: str, new: str) -> None:
    assert is_restatement(new, old)


def test_an_empty_key_never_restates() -> None:
    assert statement_key("The!") == ()
    assert not is_restatement("the", "a")


def test_the_shipped_fixture_never_merges_a_near_miss_of_any_kind() -> None:
    data = json.loads(resources.files("memoryd.commands.bench").joinpath("data/dedup_pairs.json").read_text())
    assert len(data["near_miss"]) >= 80 and len(data["restatement"]) >= 40
    kinds = {x["kind"] for x in data["near_miss"]}
    assert {"sign", "operator", "symbol", "percent", "emoji", "version"} <= kinds
    merged = [x["pair"] for x in data["near_miss"] if is_restatement(*x["pair"])]
    assert merged == []


def _record(author: str, scope: Scope, tags: tuple[str, ...] = (), end_user: str = "") -> MemoryRecord:
    return memory_record(content="Sam likes tea", agent_id=author, scope=scope, tags=tags, end_user_id=end_user)


def test_the_author_sharing_a_private_memory_promotes_it() -> None:
    merged = merge_into(_record("a1", Scope.PRIVATE), MemoryDraft("Sam likes tea", Scope.SHARED), A1, NOW, 32)
    assert merged is not None and merged.scope is Scope.SHARED


def test_a_private_restatement_never_narrows_a_shared_memory() -> None:
    merged = merge_into(_record("a1", Scope.SHARED), MemoryDraft("Sam likes tea"), A1, NOW, 32)
    assert merged is not None and merged.scope is Scope.SHARED


def test_a_merge_never_modifies_another_agents_memory() -> None:
    theirs = _record("a2", Scope.SHARED, ("drinks",))
    assert merge_into(theirs, MemoryDraft("Sam likes tea", tags=("drinks",)), A1, NOW, 32) is theirs
    assert merge_into(theirs, MemoryDraft("Sam likes tea", tags=("new",)), A1, NOW, 32) is None
    assert merge_into(theirs, MemoryDraft("Sam likes tea", Scope.SHARED, tags=("new",)), A1, NOW, 32) is None


def test_pools_keep_tenant_and_end_user_apart() -> None:
    assert merge_into(_record("a1", Scope.TENANT), MemoryDraft("Sam likes tea"), A1, NOW, 32) is None
    assert merge_into(_record("a1", Scope.PRIVATE), MemoryDraft("Sam likes tea", Scope.TENANT), A1, NOW, 32) is None


def test_a_memory_filed_elsewhere_is_not_a_twin() -> None:
    filed = replace(_record("a1", Scope.PRIVATE), collection="orders", category="billing", subject="Sam")
    tea = MemoryDraft("Sam likes tea")
    elsewhere = [replace(tea, collection="support"), replace(tea, category="drinks"), replace(tea, subject="Sam's")]
    alike = [tea, replace(tea, collection="orders"), replace(tea, category="billing", subject="Sam")]
    assert [merge_into(filed, draft, A1, NOW, 32) is None for draft in elsewhere] == [True, True, True]
    assert [merge_into(filed, draft, A1, NOW, 32) is None for draft in alike] == [False, False, False]


def test_a_restatement_files_an_unfiled_memory_where_it_was_told_if_it_may() -> None:
    draft = MemoryDraft("Sam likes tea", collection="orders", subject="Sam")
    merged = merge_into(_record("a1", Scope.PRIVATE), draft, A1, NOW, 32)
    assert merged is not None and (merged.collection, merged.category, merged.subject) == ("orders", "", "Sam")
    assert merge_into(_record("a2", Scope.SHARED), draft, A1, NOW, 32) is None  # not a1's to file


@pytest.fixture
def memorize() -> tuple[MemorizeService, InMemoryStore]:
    store = InMemoryStore()
    return MemorizeService(
        store,
        HashEmbedder(),
        FrozenClock(NOW),
        Limits(),
        0.5,
        trail=EventLog(InMemoryEventLog(), FrozenClock(NOW)),
        pii=PiiFloor(lambda _: PiiPolicy.OFF),
        neighbours=PairwiseNeighbours(),
    ), store


async def test_memorize_keeps_a_correction_as_a_new_memory(memorize) -> None:
    service, store = memorize
    first = await service.memorize(A1, MemoryDraft("Bob is allergic to peanuts"))
    second = await service.memorize(A1, MemoryDraft("Bob is not allergic to peanuts"))
    assert not second.deduplicated and second.memory.memory_id != first.memory.memory_id
    assert sorted(r.content for r, _ in store.rows.values()) == [
        "Bob is allergic to peanuts",
        "Bob is not allergic to peanuts",
    ]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The account balance is $200.", "The account balance is -$200."),
        ("The customer's timezone is UTC+2.", "The customer's timezone is UTC-2."),
        ("Maria's reaction to the proposal was 👍.", "Maria's reaction to the proposal was 👎."),
    ],
)
async def test_memorize_keeps_a_sign_or_symbol_correction(memorize, old: str, new: str) -> None:
    service, store = memorize
    first = await service.memorize(A1, MemoryDraft(old))
    second = await service.memorize(A1, MemoryDraft(new))
    assert not second.deduplicated and second.memory.memory_id != first.memory.memory_id
    assert sorted(r.content for r, _ in store.rows.values()) == sorted([old, new])


async def test_memorize_shared_promotes_the_authors_private_twin(memorize) -> None:
    service, store = memorize
    first = await service.memorize(A1, MemoryDraft("Sam likes tea"))
    again = await service.memorize(A1, MemoryDraft("Sam likes tea.", Scope.SHARED, tags=("drinks",)))
    assert again.deduplicated and again.memory.memory_id == first.memory.memory_id
    stored = store.rows[first.memory.memory_id][0]
    assert stored.scope is Scope.SHARED and stored.tags == ("drinks",)
    assert (await store.get(A2, first.memory.memory_id)) is not None


async def test_memorize_private_restatement_of_another_agents_shared_memory(memorize) -> None:
    service, store = memorize
    theirs = await service.memorize(A2, MemoryDraft("Sam likes tea", Scope.SHARED, tags=("drinks",)))
    same = await service.memorize(A1, MemoryDraft("Sam likes tea", tags=("drinks",)))
    assert same.deduplicated and same.memory == theirs.memory  # adds nothing: the shared row stands, unchanged
    more = await service.memorize(A1, MemoryDraft("Sam likes tea", tags=("mine",)))
    assert not more.deduplicated and more.memory.agent_id == "a1" and more.memory.scope is Scope.PRIVATE
    assert store.rows[theirs.memory.memory_id][0] == theirs.memory  # never rewritten


async def test_memorize_keeps_a_restatement_filed_in_another_collection(memorize) -> None:
    service, store = memorize
    first = await service.memorize(A1, MemoryDraft("Sam likes tea", collection="orders"))
    batch = [MemoryDraft("Sam likes tea", collection="support"), MemoryDraft("sam likes tea!", collection="support")]
    results = await service.memorize_batch(A1, batch, False)
    assert [r.deduplicated for r in results] == [False, True]  # the batch's own twins still merge
    assert results[0].memory.memory_id != first.memory.memory_id
    assert sorted(r.collection for r, _ in store.rows.values()) == ["orders", "support"]


async def test_a_batch_merges_its_own_restatements_before_writing(memorize) -> None:
    service, store = memorize
    results = await service.memorize_batch(
        A1,
        [
            MemoryDraft("Sam likes tea", tags=("a",)),
            MemoryDraft("sam likes tea!", Scope.SHARED, tags=("b",)),
            MemoryDraft("Sam likes coffee"),
        ],
        False,
    )
    assert [r.deduplicated for r in results] == [False, True, False]
    assert results[1].memory.memory_id == results[0].memory.memory_id
    row = store.rows[results[0].memory.memory_id][0]
    assert row.scope is Scope.SHARED and row.tags == ("a", "b") and len(store.rows) == 2


async def test_a_pinned_restatement_pins_what_it_merges_into_in_a_batch_and_after(memorize) -> None:
    service, store = memorize
    first, again = await service.memorize_batch(
        A1, [MemoryDraft("Sam is allergic to nuts"), MemoryDraft("sam is allergic to nuts.", pinned=True)], False
    )
    assert again.deduplicated and store.rows[first.memory.memory_id][0].pinned
    kept = (await service.memorize(A1, MemoryDraft("Sam is allergic to nuts!"))).memory  # unpinned: pins stay
    assert kept.memory_id == first.memory.memory_id and kept.pinned
    shared = (await service.memorize(A1, MemoryDraft("Ana works remotely", Scope.SHARED))).memory
    pinned = await service.memorize(A2, MemoryDraft("ana works remotely", pinned=True))
    assert not pinned.deduplicated and pinned.memory.pinned  # A1's shared memory is not A2's to pin: a row of its own
    assert not store.rows[shared.memory_id][0].pinned
    unpinned = await service.memorize(A2, MemoryDraft("Ana works remotely."))
    assert unpinned.deduplicated  # without a pin to add, A1's shared memory holds it


async def test_a_request_id_is_honoured_for_its_ttl(memorize) -> None:
    service, store = memorize
    clock = service._clock
    first = await service.memorize(A1, MemoryDraft("Sam likes tea"), request_id="k1")
    again = await service.memorize(A1, MemoryDraft("Sam likes tea"), request_id="k1")
    assert again == first and len(store.rows) == 1
    clock.advance(hours=25)  # past the 24 h default: a new request with a reused key
    later = await service.memorize_batch(
        A1, [MemoryDraft("Sam likes tea"), MemoryDraft("Sam likes coffee")], False, request_id="k1"
    )
    assert later[0].deduplicated and later[0].memory.memory_id == first.memory.memory_id
    assert not later[1].deduplicated and len(store.rows) == 2


def test_one_contacts_words_never_merge_into_anothers_nor_the_agents_own() -> None:
    # "user: I'm vegetarian" from Ida merged into Omar's row: erased with Omar, hidden from Ida's auto-recall
    omar, own = _record("a1", Scope.PRIVATE, end_user="omar"), _record("a1", Scope.PRIVATE)
    serving_ida, serving_omar = Actor("acme", "a1", "ida"), Actor("acme", "a1", "omar")
    assert merge_into(omar, MemoryDraft("Sam likes tea"), serving_ida, NOW, 32) is None
    assert merge_into(omar, MemoryDraft("Sam likes tea"), A1, NOW, 32) is None  # the agent's own: its own row
    assert merge_into(own, MemoryDraft("Sam likes tea"), serving_ida, NOW, 32) is None  # erased with Ida else
    assert merge_into(omar, MemoryDraft("Sam likes tea"), serving_omar, NOW, 32) is not None  # Omar again
