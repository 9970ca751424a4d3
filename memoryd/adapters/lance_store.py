"""MemoryStore on LanceDB (async API): one table per tenant, hybrid-ready indexes.

Layout. Each tenant's memories live in their own table (``memories_<tenant>``),
so tenancy is a partition: a query can only ever open the caller's table, and
a per-agent visible set is a slice of one tenant's rows rather than of every
row in the service. Every query still pins ``tenant_id`` and the visibility
rule through ``lance_filters.visible_where`` (defence in depth).

Indexes per table: full text on ``search_text`` (date + content; stemmed, with positions) and on
``prefixes`` (unstemmed word prefixes, see ``core.query_terms``); bitmaps on
``scope``, ``agent_id``, ``end_user_id``; a BTree on ``id``. The vector column
is searched exactly until a table reaches ``ann_min_rows``; from then on the
maintenance step builds an IVF_HNSW_SQ index (off the request path).

Concurrency. ``id`` is an (unenforced) primary key, so merge_insert is an
atomic upsert across processes; connections re-read the latest version on
every query (``read_consistency_interval=0``) because the daemon and the
workers write the same tables.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

import lancedb
import pyarrow as pa
from lancedb.index import FTS, Bitmap, BTree, IvfHnswSq
from lancedb.query import BooleanQuery, FullTextOperator, MatchQuery, Occur

from memoryd.adapters.hot_vectors import COLUMNS as HOT_COLUMNS
from memoryd.adapters.hot_vectors import HotSnapshot
from memoryd.adapters.lance_errors import map_lance_errors
from memoryd.adapters.lance_filters import ids_in, literal, timestamp, visible_where
from memoryd.adapters.lance_rows import (
    PRIMARY_KEY,
    RECORD_COLUMNS,
    RETRIEVAL_SCHEMA,
    memory_schema,
    to_record,
    to_table,
)
from memoryd.adapters.lance_tables import ensure_indexes
from memoryd.core.errors import NotReady
from memoryd.core.models import Actor, ArmHit, FullTextQuery, MemoryFilter, MemoryRecord, Vector

log = logging.getLogger(__name__)

_PREFIX = "memories_"
_STATS_PREFIX = "retrievals_"
_HOT_REFRESH_SECONDS = 1.0
# Arms fetch ids only: reading every column of 40 candidates doubled an arm's
# latency at 100k rows; the fused winners' records are read once afterwards.
_ARM_COLUMNS = ["id", "occurred_at"]
_META = "store_meta"


class LanceMemoryStore:
    """The archive on a LanceDB directory or object-store URI."""

    def __init__(self, db: lancedb.AsyncConnection, dimension: int, ann_min_rows: int,
                 optimize_min_fragments: int, cleanup_older_than: timedelta, hot_max_rows: int = 0,
                 hot_total_rows: int = 0) -> None:
        self._db = db
        self._hot_max_rows = min(hot_max_rows, ann_min_rows)
        self._hot_total_rows = hot_total_rows
        self._hot: OrderedDict[str, HotSnapshot] = OrderedDict()
        self._refreshing: dict[str, asyncio.Task[None]] = {}
        self._refreshed_at: dict[str, float] = {}
        self._schema = memory_schema(dimension)
        self._ann_min_rows = ann_min_rows
        self._optimize_min_fragments = optimize_min_fragments
        self._cleanup_older_than = cleanup_older_than
        self._tables: dict[str, Any] = {}
        self._stats: dict[str, Any] = {}
        self._open_lock = asyncio.Lock()
        self.written: set[str] = set()
        """Tables this process wrote since the last maintenance pass (shared with the sibling stores)."""

    @classmethod
    async def open(cls, uri: str, model_name: str, dimension: int, *, ann_min_rows: int = 50_000,
                   optimize_min_fragments: int = 16, cleanup_older_than: timedelta = timedelta(hours=1),
                   read_consistency: timedelta = timedelta(0), hot_max_rows: int = 0,
                   hot_total_rows: int = 0, index_cache_bytes: int = 128 << 20,
                   metadata_cache_bytes: int = 32 << 20) -> LanceMemoryStore:
        """Connect and check the store was built with this embedding model (NotReady if not).

        The caches are bounded: Lance's defaults (gigabytes) let a busy daemon's resident set
        grow for as long as writes make new versions and files to cache.
        """
        async with map_lance_errors():
            session = lancedb.Session(index_cache_size_bytes=index_cache_bytes,
                                      metadata_cache_size_bytes=metadata_cache_bytes)
            db = await lancedb.connect_async(uri, read_consistency_interval=read_consistency, session=session)
            await _check_embedding_model(db, model_name, dimension)
        return cls(db, dimension, ann_min_rows, optimize_min_fragments, cleanup_older_than, hot_max_rows,
                   hot_total_rows)

    @property
    def connection(self) -> lancedb.AsyncConnection:
        """The connection, shared by sibling stores (profiles) of the same database."""
        return self._db

    def close(self) -> None:
        """Release the connection."""
        for task in self._refreshing.values():
            task.cancel()
        self._hot.clear()
        self._tables.clear()
        self._db.close()  # type: ignore[no-untyped-call]  # lancedb leaves close() unannotated

    # -- partitions -----------------------------------------------------------

    async def _table(self, tenant_id: str, *, create: bool) -> Any | None:
        table = self._tables.get(tenant_id)
        if table is not None:
            return table
        async with self._open_lock:
            table = self._tables.get(tenant_id)
            if table is None:
                table = await self._open_or_create(_PREFIX + tenant_id, create)
                if table is not None:
                    self._tables[tenant_id] = table
        return table

    async def _stats_table(self, tenant_id: str) -> Any:
        table = self._stats.get(tenant_id)
        if table is None:
            async with self._open_lock:
                table = self._stats.get(tenant_id)
                if table is None:
                    name = _STATS_PREFIX + tenant_id
                    try:
                        table = await self._db.open_table(name)
                    except ValueError:
                        table = await self._db.create_table(name, schema=RETRIEVAL_SCHEMA, exist_ok=True)
                        await ensure_indexes(table, [("id", BTree())])
                    self._stats[tenant_id] = table
        return table

    async def _open_or_create(self, name: str, create: bool) -> Any | None:
        try:
            return await _upgraded(await self._db.open_table(name))
        except ValueError:  # lancedb: "Table ... was not found"
            if not create:
                return None
        # Two processes creating the same new tenant table at the same instant can
        # both commit a first version; memory ids are random, so inserts still
        # cannot collide, and every later upsert sees the schema's primary key.
        table = await self._db.create_table(name, schema=self._schema, exist_ok=True)
        await ensure_indexes(table, [
            ("search_text", FTS(with_position=True)),
            ("prefixes", FTS(with_position=False, stem=False, remove_stop_words=False)),
            ("scope", Bitmap()), ("agent_id", Bitmap()), ("end_user_id", Bitmap()), ("id", BTree()),
            ("request_key", BTree())])
        return table

    async def _scoped(self, actor: Actor, flt: MemoryFilter | None = None, *, col: str = "") -> tuple[Any, str]:
        """The gate every read and write of memories passes.

        Returns the actor's own tenant table (None if the tenant has none yet) and the
        predicate of what the actor may see (``lance_filters.visible_where``).
        """
        return await self._table(actor.tenant_id, create=False), visible_where(actor, flt, col=col)

    # -- writes ---------------------------------------------------------------

    async def insert(self, tenant_id: str, rows: Sequence[tuple[MemoryRecord, Vector]]) -> None:
        """Add rows in one commit; durable when this returns."""
        async with map_lance_errors():
            table = await self._table(tenant_id, create=True)
            assert table is not None  # create=True always yields a table
            data = to_table(rows, self._schema)
            self.written.add(_PREFIX + tenant_id)
            # Bulk loads in one giant batch scan 2.6x slower forever: keep batches small.
            await table.add(pa.Table.from_batches(data.to_batches(max_chunksize=8192), schema=self._schema))

    async def replace(self, actor: Actor, record: MemoryRecord, vector: Vector | None) -> bool:
        """Upsert over a visible row only (the visibility check is inside the merge)."""
        async with map_lance_errors():
            table, visible = await self._scoped(actor, col="target.")
            if table is None:
                return False
            if vector is None:
                found = await (table.query().where(f"id = {literal(record.memory_id)}")
                               .select(["vector"]).limit(1).to_arrow())
                if found.num_rows == 0:
                    return False
                vector = found.column("vector")[0].as_py()
            data = to_table([(record, vector)], self._schema)
            self.written.add(_PREFIX + actor.tenant_id)
            result = await (table.merge_insert("id")
                            .when_matched_update_all(where=visible)
                            .execute(data))
            return bool(result.num_updated_rows == 1)

    async def delete(self, actor: Actor, memory_id: str) -> bool:
        """Delete a visible row (and its retrieval statistics)."""
        async with map_lance_errors():
            table, visible = await self._scoped(actor)
            if table is None:
                return False
            self.written.add(_PREFIX + actor.tenant_id)
            result = await table.delete(f"id = {literal(memory_id)} AND {visible}")
            if result.num_deleted_rows:
                await (await self._stats_table(actor.tenant_id)).delete(f"id = {literal(memory_id)}")
            return bool(result.num_deleted_rows > 0)

    async def record_retrievals(self, tenant_id: str, counts: Mapping[str, int], at: datetime) -> None:
        """Add to the side table: insert missing ids at 0, then one increment per distinct count.

        Increments are SQL updates (``retrieval_count + n``), so flushes from several
        daemons add up instead of overwriting each other.
        """
        if not counts:
            return
        async with map_lance_errors():
            table = await self._stats_table(tenant_id)
            self.written.add(_STATS_PREFIX + tenant_id)
            fresh = pa.table({"id": list(counts), "retrieval_count": [0] * len(counts),
                              "last_retrieved_at": [None] * len(counts)}, schema=RETRIEVAL_SCHEMA)
            await table.merge_insert("id").when_not_matched_insert_all().execute(fresh)
            by_count: dict[int, list[str]] = {}
            for memory_id, n in counts.items():
                by_count.setdefault(n, []).append(memory_id)
            for n, ids in by_count.items():
                await table.update(where=ids_in(ids), updates_sql={
                    "retrieval_count": f"retrieval_count + {int(n)}", "last_retrieved_at": timestamp(at)})

    # -- reads ----------------------------------------------------------------

    async def get(self, actor: Actor, memory_id: str) -> MemoryRecord | None:
        """A visible row by id."""
        return (await self.get_many(actor, [memory_id])).get(memory_id)

    async def get_many(self, actor: Actor, memory_ids: Sequence[str], *,
                       with_retrievals: bool = True) -> dict[str, MemoryRecord]:
        """Visible rows by id, in one query (the BTree on id makes it a lookup)."""
        if not memory_ids:
            return {}
        async with map_lance_errors():
            table, visible = await self._scoped(actor)
            if table is None:
                return {}
            rows, stats = await asyncio.gather(
                table.query().where(f"{ids_in(memory_ids)} AND {visible}")
                .select(RECORD_COLUMNS).to_arrow(),
                self._retrieval_stats(actor.tenant_id, memory_ids) if with_retrievals else _no_stats())
        records = {r["id"]: to_record(r, stats.get(r["id"])) for r in rows.to_pylist()}
        if any(r.tenant_id != actor.tenant_id for r in records.values()):
            # Cannot happen while tables are per tenant; if it ever does, fail loudly, never leak.
            raise RuntimeError(f"tenant table for {actor.tenant_id!r} holds another tenant's rows")
        return records

    async def by_request_keys(self, actor: Actor, keys: Sequence[str], since: datetime) -> dict[str, MemoryRecord]:
        """Visible rows created at or after ``since`` by the calls these request keys name, by key."""
        if not keys:
            return {}
        async with map_lance_errors():
            table, visible = await self._scoped(actor)
            if table is None:
                return {}
            keyed = "request_key IN (" + ", ".join(literal(k) for k in keys) + ")"
            rows = await (table.query().where(f"{keyed} AND created_at >= {timestamp(since)} AND {visible}")
                          .select(RECORD_COLUMNS).to_arrow())
        return {r.request_key: r for r in map(to_record, rows.to_pylist())}

    async def _retrieval_stats(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        table = await self._stats_table(tenant_id)
        rows = await table.query().where(ids_in(memory_ids)).to_arrow()
        return {r["id"]: r for r in rows.to_pylist()}

    async def nearest(self, actor: Actor, vector: Vector, flt: MemoryFilter, limit: int,
                      min_similarity: float, *, exact: bool = False) -> list[ArmHit]:
        """Cosine kNN under the visibility prefilter, floor applied (``exact`` bypasses the ANN index)."""
        async with map_lance_errors():
            table, visible = await self._scoped(actor, flt)
            if table is None:
                return []
            if self._hot_max_rows and not flt.tags:
                hot = await self._current_snapshot(actor.tenant_id, table)
                if hot is not None:
                    return hot.nearest(actor, flt, vector, limit, min_similarity)
            query = table.query().nearest_to(list(vector)).distance_type("cosine")
            if exact:
                query = query.bypass_vector_index()
            rows = await (query.where(visible).select([*_ARM_COLUMNS, "_distance"])
                          .limit(limit).to_arrow())
        hits = []
        for row in rows.to_pylist():
            similarity = 1.0 - float(row["_distance"])
            if similarity >= min_similarity:
                hits.append(ArmHit(row["id"], similarity, row["occurred_at"]))
        return hits

    async def full_text(self, actor: Actor, query: FullTextQuery, flt: MemoryFilter, limit: int,
                        require_all: bool) -> list[ArmHit]:
        """BM25 over search_text (date + content, stemmed) and prefixes (word prefixes), visibility prefiltered."""
        async with map_lance_errors():
            table, visible = await self._scoped(actor, flt)
            if table is None or not query.terms:
                return []
            rows = await (table.query().nearest_to_text(_text_query(query, require_all))
                          .where(visible).select([*_ARM_COLUMNS, "_score"])
                          .limit(limit).to_arrow())
        return [ArmHit(row["id"], float(row["_score"]), row["occurred_at"]) for row in rows.to_pylist()]

    async def page(self, actor: Actor, flt: MemoryFilter, after_id: str, limit: int) -> list[MemoryRecord]:
        """Visible rows after ``after_id`` in id order (ids are time-ordered)."""
        async with map_lance_errors():
            table, where = await self._scoped(actor, flt)
            if table is None:
                return []
            if after_id:
                where += f" AND id > {literal(after_id)}"
            ids = (await table.query().where(where).select(["id"]).to_arrow()).column("id").to_pylist()
            wanted = sorted(ids)[:limit]
            if not wanted:
                return []
        records = await self.get_many(actor, wanted)
        return [records[i] for i in wanted if i in records]

    # -- hot snapshots (small tables) -----------------------------------------

    async def _current_snapshot(self, tenant_id: str, table: Any) -> HotSnapshot | None:
        """The in-memory snapshot if it is of the table's current version; else schedule a refresh."""
        snapshot = self._hot.get(tenant_id)
        version = await table.version()
        if snapshot is not None and snapshot.version == version:
            self._hot.move_to_end(tenant_id)
            return snapshot
        # A refresh rescans the table: under a stream of writes do it at most once a
        # second per tenant, so writes never pay a full scan each.
        now = time.monotonic()
        if tenant_id not in self._refreshing and now - self._refreshed_at.get(tenant_id, 0.0) >= _HOT_REFRESH_SECONDS:
            self._refreshed_at[tenant_id] = now
            task = asyncio.create_task(self._refresh(tenant_id, table))
            self._refreshing[tenant_id] = task
            task.add_done_callback(lambda _: self._refreshing.pop(tenant_id, None))
        return None

    async def _refresh(self, tenant_id: str, table: Any) -> None:
        # The version is read before the scan, so a snapshot is never labelled newer than
        # what it holds: a write landing mid-scan leaves it older than the table, hence unused.
        try:
            version = await table.version()
            if await table.count_rows() > self._hot_max_rows:
                self._hot.pop(tenant_id, None)
                # Too big for the hot path (the ANN index serves it); tables rarely shrink, so
                # look again only in a minute instead of on every query.
                self._refreshed_at[tenant_id] = time.monotonic() + 60.0
                return
            data = await table.query().select(HOT_COLUMNS).to_arrow()
            self._hot[tenant_id] = HotSnapshot.from_arrow(version, data)
            self._hot.move_to_end(tenant_id)
            while sum(s.rows for s in self._hot.values()) > self._hot_total_rows and len(self._hot) > 1:
                self._hot.popitem(last=False)  # least recently used tenant first
        except Exception:  # a failed refresh only means the LanceDB path keeps serving
            log.warning("hot snapshot refresh failed", extra={"tenant": tenant_id}, exc_info=True)

    async def has_vector_index(self, tenant_id: str) -> bool:
        """Whether the tenant's table has an ANN index (benchmarks report which path served)."""
        table = await self._table(tenant_id, create=False)
        return table is not None and await table.index_stats("vector_idx") is not None

    async def agents(self) -> list[tuple[str, str]]:
        """Every (tenant, agent) that authored a memory: operator-level, for batch jobs only."""
        out: list[tuple[str, str]] = []
        async with map_lance_errors():
            names = [n async for n in _table_names(self._db) if n.startswith(_PREFIX)]
            for name in sorted(names):
                table = await self._db.open_table(name)
                ids = (await table.query().select(["agent_id"]).to_arrow()).column("agent_id").unique()
                out.extend((name[len(_PREFIX):], agent) for agent in sorted(ids.to_pylist()) if agent)
        return out

    # -- maintenance ----------------------------------------------------------

    async def maintain(self, *, full: bool = True) -> None:
        """Compact fragment growth and build ANN indexes on large tables (never on a request).

        ``full`` visits every table (writes of other processes included); otherwise only the
        tables this process wrote since the last pass, which keeps busy tables (a conversation's
        items gain a fragment per append) merged within seconds at little cost.
        """
        written = set(self.written)
        self.written.clear()  # in place: the sibling stores hold this very set
        async with map_lance_errors():
            # Full: every table but the metadata row — memories, retrieval counts, profiles and
            # conversations (one fragment per commit, so they all fragment like the archive).
            names = [n async for n in _table_names(self._db) if n != _META] if full else sorted(written)
            for name in names:
                table = await self._db.open_table(name)
                await self._maintain_table(name, table)

    async def _maintain_table(self, name: str, table: Any) -> None:
        stats = await table.stats()
        small = stats["fragment_stats"]["num_small_fragments"]
        if not name.startswith(_PREFIX):
            if small >= self._optimize_min_fragments:
                await table.optimize(cleanup_older_than=self._cleanup_older_than)
            return
        fts = await table.index_stats("search_text_idx")
        unindexed = fts.num_unindexed_rows if fts else 0
        if small >= self._optimize_min_fragments or unindexed >= 1000:
            await table.optimize(cleanup_older_than=self._cleanup_older_than)
            log.info("optimized table", extra={"table": name, "small_fragments": small, "unindexed": unindexed})
        if stats["num_rows"] >= self._ann_min_rows and await table.index_stats("vector_idx") is None:
            log.info("building vector index", extra={"table": name, "rows": stats["num_rows"]})
            await table.create_index("vector", config=IvfHnswSq(distance_type="cosine"))


