"""Undoing a merge on real LanceDB: the facts it moved and the names it added go back, nothing else does."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace

import pytest

from memoryd.app import App
from memoryd.core.errors import NotFound, PreconditionFailed, Unavailable
from memoryd.core.graph import EntityType, Fact, FactStatus, GraphScope
from memoryd.core.models import Actor, Scope
from memoryd.services.graph import Assertion

ADMIN = Actor("acme", "ops")
CONTACT = GraphScope(Scope.END_USER, "", "u1")
READER = Actor("acme", "a1", "u1")
PERSON, ORG = EntityType.PERSON, EntityType.ORGANIZATION


async def _facts_of(app: App, entity_id: str) -> set[str]:
    return {f.sentence for f in (await app.graph.list_facts(READER, None, entity_id, 50, ""))[0]}


async def test_an_accepted_suggestion_is_undone_and_each_person_keeps_their_facts(app: App) -> None:
    """Two alike names ("Jane Smith" / "John Smith") merged by mistake, then unmerged."""
    jane = await app.graph.assert_human(
        ADMIN, CONTACT, Assertion("Jane Smith", "works_at", "Acme", "Jane Smith works at Acme.", PERSON, ORG)
    )
    john = await app.graph.assert_human(
        ADMIN, CONTACT, Assertion("John Smith", "works_at", "Globex", "John Smith works at Globex.", PERSON, ORG)
    )
    ceo = await app.graph.assert_human(
        ADMIN, CONTACT, Assertion("Initech", "ceo", "Jane Smith", "Jane Smith runs Initech.", ORG, PERSON)
    )
    jane_id, john_id = jane.fact.subject_id, john.fact.subject_id
    assert ceo.fact.object_id == jane_id
    merged = await app.graph.merge_entities(ADMIN, jane_id, john_id)
    assert "Jane Smith" in merged.aliases
    assert await _facts_of(app, john_id) == {
        "Jane Smith works at Acme.",
        "John Smith works at Globex.",
        "Jane Smith runs Initech.",
    }
    since = await app.graph.assert_human(ADMIN, CONTACT, Assertion("Jane Smith", "likes", "tea", "Jane likes tea."))
    assert since.fact.subject_id == john_id  # the alias resolves to the merged entity meanwhile

    undone = await app.graph.unmerge_entity(ADMIN, jane_id)

    assert (undone.entity.entity_id, undone.entity.merged_into, undone.facts_moved) == (jane_id, "", 2)
    assert "Jane Smith" not in undone.target.aliases
    assert await _facts_of(app, jane_id) == {"Jane Smith works at Acme.", "Jane Smith runs Initech."}
    assert await _facts_of(app, john_id) == {"John Smith works at Globex.", "Jane likes tea."}  # written since
    listed = {e.entity_id for e in (await app.graph.list_entities(READER, 50, ""))[0]}
    assert {jane_id, john_id} <= listed
    answer = await app.graph.search(READER, "Where does Jane Smith work?")
    assert next(h for h in answer.hits if h.object == "Acme").subject == "Jane Smith"
    later = await app.graph.assert_human(ADMIN, CONTACT, Assertion("Jane Smith", "lives_in", "Oslo", "Jane: Oslo."))
    assert later.fact.subject_id == jane_id  # the name is hers again
    assert not [
        s
        for s, _, _ in (await app.graph.list_suggestions(READER, 50, ""))[0]
        if {jane_id, john_id}
        == {
            s.entity_id,
            s.similar_entity_id,
        }
    ]  # judged two entities: not suggested again
    with pytest.raises(PreconditionFailed, match="entity_id: 'Jane Smith' is not merged"):
        await app.graph.unmerge_entity(ADMIN, jane_id)
    with pytest.raises(NotFound, match="entity_id"):
        await app.graph.unmerge_entity(ADMIN, "0" * 32)


async def test_merges_undo_in_reverse_order(app: App) -> None:
    names = ["Acme Corp", "ACME GmbH", "Acme Group"]
    ids = [
        (
            await app.graph.assert_human(ADMIN, CONTACT, Assertion(n, "founded", str(1990 + i), f"{n} was founded."))
        ).fact.subject_id
        for i, n in enumerate(names)
    ]
    await app.graph.merge_entities(ADMIN, ids[0], ids[1])
    await app.graph.merge_entities(ADMIN, ids[1], ids[2])
    assert await _facts_of(app, ids[2]) == {f"{n} was founded." for n in names}
    with pytest.raises(PreconditionFailed, match="TARGET_MERGED: 'ACME GmbH'"):
        await app.graph.unmerge_entity(ADMIN, ids[0])
    assert (await app.graph.unmerge_entity(ADMIN, ids[1])).facts_moved == 2  # its own and the one it took in
    assert (await app.graph.unmerge_entity(ADMIN, ids[0])).facts_moved == 1
    for entity_id, name in zip(ids, names, strict=True):
        assert await _facts_of(app, entity_id) == {f"{name} was founded."}
    kept = (await app.graph.visible_entity(READER, ids[2])).aliases
    assert not {"Acme Corp", "ACME GmbH"} & set(kept)


async def test_an_undo_cut_short_is_finished_by_calling_it_again(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    a = await app.graph.assert_human(ADMIN, CONTACT, Assertion("Nadia Ali", "speaks", "Urdu", "Nadia speaks Urdu."))
    b = await app.graph.assert_human(ADMIN, CONTACT, Assertion("Nadia Alvi", "speaks", "Farsi", "Nadia: Farsi."))
    await app.graph.merge_entities(ADMIN, a.fact.subject_id, b.fact.subject_id)
    store = app.graph._store
    real = store.put_entities

    async def lost(*_: object) -> None:
        raise Unavailable("storage unavailable: the disk went away")

    monkeypatch.setattr(store, "put_entities", lost)  # the facts went back; the entities' commit did not
    with pytest.raises(Unavailable):
        await app.graph.unmerge_entity(ADMIN, a.fact.subject_id)
    monkeypatch.setattr(store, "put_entities", real)
    assert (await app.graph.unmerge_entity(ADMIN, a.fact.subject_id)).entity.merged_into == ""
    assert await _facts_of(app, a.fact.subject_id) == {"Nadia speaks Urdu."}
    assert await _facts_of(app, b.fact.subject_id) == {"Nadia: Farsi."}


async def test_a_merge_made_before_merges_were_recorded_is_refused_by_name(app: App) -> None:
    a = await app.graph.assert_human(ADMIN, CONTACT, Assertion("Omar Haddad", "speaks", "Arabic", "Omar: Arabic."))
    b = await app.graph.assert_human(ADMIN, CONTACT, Assertion("Omar Hadad", "speaks", "French", "Omar: French."))
    store = app.graph._store
    found = await store.entities("acme", [a.fact.subject_id])
    vectors = await store.entity_vectors("acme", [a.fact.subject_id])
    old = replace(found[a.fact.subject_id], merged_into=b.fact.subject_id)  # as an earlier release left it
    await store.put_entities("acme", [(old, vectors[a.fact.subject_id])])
    with pytest.raises(PreconditionFailed, match="entity_id: merged before merges were recorded"):
        await app.graph.unmerge_entity(ADMIN, a.fact.subject_id)


async def test_a_merge_cut_short_or_retried_is_finished_by_the_same_merge(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = await app.graph.assert_human(ADMIN, CONTACT, Assertion("Lena Berg", "speaks", "Swedish", "Lena: Swedish."))
    b = await app.graph.assert_human(ADMIN, CONTACT, Assertion("Lena Borg", "speaks", "Danish", "Lena: Danish."))
    source, target = a.fact.subject_id, b.fact.subject_id
    store = app.graph._store
    real = store.put_facts

    async def lost(*_: object) -> None:
        raise Unavailable("storage unavailable: the disk went away")

    monkeypatch.setattr(store, "put_facts", lost)  # the entities' commit landed; the facts' did not
    with pytest.raises(Unavailable):
        await app.graph.merge_entities(ADMIN, source, target)
    monkeypatch.setattr(store, "put_facts", real)
    assert await _facts_of(app, target) == {"Lena: Danish."}  # the Swedish fact sits on the folded entity
    await app.graph.merge_entities(ADMIN, source, target)
    assert await _facts_of(app, target) == {"Lena: Swedish.", "Lena: Danish."}
    assert (await app.graph.merge_entities(ADMIN, source, target)).entity_id == target  # a lost reply's retry
    with pytest.raises(PreconditionFailed, match="source_entity_id: already merged into"):
        other = await app.graph.assert_human(ADMIN, CONTACT, Assertion("Lena Bergh", "speaks", "Dutch", "Lena: NL."))
        await app.graph.merge_entities(ADMIN, source, other.fact.subject_id)
    assert (await app.graph.unmerge_entity(ADMIN, source)).facts_moved == 1


async def _says(app: App, subject: str, predicate: str, obj: str, sentence: str) -> Fact:
    """A person's assertion about the contact; the fact stored."""
    return (await app.graph.assert_human(ADMIN, CONTACT, Assertion(subject, predicate, obj, sentence))).fact


