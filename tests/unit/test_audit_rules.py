"""The review's rules on planted problems: each kind found, corrections never called duplicates."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memoryd.core.feedback import FeedbackSummary, Signal
from memoryd.core.ids import content_hash
from memoryd.core.models import MemoryRecord, Scope
from memoryd.core.restatement import conflicting_markers, differing_markers, says_nothing_new
from memoryd.core.review import Action, Finding, FindingKind, ReviewLimits
from memoryd.core.review_rules import clutter_reason, find, survivor
from memoryd.testing.provider import hashed_embedding
from tests.fakes import PairwiseNeighbours, memory_record

NOW = datetime(2026, 11, 30, tzinfo=UTC)


def mem(i: int, text: str, *, days: float = 1, **fields: object) -> MemoryRecord:
    at = NOW - timedelta(days=days)
    return memory_record(
        f"{i:032x}", text, content_hash=content_hash(text), created_at=at, updated_at=at, occurred_at=at, **fields
    )


def run(records: list[MemoryRecord], **limits: float) -> list[Finding]:
    vectors = [hashed_embedding(r.content, 256) for r in records]
    lim = ReviewLimits(**limits)  # type: ignore[arg-type]
    near = PairwiseNeighbours().neighbours(vectors, lim.neighbours, lim.contradiction_similarity)
    return find("review:t1:a1:v", records, near, NOW, lim)


def kinds(findings: list[Finding], kind: FindingKind) -> list[set[str]]:
    return [set(f.memory_ids) for f in findings if f.kind is kind]


def test_identical_texts_are_certain_duplicates_kept_in_the_widest_scope() -> None:
    a = mem(1, "The VPN needs a hardware key", scope=Scope.PRIVATE)
    b = mem(2, "The VPN needs a hardware key", scope=Scope.TENANT)
    found = run([a, b, mem(3, "The printer on floor 3 jams daily")])
    dup = next(f for f in found if f.kind is FindingKind.DUPLICATE)
    assert set(dup.memory_ids) == {a.memory_id, b.memory_id} and dup.certain and dup.action is Action.MERGE
    assert dup.survivor_id == b.memory_id


def test_a_correction_is_a_contradiction_never_a_duplicate() -> None:
    a = mem(1, "The customer order number is 48213 for the blue chairs")
    b = mem(2, "The customer order number is 99017 for the blue chairs")
    c = mem(3, "Bob is allergic to peanuts and carries an epipen")
    d = mem(4, "Bob is not allergic to peanuts and carries an epipen")
    found = run([a, b, c, d])
    assert kinds(found, FindingKind.DUPLICATE) == []
    contradictions = kinds(found, FindingKind.CONTRADICTION)
    assert {a.memory_id, b.memory_id} in contradictions and {c.memory_id, d.memory_id} in contradictions
    assert all(f.action is Action.KEEP for f in found if f.kind is FindingKind.CONTRADICTION)


@pytest.mark.parametrize(
    "name",
    ["Mary-Jane", "O'Brien", "Élodie", "Room4B", "I'm Ann and I", "X-ray", "Tr0ub4dor", "Ann'll say"],
)
def test_a_text_never_differs_from_itself_in_a_name(name: str) -> None:
    """Hyphens, apostrophes, digits and accented capitals in a name made a text differ from itself."""
    text = f"{name} booked the blue room for Friday"
    assert differing_markers(text, text) == [] and says_nothing_new(text, text)
    a, b = mem(1, text), mem(2, text + ".")  # the same words: a certain duplicate, never a contradiction
    found = run([a, b], duplicate_similarity=0.5)
    assert kinds(found, FindingKind.CONTRADICTION) == [] and {a.memory_id, b.memory_id} in kinds(
        found, FindingKind.DUPLICATE
    )


def test_a_sign_correction_is_a_contradiction_never_a_duplicate() -> None:
    a = mem(1, "The account balance is $200")
    b = mem(2, "The account balance is -$200")
    found = run([a, b], duplicate_similarity=0.5)
    assert kinds(found, FindingKind.DUPLICATE) == []
    assert {a.memory_id, b.memory_id} in kinds(found, FindingKind.CONTRADICTION)


def test_a_contradiction_is_one_fact_said_differently_not_a_similar_fact() -> None:
    cases = [
        ("Sofia is allergic to peanuts", "Sofia is not allergic to peanuts", ["negation"]),
        ("Nadia prefers green tea", "Nadia no longer prefers green tea", ["negation"]),
        ("The user lives in Lisbon", "The user lives in Porto", ["name"]),
        ("The Borealis launch is on 3 June", "The Borealis launch is on 4 June", ["number"]),
        ("The standup is on Monday", "The standup is on Friday", ["time"]),
        ("Sofia is allergic to peanuts", "Ingrid is allergic to peanuts", []),  # another subject
        ("Sofia is allergic to peanuts", "Sofia is allergic to shellfish", []),  # another fact, both may hold
        ("The Dune project ships in May", "the dune project ships in may", []),  # a case is not a name
        ("The weekly design review is at 14:00", "The weekly incident review is at 16:00", []),  # two meetings
        ("The account balance is $200", "The account balance is -$200", ["symbol"]),
        ("The project requires Python >= 3.11", "The project requires Python < 3.11", ["symbol"]),
        # Negations of other languages: before them, these were near-duplicates "with no fact changed".
        ("Sofia ist allergisch gegen Erdnüsse", "Sofia ist nicht allergisch gegen Erdnüsse", ["negation"]),
        ("Sofia est allergique aux arachides", "Sofia n'est pas allergique aux arachides", ["negation"]),
        ("Sofia è allergica alle arachidi", "Sofia non è allergica alle arachidi", ["negation"]),
        ("Sofia är allergisk mot jordnötter", "Sofia är inte allergisk mot jordnötter", ["negation"]),
        ("Sofia lubi kawę", "Sofia nie lubi kawę", ["negation"]),
        ("Софья любит кофе", "Софья не любит кофе", ["negation"]),
        ("Sofia drinkt koffie", "Sofia drinkt geen koffie", ["negation"]),
        ("La réunion est le lundi", "La réunion est le mardi", ["time"]),  # lower-case days: not names
        ("La reunión es en marzo", "La reunión es en junio", ["time"]),
        ("Mei is allergic to kiwi", "Sofia is allergic to kiwi", []),  # "mei" is May in Dutch: a name here
        ("A reunião é na segunda-feira", "A reunião é na terça-feira", ["time"]),
        ("De vergadering is op maandag", "De vergadering is op dinsdag", ["time"]),
    ]
    for a, b, expected in cases:
        assert conflicting_markers(a, b) == expected, (a, b)
        assert conflicting_markers(b, a) == expected, (b, a)


def test_a_text_says_something_new_when_it_adds_or_takes_out_a_word() -> None:
    """A model's restatement is merged only when neither text holds a word the other lacks."""
    for new, old in [
        ("Caroline's espresso is a decaf double", "Caroline's espresso is a double"),  # a word added
        ("Ida wohnt in Berlin", "Ida wohnt nicht in Berlin"),  # the negation taken out: the news
        ("Ida lives in Oslo", "Ida used to live in Oslo"),
        ("Ida likes tea", "Ida likes green tea"),
        ("The gate code is ABC", "The gate code is abc"),  # a capital past a first letter is written
        ("Is the launch on Friday?", "The launch is on Friday"),  # the answer is news to its question
    ]:
        assert not says_nothing_new(new, old) and not says_nothing_new(old, new), (new, old)
    for new, old in [
        ("I'm vegan.", "I am vegan"),
        ("Bob's allergic to cats", "bob is allergic to cat"),
        ("Is the API down?", "is the API down ?"),
    ]:
        assert says_nothing_new(new, old) and says_nothing_new(old, new), (new, old)


