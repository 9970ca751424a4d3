"""MemoryStore on LanceDB: the archive's request-path reads and writes (``ArchiveTables`` holds the tables).

Reads answer from the tenant's in-memory copy when the table is small enough, else from LanceDB
(``cold_reads``); writes keep the copy current after this process's commit (``after_write``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import pyarrow as pa
from lancedb.query import BooleanQuery, FullTextOperator, MatchQuery, Occur

from memoryd.adapters.lance.archive_tables import (
    _BY_ID,
    ARCHIVE_INDEXES,
    ARCHIVE_PREFIX,
    STATS_PREFIX,
    ArchiveTables,
    _upgrade,
)
from memoryd.adapters.lance.cold_reads import nearest_rows, page_windows
from memoryd.adapters.lance.cold_reads import page_ids as cold_page_ids
from memoryd.adapters.lance.copies.archive import ArchiveCopy
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.filters import ids_in, literal, of_end_user, timestamp
from memoryd.adapters.lance.rows import (
    KEEP_NULL_VECTORS,
    RECORD_COLUMNS,
    rows_of,
    space_column,
    space_columns,
    to_record,
    to_table,
    with_space_vectors,
    with_stats,
)
from memoryd.core.models import Actor, ArmHit, FullTextQuery, FullTextTier, MemoryFilter, MemoryRecord, Vector
from memoryd.core.ranking import merge_tiers

_ARM_COLUMNS = ["id", "occurred_at", "content"]

_COLD_LOOKUPS = 8
"""LanceDB queries of one ``nearest_many`` in flight at once (a large table has no in-memory copy)."""


class LanceMemoryStore:
    """The archive's MemoryStore port."""

    def __init__(self, tables: ArchiveTables) -> None:
        self._tables = tables

    async def insert(
        self,
        tenant_id: str,
        rows: Sequence[tuple[MemoryRecord, Vector]],
        extra: Mapping[str, Sequence[Vector | None]] | None = None,
    ) -> None:
        """Add rows in one commit; durable when this returns (other spaces' vectors where the table has them)."""
        async with self._tables.copies.writing(tenant_id):
            async with map_lance_errors():
                table = await self._tables.db.table(
                    ARCHIVE_PREFIX + tenant_id, self._tables.schema, ARCHIVE_INDEXES, write=True, upgrade=_upgrade
                )
                data = to_table(rows, self._tables.schema)
                if extra:
                    data = with_space_vectors(
                        data, await table.schema(), {space_column(m): v for m, v in extra.items()}
                    )
                # Bulk loads in one giant batch scan 2.6x slower forever: keep batches small.
                batches = pa.Table.from_batches(data.to_batches(max_chunksize=8192), schema=data.schema)
                # Only another space's column may hold a null (a row to fill); lancedb's null handling cost
                # 1.3 ms of a 4.5 ms one-row commit, so a write without one keeps the default check.
                appenders, name = self._tables.db.appenders, ARCHIVE_PREFIX + tenant_id
                into = await appenders.handle(name) if appenders is not None else table
                added = await into.add(batches, on_bad_vectors=KEEP_NULL_VECTORS if extra else "error")
                if appenders is not None:
                    appenders.appended(name, added.version)
            texts = data.column("search_text").to_pylist()
            await self._tables.after_write(
                tenant_id, table, added.version, lambda copy: copy.inserted(added.version, rows, texts)
            )

    async def replace(
        self, actor: Actor, record: MemoryRecord, vector: Vector | None, extra: Mapping[str, Vector] | None = None
    ) -> bool:
        """Upsert over a visible row only (the visibility check is inside the merge).

        Every vector column is written: a merge keeps the target's value of a column the source
        lacks, which would leave another space's vector of the old text on a rewritten row.
        """
        async with self._tables.copies.writing(actor.tenant_id):
            async with map_lance_errors():
                table, visible = await self._tables.scoped(actor, _BY_ID, col="target.")
                if table is None:
                    return False
                others: dict[str, Vector | None] = {space_column(m): v for m, v in (extra or {}).items()}
                if vector is None:  # the stored row (every column: its schema names the spaces) keeps its vectors
                    found = await table.query().where(f"id = {literal(record.memory_id)}").limit(1).to_arrow()
                    if found.num_rows == 0:
                        return False
                    schema = found.schema
                    vector = found.column("vector")[0].as_py()
                    others = {c: found.column(c)[0].as_py() for c in space_columns(schema)}
                else:
                    schema = await table.schema()
                spaces = space_columns(schema)
                data = to_table([(record, vector)], self._tables.schema)
                if spaces:
                    data = with_space_vectors(data, schema, {c: [others.get(c)] for c in spaces})
                self._tables.db.written.add(ARCHIVE_PREFIX + actor.tenant_id)
                merge = table.merge_insert("id").when_matched_update_all(where=visible)
                async with self._tables.db.rewriting(ARCHIVE_PREFIX + actor.tenant_id):
                    result = await merge.execute(data, on_bad_vectors=KEEP_NULL_VECTORS)
            kept, updated = vector, bool(result.num_updated_rows == 1)
            # A merge the visibility condition refused changed nothing: the copy must not take the record.
            await self._tables.after_write(
                actor.tenant_id,
                table,
                result.version,
                lambda copy: copy.replaced(result.version, record, kept) if updated else copy.unchanged(result.version),
            )
            return updated

    async def erase_end_user(self, tenant_id: str, end_user_id: str) -> tuple[list[str], list[str]]:
        """Delete every row of the contact (any scope, any author) and their statistics.

        Returns the deleted ids and the tables touched (for the physical purge).
        """
        async with map_lance_errors():
            table = await self._tables.table(tenant_id)
            if table is None:
                return [], []
            found = await table.query().where(of_end_user(end_user_id)).select(["id"]).to_arrow()
            ids = sorted(found.column("id").to_pylist())
            if not ids:
                return [], []
            self._tables.db.written.add(ARCHIVE_PREFIX + tenant_id)
            self._tables.copies.pop(tenant_id)
            async with self._tables.db.rewriting(ARCHIVE_PREFIX + tenant_id):
                await table.delete(of_end_user(end_user_id))  # by the predicate: a row written meanwhile goes too
            stats = await self._tables.stats_table(tenant_id, write=True)
            async with self._tables.db.rewriting(STATS_PREFIX + tenant_id):
                for chunk in range(0, len(ids), 1000):
                    await stats.delete(ids_in(ids[chunk : chunk + 1000]))
        return ids, [ARCHIVE_PREFIX + tenant_id, STATS_PREFIX + tenant_id]

    async def expire(self, tenant_id: str, before: datetime, dry_run: bool) -> list[str]:
        """Delete every unpinned memory created before ``before`` (retention; any scope); the ids (counted when dry)."""
        async with map_lance_errors():
            table = await self._tables.table(tenant_id)
            if table is None:
                return []
            where = f"created_at < {timestamp(before)} AND (pinned IS NULL OR NOT pinned)"
            ids = sorted((await table.query().where(where).select(["id"]).to_arrow()).column("id").to_pylist())
            if ids and not dry_run:
                self._tables.db.written.add(ARCHIVE_PREFIX + tenant_id)
                self._tables.copies.pop(tenant_id)
                async with self._tables.db.rewriting(ARCHIVE_PREFIX + tenant_id):
                    await table.delete(where)
                stats = await self._tables.stats_table(tenant_id, write=True)
                async with self._tables.db.rewriting(STATS_PREFIX + tenant_id):
                    for start in range(0, len(ids), 1000):
                        await stats.delete(ids_in(ids[start : start + 1000]))
        return ids

    async def delete(self, actor: Actor, memory_id: str) -> bool:
        """Delete a visible row (and its retrieval statistics)."""
        async with self._tables.copies.writing(actor.tenant_id), map_lance_errors():
            table, visible = await self._tables.scoped(actor, _BY_ID)
            if table is None:
                return False
            self._tables.db.written.add(ARCHIVE_PREFIX + actor.tenant_id)
            async with self._tables.db.rewriting(ARCHIVE_PREFIX + actor.tenant_id):
                result = await table.delete(f"id = {literal(memory_id)} AND {visible}")
            if result.num_deleted_rows:
                await self._tables.after_write(
                    actor.tenant_id, table, result.version, lambda copy: copy.deleted(result.version, [memory_id])
                )
                stats = await self._tables.stats_table(actor.tenant_id, write=True)
                async with self._tables.db.rewriting(STATS_PREFIX + actor.tenant_id):
                    await stats.delete(f"id = {literal(memory_id)}")
            return bool(result.num_deleted_rows > 0)

    async def get(self, actor: Actor, memory_id: str) -> MemoryRecord | None:
        """A visible row by id."""
        return (await self.get_many(actor, [memory_id])).get(memory_id)

    async def get_many(
        self, actor: Actor, memory_ids: Sequence[str], *, with_retrievals: bool = True
    ) -> dict[str, MemoryRecord]:
        """Visible rows by id, in one query (the BTree on id makes it a lookup), whatever their status."""
        if not memory_ids:
            return {}
        async with map_lance_errors():
            table, visible = await self._tables.scoped(actor, _BY_ID)
            if table is None:
                return {}
            copy = await self._tables.copy_of(actor.tenant_id, table)
            if copy is not None:
                found = _own_tenant(actor, copy.get_many(actor, memory_ids))
                if not with_retrievals or not found:
                    return found
                stats = await self._tables.retrieval_stats(
                    actor.tenant_id, list(found)
                )  # counts change on every Recall
                return {memory_id: with_stats(r, stats.get(memory_id)) for memory_id, r in found.items()}
            rows, stats = await asyncio.gather(
                table.query().where(f"{ids_in(memory_ids)} AND {visible}").select(RECORD_COLUMNS).to_arrow(),
                self._tables.retrieval_stats(actor.tenant_id, memory_ids) if with_retrievals else _no_stats(),
            )
        return _own_tenant(actor, {r["id"]: to_record(r, stats.get(r["id"])) for r in rows_of(rows)})

    async def vectors_of(self, actor: Actor, memory_ids: Sequence[str], space: str = "") -> dict[str, Vector]:
        """Stored vectors of visible rows (a Recall's trace asks for the few it accounts for)."""
        if not memory_ids:
            return {}
        column = space_column(space) if space else "vector"
        async with map_lance_errors():
            table, visible = await self._tables.scoped(actor, _BY_ID)
            if table is None:
                return {}
            query = table.query().where(f"{ids_in(memory_ids)} AND {visible}").select(["id", column])
            rows = (await query.to_arrow()).to_pylist()
        return {r["id"]: list(r[column]) for r in rows if r[column] is not None}

    async def by_request(self, actor: Actor, prefix: str, since: datetime) -> dict[str, MemoryRecord]:
        """The tenant's rows created at or after ``since`` whose request key starts with ``prefix``, by key."""
        async with map_lance_errors():
            table, _ = await self._tables.scoped(actor, _BY_ID)  # visibility aside: see the port
            if table is None:
                return {}
            # A retry after a lost reply may reach another replica within its read-consistency
            # interval: the lookup that decides "already stored" must see the latest version.
            await table.checkout_latest()
            # a range on the key's index: "/" is followed by "0" (request ids never hold a "/")
            keyed = f"request_key >= {literal(prefix)} AND request_key < {literal(prefix[:-1] + '0')}"
            rows = await (
                table.query().where(f"{keyed} AND created_at >= {timestamp(since)}").select(RECORD_COLUMNS).to_arrow()
            )
        return {r.request_key: r for r in map(to_record, rows_of(rows))}

    async def nearest_many(
        self, actor: Actor, vectors: Sequence[Vector], flt: MemoryFilter, limit: int, min_similarity: float
    ) -> list[list[ArmHit]]:
        """``nearest`` for several vectors: for a small table, one version check and one matrix product."""
        async with map_lance_errors():
            table, _ = await self._tables.scoped(actor, flt)
            if table is None:
                return [[] for _ in vectors]
            copy = await self._tables.copy_of(actor.tenant_id, table)
        if copy is not None:
            return copy.nearest_many(actor, vectors, flt, limit, min_similarity)
        gate = asyncio.Semaphore(_COLD_LOOKUPS)

        async def one(vector: Vector) -> list[ArmHit]:
            async with gate:
                return await self.nearest(actor, vector, flt, limit, min_similarity)

        return list(await asyncio.gather(*(one(vector) for vector in vectors)))

    async def nearest(
        self, actor: Actor, vector: Vector, flt: MemoryFilter, limit: int, min_similarity: float, space: str = ""
    ) -> list[ArmHit]:
        """Cosine kNN under the visibility prefilter, floor applied (from memory for small tables).

        Another ``space`` is searched in LanceDB (the in-memory copy holds the store's model's vectors);
        rows not yet filled in it (null) are left out by the search itself.
        """
        async with map_lance_errors():
            table, visible = await self._tables.scoped(actor, flt)
            if table is None:
                return []
            copy = None if space else await self._tables.copy_of(actor.tenant_id, table)
            if copy is not None:
                return copy.nearest(actor, vector, flt, limit, min_similarity)
            column, columns = space_column(space) if space else "vector", [*_ARM_COLUMNS, "_distance"]
            rows = await nearest_rows(
                table, vector, visible, limit, column, columns, self._tables.short, narrow=flt.narrows
            )
        hits = []
        for row in rows.to_pylist():
            similarity = 1.0 - float(row["_distance"])
            if similarity >= min_similarity:
                hits.append(ArmHit(row["id"], similarity, row["occurred_at"], row["content"]))
        return hits

    async def full_text(
        self, actor: Actor, query: FullTextQuery, flt: MemoryFilter, limit: int, require_all: bool
    ) -> list[ArmHit]:
        """BM25 over search_text (date + content, stemmed) and prefixes (word prefixes), visibility prefiltered."""
        async with map_lance_errors():
            table, visible = await self._tables.scoped(actor, flt)
            if table is None or not query.terms:
                return []
            # the prefix tier asks any word (``RecallService``); an all-words one with prefixes goes to LanceDB
            copy = None if query.prefix_terms and require_all else await self._tables.copy_of(actor.tenant_id, table)
            if copy is not None and (copy.answers_prefixes if query.prefix_terms else copy.answers_full_text):
                return copy.full_text(actor, query.terms, flt, limit, require_all, query.prefix_terms)
            rows = await (
                table.query()
                .nearest_to_text(_text_query(query, require_all))
                .where(visible)
                .select([*_ARM_COLUMNS, "_score"])
                .limit(limit)
                .to_arrow()
            )
        return [ArmHit(r["id"], float(r["_score"]), r["occurred_at"], r["content"]) for r in rows.to_pylist()]

    async def full_text_tiers(
        self, actor: Actor, tiers: Sequence[FullTextTier], flt: MemoryFilter, limit: int
    ) -> list[ArmHit]:
        """The tiers merged: from memory in one pass when the copy answers each, else LanceDB's queries.

        In memory the tiers share the visibility, the filter and the terms' scores, and each later tier
        skips the rows placed before it (two calls cost 0.39 ms each at 1,000 visible rows). In LanceDB a
        tier runs only while places remain; the leading tiers without prefix terms run side by side where
        the all-words tier seldom fills the places, one after the other where it usually does
        (``lance_cold_reads.FillRates``); a prefix tier, the slowest and seldom reached, last.
        """
        async with map_lance_errors():
            table, _ = await self._tables.scoped(actor, flt)
            if table is None or not tiers:
                return []
            copy = await self._tables.copy_of(actor.tenant_id, table)
        if copy is not None and all(_answers(copy, tier) for tier in tiers):
            return copy.full_text_tiers(actor, tiers, flt, limit)
        leading = next((at for at, tier in enumerate(tiers) if at and tier.query.prefix_terms), len(tiers))
        side_by_side = leading > 1 and not self._tables.fills.usually(actor.tenant_id)
        turns = [tiers[:leading], *([t] for t in tiers[leading:])] if side_by_side else [[t] for t in tiers]
        hits: list[ArmHit] = []
        for at, turn in enumerate(turns):
            if len(hits) == limit:
                break
            found = await asyncio.gather(*(self.full_text(actor, t.query, flt, limit, t.require_all) for t in turn))
            if at == 0 and leading > 1:
                self._tables.fills.note(actor.tenant_id, len(found[0]) == limit)
            hits = merge_tiers([hits, *found], limit)
        return hits

    async def page(self, actor: Actor, flt: MemoryFilter, after_id: str, limit: int) -> list[MemoryRecord]:
        """Visible rows after ``after_id`` in id order (ids are time-ordered)."""
        wanted = await self.page_ids(actor, flt, after_id, limit)
        if not wanted:
            return []
        records = await self.get_many(actor, wanted)  # with the rows' retrieval statistics
        return [records[i] for i in wanted if i in records]

    async def page_ids(self, actor: Actor, flt: MemoryFilter, after_id: str, limit: int) -> list[str]:
        """The ids of that page: from the in-memory copy when it can answer, else ids in growing windows."""
        async with map_lance_errors():
            table, where = await self._tables.scoped(actor, flt)
            if table is None:
                return []
            copy = await self._tables.copy_of(actor.tenant_id, table)
            page = None if copy is None else copy.page(actor, flt, after_id, limit)
            if page is not None:
                return page
            return await cold_page_ids(table, where, after_id, limit, windows=page_windows(flt))


