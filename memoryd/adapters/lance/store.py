"""MemoryStore on LanceDB (async API): one table per tenant, hybrid-ready indexes.

Layout. Each tenant's memories live in their own table (``memories_<tenant>``),
so tenancy is a partition: a query can only ever open the caller's table, and
a per-agent visible set is a slice of one tenant's rows rather than of every
row in the service. Every query still pins the visibility rule through
``lance_filters.visible_where`` (defence in depth).

Indexes per table: full text on ``search_text`` (date + content; stemmed, with positions) and on
``prefixes`` (unstemmed word prefixes, see ``core.query_terms``); bitmaps on ``scope``, ``agent_id``,
``end_user_id``, ``status`` and ``memory_type``; BTrees on ``id``, ``request_key``, ``source_id``,
``category``, ``subject``, ``collection``, ``salience`` and ``occurred_at``; a label list on ``tags``
(``ARCHIVE_INDEXES``). The vector column is searched exactly until the maintenance pass
(``lance_maintenance``) builds an IVF_HNSW_SQ index on a large table. The connection, its caches and
the table registry are ``lance_db.LanceDatabase``'s.

Concurrency. ``id`` is an (unenforced) primary key, so merge_insert is an
atomic upsert across processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections import Counter
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

import pyarrow as pa
from lancedb.index import FTS, Bitmap, BTree, LabelList
from lancedb.query import BooleanQuery, FullTextOperator, MatchQuery, Occur

from memoryd.adapters.lance.cold_reads import FillRates, ShortFilters, nearest_rows, page_windows
from memoryd.adapters.lance.cold_reads import page_ids as cold_page_ids
from memoryd.adapters.lance.copies.archive import ArchiveCopy
from memoryd.adapters.lance.copies.cache import CopyCache, commits_since
from memoryd.adapters.lance.copies.stats import StatsCopy
from memoryd.adapters.lance.copies.text import Vocabulary
from memoryd.adapters.lance.db import LanceDatabase, add_column, ensure_indexes
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.filters import ids_in, literal, of_end_user, timestamp, visible_where
from memoryd.adapters.lance.rows import (
    ADDED_STATS_COLUMNS,
    KEEP_NULL_VECTORS,
    RECORD_COLUMNS,
    RETRIEVAL_SCHEMA,
    memory_schema,
    rows_of,
    space_column,
    space_columns,
    space_field,
    to_record,
    to_table,
    with_space_vectors,
    with_stats,
)
from memoryd.core.feedback import SHIFT_BOUND, STEPS, Signal
from memoryd.core.models import (
    ALL_STATUSES,
    PENDING_MODEL,
    Actor,
    ArmHit,
    FullTextQuery,
    FullTextTier,
    MemoryFilter,
    MemoryRecord,
    Vector,
)
from memoryd.core.ranking import merge_tiers

ARCHIVE_PREFIX = "memories_"
STATS_PREFIX = "retrievals_"
# Arms read ids and texts only: reading every column of 40 candidates doubled an arm's latency at
# 100k rows; Recall ranks by the texts and reads the winners' records once afterwards.
_ARM_COLUMNS = ["id", "occurred_at", "content"]
_COLD_LOOKUPS = 8
"""LanceDB queries of one ``nearest_many`` in flight at once (a large table has no in-memory copy)."""
_BY_ID = MemoryFilter(statuses=ALL_STATUSES)
"""Reads and writes by id see every lifecycle state (archived rows stay readable and restorable)."""
_ADDED_COLUMNS = ("request_key", "superseded_by", "collection")
"""Nullable string columns added after the first release (``_upgrade``)."""
ARCHIVE_INDEXES = [
    ("search_text", FTS(with_position=True)),
    ("prefixes", FTS(with_position=False, stem=False, remove_stop_words=False)),
    ("scope", Bitmap()),
    ("agent_id", Bitmap()),
    ("end_user_id", Bitmap()),
    ("status", Bitmap()),
    ("id", BTree()),
    ("request_key", BTree()),
    ("source_id", BTree()),
    ("memory_type", Bitmap()),
    ("category", BTree()),
    ("subject", BTree()),
    ("collection", BTree()),
    ("tags", LabelList()),
    ("salience", BTree()),
    ("occurred_at", BTree()),
]
"""Every predicate of Recall's arms names scope, agent and status: without an index on ``status`` each
LanceDB query read that column of every row (at 100k rows an arm cost ~10 ms with the clause, ~6 without).
GetMemory lists the memories annotating one (``source_id`` = its id): 96 → 5 ms at 1M rows with the index.
A Recall filtered by type, category, subject or collection prefilters both arms by that column too: with
the index a ``memory_type`` filter at 1M rows 75-81 → 48 ms (``docs/benchmarks.md``, session 37); so
do tags (``array_has_any``/``_all``: 96 / 170 → 20 ms), ``min_salience`` (55 → 21 ms) and ``since``
(session 38)."""
_ADDED_INDEXES = [
    (column, config)
    for column, config in ARCHIVE_INDEXES
    if column not in {"search_text", "prefixes", "scope", "agent_id", "end_user_id", "id"}
]
"""Indexes added after the first release (``_upgrade``)."""


_STATS_MAX_ROWS = 30_000
"""The largest retrieval statistics table kept in memory (see ``LanceMemoryStore._stats``)."""


class LanceMemoryStore:
    """The archive (and the agent directory) on a ``LanceDatabase``."""

    def __init__(
        self,
        db: LanceDatabase,
        dimension: int,
        *,
        copy_max_rows: int = 120_000,
        copy_tables: int = 256,
        copy_total_rows: int = 320_000,
        ann_min_rows: int = 25_000,
    ) -> None:
        self._db = db
        self._ann_min_rows = ann_min_rows
        """From this many visible rows a copy's vector search is approximate too (``faiss_rows``)."""
        self._schema = memory_schema(dimension)
        self._copies: CopyCache[ArchiveCopy] = CopyCache(copy_max_rows, copy_tables, copy_total_rows)
        """In-memory copies of small tables by tenant (``lance_hot``)."""
        self._stats: CopyCache[StatsCopy] = CopyCache(min(copy_max_rows, _STATS_MAX_ROWS), copy_tables, copy_total_rows)
        """The retrieval statistics tables by tenant (``lance_stats_copy``), up to 30,000 rows: a statistics
        table changes at every flush, and each change reloads it on the next read (100,000 rows: 100-190 ms
        of a GetMemory; 30,000 rows a third of that)."""
        self._hot_tables, self._hot_total_rows = copy_tables, copy_total_rows
        self._short = ShortFilters()
        """Predicates whose vector searches filtered afterwards came up short (``lance_cold_reads``)."""
        self._fills = FillRates()
        """How often each tenant's all-words tier filled the places (its tiers side by side or in turn)."""
        self._vocabularies: dict[str, tuple[Vocabulary, Vocabulary]] = {}
        """Token ids by tenant (``search_text``'s, ``prefixes``'), kept across its copies (``lance_hot_text``)."""

    async def _table(self, tenant_id: str) -> Any | None:
        return await self._db.table_if_exists(ARCHIVE_PREFIX + tenant_id, upgrade=_upgrade)

    async def _stats_table(self, tenant_id: str, *, write: bool = False) -> Any:
        return await self._db.table(
            STATS_PREFIX + tenant_id, RETRIEVAL_SCHEMA, [("id", BTree())], write=write, upgrade=_upgrade_stats
        )

    async def _copy_of(self, tenant_id: str, table: Any) -> ArchiveCopy | None:
        """The tenant's table in memory at its current version, when it is small enough (else None)."""
        return await self._copies.copy(tenant_id, table, (), self._builder(tenant_id), _read_hot, _follow_commits)

    @contextlib.asynccontextmanager
    async def keeping_copy(self, name: str) -> AsyncIterator[None]:
        """Around maintenance's optimize of table ``name``: its copy keeps answering (``CopyCache.rewriting``)."""
        if not name.startswith(ARCHIVE_PREFIX):
            yield
            return
        tenant_id = name.removeprefix(ARCHIVE_PREFIX)

        async def reload() -> None:
            if (table := await self._table(tenant_id)) is not None:
                await self._copies.refresh(tenant_id, table, (), self._builder(tenant_id), _read_hot)

        async with self._copies.rewriting(tenant_id, reload):
            yield

    def _builder(self, tenant_id: str) -> Callable[[int, _HotLoad], ArchiveCopy]:
        """How a load of the tenant's table becomes its copy (on the tenant's vocabularies)."""
        vocabularies = self._vocabularies.get(tenant_id)
        if vocabularies is None:
            kept = self._vocabularies.values()
            if len(kept) >= 4 * self._hot_tables or sum(len(w) + len(p) for w, p in kept) >= 4 * self._hot_total_rows:
                self._vocabularies.clear()  # tenants come and go (their texts stay here once their copies went)
            vocabularies = self._vocabularies[tenant_id] = (Vocabulary(), Vocabulary(prefixes=True))
        words, prefixes = vocabularies

        def build(version: int, loaded: _HotLoad) -> ArchiveCopy:
            data, covered, prefixes_covered = loaded
            return ArchiveCopy.from_arrow(
                version, data, words, covered, prefixes, prefixes_covered, ann_min_rows=self._ann_min_rows
            )

        return build

    async def _after_write(
        self, tenant_id: str, table: Any, version: int, apply: Callable[[ArchiveCopy], ArchiveCopy | None]
    ) -> None:
        """Keep the in-memory copy current after this process's write, or drop it when it cannot be.

        The copy follows when nobody else committed in between, or when the commits in between changed
        no row (this process's optimize under way, ``CopyCache.rewriting``).
        """
        copy = self._copies.current(tenant_id)
        if copy is None or copy.version == version:  # (the second: a read loaded the table at this version)
            return
        if copy.version != version - 1 and not await self._copies.unchanged(
            tenant_id, table, copy.version, version - 1
        ):
            return  # another process committed in between: the next read catches the copy up (or loads)
        if self._copies.current(tenant_id) is not copy:  # replaced or dropped meanwhile: the next read decides
            return
        updated = apply(copy)
        if updated is not None and self._copies.holds(updated):
            self._copies.put(tenant_id, updated)
        else:
            self._copies.pop(tenant_id)

    async def _scoped(self, actor: Actor, flt: MemoryFilter | None = None, *, col: str = "") -> tuple[Any, str]:
        """The gate every read and write of memories passes.

        Returns the actor's own tenant table (None if the tenant has none yet) and the
        predicate of what the actor may see (``lance_filters.visible_where``).
        """
        return await self._table(actor.tenant_id), visible_where(actor, flt, col=col)

    # -- writes ---------------------------------------------------------------

    async def insert(
        self,
        tenant_id: str,
        rows: Sequence[tuple[MemoryRecord, Vector]],
        extra: Mapping[str, Sequence[Vector | None]] | None = None,
    ) -> None:
        """Add rows in one commit; durable when this returns (other spaces' vectors where the table has them)."""
        async with self._copies.writing(tenant_id):
            async with map_lance_errors():
                table = await self._db.table(
                    ARCHIVE_PREFIX + tenant_id, self._schema, ARCHIVE_INDEXES, write=True, upgrade=_upgrade
                )
                data = to_table(rows, self._schema)
                if extra:
                    data = with_space_vectors(
                        data, await table.schema(), {space_column(m): v for m, v in extra.items()}
                    )
                # Bulk loads in one giant batch scan 2.6x slower forever: keep batches small.
                batches = pa.Table.from_batches(data.to_batches(max_chunksize=8192), schema=data.schema)
                # Only another space's column may hold a null (a row to fill); lancedb's null handling cost
                # 1.3 ms of a 4.5 ms one-row commit, so a write without one keeps the default check.
                appenders, name = self._db.appenders, ARCHIVE_PREFIX + tenant_id
                into = await appenders.handle(name) if appenders is not None else table
                added = await into.add(batches, on_bad_vectors=KEEP_NULL_VECTORS if extra else "error")
                if appenders is not None:
                    appenders.appended(name, added.version)
            texts = data.column("search_text").to_pylist()
            await self._after_write(
                tenant_id, table, added.version, lambda copy: copy.inserted(added.version, rows, texts)
            )

    async def replace(
        self, actor: Actor, record: MemoryRecord, vector: Vector | None, extra: Mapping[str, Vector] | None = None
    ) -> bool:
        """Upsert over a visible row only (the visibility check is inside the merge).

        Every vector column is written: a merge keeps the target's value of a column the source
        lacks, which would leave another space's vector of the old text on a rewritten row.
        """
        async with self._copies.writing(actor.tenant_id):
            async with map_lance_errors():
                table, visible = await self._scoped(actor, _BY_ID, col="target.")
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
                data = to_table([(record, vector)], self._schema)
                if spaces:
                    data = with_space_vectors(data, schema, {c: [others.get(c)] for c in spaces})
                self._db.written.add(ARCHIVE_PREFIX + actor.tenant_id)
                merge = table.merge_insert("id").when_matched_update_all(where=visible)
                async with self._db.rewriting(ARCHIVE_PREFIX + actor.tenant_id):
                    result = await merge.execute(data, on_bad_vectors=KEEP_NULL_VECTORS)
            kept, updated = vector, bool(result.num_updated_rows == 1)
            # A merge the visibility condition refused changed nothing: the copy must not take the record.
            await self._after_write(
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
            table = await self._table(tenant_id)
            if table is None:
                return [], []
            found = await table.query().where(of_end_user(end_user_id)).select(["id"]).to_arrow()
            ids = sorted(found.column("id").to_pylist())
            if not ids:
                return [], []
            self._db.written.add(ARCHIVE_PREFIX + tenant_id)
            self._copies.pop(tenant_id)
            async with self._db.rewriting(ARCHIVE_PREFIX + tenant_id):
                await table.delete(of_end_user(end_user_id))  # by the predicate: a row written meanwhile goes too
            stats = await self._stats_table(tenant_id, write=True)
            async with self._db.rewriting(STATS_PREFIX + tenant_id):
                for chunk in range(0, len(ids), 1000):
                    await stats.delete(ids_in(ids[chunk : chunk + 1000]))
        return ids, [ARCHIVE_PREFIX + tenant_id, STATS_PREFIX + tenant_id]

    async def expire(self, tenant_id: str, before: datetime, dry_run: bool) -> list[str]:
        """Delete every memory created before ``before`` (retention; any scope); the ids (only counted when dry)."""
        async with map_lance_errors():
            table = await self._table(tenant_id)
            if table is None:
                return []
            where = f"created_at < {timestamp(before)}"
            ids = sorted((await table.query().where(where).select(["id"]).to_arrow()).column("id").to_pylist())
            if ids and not dry_run:
                self._db.written.add(ARCHIVE_PREFIX + tenant_id)
                self._copies.pop(tenant_id)
                async with self._db.rewriting(ARCHIVE_PREFIX + tenant_id):
                    await table.delete(where)
                stats = await self._stats_table(tenant_id, write=True)
                async with self._db.rewriting(STATS_PREFIX + tenant_id):
                    for start in range(0, len(ids), 1000):
                        await stats.delete(ids_in(ids[start : start + 1000]))
        return ids

    async def delete(self, actor: Actor, memory_id: str) -> bool:
        """Delete a visible row (and its retrieval statistics)."""
        async with self._copies.writing(actor.tenant_id), map_lance_errors():
            table, visible = await self._scoped(actor, _BY_ID)
            if table is None:
                return False
            self._db.written.add(ARCHIVE_PREFIX + actor.tenant_id)
            async with self._db.rewriting(ARCHIVE_PREFIX + actor.tenant_id):
                result = await table.delete(f"id = {literal(memory_id)} AND {visible}")
            if result.num_deleted_rows:
                await self._after_write(
                    actor.tenant_id, table, result.version, lambda copy: copy.deleted(result.version, [memory_id])
                )
                stats = await self._stats_table(actor.tenant_id, write=True)
                async with self._db.rewriting(STATS_PREFIX + actor.tenant_id):
                    await stats.delete(f"id = {literal(memory_id)}")
            return bool(result.num_deleted_rows > 0)

    async def record_retrievals(
        self, tenant_id: str, recalled: Mapping[str, int], injected: Mapping[str, int], at: datetime
    ) -> None:
        """Add to the side table: insert missing ids at 0, then one SQL update per kind of count.

        Increments are relative (``retrieval_count + n``), so flushes from several daemons add up
        instead of overwriting each other. At most three commits a flush whatever the counts: an
        update per distinct count made one commit each, and each leaves a fragment and deletion files.
        """
        if not recalled and not injected:
            return
        async with map_lance_errors():
            table = await self._stats_table(tenant_id, write=True)
            await _ensure_stats_rows(table, sorted({*recalled, *injected}))
            for counts, column, extra in (
                (recalled, "retrieval_count", {"last_retrieved_at": timestamp(at)}),
                (injected, "injected_count", {}),
            ):
                if counts:
                    async with self._db.rewriting(STATS_PREFIX + tenant_id):
                        await table.update(where=ids_in(counts), updates_sql={column: _plus(column, counts), **extra})

    async def pending_embeddings(self, tenant_id: str, limit: int) -> tuple[list[MemoryRecord], int]:
        """Rows stored during an embedder outage (``embedding_model`` empty), oldest first, and their count."""
        async with map_lance_errors():
            table = await self._table(tenant_id)
            if table is None:
                return [], 0
            where = f"embedding_model = {literal(PENDING_MODEL)}"
            total = await table.count_rows(where)
            if not total or limit <= 0:
                return [], int(total)
            rows = await table.query().where(where).select(RECORD_COLUMNS).limit(limit).to_arrow()
        return sorted(map(to_record, rows_of(rows)), key=lambda r: r.memory_id), int(total)

    async def fill_embeddings(self, tenant_id: str, rows: Sequence[tuple[MemoryRecord, Vector]], model: str) -> int:
        """Set the vectors in one merge, only over rows still pending with the same text (an edit meanwhile wins).

        The stored rows are written back as they are but for ``vector`` and ``embedding_model``: their
        full-text columns (which may hold a preceding turn's words) must not be recomputed.
        """
        if not rows:
            return 0
        vectors = {r.memory_id: v for r, v in rows}
        embedded_text = {r.memory_id: r.content_hash for r, _ in rows}
        async with map_lance_errors():
            table = await self._table(tenant_id)
            if table is None:
                return 0
            stored = await table.query().where(ids_in(list(vectors))).to_arrow()
            # Only rows whose text is still the text that was embedded (an edit meanwhile embeds itself).
            same = [
                embedded_text[i] == h
                for i, h in zip(stored.column("id").to_pylist(), stored.column("content_hash").to_pylist(), strict=True)
            ]
            # Whole rows, other spaces' vectors as stored: a merge of fewer columns than the table's
            # panics in Lance on an optimized table.
            stored = stored.filter(pa.array(same, pa.bool_()))
            if stored.num_rows == 0:
                return 0
            ids = stored.column("id").to_pylist()
            flat = pa.array([x for i in ids for x in vectors[i]], type=pa.float32())
            vector = pa.FixedSizeListArray.from_arrays(flat, self._schema.field("vector").type.list_size)
            data = stored.set_column(stored.schema.get_field_index("vector"), "vector", vector)
            at = data.schema.get_field_index("embedding_model")
            data = data.set_column(at, "embedding_model", pa.array([model] * len(ids), pa.string()))
            self._db.written.add(ARCHIVE_PREFIX + tenant_id)
            pending = f"target.embedding_model = {literal(PENDING_MODEL)}"
            unchanged = f"{pending} AND target.content_hash = source.content_hash"
            merge = table.merge_insert("id").when_matched_update_all(where=unchanged)
            async with self._db.rewriting(ARCHIVE_PREFIX + tenant_id):
                result = await merge.execute(data.cast(stored.schema), on_bad_vectors=KEEP_NULL_VECTORS)
            self._copies.pop(tenant_id)  # reloaded at the next read
        return int(result.num_updated_rows)

    async def record_feedback(self, tenant_id: str, signals: Sequence[tuple[str, Signal]], at: datetime) -> None:
        """Count each signal in the side table and move the salience shift by its step, bounded.

        Like retrieval counts, increments are SQL updates, so concurrent calls (from any
        process) add up; one update per (signal, times) group.
        """
        if not signals:
            return
        groups: dict[tuple[Signal, int], list[str]] = {}
        for (memory_id, signal), n in Counter(signals).items():
            groups.setdefault((signal, n), []).append(memory_id)
        async with map_lance_errors():
            table = await self._stats_table(tenant_id, write=True)
            await _ensure_stats_rows(table, sorted({m for m, _ in signals}))
            for (signal, n), ids in sorted(groups.items()):
                shift = f"coalesce(salience_shift, 0) + {n * STEPS[signal]!r}"
                bound = f"{SHIFT_BOUND!r}"
                async with self._db.rewriting(STATS_PREFIX + tenant_id):
                    await table.update(
                        where=ids_in(ids),
                        updates_sql={
                            f"fb_{signal.value}": f"coalesce(fb_{signal.value}, 0) + {int(n)}",
                            "salience_shift": f"greatest(-{bound}, least({bound}, {shift}))",
                            "last_feedback_at": timestamp(at),
                        },
                    )

    # -- reads ----------------------------------------------------------------

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
            table, visible = await self._scoped(actor, _BY_ID)
            if table is None:
                return {}
            copy = await self._copy_of(actor.tenant_id, table)
            if copy is not None:
                found = _own_tenant(actor, copy.get_many(actor, memory_ids))
                if not with_retrievals or not found:
                    return found
                stats = await self._retrieval_stats(actor.tenant_id, list(found))  # counts change on every Recall
                return {memory_id: with_stats(r, stats.get(memory_id)) for memory_id, r in found.items()}
            rows, stats = await asyncio.gather(
                table.query().where(f"{ids_in(memory_ids)} AND {visible}").select(RECORD_COLUMNS).to_arrow(),
                self._retrieval_stats(actor.tenant_id, memory_ids) if with_retrievals else _no_stats(),
            )
        return _own_tenant(actor, {r["id"]: to_record(r, stats.get(r["id"])) for r in rows_of(rows)})

    async def by_request(self, actor: Actor, prefix: str, since: datetime) -> dict[str, MemoryRecord]:
        """The tenant's rows created at or after ``since`` whose request key starts with ``prefix``, by key."""
        async with map_lance_errors():
            table, _ = await self._scoped(actor, _BY_ID)  # visibility aside: see the port
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

    async def _retrieval_stats(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        table = await self._stats_table(tenant_id)
        copy = await self._stats.copy(tenant_id, table, RETRIEVAL_SCHEMA.names, StatsCopy.of)
        if copy is not None:
            return copy.rows(memory_ids)
        rows = await table.query().where(ids_in(memory_ids)).to_arrow()
        return {r["id"]: r for r in rows.to_pylist()}

    async def nearest_many(
        self, actor: Actor, vectors: Sequence[Vector], flt: MemoryFilter, limit: int, min_similarity: float
    ) -> list[list[ArmHit]]:
        """``nearest`` for several vectors: for a small table, one version check and one matrix product."""
        async with map_lance_errors():
            table, _ = await self._scoped(actor, flt)
            if table is None:
                return [[] for _ in vectors]
            copy = await self._copy_of(actor.tenant_id, table)
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
            table, visible = await self._scoped(actor, flt)
            if table is None:
                return []
            copy = None if space else await self._copy_of(actor.tenant_id, table)
            if copy is not None:
                return copy.nearest(actor, vector, flt, limit, min_similarity)
            column, columns = space_column(space) if space else "vector", [*_ARM_COLUMNS, "_distance"]
            rows = await nearest_rows(table, vector, visible, limit, column, columns, self._short, narrow=flt.narrows)
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
            table, visible = await self._scoped(actor, flt)
            if table is None or not query.terms:
                return []
            # the prefix tier asks any word (``RecallService``); an all-words one with prefixes goes to LanceDB
            copy = None if query.prefix_terms and require_all else await self._copy_of(actor.tenant_id, table)
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
            table, _ = await self._scoped(actor, flt)
            if table is None or not tiers:
                return []
            copy = await self._copy_of(actor.tenant_id, table)
        if copy is not None and all(_answers(copy, tier) for tier in tiers):
            return copy.full_text_tiers(actor, tiers, flt, limit)
        leading = next((at for at, tier in enumerate(tiers) if at and tier.query.prefix_terms), len(tiers))
        side_by_side = leading > 1 and not self._fills.usually(actor.tenant_id)
        turns = [tiers[:leading], *([t] for t in tiers[leading:])] if side_by_side else [[t] for t in tiers]
        hits: list[ArmHit] = []
        for at, turn in enumerate(turns):
            if len(hits) == limit:
                break
            found = await asyncio.gather(*(self.full_text(actor, t.query, flt, limit, t.require_all) for t in turn))
            if at == 0 and leading > 1:
                self._fills.note(actor.tenant_id, len(found[0]) == limit)
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
            table, where = await self._scoped(actor, flt)
            if table is None:
                return []
            copy = await self._copy_of(actor.tenant_id, table)
            page = None if copy is None else copy.page(actor, flt, after_id, limit)
            if page is not None:
                return page
            return await cold_page_ids(table, where, after_id, limit, windows=page_windows(flt))

    async def with_vectors(self, actor: Actor) -> tuple[list[MemoryRecord], Sequence[Vector]]:
        """Every active visible row with its vector (one scan; vectors as one float32 matrix, not lists)."""
        async with map_lance_errors():
            table, visible = await self._scoped(actor)
            if table is None:
                return [], []
            rows = await table.query().where(visible).select([*RECORD_COLUMNS, "vector"]).to_arrow()
            stats_table = await self._stats_table(actor.tenant_id)
            stats = {r["id"]: r for r in (await stats_table.query().to_arrow()).to_pylist()}
        vectors = rows.column("vector").combine_chunks()
        dimension = self._schema.field("vector").type.list_size
        matrix: Any = vectors.values.to_numpy().reshape(len(vectors), dimension)  # rows are Sequence[float]
        records = [to_record(r, stats.get(r["id"])) for r in rows_of(rows.drop_columns(["vector"]))]
        return records, matrix

    async def fingerprint(self, actor: Actor) -> str:
        """sha256 over the sorted (id, updated_at) of the active visible set."""
        async with map_lance_errors():
            table, visible = await self._scoped(actor)
            if table is None:
                return "empty"
            rows = await table.query().where(visible).select(["id", "updated_at"]).to_arrow()
        digest = hashlib.sha256()
        for memory_id, updated in sorted(
            zip(rows.column("id").to_pylist(), rows.column("updated_at").to_pylist(), strict=True)
        ):
            digest.update(f"{memory_id}:{updated.timestamp()}\n".encode())
        return digest.hexdigest()[:16]

    # -- other embedding spaces (re-embedding) --------------------------------------------

    async def tenants(self) -> list[str]:
        """Every tenant with an archive table."""
        async with map_lance_errors():
            return sorted([n[len(ARCHIVE_PREFIX) :] async for n in self._db.names() if n.startswith(ARCHIVE_PREFIX)])

    async def add_space(self, tenant_id: str, model: str, dimension: int) -> None:
        """Add the space's nullable column (``add_column``: retried while live writes preempt it)."""
        async with map_lance_errors():
            table = await self._table(tenant_id)
            if table is not None and await add_column(table, space_field(model, dimension)):
                self._db.written.add(ARCHIVE_PREFIX + tenant_id)

    async def space_progress(self, tenant_id: str, model: str) -> tuple[int, int]:
        """(rows whose vector in the space is still null, rows in all); (0, 0) without a table."""
        async with map_lance_errors():
            table = await self._table(tenant_id)
            if table is None:
                return 0, 0
            total = int(await table.count_rows())
            if space_column(model) not in (await table.schema()).names:
                return total, total
            return int(await table.count_rows(f"{space_column(model)} IS NULL")), total

    async def missing_in_space(self, tenant_id: str, model: str, limit: int, after_id: str = "") -> list[MemoryRecord]:
        """Up to ``limit`` rows with no vector in the space yet (any status: a restored memory needs one too).

        ``after_id`` pages on (the id's BTree narrows the scan; without it each page re-reads every
        row filled before it): a page may skip a few ids, so a pass ends with one read without it.
        """
        async with map_lance_errors():
            table = await self._table(tenant_id)
            if table is None or space_column(model) not in (await table.schema()).names:
                return []
            where = f"{space_column(model)} IS NULL" + (f" AND id > {literal(after_id)}" if after_id else "")
            rows = await table.query().where(where).select(RECORD_COLUMNS).limit(limit).to_arrow()
        return sorted(map(to_record, rows_of(rows)), key=lambda r: r.memory_id)

    async def fill_space(self, tenant_id: str, model: str, rows: Sequence[tuple[MemoryRecord, Vector]]) -> int:
        """The stored rows written back with the space's vector set, in one merge.

        A row rewritten since it was read (another hash) or filled meanwhile (another process) is left
        alone. Whole rows, not (id, vector) alone: a merge of fewer columns than the table's panics in
        Lance once the table has been optimized ("Incorrect number of arrays for StructArray fields"),
        and an update rewrites the whole row anyway.
        """
        async with self._copies.writing(tenant_id):
            if not rows:
                return 0
            column = space_column(model)
            vectors = {r.memory_id: v for r, v in rows}
            async with map_lance_errors():
                table = await self._table(tenant_id)
                if table is None:
                    return 0
                stored = await table.query().where(ids_in(list(vectors))).to_arrow()
                if stored.num_rows == 0:
                    return 0
                at = stored.schema.get_field_index(column)
                field = stored.schema.field(column)
                filled = pa.array([list(vectors[i]) for i in stored.column("id").to_pylist()], field.type)
                data = stored.set_column(at, field, filled)
                self._db.written.add(ARCHIVE_PREFIX + tenant_id)
                unfilled = f"target.content_hash = source.content_hash AND target.{column} IS NULL"
                merge = table.merge_insert("id").when_matched_update_all(where=unfilled)
                async with self._db.rewriting(ARCHIVE_PREFIX + tenant_id):
                    result = await merge.execute(data, on_bad_vectors=KEEP_NULL_VECTORS)
            # The in-memory copy holds the store's model's vectors only: still right at the new version.
            await self._after_write(tenant_id, table, result.version, lambda copy: copy.unchanged(result.version))
            return int(result.num_updated_rows)

    async def agents(self) -> list[tuple[str, str]]:
        """Every (tenant, agent) that authored a memory: operator-level, for batch jobs only."""
        out: list[tuple[str, str]] = []
        async with map_lance_errors():
            names = [n async for n in self._db.names() if n.startswith(ARCHIVE_PREFIX)]
            for name in sorted(names):
                table = await self._db.open_existing(name)
                ids = (await table.query().select(["agent_id"]).to_arrow()).column("agent_id").unique()
                out.extend((name[len(ARCHIVE_PREFIX) :], agent) for agent in sorted(ids.to_pylist()) if agent)
        return out


_HotLoad = tuple[pa.Table, frozenset[int] | None, frozenset[int] | None]
"""A table's rows for its in-memory copy and the fragments its ``search_text`` and ``prefixes`` indexes cover."""


async def _follow_commits(copy: ArchiveCopy, table: Any, version: int) -> ArchiveCopy | None:
    """The copy after the rows appended, deleted and rewritten since its version (any process's); None for others.

    A delete hides its rows as this process's own deletes do (the full-text statistics still count them,
    as the index's do until it is rebuilt); a rewrite is a delete and an append, as this process's own
    ``replace`` is.
    """
    steps = await commits_since(table, copy.version, version, [*RECORD_COLUMNS, "vector", "search_text", "prefixes"])
    if steps is None:
        return None
    for step in steps:
        copy = copy.deleted(step.version, step.deleted)
        data = step.added
        if data is None:
            continue
        if data.column("vector").null_count:
            return None
        dimension = data.schema.field("vector").type.list_size
        vectors = data.column("vector").combine_chunks().flatten().to_numpy().reshape(data.num_rows, dimension)
        records = [to_record(row) for row in rows_of(data.select(RECORD_COLUMNS))]
        texts = [str(t) for t in data.column("search_text").to_pylist()]
        prefixes = [str(p) for p in data.column("prefixes").to_pylist()]
        copy = copy.inserted(step.version, list(zip(records, vectors, strict=True)), texts, prefixes)
    return copy


async def _read_hot(table: Any) -> _HotLoad:
    """A small table for its in-memory copy, and the fragments each full-text index covers.

    None instead of an index's fragments when the copy could not rank as that index does: no index, an
    index of several segments, or a covered fragment holding a deleted row (whose words the index's
    statistics still count).
    """
    data = await table.query().select([*RECORD_COLUMNS, "vector", "search_text", "prefixes", "_rowaddr"]).to_arrow()
    dataset = await table.to_lance()
    if dataset.version != await table.version():
        return data, None, None
    indexes = dataset.describe_indices()
    deleted = {f.fragment_id for f in dataset.get_fragments() if f.metadata.deletion_file is not None}

    def covered(column: str) -> frozenset[int] | None:
        index = next((ix for ix in indexes if ix.field_names == [column]), None)
        if index is None or len(index.segments) != 1:  # several segments: their statistics were not measured
            return None
        fragments = frozenset(int(f) for f in index.segments[0].fragment_ids)
        return None if fragments & deleted else fragments

    return data, covered("search_text"), covered("prefixes")


async def _upgrade(table: Any) -> None:
    """A tenant table of an older store gains the columns added since (a no-op when present).

    Several processes may open an old table at once, and write it: ``add_column`` copes with both.
    """
    for column in _ADDED_COLUMNS:
        await add_column(table, pa.field(column, pa.string(), nullable=True))
    await ensure_indexes(table, _ADDED_INDEXES)


async def _ensure_stats_rows(table: Any, ids: Sequence[str]) -> None:
    """Side-table rows for these ids, inserted at zero where missing (an upsert on the primary key)."""
    fresh = pa.table(
        {
            name: [0] * len(ids) if name in _ZEROED else ids if name == "id" else [None] * len(ids)
            for name in RETRIEVAL_SCHEMA.names
        },
        schema=RETRIEVAL_SCHEMA,
    )
    await table.merge_insert("id").when_not_matched_insert_all().execute(fresh)


_ZEROED = frozenset({"retrieval_count", "injected_count"})


def _plus(column: str, counts: Mapping[str, int]) -> str:
    """``column`` plus each id's count as one SQL expression (the ids grouped by their count)."""
    by_count: dict[int, list[str]] = {}
    for memory_id, n in counts.items():
        by_count.setdefault(int(n), []).append(memory_id)
    # Lance's SQL has no CASE: each group adds its count times its membership (a boolean cast to 0 or 1).
    terms = " + ".join(f"{n} * CAST({ids_in(same)} AS BIGINT)" for n, same in sorted(by_count.items()))
    return f"coalesce({column}, 0) + {terms}"


async def _upgrade_stats(table: Any) -> None:
    """A retrieval side table of an older store gains the columns added since (nulls count as 0)."""
    for column in ADDED_STATS_COLUMNS:
        await add_column(table, RETRIEVAL_SCHEMA.field(column))


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