@pytest.mark.parametrize("duplicate_similarity", [0.95, 1.0])  # 1.0: the pair falls to the stale rule's band
def test_a_question_or_a_written_capital_is_no_duplicate_and_retires_nothing(duplicate_similarity: float) -> None:
    """Their texts embed alike: the review called them "near-identical with no fact changed", or archived the older."""
    statement, question = mem(1, "The launch is on Friday", days=30), mem(2, "Is the launch on Friday?")
    code, corrected = mem(3, "The gate code is ABC", days=30), mem(4, "The gate code is abc")
    found = run([statement, question, code, corrected], duplicate_similarity=duplicate_similarity)
    assert kinds(found, FindingKind.DUPLICATE) == [] and kinds(found, FindingKind.STALE) == []
    # A changed code is reported as one fact stated two ways; a question contradicts nothing.
    assert kinds(found, FindingKind.CONTRADICTION) == [{code.memory_id, corrected.memory_id}]


def test_memories_about_one_subject_that_differ_in_a_fact_are_contradictions() -> None:
    a = mem(1, "Weekly sync happens at 10am", subject="sync")
    b = mem(2, "Planning moved to Thursdays", subject="sync")
    assert {a.memory_id, b.memory_id} in kinds(run([a, b]), FindingKind.CONTRADICTION)


def test_old_unused_faded_memories_and_replaced_ones_are_stale() -> None:
    old = mem(1, "Lunch order for the offsite was sandwiches", days=400)
    used = mem(2, "The office alarm code rotates each quarter", days=400, retrieval_count=3)
    fresh = mem(3, "The staging cluster lives in eu-west", days=2)
    found = run([old, used, fresh])
    stale = [f for f in found if f.kind is FindingKind.STALE]
    assert [set(f.memory_ids) for f in stale] == [{old.memory_id}] and stale[0].certain
    assert stale[0].action is Action.ARCHIVE


