"""Graph decay: facts heard once long ago are archived, never deleted; pinned, confirmed and recent ones stay."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.graph import ENTITIES, FACTS, LanceGraphStore
from memoryd.adapters.lance.graph_rows import ADDED_FACT_FIELDS, entity_schema, fact_schema
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import App, build_app
from memoryd.core.errors import InvalidRequest
from memoryd.core.graph import EXTRACTED_CONFIDENCE, FactStatus, GraphScope
from memoryd.core.models import Actor, Scope
from memoryd.services.graph import Assertion
from tests.conftest import make_settings
from tests.fakes import FrozenClock

ADMIN = Actor("acme", "ops")
U1 = Actor("acme", "a1", "u1")
CONTACT = GraphScope(Scope.END_USER, "", "u1")


def said(subject: str, verb: str, obj: str) -> Assertion:
    return Assertion(subject, verb, obj, f"{subject} {verb} {obj}.", confidence=EXTRACTED_CONFIDENCE)


async def extracted(app: App, claim: Assertion, episode: str) -> str:
    done = await app.graph.assert_fact("acme", CONTACT, claim, episode, FactStatus.ACTIVE)
    return done.fact.fact_id


async def test_the_decay_pass_archives_a_fact_heard_once_long_ago_and_keeps_the_rest(
    tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    clock = FrozenClock(datetime(2026, 1, 1, tzinfo=UTC))
    settings = make_settings(tmp_path / "data")  # the defaults: 180 days, below 0.7
    async with build_app(settings, embedder=onnx_embedder, clock=clock) as app:
        once = await extracted(app, said("Nadia", "likes", "opera"), "ep1")
        twice = await extracted(app, said("Omar", "likes", "tea"), "ep1")
        pinned = await extracted(app, said("Lina", "likes", "jazz"), "ep1")
        await app.graph.update_fact(ADMIN, pinned, pinned=True)
        human = (
            await app.graph.assert_human(ADMIN, CONTACT, Assertion("Sami", "likes", "chess", "Sami likes chess."))
        ).fact
        clock.advance(days=100)
        await extracted(app, said("Omar", "likes", "tea"), "ep2")  # stated again: 0.84, seen now
        clock.advance(days=50)
        recent = await extracted(app, said("Rita", "likes", "golf"), "ep3")
        clock.advance(days=50)  # 200 days after the first episode
        facts = await app.graph._store.facts("acme", [once, twice, pinned, human.fact_id, recent])
        assert facts[twice].confidence == pytest.approx(0.84) and facts[human.fact_id].confidence == 1.0
        dry = await app.admin.retention.purge("acme", dry_run=True)
        assert (dry.counts["graph_archived"], dry.counts["graph_entities_archived"]) == (1, 2)  # Nadia, opera
        assert (await app.graph._store.facts("acme", [once]))[once].status is FactStatus.ACTIVE  # dry: nothing
        done = await app.admin.retention.purge("acme", dry_run=False)
        assert done.counts == dry.counts and done.memory_ids == ()
        after = await app.graph._store.facts("acme", [once, twice, pinned, human.fact_id, recent])
        assert {i for i, f in after.items() if f.status is FactStatus.ARCHIVED} == {once}
        assert len(after) == 5  # archived, not deleted
        found = await app.graph.search(U1, "Who likes opera?")
        assert once not in {h.fact.fact_id for h in found.hits}
        archived, _ = await app.graph.list_facts(U1, FactStatus.ARCHIVED, "", 10, "")
        assert [f.fact_id for f in archived] == [once]
        names = {e.name for e in (await app.graph.list_entities(U1, 50, ""))[0]}
        assert not {"Nadia", "opera"} & names and {"Omar", "tea", "Lina", "Sami", "Rita"} <= names
        with pytest.raises(InvalidRequest, match="status"):
            await app.graph.update_fact(ADMIN, twice, status=FactStatus.ARCHIVED)
        # stated again: active, surer, and seen now
        await extracted(app, said("Nadia", "likes", "opera"), "ep4")
        back = (await app.graph._store.facts("acme", [once]))[once]
        assert back.status is FactStatus.ACTIVE and back.confidence == pytest.approx(0.84)
        assert back.last_seen_at == clock.now()
        assert {"Nadia", "opera"} <= {e.name for e in (await app.graph.list_entities(U1, 50, ""))[0]}
        assert once in {h.fact.fact_id for h in (await app.graph.search(U1, "Who likes opera?")).hits}


async def test_an_archived_fact_is_restored_by_hand_and_a_tenant_may_turn_decay_off(
    tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    clock = FrozenClock(datetime(2026, 1, 1, tzinfo=UTC))
    settings = make_settings(tmp_path / "data", retention={"tenants": {"keep": {"graph_decay_days": 0}}})
    async with build_app(settings, embedder=onnx_embedder, clock=clock) as app:
        fact = await extracted(app, said("Nadia", "likes", "opera"), "ep1")
        kept = await app.graph.assert_fact("keep", CONTACT, said("Nadia", "likes", "opera"), "ep1", FactStatus.ACTIVE)
        clock.advance(days=181)
        assert (await app.admin.retention.purge("acme", dry_run=False)).counts["graph_archived"] == 1
        assert "graph_archived" not in (await app.admin.retention.purge("keep", dry_run=False)).counts
        assert (await app.graph._store.facts("keep", [kept.fact.fact_id]))[
            kept.fact.fact_id
        ].status is FactStatus.ACTIVE
        restored = await app.graph.update_fact(ADMIN, fact, status=FactStatus.ACTIVE)
        assert restored.status is FactStatus.ACTIVE and restored.last_seen_at == clock.now()
        assert (await app.admin.retention.purge("acme", dry_run=False)).counts["graph_archived"] == 0


async def test_a_facts_table_written_before_confidences_is_upgraded_and_its_facts_count_as_sure(
    tmp_path: Path,
) -> None:
    db = await LanceDatabase.open(str(tmp_path / "data"), "m", 8)
    old_schema = pa.schema([f for f in fact_schema(8) if f.name not in {a.name for a in ADDED_FACT_FIELDS}])
    row = {
        "id": "f1", "subject_id": "e1", "predicate": "likes", "object_id": "e2", "sentence": "Nadia likes opera.",
        "scope": "end_user", "agent_id": "", "end_user_id": "u1", "valid_from": None, "valid_to": None,
        "created_at": datetime(2020, 1, 1, tzinfo=UTC), "invalidated_at": None, "status": "active",
        "invalidated_by": "", "mention_count": 1, "sources": ["ep0"], "pinned": False, "vector": [0.1] * 8,
    }  # fmt: skip
    await db.connection.create_table(FACTS + "acme", pa.Table.from_pylist([row], old_schema))
    store = LanceGraphStore(db, 8)
    fact = (await store.facts("acme", ["f1"]))["f1"]
    assert (fact.confidence, fact.last_seen_at) == (1.0, None)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    assert (await store.decay("acme", now, now, 0.7, dry_run=False))["graph_archived"] == 0
    table = await db.table_if_exists(FACTS + "acme")
    assert table is not None
    assert {f.name for f in ADDED_FACT_FIELDS} <= set((await table.schema()).names)


async def test_aliases_written_before_they_were_compared_as_names_are_found_after_the_upgrade(
    tmp_path: Path,
) -> None:
    db = await LanceDatabase.open(str(tmp_path / "data"), "m", 8)
    old_schema = pa.schema([f for f in entity_schema(8) if f.name not in {"merge_record", "norm_aliases"}])
    row = {
        "id": "e1", "name": "Initech Ltd", "norm_name": "initech ltd", "aliases": ["Globex", "Northwind Co."],
        "entity_type": "organization", "scope": "end_user", "agent_id": "", "end_user_id": "u1",
        "created_at": datetime(2020, 1, 1, tzinfo=UTC), "merged_into": "", "vector": [0.1] * 8, "archived_at": None,
    }  # fmt: skip
    await db.connection.create_table(ENTITIES + "acme", pa.Table.from_pylist([row], old_schema))
    store = LanceGraphStore(db, 8)
    found = await store.entities_named("acme", CONTACT, ["NORTHWIND CO"])
    assert [e.entity_id for e in found] == ["e1"]
    assert [e.entity_id for e in await store.entities_named("acme", CONTACT, ["globex"])] == ["e1"]


async def test_filling_old_aliases_never_brings_back_an_erased_row_nor_undoes_a_rename(tmp_path: Path) -> None:
    """Another process erases one row and renames another between the fill's read and its write."""
    from memoryd.adapters.lance import graph as lance_graph

    db = await LanceDatabase.open(str(tmp_path / "data"), "m", 8)
    schema = entity_schema(8)
    old_schema = pa.schema([f for f in schema if f.name not in {"merge_record", "norm_aliases"}])
    base = {
        "entity_type": "other", "scope": "tenant", "agent_id": "", "end_user_id": "",
        "created_at": datetime(2020, 1, 1, tzinfo=UTC), "merged_into": "", "vector": [0.1] * 8, "archived_at": None,
    }  # fmt: skip
    rows = [
        {**base, "id": f"e{i}", "name": name, "norm_name": name.lower(), "aliases": [alias]}
        for i, (name, alias) in enumerate((("Initech", "Globex"), ("Umbrella", "Northwind Co.")))
    ]
    await db.connection.create_table(ENTITIES + "acme", pa.Table.from_pylist(rows, old_schema))
    found = await db.table_if_exists(ENTITIES + "acme")
    assert found is not None
    table: Any = found  # the class below reads it
    for field in entity_schema(8):
        if field.name not in old_schema.names:
            await table.add_columns(field)

    class Racing:
        """The table, with another process's writes landing after the fill has read its rows."""

        def query(self) -> object:
            return table.query()

        def merge_insert(self, on: str) -> object:
            return table.merge_insert(on)

        async def schema(self) -> pa.Schema:
            await table.delete("id = 'e1'")  # erased
            renamed = {**rows[0], "name": "Initech Group", "aliases": ["Globex", "Initech"]}
            renamed["norm_aliases"] = ["globex", "initech"]
            merge = table.merge_insert("id").when_matched_update_all().when_not_matched_insert_all()
            await merge.execute(pa.Table.from_pylist([{**renamed, "merge_record": None}], await table.schema()))
            return await table.schema()

    await lance_graph._fill_norm_aliases(Racing())
    left = {r["id"]: r for r in (await table.query().to_arrow()).to_pylist()}
    assert sorted(left) == ["e0"] and left["e0"]["name"] == "Initech Group"
    assert left["e0"]["norm_aliases"] == ["globex", "initech"]