async def _upgraded(table: Any) -> Any:
    """A tenant table of an older store, given the columns added since (a no-op when present).

    Several processes may open an old table at once: a losing concurrent add leaves the column
    there all the same, so the schema is read again rather than the error trusted.
    """
    if "request_key" in (await table.schema()).names:
        return table
    try:
        await table.add_columns(pa.field("request_key", pa.string(), nullable=True))
    except (RuntimeError, ValueError):
        if "request_key" not in (await table.schema()).names:
            raise
    await ensure_indexes(table, [("request_key", BTree())])
    return table


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


async def _table_names(db: lancedb.AsyncConnection) -> AsyncIterator[str]:
    token: str | None = None
    while True:
        page = await db.list_tables(page_token=token, limit=1000)
        for name in page.tables:
            yield name
        token = page.page_token
        if not token:
            return


async def _check_embedding_model(db: lancedb.AsyncConnection, model_name: str, dimension: int) -> None:
    """Refuse to mix vectors of two embedding models in one store."""
    # The primary key is part of the schema, so two processes creating the store at the same
    # instant (`memoryd up` starts the daemon and a worker together) create the same table.
    schema = pa.schema([pa.field("key", pa.string(), nullable=False, metadata=PRIMARY_KEY),
                        pa.field("model", pa.string()), pa.field("dimension", pa.int64())])
    try:
        meta = await db.open_table(_META)
    except ValueError:
        try:
            meta = await db.create_table(_META, schema=schema, exist_ok=True)
        except ValueError:  # created meanwhile with another schema revision: use it as it is
            meta = await db.open_table(_META)
        row = pa.Table.from_pylist([{"key": "embedding", "model": model_name, "dimension": dimension}], schema)
        await meta.merge_insert("key").when_not_matched_insert_all().execute(row)
    rows = (await meta.query().where("key = 'embedding'").to_arrow()).to_pylist()
    if rows and (rows[0]["model"], rows[0]["dimension"]) != (model_name, dimension):
        raise NotReady(
            f"the store was built with embedding model {rows[0]['model']!r} ({rows[0]['dimension']} dims) "
            f"but the daemon is configured with {model_name!r} ({dimension} dims); start it with the "
            "original embedder or re-embed the store"
        )


async def _no_stats() -> dict[str, dict[str, Any]]:
    return {}
