"""The archive's tables on LanceDB: one per tenant (``memories_<tenant>``), beside their statistics.

Layout. Each tenant's memories live in their own table, so tenancy is a partition: a query can
only ever open the caller's table, and a per-agent visible set is a slice of one tenant's rows
rather than of every row in the service. Every query still pins the visibility rule through
``filters.visible_where`` (defence in depth); ``ArchiveTables.scoped`` is the gate every read and
write passes.

Indexes per table: full text on ``search_text`` (date + content; stemmed, with positions) and on
``prefixes`` (unstemmed word prefixes, see ``core.query_terms``); bitmaps on ``scope``, ``agent_id``,
``end_user_id``, ``status`` and ``memory_type``; BTrees on ``id``, ``request_key``, ``source_id``,
``category``, ``subject``, ``collection``, ``salience`` and ``occurred_at``; a label list on ``tags``
(``ARCHIVE_INDEXES``). The vector column is searched exactly until the maintenance pass builds an
IVF_HNSW_SQ index on a large table. ``id`` is an (unenforced) primary key, so merge_insert is an
atomic upsert across processes.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import pyarrow as pa
from lancedb.index import FTS, Bitmap, BTree, LabelList

from memoryd.adapters.lance.cold_reads import FillRates, ShortFilters
from memoryd.adapters.lance.copies.archive import ArchiveCopy
from memoryd.adapters.lance.copies.cache import CopyCache, commits_since
from memoryd.adapters.lance.copies.stats import StatsCopy
from memoryd.adapters.lance.copies.text import Vocabulary
from memoryd.adapters.lance.db import LanceDatabase, add_column, ensure_indexes
from memoryd.adapters.lance.filters import ids_in, visible_where
from memoryd.adapters.lance.rows import (
    ADDED_STATS_COLUMNS,
    RECORD_COLUMNS,
    RETRIEVAL_SCHEMA,
    memory_schema,
    rows_of,
    to_record,
)
from memoryd.adapters.lance.text_analysis import built_language, search_text_index
from memoryd.core.models import ALL_STATUSES, Actor, MemoryFilter
from memoryd.core.query_terms import DEFAULT_TEXT_LANGUAGE

ARCHIVE_PREFIX = "memories_"

STATS_PREFIX = "retrievals_"

_BY_ID = MemoryFilter(statuses=ALL_STATUSES)
"""Reads and writes by id see every lifecycle state (archived rows stay readable and restorable)."""

_ADDED_COLUMNS = ("request_key", "superseded_by", "collection")
"""Nullable string columns added after the first release (``_upgrade``)."""

ARCHIVE_INDEXES = [
    ("search_text", search_text_index(DEFAULT_TEXT_LANGUAGE)),
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


class ArchiveTables:
    """A tenant's archive and retrieval statistics tables on one ``LanceDatabase``, and their in-memory copies.

    Shared by the archive's port classes (``LanceMemoryStore``, ``LanceRetrievalStats``,
    ``LancePendingEmbeddings``, ``LanceArchiveSnapshot``, ``LanceAgentDirectory``, ``LanceSpaceFiller``):
    they answer different callers over the same tables and copies.
    """

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
        self.db = db
        self.ann_min_rows = ann_min_rows
        """From this many visible rows a copy's vector search is approximate too (``faiss_rows``)."""
        self.schema = memory_schema(dimension)
        self.copies: CopyCache[ArchiveCopy] = CopyCache(copy_max_rows, copy_tables, copy_total_rows)
        """In-memory copies of small tables by tenant (``copies.archive``)."""
        self.stats: CopyCache[StatsCopy] = CopyCache(min(copy_max_rows, _STATS_MAX_ROWS), copy_tables, copy_total_rows)
        """The retrieval statistics tables by tenant (``copies.stats``), up to 30,000 rows: a statistics
        table changes at every flush, and each change reloads it on the next read (100,000 rows: 100-190 ms
        of a GetMemory; 30,000 rows a third of that)."""
        self.copy_tables, self.copy_total_rows = copy_tables, copy_total_rows
        self.short = ShortFilters()
        """Predicates whose vector searches filtered afterwards came up short (``cold_reads``)."""
        self.fills = FillRates()
        """How often each tenant's all-words tier filled the places (its tiers side by side or in turn)."""
        self.vocabularies: dict[str, tuple[Vocabulary, Vocabulary]] = {}
        """Token ids by tenant (``search_text``'s, ``prefixes``'), kept across its copies (``copies.text``)."""

    async def table(self, tenant_id: str) -> Any | None:
        """The tenant's archive table (None before its first memory); upgraded in place when older."""
        return await self.db.table_if_exists(ARCHIVE_PREFIX + tenant_id, upgrade=_upgrade)

    async def stats_table(self, tenant_id: str, *, write: bool = False) -> Any:
        """The tenant's retrieval statistics table (created on a write)."""
        return await self.db.table(
            STATS_PREFIX + tenant_id, RETRIEVAL_SCHEMA, [("id", BTree())], write=write, upgrade=_upgrade_stats
        )

    async def copy_of(self, tenant_id: str, table: Any) -> ArchiveCopy | None:
        """The tenant's table in memory at its current version, when it is small enough (else None)."""
        return await self.copies.copy(tenant_id, table, (), self.builder(tenant_id), _read_copy, _follow_commits)

    @contextlib.asynccontextmanager
    async def keeping_copy(self, name: str) -> AsyncIterator[None]:
        """Around maintenance's optimize of table ``name``: its copy keeps answering (``CopyCache.rewriting``)."""
        if not name.startswith(ARCHIVE_PREFIX):
            yield
            return
        tenant_id = name.removeprefix(ARCHIVE_PREFIX)

        async def reload() -> None:
            if (table := await self.table(tenant_id)) is not None:
                await self.copies.refresh(tenant_id, table, (), self.builder(tenant_id), _read_copy)

        async with self.copies.rewriting(tenant_id, reload):
            yield

    def builder(self, tenant_id: str) -> Callable[[int, CopyLoad], ArchiveCopy]:
        """How a load of the tenant's table becomes its copy (on the tenant's vocabularies)."""
        vocabularies = self.vocabularies.get(tenant_id)
        if vocabularies is None:
            kept = self.vocabularies.values()
            if len(kept) >= 4 * self.copy_tables or sum(len(w) + len(p) for w, p in kept) >= 4 * self.copy_total_rows:
                self.vocabularies.clear()  # tenants come and go (their texts stay here once their copies went)
            vocabularies = self.vocabularies[tenant_id] = (Vocabulary(), Vocabulary(prefixes=True))

        def build(version: int, loaded: CopyLoad) -> ArchiveCopy:
            data, covered, prefixes_covered, language = loaded
            words, prefixes = vocabularies
            if language is not None and words.language != language:  # the index was rebuilt in another language
                words = Vocabulary(language=language)
                self.vocabularies[tenant_id] = (words, prefixes)
            return ArchiveCopy.from_arrow(
                version, data, words, covered, prefixes, prefixes_covered, ann_min_rows=self.ann_min_rows
            )

        return build

    async def after_write(
        self, tenant_id: str, table: Any, version: int, apply: Callable[[ArchiveCopy], ArchiveCopy | None]
    ) -> None:
        """Keep the in-memory copy current after this process's write, or drop it when it cannot be.

        The copy follows when nobody else committed in between, or when the commits in between changed
        no row (this process's optimize under way, ``CopyCache.rewriting``).
        """
        copy = self.copies.current(tenant_id)
        if copy is None or copy.version == version:  # (the second: a read loaded the table at this version)
            return
        if copy.version != version - 1 and not await self.copies.unchanged(tenant_id, table, copy.version, version - 1):
            return  # another process committed in between: the next read catches the copy up (or loads)
        if self.copies.current(tenant_id) is not copy:  # replaced or dropped meanwhile: the next read decides
            return
        updated = apply(copy)
        if updated is not None and self.copies.holds(updated):
            self.copies.put(tenant_id, updated)
        else:
            self.copies.pop(tenant_id)

    async def scoped(self, actor: Actor, flt: MemoryFilter | None = None, *, col: str = "") -> tuple[Any, str]:
        """The gate every read and write of memories passes.

        Returns the actor's own tenant table (None if the tenant has none yet) and the
        predicate of what the actor may see (``lance_filters.visible_where``).
        """
        return await self.table(actor.tenant_id), visible_where(actor, flt, col=col)

    async def retrieval_stats(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """These memories' statistics rows, by id (from the table's in-memory copy when held)."""
        table = await self.stats_table(tenant_id)
        copy = await self.stats.copy(tenant_id, table, RETRIEVAL_SCHEMA.names, StatsCopy.of)
        if copy is not None:
            return copy.rows(memory_ids)
        rows = await table.query().where(ids_in(memory_ids)).to_arrow()
        return {r["id"]: r for r in rows.to_pylist()}


CopyLoad = tuple[pa.Table, frozenset[int] | None, frozenset[int] | None, str | None]
"""A table's rows for its in-memory copy, the fragments its ``search_text`` and ``prefixes`` indexes cover,
and the language ``search_text``'s was built in (``text_analysis``; None: not read, no index)."""


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


async def _read_copy(table: Any) -> CopyLoad:
    """A small table for its in-memory copy, and the fragments each full-text index covers.

    None instead of an index's fragments when the copy could not rank as that index does: no index, an
    index of several segments, or a covered fragment holding a deleted row (whose words the index's
    statistics still count).
    """
    data = await table.query().select([*RECORD_COLUMNS, "vector", "search_text", "prefixes", "_rowaddr"]).to_arrow()
    dataset = await table.to_lance()
    if dataset.version != await table.version():
        return data, None, None, None
    indexes = dataset.describe_indices()
    deleted = {f.fragment_id for f in dataset.get_fragments() if f.metadata.deletion_file is not None}

    def covered(column: str) -> frozenset[int] | None:
        index = next((ix for ix in indexes if ix.field_names == [column]), None)
        if index is None or len(index.segments) != 1:  # several segments: their statistics were not measured
            return None
        fragments = frozenset(int(f) for f in index.segments[0].fragment_ids)
        return None if fragments & deleted else fragments

    words = next((ix for ix in indexes if ix.field_names == ["search_text"]), None)
    language = built_language(words.details) if words is not None else None
    return data, covered("search_text"), covered("prefixes"), language


async def _upgrade(table: Any) -> None:
    """A tenant table of an older store gains the columns added since (a no-op when present).

    Several processes may open an old table at once, and write it: ``add_column`` copes with both.
    """
    for column in _ADDED_COLUMNS:
        await add_column(table, pa.field(column, pa.string(), nullable=True))
    await add_column(table, pa.field("pinned", pa.bool_(), nullable=True))  # null: not pinned
    await ensure_indexes(table, _ADDED_INDEXES)


async def _upgrade_stats(table: Any) -> None:
    """A retrieval side table of an older store gains the columns added since (nulls count as 0)."""
    for column in ADDED_STATS_COLUMNS:
        await add_column(table, RETRIEVAL_SCHEMA.field(column))
