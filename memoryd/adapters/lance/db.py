"""The LanceDB database every store of a process shares: one connection, its caches, the table registry.

``LanceDatabase.open`` connects (caches bounded), checks that the store was built with the
configured embedding model, and hands out tables: opened once per process, created on first
use with their schema and indexes, upgraded in place when a column was added since. Writes are
noted in ``written`` so the maintenance pass (``lance_maintenance``) visits those tables soon.

Connections re-read the latest version on every query on a local disk
(``read_consistency_interval=0``: the daemon and the workers write the same tables) and at most once
a second by default on object storage, where each re-read is a request (``StorageSettings``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import timedelta
from typing import Any

import lancedb
import pyarrow as pa

from memoryd.adapters.lance.appends import Appenders
from memoryd.adapters.lance.creation import CreationLock, FileCreationLock, NoCreationLock
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.filters import literal
from memoryd.adapters.lance.rows import PRIMARY_KEY
from memoryd.core.errors import NotReady

_JITTER = random.Random()
"""Backoff jitter from a generator of its own: the global one is the host program's (seeded tests' too)."""

log = logging.getLogger(__name__)

_REFINE_FACTOR = 2
"""ANN candidates fetched per result and re-ranked by exact cosine (the index quantises vectors). The
graph's breadth decides which rows are found, the refinement only their order: at 1M rows, 200 queries,
2 or 5 found the same rows (1 lost some of the last places under a prefilter); each re-ranked candidate
is a row read from disk, so 5 → 2 took 1-2 ms off a search (``docs/benchmarks.md``, session 38)."""
_HNSW_EF = 200
"""Candidates an HNSW graph search keeps (LanceDB's default is 1.5 × limit). One agent × 1M rows, 50
queries: recall@10 against exact 0.876 → 0.966, the query 20 → 23-25 ms (``docs/benchmarks.md``)."""
TABLE_FORMAT = "2.1"
"""Lance's file format for new tables. Its default (2.2) stores a page of one repeated value so that
reading a few scattered rows costs ~1.7 ms per such column (tenant, scope, status, model… are one
value over long stretches); 2.1 reads the same in 0.1-0.4 ms: ten records of 23 columns 22.5 → 2.5 ms
at 1M rows, the same bytes on disk (``docs/benchmarks.md``, session 37). Existing tables keep theirs."""


def cosine_nearest(
    table: Any, vector: Sequence[float], limit: int, column: str = "vector", *, breadth: int = _HNSW_EF
) -> Any:
    """A cosine kNN query as every store asks it; neither setting changes an exact search (no index yet).

    The index is asked for ``limit × _REFINE_FACTOR`` candidates and HNSW refuses more than its breadth
    (``ef``): the breadth grows with them (before it did, a deep search failed). A search without a
    prefilter may ask a wider ``breadth``: there it costs little, while under a prefilter a wider walk
    of the graph passes more hidden rows.
    """
    query = table.query().nearest_to(list(vector)).column(column).distance_type("cosine")
    return query.refine_factor(_REFINE_FACTOR).ef(max(breadth, _REFINE_FACTOR * limit)).limit(limit)


META_TABLE = "store_meta"
Upgrade = Callable[[Any], Awaitable[None]]
"""Brings an existing table of an older store up to the current schema (idempotent)."""


async def ensure_indexes(table: Any, wanted: Sequence[tuple[str, Any]]) -> None:
    """Create the missing indexes; a concurrent creator (another process) winning is fine."""
    have = {tuple(ix.columns) for ix in await table.list_indices()}
    for column, config in wanted:
        if (column,) in have:
            continue
        try:
            await table.create_index(column, config=config)
        except RuntimeError as exc:  # lance: "Retryable commit conflict ... preempted by concurrent CreateIndex"
            if "concurrent" not in str(exc):
                raise
            log.info("index created concurrently elsewhere", extra={"column": column})


_ADD_COLUMN_ATTEMPTS = 30
"""Tries of a column's addition against appends that keep preempting it (~5 s of backoff in all)."""


async def add_column(table: Any, field: pa.Field) -> bool:
    """Add the nullable column unless the table has it; whether this call added it.

    Lance's column addition is preempted by any commit since the version it read ("Retryable commit
    conflict ... preempted by concurrent transaction Append") and is not retried by Lance: with a
    daemon writing, ``memoryd reembed`` died at its first step now and then; on object storage, where
    a handle sees others' commits up to a second late, it would most times. So it is retried here on
    the latest version. A losing concurrent addition of the same column leaves it there all the same:
    the schema is read again rather than the error trusted.
    """
    attempt = 0
    while field.name not in (await table.schema()).names:
        try:
            await table.add_columns(field)
            return True
        except (RuntimeError, ValueError) as exc:
            attempt += 1
            if "Retryable commit conflict" not in str(exc) or attempt == _ADD_COLUMN_ATTEMPTS:
                if field.name in (await table.schema()).names:
                    return False
                raise
        await asyncio.sleep(min(0.005 * 2**attempt, 0.2) * _JITTER.uniform(0.5, 1.0))
        await table.checkout_latest()
    return False


class LanceDatabase:
    """One LanceDB directory or object-store URI, shared by the archive, profile and conversation stores."""

    def __init__(
        self,
        connection: lancedb.AsyncConnection,
        creation: CreationLock | None = None,
        directory: str | None = None,
        *,
        uri: str = "",
        storage_options: dict[str, str] | None = None,
    ) -> None:
        self.connection = connection
        self.uri = uri
        """Where the store is (a directory or an object-store URI), for another process to open it."""
        self.storage_options = dict(storage_options or {})
        self._creation = creation or NoCreationLock()
        self._directory = directory
        """The store's local directory (None: object storage), where a table's absence shows without the binding."""
        self.written: set[str] = set()
        """Tables this process wrote since the last maintenance pass."""
        self.appenders: Appenders | None = None
        """Handles for appends on a local disk (``lance_appends``); None: append through the table's handle."""
        self._tables: dict[str, Any] = {}
        self._lock = asyncio.Lock()
        self._rewrites: dict[str, asyncio.Lock] = {}

    def rewriting(self, name: str) -> asyncio.Lock:
        """Held by this process's commits that change existing rows of a table, and by its compaction.

        Lance lets an append and a compaction commit side by side, but an update or delete of rows
        a compaction is rewriting preempts the compaction: with dedup merges arriving every few
        tens of milliseconds, every maintenance pass was preempted, the fragments piled up, and
        each merge then scanned all of them (a writer fell from 27 to 2 calls/s within a minute,
        ``docs/benchmarks.md``). Another process's update can still preempt a pass; the next retries.
        """
        return self._rewrites.setdefault(name, asyncio.Lock())

    @classmethod
    async def open(
        cls,
        uri: str,
        model_name: str,
        dimension: int,
        *,
        read_consistency: timedelta = timedelta(0),
        index_cache_bytes: int = 1 << 30,
        metadata_cache_bytes: int = 32 << 20,
        storage_options: dict[str, str] | None = None,
        creation: CreationLock | None = None,
    ) -> LanceDatabase:
        """Connect and check the store was built with this embedding model (NotReady if not).

        The caches are bounded: Lance's defaults (gigabytes) let a busy daemon's resident set
        grow for as long as writes make new versions and files to cache. ``creation`` serialises
        table creation across processes (``lance_creation``); a directory gets a file lock by default.
        """
        if creation is None:
            creation = NoCreationLock() if "://" in uri else FileCreationLock(uri)
        async with map_lance_errors(opening=uri):
            session = lancedb.Session(
                index_cache_size_bytes=index_cache_bytes, metadata_cache_size_bytes=metadata_cache_bytes
            )
            creating = {**(storage_options or {}), "new_table_data_storage_version": TABLE_FORMAT}
            db = await lancedb.connect_async(
                uri, read_consistency_interval=read_consistency, session=session, storage_options=creating
            )
            await _check_embedding_model(db, model_name, dimension, creation)
            appending = None
            if "://" not in uri:
                appending = await lancedb.connect_async(
                    uri, read_consistency_interval=None, session=session, storage_options=creating
                )
        database = cls(db, creation, None if "://" in uri else uri, uri=uri, storage_options=storage_options)
        if appending is not None:
            database.appenders = Appenders(appending, uri)
        return database

    async def table(
        self,
        name: str,
        schema: pa.Schema,
        indexes: Sequence[tuple[str, Any]] = (),
        *,
        write: bool = False,
        upgrade: Upgrade | None = None,
    ) -> Any:
        """The table, created with ``schema`` and ``indexes`` when missing.

        ``write`` notes it as written (for maintenance); ``upgrade`` runs once per process on a
        table that already existed.
        """
        if write:
            self.written.add(name)
        return await self._registered(name, schema, indexes, upgrade)  # given a schema, never None

    async def table_if_exists(self, name: str, *, upgrade: Upgrade | None = None) -> Any | None:
        """The table, or None when nobody created it yet (reads never create tables)."""
        return await self._registered(name, None, (), upgrade)

    async def _registered(
        self, name: str, schema: pa.Schema | None, indexes: Sequence[tuple[str, Any]], upgrade: Upgrade | None
    ) -> Any | None:
        table = self._tables.get(name)
        if table is not None:
            return table
        if schema is None and self._directory and not os.path.isdir(os.path.join(self._directory, f"{name}.lance")):
            # A read of a table nobody created (a new tenant's archive, a conversation not begun): on a
            # local disk its missing directory says so in 2 µs, where asking the binding took the lock
            # every open shares and a round trip through LanceDB's runtime; a Recall of an empty tenant
            # asked ten times (1.75 ms in process, more than a Recall over 1,000 rows).
            return None
        async with self._lock:
            table = self._tables.get(name)
            if table is None:
                table = await self._open_or_create(name, schema, indexes, upgrade)
                if table is not None:
                    self._tables[name] = table
        return table

    async def _open_or_create(
        self, name: str, schema: pa.Schema | None, indexes: Sequence[tuple[str, Any]], upgrade: Upgrade | None
    ) -> Any | None:
        table = await _open(self.connection, name)
        if table is None:
            if schema is None:
                return None
            async with self._creation.hold(name):  # another process may have created it meanwhile
                table = await _open(self.connection, name)
                if table is None:
                    table = await self.connection.create_table(name, schema=schema, exist_ok=True)
                    await ensure_indexes(table, indexes)
                    return table
        if upgrade is not None:
            await upgrade(table)
        return table

    async def names(self) -> AsyncIterator[str]:
        """Every table of the database (operator-level: maintenance, batch jobs)."""
        token: str | None = None
        while True:
            page = await self.connection.list_tables(page_token=token, limit=1000)
            for name in page.tables:
                yield name
            token = page.page_token
            if not token:
                return

    async def open_existing(self, name: str) -> Any:
        """A table by name, bypassing the registry (maintenance visits tables other processes made)."""
        return await self.connection.open_table(name)

    async def open_listed(self, name: str) -> Any | None:
        """A table :meth:`names` listed, or None if it has no version yet.

        On object storage a table's folder is listed as soon as another process starts creating
        it, before its first version lands; such a table is skipped until the next pass.
        """
        try:
            return await self.connection.open_table(name)
        except ValueError as exc:
            if "was not found" in str(exc):
                return None
            raise

    def close(self) -> None:
        """Release the connection."""
        self._tables.clear()
        if self.appenders is not None:
            self.appenders.close()
        self.connection.close()  # type: ignore[no-untyped-call]  # lancedb leaves close() unannotated


async def put_meta(db: LanceDatabase, key: str, value: str, dimension: int = 0) -> None:
    """One upsert of a ``store_meta`` row (its value in the column named ``model``): atomic for every process."""
    async with map_lance_errors():
        table = await db.open_existing(META_TABLE)
        row = pa.Table.from_pylist([{"key": key, "model": value, "dimension": dimension}], await table.schema())
        await table.merge_insert("key").when_matched_update_all().when_not_matched_insert_all().execute(row)


async def meta_values(db: LanceDatabase, prefix: str) -> dict[str, str]:
    """The values of the ``store_meta`` rows whose key starts with ``prefix``, by the rest of the key."""
    async with map_lance_errors():
        table = await db.open_existing(META_TABLE)
        rows = (await table.query().where(f"key LIKE {literal(prefix + '%')}").to_arrow()).to_pylist()
    # (``_`` in a LIKE pattern is any character: the keys are checked again)
    return {row["key"][len(prefix) :]: row["model"] or "" for row in rows if row["key"].startswith(prefix)}


async def _open(db: lancedb.AsyncConnection, name: str) -> Any | None:
    try:
        return await db.open_table(name)
    except ValueError:  # lancedb: "Table ... was not found"
        return None


async def recorded_embedding_model(uri: str, storage_options: dict[str, str] | None = None) -> str | None:
    """The embedding model a store was built with; None for a store that has none yet (or no directory)."""
    if "://" not in uri and not os.path.isdir(uri):
        return None
    async with map_lance_errors(opening=uri):
        db = await lancedb.connect_async(uri, storage_options=storage_options)
        meta = await _open(db, META_TABLE)
        if meta is None:
            return None
        rows = (await meta.query().where("key = 'embedding'").to_arrow()).to_pylist()
    return str(rows[0]["model"]) if rows else None


async def _check_embedding_model(
    db: lancedb.AsyncConnection, model_name: str, dimension: int, creation: CreationLock
) -> None:
    """Refuse to mix vectors of two embedding models in one store."""
    # `memoryd up` starts the daemon and a worker together: both may find the store new.
    schema = pa.schema(
        [
            pa.field("key", pa.string(), nullable=False, metadata=PRIMARY_KEY),
            pa.field("model", pa.string()),
            pa.field("dimension", pa.int64()),
        ]
    )
    meta = await _open(db, META_TABLE)
    if meta is None:
        async with creation.hold(META_TABLE):
            meta = await _open(db, META_TABLE)
            if meta is None:
                try:
                    meta = await db.create_table(META_TABLE, schema=schema, exist_ok=True)
                except ValueError:  # created meanwhile with another schema revision: use it as it is
                    meta = await db.open_table(META_TABLE)
        row = pa.Table.from_pylist([{"key": "embedding", "model": model_name, "dimension": dimension}], schema)
        await meta.merge_insert("key").when_not_matched_insert_all().execute(row)
    rows = (await meta.query().where("key = 'embedding'").to_arrow()).to_pylist()
    if rows and (rows[0]["model"], rows[0]["dimension"]) != (model_name, dimension):
        raise NotReady(
            f"the store was built with embedding model {rows[0]['model']!r} ({rows[0]['dimension']} dims) "
            f"but the daemon is configured with {model_name!r} ({dimension} dims); start it with the "
            f"original embedder, and move the store with `memoryd reembed --to {model_name}` (the new model "
            "configured under [reembed])"
        )