def _first_comes(
    monkeypatch: pytest.MonkeyPatch, store: object, method: str, writer: Callable[[], Awaitable[object]]
) -> None:
    """Make ``writer`` (another caller's write) commit just before the store's next ``method`` call."""
    real = getattr(store, method)

    async def after_the_other(*args: object) -> object:
        monkeypatch.setattr(store, method, real)
        await writer()
        return await real(*args)

    monkeypatch.setattr(store, method, after_the_other)


async def test_a_fact_asserted_while_its_subject_is_merged_away_follows_the_merge(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The assertion resolved "Mia Park" before the merge folded her and wrote after it: never hidden."""
    source = (await _says(app, "Mia Park", "speaks", "Korean", "Mia: Korean.")).subject_id
    target = (await _says(app, "Mya Park", "speaks", "Thai", "Mya: Thai.")).subject_id
    _first_comes(monkeypatch, app.graph._store, "put_facts", lambda: app.graph.merge_entities(ADMIN, source, target))
    assert (await _says(app, "Mia Park", "likes", "tea", "Mia likes tea.")).subject_id == target
    assert await _facts_of(app, target) == {"Mia: Korean.", "Mya: Thai.", "Mia likes tea."}
    assert await _facts_of(app, source) == set()


async def test_a_fact_asserted_while_a_merge_reads_its_facts_is_moved_and_undone_with_them(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Written on the source after the merge listed its facts, before it folded it: the merge takes it too."""
    source = (await _says(app, "Ravi Rao", "speaks", "Tamil", "Ravi: Tamil.")).subject_id
    target = (await _says(app, "Ravi Raoo", "speaks", "Hindi", "Ravi: Hindi.")).subject_id
    _first_comes(
        monkeypatch, app.graph._store, "put_entities", lambda: _says(app, "Ravi Rao", "likes", "chess", "Ravi: chess.")
    )
    await app.graph.merge_entities(ADMIN, source, target)
    assert await _facts_of(app, target) == {"Ravi: Tamil.", "Ravi: Hindi.", "Ravi: chess."}
    assert (await app.graph.unmerge_entity(ADMIN, source)).facts_moved == 2
    assert await _facts_of(app, source) == {"Ravi: Tamil.", "Ravi: chess."}


async def test_a_fact_ended_while_a_merge_moves_it_stays_ended(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """The merge listed the fact active; a person ended it before the merge wrote it back moved."""
    kim = await _says(app, "Kim Lee", "lives_in", "Seoul", "Kim: Seoul.")
    kym = await _says(app, "Kym Lee", "speaks", "Korean", "Kym: Korean.")
    ended = kim.fact_id
    _first_comes(
        monkeypatch,
        app.graph._store,
        "put_entities",
        lambda: app.graph.update_fact(ADMIN, ended, status=FactStatus.INVALIDATED),
    )
    await app.graph.merge_entities(ADMIN, kim.subject_id, kym.subject_id)
    moved = (await app.graph._store.facts("acme", [ended]))[ended]
    assert (moved.subject_id, moved.status) == (kym.subject_id, FactStatus.INVALIDATED)


async def test_a_rename_and_a_merge_made_at_once_both_hold(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each read the target, then wrote it whole: the later write undid the other's name or alias."""
    anna = await _says(app, "Anna Berg", "speaks", "Swedish", "Anna: Swedish.")
    anne = await _says(app, "Anne Berg", "speaks", "Danish", "Anne: Danish.")
    hanna = await _says(app, "Hanna Berg", "speaks", "Norwegian", "Hanna: Norwegian.")
    target = anna.subject_id
    _first_comes(  # the rename commits while the merge reads the vectors
        monkeypatch, app.graph._store, "entity_vectors", lambda: app.graph.rename_entity(ADMIN, target, "Anna B. Berg")
    )
    await app.graph.merge_entities(ADMIN, anne.subject_id, target)
    first = (await app.graph._store.entities("acme", [target]))[target]
    assert first.name == "Anna B. Berg" and {"Anna Berg", "Anne Berg"} <= set(first.aliases)
    embedder = app.graph._embedder
    _first_comes(  # a merge commits while the rename embeds the new name
        monkeypatch, embedder, "embed", lambda: app.graph.merge_entities(ADMIN, hanna.subject_id, target)
    )
    await app.graph.rename_entity(ADMIN, target, "Anna Berg-Lund")
    after = (await app.graph._store.entities("acme", [target]))[target]
    assert after.name == "Anna Berg-Lund" and {"Anne Berg", "Hanna Berg", "Anna B. Berg"} <= set(after.aliases)
    assert (await app.graph.unmerge_entity(ADMIN, hanna.subject_id)).facts_moved == 1


async def test_a_contacts_entity_erased_while_it_is_renamed_stays_erased(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rename re-reads the row before writing it: an erasure made meanwhile is not undone."""
    olga = (await _says(app, "Olga Ivanova", "speaks", "Russian", "Olga: Russian.")).subject_id
    _first_comes(monkeypatch, app.graph._embedder, "embed", lambda: app.admin.erasure.erase_end_user(ADMIN, "u1"))
    with pytest.raises(NotFound, match="entity_id"):
        await app.graph.rename_entity(ADMIN, olga, "Olga Petrova")
    assert await app.graph._store.entities("acme", [olga]) == {}


async def test_a_contacts_entities_erased_while_they_are_merged_stay_erased(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    ivan = (await _says(app, "Ivan Orlov", "speaks", "Russian", "Ivan: Russian.")).subject_id
    iwan = (await _says(app, "Iwan Orlov", "speaks", "Polish", "Iwan: Polish.")).subject_id
    _first_comes(monkeypatch, app.graph._store, "entity_vectors", lambda: app.admin.erasure.erase_end_user(ADMIN, "u1"))
    with pytest.raises(NotFound, match="erased meanwhile"):
        await app.graph.merge_entities(ADMIN, ivan, iwan)
    assert await app.graph._store.entities("acme", [ivan, iwan]) == {}


async def test_two_merges_of_one_source_at_once_keep_the_first(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second merge re-reads the rows before writing them: a source folded meanwhile is not folded again."""
    ada = (await _says(app, "Ada Lind", "speaks", "Finnish", "Ada: Finnish.")).subject_id
    adah = (await _says(app, "Adah Lind", "speaks", "Estonian", "Adah: Estonian.")).subject_id
    adda = (await _says(app, "Adda Lind", "speaks", "Latvian", "Adda: Latvian.")).subject_id
    _first_comes(monkeypatch, app.graph._store, "entity_vectors", lambda: app.graph.merge_entities(ADMIN, ada, adah))
    with pytest.raises(PreconditionFailed, match="source_entity_id: already merged into"):
        await app.graph.merge_entities(ADMIN, ada, adda)
    assert (await app.graph._store.entities("acme", [ada]))[ada].merged_into == adah
    assert await _facts_of(app, adah) == {"Ada: Finnish.", "Adah: Estonian."}
    assert (await app.graph.unmerge_entity(ADMIN, ada)).facts_moved == 1  # the first merge's record, whole