def test_a_pinned_memory_is_never_stale_or_clutter_and_a_duplicate_group_keeps_it() -> None:
    """A pinned memory is kept on purpose: rules that archive on their own (``certain``) pass it by."""
    old = mem(1, "Ida's peanut allergy is severe", days=400, pinned=True)
    noise = mem(2, "thanks!", pinned=True)
    replaced = mem(3, "The team standup happens every morning", days=10, pinned=True)
    newer = mem(4, "The team standup happens every morning now", days=2)
    twin = mem(5, "Ida's peanut allergy is severe", days=1, scope=Scope.TENANT, retrieval_count=9)
    found = run([old, noise, replaced, newer, twin], newer_similarity=0.0, duplicate_similarity=1.01)
    assert kinds(found, FindingKind.STALE) == [] and kinds(found, FindingKind.CLUTTER) == []
    [dup] = [f for f in found if f.kind is FindingKind.DUPLICATE]
    assert dup.survivor_id == old.memory_id  # the pinned one, though the twin is wider and used
    assert survivor([twin, old]) is old


def test_a_memory_with_several_newer_neighbours_is_one_stale_finding_naming_the_closest() -> None:
    old = mem(1, "The team standup happens every morning", days=10)
    newer = [mem(2, "The team standup happens every morning now", days=5)]
    newer.append(mem(3, "The team standup happens every morning again", days=2))
    found = run([old, *newer], contradiction_similarity=0.0, newer_similarity=0.0, duplicate_similarity=1.01)
    stale = [f for f in found if f.kind is FindingKind.STALE and f.memory_ids == (old.memory_id,)]
    assert len(stale) == 1 and len({f.finding_id for f in found}) == len(found)
    near = hashed_embedding(old.content, 256)
    closer = max(newer, key=lambda n: sum(a * b for a, b in zip(hashed_embedding(n.content, 256), near, strict=True)))
    assert closer.memory_id in stale[0].reason


def test_clutter_is_recognised_and_facts_are_not() -> None:
    for text in [
        "",
        "   ",
        "thanks!",
        "ok ok",
        '{"tool": "search", "hits": [1, 2, 3], "ok": true}',
        "Traceback (most recent call last): File x",
        "and then",
    ]:
        assert clutter_reason(text), text
    for text in ["Bob is allergic to peanuts", "Call Noah at 9", "Deploys freeze Fridays"]:
        assert not clutter_reason(text), text


def test_finding_ids_are_deterministic() -> None:
    records = [mem(1, "thanks"), mem(2, "same text here"), mem(3, "same text here")]
    assert [f.finding_id for f in run(records)] == [f.finding_id for f in run(records)]


def test_the_survivor_is_the_widest_then_most_used_then_oldest() -> None:
    a = mem(1, "x", scope=Scope.PRIVATE, retrieval_count=9)
    b = mem(2, "x", scope=Scope.SHARED, days=1)
    c = mem(3, "x", scope=Scope.SHARED, days=5)
    assert survivor([a, b, c]) == c


def test_memories_reported_wrong_or_mostly_disliked_are_disputed_never_certain() -> None:
    wrong = mem(1, "The VPN needs a hardware key", feedback=FeedbackSummary({Signal.WRONG: 1, Signal.USEFUL: 4}, 0.0))
    disliked = mem(
        2, "Standup is at 9:30", feedback=FeedbackSummary({Signal.EXPLICIT_NEGATIVE: 2, Signal.EXPLICIT_POSITIVE: 1})
    )
    liked = mem(
        3, "Lunch is at noon", feedback=FeedbackSummary({Signal.EXPLICIT_NEGATIVE: 1, Signal.EXPLICIT_POSITIVE: 1})
    )
    found = [f for f in run([wrong, disliked, liked, mem(4, "The printer on floor 3 jams daily")])]
    disputed = [f for f in found if f.kind is FindingKind.DISPUTED]
    assert [set(f.memory_ids) for f in disputed] == [{wrong.memory_id}, {disliked.memory_id}]
    assert all(f.action is Action.ARCHIVE and not f.certain for f in disputed)
    assert "wrong 1 time" in disputed[0].reason and "2 against 1" in disputed[1].reason


def test_two_contacts_rows_are_neither_duplicates_nor_contradictions_nor_stale() -> None:
    ida = mem(1, "My alarm code is 4417", end_user_id="ida")
    omar = mem(2, "My alarm code is 4417", end_user_id="omar")  # said by each: two facts, one per contact
    zoe = mem(3, "My alarm code is 9925", end_user_id="zoe", subject="alarm")  # another person's, not a correction
    ida_subject = mem(4, "My alarm code is 4418", end_user_id="ida", subject="alarm", days=0.5)
    found = run([ida, omar, zoe, ida_subject])
    paired = [set(f.memory_ids) for f in found if len(f.memory_ids) > 1]
    assert all(len({r.end_user_id for r in (ida, omar, zoe, ida_subject) if r.memory_id in ids}) == 1 for ids in paired)
    assert {ida.memory_id, omar.memory_id} not in kinds(found, FindingKind.DUPLICATE)
    assert {ida.memory_id, ida_subject.memory_id} in kinds(found, FindingKind.CONTRADICTION)  # one contact's: kept
