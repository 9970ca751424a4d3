"""GraphStore on LanceDB: entities, facts and episodes, per tenant, visible through the archive's scope rule.

Tables per tenant, like the archive: ``graph_entities_<t>`` (primary key ``id``; the name's
embedding; full text over the name), ``graph_facts_<t>`` (primary key ``id``; the sentence's
embedding; full text over the sentence), ``graph_episodes_<t>``. Rows carry the archive's
``scope`` / ``agent_id`` / ``end_user_id`` columns, so every read an actor makes is filtered by
``lance_filters.visible_where`` — the one place that renders who sees what.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

import pyarrow as pa
from lancedb.index import BTree
from lancedb.query import BooleanQuery, ColumnOrdering, FullTextOperator, MatchQuery, Occur

from memoryd.adapters.lance.copies.cache import CopyCache
from memoryd.adapters.lance.copies.facts import FactsCopy
from memoryd.adapters.lance.db import LanceDatabase, add_column, cosine_nearest
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.filters import ids_in, literal, timestamp, visible_where
from memoryd.adapters.lance.graph_retention import ENTITIES as ENTITIES  # the table names' home
from memoryd.adapters.lance.graph_retention import EPISODES as EPISODES
from memoryd.adapters.lance.graph_retention import FACTS as FACTS
from memoryd.adapters.lance.graph_retention import LanceGraphRetention
from memoryd.adapters.lance.graph_rows import (
    ADDED_FIELDS,
    ENTITY_COLUMNS,
    ENTITY_INDEXES,
    EPISODE_SCHEMA,
    FACT_COLUMNS,
    FACT_INDEXES,
    entity_of,
    entity_schema,
    episode_of,
    fact_of,
    fact_schema,
    normalised_aliases,
    same_scope,
    scope_columns,
)
from memoryd.adapters.lance.graph_suggestions import LanceMergeSuggestions
from memoryd.core.graph import (
    Entity,
    Episode,
    Fact,
    FactCursor,
    FactStatus,
    GraphScope,
    normalised_name,
)
from memoryd.core.models import ALL_STATUSES, Actor, ArmHit, MemoryFilter, Vector

_ANY = MemoryFilter(statuses=ALL_STATUSES)  # the scope rule alone: graph rows have their own statuses


async def _fill_norm_aliases(table: Any) -> None:
    """Give the entities written before ``norm_aliases`` theirs (an alias "Globex Ltd" is found as "GLOBEX LTD.").

    Only rows still without them are updated and none is inserted: a row another process renamed or
    erased since this read keeps what that process wrote.
    """
    old = await table.query().where("norm_aliases IS NULL AND array_length(aliases) > 0").to_arrow()
    if old.num_rows:
        rows = [{**r, "norm_aliases": normalised_aliases(r["aliases"])} for r in old.to_pylist()]
        filled = pa.Table.from_pylist(rows, await table.schema())
        await table.merge_insert("id").when_matched_update_all(where="target.norm_aliases IS NULL").execute(filled)


def _words_query(words: Sequence[str], column: str) -> Any:
    """Query objects, never a query string: user text cannot become syntax."""
    return BooleanQuery(
        [(Occur.SHOULD, MatchQuery(w, column, operator=FullTextOperator.OR)) for w in words]  # type: ignore[call-arg]
    )


def _hot_facts(version: int, data: pa.Table) -> FactsCopy:
    return FactsCopy.from_arrow(version, data, fact_of)


async def _upsert(table: Any, rows: list[dict[str, Any]], schema: pa.Schema) -> None:
    """Insert or replace rows by ``id``, in one commit."""
    await (
        table.merge_insert("id")
        .when_matched_update_all()
        .when_not_matched_insert_all()
        .execute(pa.Table.from_pylist(rows, schema))
    )


async def _no_rows() -> None:
    return None


async def _rows(found: list[tuple[Fact, float]]) -> list[tuple[Fact, float]]:
    return found


class LanceGraphStore(LanceGraphRetention, LanceMergeSuggestions):
    """The memory graph on the archive's LanceDB connection (its merge suggestions in ``graph_suggestions``)."""

    def __init__(
        self,
        db: LanceDatabase,
        dimension: int,
        *,
        copy_max_rows: int = 10_000,
        copy_tables: int = 256,
        copy_total_rows: int = 320_000,
    ) -> None:
        self._db = db
        self._dimension = dimension
        self._upgraded: set[str] = set()
        self._copies: CopyCache[FactsCopy] = CopyCache(copy_max_rows, copy_tables, copy_total_rows)
        """The facts of up to ``copy_tables`` tenants, ``copy_total_rows`` in all (the bound 32 tables of
        10,000 facts gave before): past as many tenants read in turn as copies, each read loads its table
        again, as the archive's and the profiles' copies did (``docs/benchmarks.md``, session 39)."""

    async def _copy_of(self, tenant_id: str, table: Any) -> FactsCopy | None:
        """The tenant's facts in memory at the table's current version, when few enough (else None)."""
        return await self._copies.copy(
            tenant_id,
            table,
            [*FACT_COLUMNS, "vector"],
            lambda version, data: FactsCopy.from_arrow(version, data, fact_of),
        )

    async def _select(
        self, prefix: str, tenant_id: str, where: str, order: Sequence[tuple[str, bool]] = (), limit: int = 0
    ) -> list[dict[str, Any]]:
        """The rows (without vectors) of one of the tenant's graph tables matching ``where``; none if no table.

        ``order``: (column, ascending) pairs, sorted in LanceDB (a top-k with ``limit``).
        """
        async with map_lance_errors():
            table = await self._graph_table(prefix, tenant_id)
            if table is None:
                return []
            query = table.query().where(where).select(FACT_COLUMNS if prefix == FACTS else ENTITY_COLUMNS)
            if order:
                query = query.order_by([ColumnOrdering(column_name=c, ascending=up) for c, up in order])
            rows: list[dict[str, Any]] = (await (query.limit(limit) if limit else query).to_arrow()).to_pylist()
        return rows

    async def _graph_table(self, prefix: str, tenant_id: str, *, create: bool = False) -> Any | None:
        """One of the tenant's graph tables (None before its first row unless ``create``), upgraded once per process.

        Upgraded here rather than where the table is first opened: an export or a maintenance pass may
        have opened it first, and a write of the added columns to an old table would fail.
        """
        name = prefix + tenant_id
        if create:
            schema, indexes = (fact_schema, FACT_INDEXES) if prefix == FACTS else (entity_schema, ENTITY_INDEXES)
            table = await self._db.table(name, schema(self._dimension), indexes, write=True)
        else:
            table = await self._db.table_if_exists(name)
        if table is not None and name not in self._upgraded:
            for field in ADDED_FIELDS.get(prefix, ()):
                await add_column(table, field)
            if prefix == ENTITIES:
                await _fill_norm_aliases(table)
            self._upgraded.add(name)
        return table

    async def put_entities(self, tenant_id: str, rows: Sequence[tuple[Entity, Vector]]) -> None:
        """Upsert entities by id."""
        if not rows:
            return
        data = [
            {
                "id": e.entity_id,
                "name": e.name,
                "norm_name": normalised_name(e.name),
                "aliases": list(e.aliases),
                "entity_type": e.entity_type.value,
                **scope_columns(e.where),
                "created_at": e.created_at or datetime.now(UTC),
                "merged_into": e.merged_into,
                "vector": list(v),
                "archived_at": e.archived_at,
                "merge_record": asdict(e.merge_record) if e.merge_record else None,
                "norm_aliases": normalised_aliases(e.aliases),
            }
            for e, v in rows
        ]
        async with map_lance_errors():
            table = await self._graph_table(ENTITIES, tenant_id, create=True)
            await _upsert(table, data, entity_schema(self._dimension))

    async def put_facts(self, tenant_id: str, rows: Sequence[tuple[Fact, Vector]]) -> None:
        """Upsert facts by id (one commit for the batch)."""
        if not rows:
            return
        data = [
            {
                "id": f.fact_id,
                "subject_id": f.subject_id,
                "predicate": f.predicate,
                "object_id": f.object_id,
                "sentence": f.sentence,
                **scope_columns(f.where),
                "valid_from": f.valid_from,
                "valid_to": f.valid_to,
                "created_at": f.created_at,
                "invalidated_at": f.invalidated_at,
                "status": f.status.value,
                "invalidated_by": f.invalidated_by,
                "mention_count": f.mention_count,
                "sources": list(f.sources),
                "pinned": f.pinned,
                "vector": list(v),
                "confidence": f.confidence,
                "last_seen_at": f.last_seen_at,
            }
            for f, v in rows
        ]
        async with map_lance_errors():
            table = await self._graph_table(FACTS, tenant_id, create=True)
            await _upsert(table, data, fact_schema(self._dimension))

    async def fact_vectors(self, tenant_id: str, fact_ids: Sequence[str]) -> dict[str, Vector]:
        """The stored sentence embeddings (an update rewrites a row without re-embedding it)."""
        if not fact_ids:
            return {}
        async with map_lance_errors():
            table = await self._graph_table(FACTS, tenant_id)
            if table is None:
                return {}
            rows = (await table.query().where(ids_in(fact_ids)).select(["id", "vector"]).to_arrow()).to_pylist()
        return {r["id"]: list(r["vector"]) for r in rows}

    async def entity_vectors(self, tenant_id: str, entity_ids: Sequence[str]) -> dict[str, Vector]:
        """The stored name embeddings."""
        async with map_lance_errors():
            table = await self._graph_table(ENTITIES, tenant_id)
            if table is None or not entity_ids:
                return {}
            rows = (await table.query().where(ids_in(entity_ids)).select(["id", "vector"]).to_arrow()).to_pylist()
        return {r["id"]: list(r["vector"]) for r in rows}

    async def facts_touching(self, tenant_id: str, entity_ids: Sequence[str]) -> list[Fact]:
        """Every fact whose subject or object is one of ``entity_ids`` (merges and erasure; no scope rule)."""
        if not entity_ids:
            return []
        listed = ", ".join(literal(e) for e in entity_ids)
        return [
            fact_of(r)
            for r in await self._select(FACTS, tenant_id, f"subject_id IN ({listed}) OR object_id IN ({listed})")
        ]

    async def delete_facts(self, tenant_id: str, fact_ids: Sequence[str]) -> None:
        """Delete facts by id (the compliance forget)."""
        if not fact_ids:
            return
        async with map_lance_errors():
            table = await self._graph_table(FACTS, tenant_id)
            if table is not None:
                self._db.written.add(FACTS + tenant_id)
                await table.delete(ids_in(fact_ids))

    async def erase_end_user(self, tenant_id: str, end_user_id: str) -> tuple[dict[str, int], list[str]]:
        """Every graph row of a contact, and every fact naming one of its entities; (counts, tables touched)."""
        counts = {"graph_entities": 0, "graph_facts": 0, "graph_episodes": 0}
        touched: list[str] = []
        mine = f"end_user_id = {literal(end_user_id)}"
        async with map_lance_errors():
            entities = await self._graph_table(ENTITIES, tenant_id)
            entity_ids: list[str] = []
            if entities is not None:
                entity_ids = (await entities.query().where(mine).select(["id"]).to_arrow()).column("id").to_pylist()
                if entity_ids:
                    await entities.delete(mine)
                    counts["graph_entities"] = len(entity_ids)
                    touched.append(ENTITIES + tenant_id)
            facts = await self._graph_table(FACTS, tenant_id)
            if facts is not None:
                cond = mine
                if entity_ids:
                    listed = ", ".join(literal(e) for e in entity_ids)
                    cond = f"{mine} OR subject_id IN ({listed}) OR object_id IN ({listed})"
                n = await facts.count_rows(cond)
                if n:
                    await facts.delete(cond)
                    counts["graph_facts"] = n
                    touched.append(FACTS + tenant_id)
            episodes = await self._db.table_if_exists(EPISODES + tenant_id)
            if episodes is not None:
                n = await episodes.count_rows(mine)
                if n:
                    await episodes.delete(mine)
                    counts["graph_episodes"] = n
                    touched.append(EPISODES + tenant_id)
        touched += await self._erase_suggestions(tenant_id, end_user_id, entity_ids)
        for name in touched:
            self._db.written.add(name)
        return counts, touched

    async def episode(self, tenant_id: str, episode_id: str) -> Episode | None:
        """One episode by id (None: none, or no table yet)."""
        async with map_lance_errors():
            table = await self._db.table_if_exists(EPISODES + tenant_id)
            if table is None:
                return None
            rows = (await table.query().where(f"id = {literal(episode_id)}").to_arrow()).to_pylist()
        return episode_of(rows[0]) if rows else None

    async def listed_episodes(self, actor: Actor) -> list[Episode]:
        """Every episode the actor sees (by its scope), the newest first."""
        async with map_lance_errors():
            table = await self._db.table_if_exists(EPISODES + actor.tenant_id)
            if table is None:
                return []
            rows = (await table.query().where(visible_where(actor, _ANY)).to_arrow()).to_pylist()
        found = [episode_of(r) for r in rows]
        return sorted(found, key=lambda e: (e.created_at, e.episode_id), reverse=True)

    async def put_episode(self, tenant_id: str, episode: Episode) -> None:
        """Insert an episode once (its id is deterministic)."""
        row = {
            "id": episode.episode_id,
            "kind": episode.kind,
            **scope_columns(episode.where),
            "source": episode.source,
            "created_at": episode.created_at,
            "facts": episode.facts,
            "entities": episode.entities,
            "model": episode.model,
            "tokens_in": episode.tokens_in,
            "tokens_out": episode.tokens_out,
            "digest": episode.digest,
        }
        async with map_lance_errors():
            table = await self._db.table(EPISODES + tenant_id, EPISODE_SCHEMA, [("id", BTree())], write=True)
            await (
                table.merge_insert("id")
                .when_not_matched_insert_all()
                .execute(pa.Table.from_pylist([row], EPISODE_SCHEMA))
            )

    async def entities_named(self, tenant_id: str, where: GraphScope, names: Sequence[str]) -> list[Entity]:
        """Entities of exactly this scope whose normalised name or an alias is one of ``names``."""
        norms = sorted({normalised_name(n) for n in names if normalised_name(n)})
        if not norms:
            return []
        listed = "[" + ", ".join(literal(n) for n in norms) + "]"
        cond = f"(norm_name IN ({', '.join(literal(n) for n in norms)}) OR array_has_any(norm_aliases, {listed})"
        cond += f" OR array_has_any(aliases, {listed}))"  # rows an older release wrote meanwhile
        return [entity_of(r) for r in await self._select(ENTITIES, tenant_id, f"{same_scope(where)} AND {cond}")]

    async def entities(self, tenant_id: str, entity_ids: Sequence[str]) -> dict[str, Entity]:
        """Entities by id (operator reads; callers check visibility)."""
        if not entity_ids:
            return {}
        return {r["id"]: entity_of(r) for r in await self._select(ENTITIES, tenant_id, ids_in(entity_ids))}

    async def nearest_entities(self, tenant_id: str, where: GraphScope, vector: Vector, limit: int) -> list[ArmHit]:
        """The closest entities of exactly this scope (resolution by embedding)."""
        async with map_lance_errors():
            table = await self._graph_table(ENTITIES, tenant_id)
            if table is None:
                return []
            query = cosine_nearest(table, vector, limit).where(same_scope(where))
            rows = await query.select(["id", "_distance"]).to_arrow()
        return [ArmHit(r["id"], 1.0 - float(r["_distance"]), datetime.now(UTC)) for r in rows.to_pylist()]

    async def facts_of(self, tenant_id: str, where: GraphScope, subject_id: str) -> list[Fact]:
        """Every fact of one subject in exactly this scope (the contradiction check's candidates)."""
        cond = f"{same_scope(where)} AND subject_id = {literal(subject_id)}"
        return [fact_of(r) for r in await self._select(FACTS, tenant_id, cond)]

    async def facts(self, tenant_id: str, fact_ids: Sequence[str]) -> dict[str, Fact]:
        """Facts by id (operator reads; callers check visibility)."""
        if not fact_ids:
            return {}
        return {r["id"]: fact_of(r) for r in await self._select(FACTS, tenant_id, ids_in(fact_ids))}

    async def facts_page(
        self, actor: Actor, status: FactStatus | None, entity_id: str, after: FactCursor | None, limit: int
    ) -> list[Fact]:
        """The actor's facts after ``after``: the pending ones, then the rest, each newest first; one query each."""
        base = [visible_where(actor, _ANY)]
        if entity_id:
            base.append(f"(subject_id = {literal(entity_id)} OR object_id = {literal(entity_id)})")
        out: list[Fact] = []
        for pending in [True, False] if status is None else [status is FactStatus.PENDING]:
            if after is not None and pending and not after.pending:
                continue  # the page began past the pending facts
            kept = f"status = {literal(status.value)}" if status else f"status {'=' if pending else '!='} 'pending'"
            cond = [*base, kept]
            if after is not None and after.pending == pending:
                at, fact = timestamp(after.created_at), literal(after.fact_id)
                cond.append(f"(created_at < {at} OR (created_at = {at} AND id > {fact}))")
            order = [("created_at", False), ("id", True)]
            rows = await self._select(FACTS, actor.tenant_id, " AND ".join(cond), order, limit - len(out))
            out += [fact_of(r) for r in rows]
            if len(out) >= limit:
                break
        return out

    async def entities_page(
        self, actor: Actor, after: tuple[str, str] | None, limit: int, *, merged: bool = False
    ) -> list[Entity]:
        """The actor's entities in use (``merged``: folded away) after ``after`` (normalised name, id), in order."""
        folded = "merged_into != ''" if merged else "merged_into = ''"
        cond = f"{visible_where(actor, _ANY)} AND {folded} AND archived_at IS NULL"
        if after is not None:
            name, entity = literal(after[0]), literal(after[1])
            cond += f" AND (norm_name > {name} OR (norm_name = {name} AND id > {entity}))"
        rows = await self._select(ENTITIES, actor.tenant_id, cond, [("norm_name", True), ("id", True)], limit)
        return [entity_of(r) for r in rows]

    async def visible_facts_touching(self, actor: Actor, entity_ids: Sequence[str], limit: int) -> list[Fact]:
        """Visible facts whose subject or object is one of ``entity_ids`` (a hop of the expansion).

        Two queries, one per indexed column, at once: an OR across the two columns scans the table.
        """
        if not entity_ids:
            return []
        async with map_lance_errors():
            table = await self._graph_table(FACTS, actor.tenant_id)
            if table is None:
                return []
            copy = await self._copy_of(actor.tenant_id, table)
            if copy is not None:
                return copy.touching(actor, entity_ids, limit)
            listed = ", ".join(literal(e) for e in entity_ids)
            visible = visible_where(actor, _ANY)
            by_subject, by_object = await asyncio.gather(
                *(
                    table.query()
                    .where(f"{column} IN ({listed}) AND {visible}")
                    .select(FACT_COLUMNS)
                    .limit(limit)
                    .to_arrow()
                    for column in ("subject_id", "object_id")
                )
            )
        found = {r["id"]: r for r in [*by_subject.to_pylist(), *by_object.to_pylist()]}
        return [fact_of(r) for _, r in sorted(found.items())][:limit]

    async def fact_seeds(
        self, actor: Actor, vector: Vector, words: Sequence[str], limit: int
    ) -> tuple[list[tuple[Fact, float]], list[tuple[Fact, float]]]:
        """Visible facts nearest the query (cosine similarity), and those matching its words (BM25), best first.

        Both arms at once, each returning whole rows (no second fetch).
        """
        async with map_lance_errors():
            table = await self._graph_table(FACTS, actor.tenant_id)
            if table is None:
                return [], []
            visible = visible_where(actor, _ANY)
            copy = await self._copy_of(actor.tenant_id, table)
            near_query = (
                _rows(copy.nearest(actor, vector, limit))
                if copy is not None
                else (
                    cosine_nearest(table, vector, limit).where(visible).select([*FACT_COLUMNS, "_distance"]).to_arrow()
                )
            )
            text_query = (
                table.query()
                .nearest_to_text(_words_query(words, "sentence"))
                .where(visible)
                .select([*FACT_COLUMNS, "_score"])
                .limit(limit)
                .to_arrow()
                if words
                else _no_rows()
            )
            near, text = await asyncio.gather(near_query, text_query)
        by_vector = (
            near if isinstance(near, list) else [(fact_of(r), 1.0 - float(r["_distance"])) for r in near.to_pylist()]
        )
        by_text = [(fact_of(r), float(r["_score"])) for r in text.to_pylist()] if text is not None else []
        return by_vector, by_text

    async def entity_seeds(self, actor: Actor, words: Sequence[str], limit: int) -> list[str]:
        """Visible entities whose name matches the query's words (BM25), best first."""
        if not words:
            return []
        async with map_lance_errors():
            table = await self._graph_table(ENTITIES, actor.tenant_id)
            if table is None:
                return []
            rows = await (
                table.query()
                .nearest_to_text(_words_query(words, "name"))
                .where(f"{visible_where(actor, _ANY)} AND merged_into = '' AND archived_at IS NULL")
                .select(["id", "_score"])
                .limit(limit)
                .to_arrow()
            )
        return [r["id"] for r in rows.to_pylist()]
