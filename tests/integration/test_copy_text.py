"""The in-memory full-text arm ranks exactly as the LanceDB index does, in every state a table passes through."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import lance
import pyarrow as pa
import pytest

from memoryd.adapters.lance.copies.archive import ArchiveCopy
from memoryd.adapters.lance.copies.text import Vocabulary, index_tokens
from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.maintenance import LanceMaintenance
from memoryd.adapters.lance.rows import RECORD_COLUMNS, memory_schema, search_text, to_table
from memoryd.core.models import Actor, FullTextQuery, FullTextTier, MemoryFilter, MemoryRecord, Scope
from memoryd.core.query_terms import index_text, word_prefixes
from memoryd.core.ranking import merge_tiers
from tests.fakes import memory_record
from tests.integration.test_copy_path import AGENTS, DIM, T0, USERS, a_column_filter, a_filter, vector
from tests.lance_stores import WholeLanceArchive

WORDS = [
    "coffee",
    "espresso",
    "tea",
    "lisbon",
    "marathon",
    "running",
    "runs",
    "ran",
    "runner",
    "chess",
    "adoption",
    "garden",
    "painting",
    "caroline",
    "melanie",
    "sister",
    "brother",
    "dog",
    "dogs",
    "cat",
    "kids",
    "school",
    "concert",
    "guitar",
    "violin",
    "camping",
    "beach",
    "mountains",
    "hiking",
    "book",
    "books",
    "reading",
    "novel",
    "2023",
    "may",
    "june",
    "7",
    "15",
    "birthday",
    "party",
    "festival",
    "pottery",
    "charity",
    "race",
    "volunteer",
    "shelter",
    "job",
    "career",
    "interview",
    "promotion",
    "willing",
    "willingness",
    "only",
    "very",
    "not",
    "never",
    "the",
    "a",
    "and",
    "it's",
    "don't",
    "I'm",
    "what",
    "when",
]  # a word list reads better quoted once


def sentence(rng: random.Random) -> str:
    # Zipf-like: a few words are common, most are rare, so idf and ties both matter.
    weights = [1 / (k + 1) for k in range(len(WORDS))]
    words = rng.choices(WORDS, weights, k=rng.randint(2, 14))
    return " ".join(words).capitalize() + rng.choice([".", "!", "?", ""])


def memories(rng: random.Random, n: int, start: int) -> list[tuple[MemoryRecord, list[float]]]:
    out = []
    for i in range(start, start + n):
        scope = rng.choice([Scope.TENANT, Scope.SHARED, Scope.PRIVATE, Scope.PRIVATE, Scope.END_USER])
        record = memory_record(
            f"{i + 1:032x}",
            sentence(rng),
            tenant_id="acme",
            agent_id=rng.choice(AGENTS),
            end_user_id=rng.choice(USERS[1:]) if scope is Scope.END_USER else "",
            scope=scope,
            occurred_at=T0 + timedelta(days=rng.randint(0, 90)),
            # A batch of one conversation: a turn's search text holds the turn before it.
            source_context=rng.choice(["", "", "chat-1"]),
        )
        out.append((record, vector(rng)))
    return out


def text_query(rng: random.Random) -> FullTextQuery:
    terms = tuple(dict.fromkeys(w.lower() for w in rng.sample(WORDS, rng.randint(1, 4)) if w.isalnum()))
    return FullTextQuery(terms=terms or ("coffee",), prefix_terms=())


def prefix_query(rng: random.Random) -> FullTextQuery:
    # Recall's last tier: whole words and word beginnings ('espres', 'run'), any of them
    words = [w.lower() for w in rng.sample(WORDS, rng.randint(1, 4)) if w.isalnum()] or ["coffee"]
    terms = tuple(dict.fromkeys(w[: rng.randint(3, len(w))] if len(w) > 3 and rng.random() < 0.6 else w for w in words))
    return FullTextQuery(terms=terms, prefix_terms=tuple(t for t in terms if 3 <= len(t) <= 15))


@pytest.fixture
async def db(tmp_path: Path) -> LanceDatabase:
    """The LanceDB database under ``tmp_path`` (the archives' vectors of ``DIM``)."""
    return await LanceDatabase.open(str(tmp_path), "m", DIM)


async def test_full_text_in_memory_ranks_as_lancedb_through_writes_deletes_and_maintenance(
    db: LanceDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(21)
    cold = WholeLanceArchive(db, DIM, copy_max_rows=0)
    held = WholeLanceArchive(db, DIM)
    maintenance = LanceMaintenance(db, optimize_min_fragments=1)
    answered = {"memory": 0, "tiers": 0}
    real = ArchiveCopy.full_text

    def counted(self: ArchiveCopy, *args: object, **kwargs: object) -> object:
        answered["memory"] += 1
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ArchiveCopy, "full_text", counted)
    real_tiers = ArchiveCopy.full_text_tiers

    def counted_tiers(self: ArchiveCopy, *args: object, **kwargs: object) -> object:
        answered["tiers"] += 1
        return real_tiers(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ArchiveCopy, "full_text_tiers", counted_tiers)

    async def same_ranking(checks: int, *, in_memory: bool) -> None:
        before, tiers_before = answered["memory"], answered["tiers"]
        for _ in range(checks):
            actor = Actor("acme", rng.choice(AGENTS), rng.choice(USERS))
            flt = rng.choice([MemoryFilter(), MemoryFilter(), a_filter(rng), a_column_filter(rng)])
            query, limit, first = text_query(rng), rng.choice([1, 5, 20, 60]), rng.random() < 0.4
            for every in (first, not first):  # both tiers of one query, as a Recall asks (the second reuses scores)
                expected = await cold.full_text(actor, query, flt, limit, every)
                got = await held.full_text(actor, query, flt, limit, every)
                assert [h.memory_id for h in got] == [h.memory_id for h in expected], (query, every, flt)
                assert all(
                    abs(a.score - b.score) <= 1e-5 * max(1.0, b.score) for a, b in zip(got, expected, strict=True)
                )
            prefixed = prefix_query(rng)  # the prefix tier: both indexes' scores summed
            expected = await cold.full_text(actor, prefixed, flt, limit, False)
            got = await held.full_text(actor, prefixed, flt, limit, False)
            assert [h.memory_id for h in got] == [h.memory_id for h in expected], (prefixed, flt)
            assert all(abs(a.score - b.score) <= 1e-5 * max(1.0, b.score) for a, b in zip(got, expected, strict=True))
            # Recall's tiers in one call: as the separate searches merged, whether the copy answers or not
            words, anyword, last = FullTextTier(query, True), FullTextTier(query, False), FullTextTier(prefixed, False)
            tiers = rng.choice([[words, anyword], [anyword], [words, anyword, last], [anyword, last], [last]])
            separate = [await cold.full_text(actor, t.query, flt, limit, t.require_all) for t in tiers]
            expected = merge_tiers(separate, limit)
            for store in (cold, held):
                got = await store.full_text_tiers(actor, tiers, flt, limit)
                assert [h.memory_id for h in got] == [h.memory_id for h in expected], (tiers, flt, limit)
                assert all(
                    abs(a.score - b.score) <= 1e-5 * max(1.0, b.score) for a, b in zip(got, expected, strict=True)
                )
        assert (answered["memory"] - before == 3 * checks) is in_memory
        # ``full_text`` is one tier of ``full_text_tiers``: the calls beyond its own are the merged ones
        assert (answered["tiers"] - tiers_before - (answered["memory"] - before) == checks) is in_memory

    seeded = memories(rng, 200, 0)
    await cold.insert("acme", seeded)
    await same_ranking(60, in_memory=True)  # every row appended after the (empty) index was made
    await maintenance.maintain()
    await same_ranking(60, in_memory=True)  # every row covered
    # The copy's own writes: appended rows (flat), a deleted covered row (still in the statistics),
    # rewritten rows (deleted + appended), a deleted appended row (gone from the statistics).
    await held.insert("acme", memories(rng, 40, 200))
    first, second, private = (r for r, _ in [*seeded[:2], next(m for m in seeded if m[0].scope is Scope.PRIVATE)])
    await held.delete(Actor("acme", first.agent_id, first.end_user_id), first.memory_id)
    await held.replace(Actor("acme", second.agent_id, second.end_user_id), replace(second, content="coffee run"), None)
    # A rewrite the visibility condition refuses (another agent's private memory) changes nothing.
    stranger = next(a for a in AGENTS if a != private.agent_id)
    assert not await held.replace(Actor("acme", stranger), replace(private, content="guitar guitar"), None)
    late = (await held.get_many(Actor("acme", "a0"), [f"{230:032x}"], with_retrievals=False)).get(f"{230:032x}")
    if late is not None:
        await held.delete(Actor("acme", late.agent_id, late.end_user_id), late.memory_id)
    await same_ranking(80, in_memory=True)
    # Another process's append is read back into the copy, which knows the deleted rows the index's
    # statistics still count: it keeps ranking as LanceDB.
    await cold.insert("acme", memories(rng, 3, 300))
    await same_ranking(20, in_memory=True)
    # Another process's delete is followed as the copy's own: the row hidden, still in the statistics.
    third = seeded[2][0]
    assert await cold.delete(Actor("acme", third.agent_id, third.end_user_id), third.memory_id)
    await same_ranking(20, in_memory=True)
    # Another process's rewrite (a merge) is followed as the copy's own: the old row deleted, the new appended.
    fourth = seeded[3][0]
    assert await cold.replace(Actor("acme", fourth.agent_id, fourth.end_user_id), replace(fourth, content="tea"), None)
    await same_ranking(20, in_memory=True)
    # A table loaded afresh (another daemon's first read) cannot know the deleted rows the statistics of
    # covered fragments still count: LanceDB answers.
    held = WholeLanceArchive(db, DIM)
    await same_ranking(20, in_memory=False)
    # The maintenance folds the new rows in; deleted rows leave once their fragments are rewritten.
    await maintenance.purge(await _archive_tables(db))
    await same_ranking(60, in_memory=True)


async def _archive_tables(db: LanceDatabase) -> list[str]:
    return [name async for name in db.names() if name.startswith("memories_")]


async def test_tokens_are_the_archive_index_tokenizers(db: LanceDatabase) -> None:
    # Stop words go after stemming ('willingness' stays as 'willing', 'only' as 'onli'); long words go;
    # accents fold; a text holding the word that joins texts for the tokenizer is still its own.
    store = WholeLanceArchive(db, DIM)
    await store.insert("acme", memories(random.Random(1), 1, 0))
    table = await db.open_existing("memories_acme")
    rng = random.Random(4)
    texts = [
        "Willingness isn't only very naive — Café in Zürich, don't you think? I'm 7!",
        "x" * 41 + " ok " + "y" * 40,
        "memorydtextseparator word",
        index_text("王芳: 我上个月从北京搬到了杭州，在西湖附近 Málaga"),  # CJK runs as pairs, each a token
        *(sentence(rng) for _ in range(200)),
    ]
    expected = [[t.text for t in await table.tokenize(text, column="search_text")] for text in texts]
    assert index_tokens(texts) == expected
    assert expected[0][:3] == ["willing", "onli", "veri"]
    assert expected[3][:4] == ["王芳", "我上", "上个", "个月"] and expected[3][-1] == "malaga"
    # the prefixes index: word beginnings as written, neither stemmed nor stop words removed
    prefixes = [word_prefixes(text) for text in texts]
    expected = [[t.text for t in await table.tokenize(text, column="prefixes")] for text in prefixes]
    assert index_tokens(prefixes, prefixes=True) == expected
    assert expected[0][:4] == ["wil", "will", "willi", "willin"]


def test_many_texts_are_tokenized_in_one_call_of_each_index_tokenizer(monkeypatch: pytest.MonkeyPatch) -> None:
    # A copy's load tokenizes every text of the table: joined, they cost one tokenizer call, not one
    # each. The stemmed index stems the joining word too ('memorydtextsepar'): a split on the word as
    # written never happened, and every load fell back to a call per text (7x slower at 5,000 texts).
    rng = random.Random(6)
    texts = [sentence(rng) for _ in range(300)]
    kinds = [(False, "english"), (True, "english"), (False, "spanish")]  # search_text, prefixes, a tenant's language
    alone = {  # one text: no joining
        (p, language): [index_tokens([text], prefixes=p, language=language)[0] for text in texts]
        for p, language in kinds
    }
    calls: list[str] = []
    tokenize = lance.tokenize

    def counted(text: str, **options: Any) -> Any:
        calls.append(text)
        return tokenize(text, **options)

    monkeypatch.setattr(lance, "tokenize", counted)
    for prefixes, language in kinds:
        calls.clear()
        assert index_tokens(texts, prefixes=prefixes, language=language) == alone[(prefixes, language)]
        assert len(calls) == 1, (prefixes, language)
    assert alone[(False, "spanish")] != alone[(False, "english")]  # stemmed otherwise
    # a text holding a word with the joining word's token: then every text alone, still exact
    mixed = [*texts[:3], "the memorydtextseparate plan", *texts[3:6]]
    each = [index_tokens([text])[0] for text in mixed]
    calls.clear()
    assert index_tokens(mixed) == each and len(calls) == 1 + len(mixed)


def test_copies_share_postings_without_seeing_each_others_rows() -> None:
    # Appended texts wait untokenized in postings the copies of a chain share; a copy searches only its
    # own rows, and an append to an older copy (a sibling) must not leak into or drop a newer one's rows.
    seeded = memories(random.Random(8), 30, 0)
    data = to_table(seeded, memory_schema(DIM))
    data = data.append_column("_rowaddr", pa.array(range(len(seeded)), pa.uint64()))
    old = ArchiveCopy.from_arrow(
        1, data.select([*RECORD_COLUMNS, "vector", "search_text", "_rowaddr"]), Vocabulary(), frozenset({0})
    )
    x, y, z = (
        (
            memory_record(f"{900 + k:032x}", f"zebra{k} quokka", tenant_id="acme", scope=Scope.TENANT),
            vector(random.Random(k)),
        )
        for k in range(3)
    )
    actor = Actor("acme", "a0")

    def found(copy: ArchiveCopy, word: str) -> list[str]:
        return [h.memory_id for h in copy.full_text(actor, [word], MemoryFilter(), 10, False)]

    newer = old.inserted(2, [x], [search_text(x[0])])
    newest = newer.inserted(3, [y], [search_text(y[0])])
    sibling = newer.inserted(3, [z], [search_text(z[0])])
    assert found(newest, "quokka") == [x[0].memory_id, y[0].memory_id]
    assert found(sibling, "quokka") == [x[0].memory_id, z[0].memory_id]
    assert found(newer, "quokka") == [x[0].memory_id] and found(old, "quokka") == []
    assert found(newest, "zebra1") == [y[0].memory_id] and found(newest, "zebra2") == []
    assert found(newest.deleted(4, [x[0].memory_id]), "quokka") == [y[0].memory_id]


async def test_a_maintenance_pass_of_a_small_table_lets_its_copy_rank_full_text_again(
    db: LanceDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A deleted row in an indexed fragment sends full text to LanceDB (its statistics still count the
    # row); the pass that folds the table's writes rewrites such fragments of a table the copy holds.
    store = WholeLanceArchive(db, DIM)
    maintenance = LanceMaintenance(db, optimize_min_fragments=1, copy_max_rows=10_000)
    seeded = memories(random.Random(3), 60, 0)
    await store.insert("acme", seeded)
    await maintenance.maintain()
    victim = seeded[0][0]
    assert await store.delete(Actor("acme", victim.agent_id, victim.end_user_id), victim.memory_id)
    await store.insert("acme", memories(random.Random(4), 2, 100))  # another fragment for the pass to fold
    await maintenance.maintain()
    answered: list[int] = []
    real = ArchiveCopy.full_text

    def counted(self: ArchiveCopy, *args: Any, **kwargs: Any) -> Any:
        answered.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ArchiveCopy, "full_text", counted)
    query = FullTextQuery(terms=("coffee",), prefix_terms=())
    hits = await store.full_text(Actor("acme", "a0"), query, MemoryFilter(), 10, False)
    assert answered and hits
    assert victim.memory_id not in {h.memory_id for h in hits}