def _text_query(query: FullTextQuery, require_all: bool) -> Any:
    """Query objects, never a query string: user text cannot become syntax."""
    clauses: list[tuple[Occur, Any]] = []
    for term in query.terms:
        term_match: Any = _match(term, "search_text")
        if term in query.prefix_terms:
            term_match = BooleanQuery([(Occur.SHOULD, term_match), (Occur.SHOULD, _match(term, "prefixes"))])
        clauses.append((Occur.MUST if require_all else Occur.SHOULD, term_match))
    return BooleanQuery(clauses)


def _match(term: str, column: str) -> MatchQuery:
    # One plain term per MatchQuery: nothing in it is parsed as syntax.
    return MatchQuery(term, column, operator=FullTextOperator.OR)  # type: ignore[call-arg]  # pydantic defaults


async def _no_stats() -> dict[str, dict[str, Any]]:
    return {}


def _answers(copy: ArchiveCopy, tier: FullTextTier) -> bool:
    """Whether the copy answers this tier (an all-words query with prefix terms is LanceDB's)."""
    if tier.query.prefix_terms:
        return not tier.require_all and copy.answers_prefixes
    return copy.answers_full_text


def _own_tenant(actor: Actor, records: dict[str, MemoryRecord]) -> dict[str, MemoryRecord]:
    """The records, after checking they are the actor's tenant's."""
    if any(r.tenant_id != actor.tenant_id for r in records.values()):
        # Cannot happen while tables are per tenant; if it ever does, fail loudly, never leak.
        raise RuntimeError(f"tenant table for {actor.tenant_id!r} holds another tenant's rows")
    return records
