"""Whole-archive reads and the re-embed's filling on LanceDB: snapshots, the agent directory, spaces.

Operator-level and batch work only (reviews, audits, re-embeds), never a request path.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from memoryd.adapters.lance.archive_tables import ARCHIVE_PREFIX, ArchiveTables
from memoryd.adapters.lance.db import add_column
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.filters import ids_in, literal
from memoryd.adapters.lance.rows import KEEP_NULL_VECTORS, RECORD_COLUMNS, rows_of, space_column, space_field, to_record
from memoryd.core.models import Actor, MemoryRecord, Vector


class LanceArchiveSnapshot:
    """The archive's ArchiveSnapshot port: an agent's active visible set with its vectors, its fingerprint."""

    def __init__(self, tables: ArchiveTables) -> None:
        self._tables = tables

    async def with_vectors(self, actor: Actor) -> tuple[list[MemoryRecord], Sequence[Vector]]:
        """Every active visible row with its vector (one scan; vectors as one float32 matrix, not lists)."""
        async with map_lance_errors():
            table, visible = await self._tables.scoped(actor)
            if table is None:
                return [], []
            rows = await table.query().where(visible).select([*RECORD_COLUMNS, "vector"]).to_arrow()
            stats_table = await self._tables.stats_table(actor.tenant_id)
            stats = {r["id"]: r for r in (await stats_table.query().to_arrow()).to_pylist()}
        vectors = rows.column("vector").combine_chunks()
        dimension = self._tables.schema.field("vector").type.list_size
        matrix: Any = vectors.values.to_numpy().reshape(len(vectors), dimension)  # rows are Sequence[float]
        records = [to_record(r, stats.get(r["id"])) for r in rows_of(rows.drop_columns(["vector"]))]
        return records, matrix

    async def fingerprint(self, actor: Actor) -> str:
        """sha256 over the sorted (id, updated_at) of the active visible set."""
        async with map_lance_errors():
            table, visible = await self._tables.scoped(actor)
            if table is None:
                return "empty"
            rows = await table.query().where(visible).select(["id", "updated_at"]).to_arrow()
        digest = hashlib.sha256()
        for memory_id, updated in sorted(
            zip(rows.column("id").to_pylist(), rows.column("updated_at").to_pylist(), strict=True)
        ):
            digest.update(f"{memory_id}:{updated.timestamp()}\n".encode())
        return digest.hexdigest()[:16]


class LanceAgentDirectory:
    """The archive's AgentDirectory port: who has memories."""

    def __init__(self, tables: ArchiveTables) -> None:
        self._tables = tables

    async def agents(self) -> list[tuple[str, str]]:
        """Every (tenant, agent) that authored a memory: operator-level, for batch jobs only."""
        out: list[tuple[str, str]] = []
        async with map_lance_errors():
            names = [n async for n in self._tables.db.names() if n.startswith(ARCHIVE_PREFIX)]
            for name in sorted(names):
                table = await self._tables.db.open_existing(name)
                ids = (await table.query().select(["agent_id"]).to_arrow()).column("agent_id").unique()
                out.extend((name[len(ARCHIVE_PREFIX) :], agent) for agent in sorted(ids.to_pylist()) if agent)
        return out

    async def tenants(self) -> list[str]:
        """Every tenant with an archive table."""
        async with map_lance_errors():
            return sorted(
                [n[len(ARCHIVE_PREFIX) :] async for n in self._tables.db.names() if n.startswith(ARCHIVE_PREFIX)]
            )


class LanceSpaceFiller:
    """The archive's SpaceFiller port: a re-embed's second vector column, added and filled."""

    def __init__(self, tables: ArchiveTables) -> None:
        self._tables = tables

    async def tenants(self) -> list[str]:
        """Every tenant with an archive table."""
        async with map_lance_errors():
            return sorted(
                [n[len(ARCHIVE_PREFIX) :] async for n in self._tables.db.names() if n.startswith(ARCHIVE_PREFIX)]
            )

    async def add_space(self, tenant_id: str, model: str, dimension: int) -> None:
        """Add the space's nullable column (``add_column``: retried while live writes preempt it)."""
        async with map_lance_errors():
            table = await self._tables.table(tenant_id)
            if table is not None and await add_column(table, space_field(model, dimension)):
                self._tables.db.written.add(ARCHIVE_PREFIX + tenant_id)

    async def space_progress(self, tenant_id: str, model: str) -> tuple[int, int]:
        """(rows whose vector in the space is still null, rows in all); (0, 0) without a table."""
        async with map_lance_errors():
            table = await self._tables.table(tenant_id)
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
            table = await self._tables.table(tenant_id)
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
        async with self._tables.copies.writing(tenant_id):
            if not rows:
                return 0
            column = space_column(model)
            vectors = {r.memory_id: v for r, v in rows}
            async with map_lance_errors():
                table = await self._tables.table(tenant_id)
                if table is None:
                    return 0
                stored = await table.query().where(ids_in(list(vectors))).to_arrow()
                if stored.num_rows == 0:
                    return 0
                at = stored.schema.get_field_index(column)
                field = stored.schema.field(column)
                filled = pa.array([list(vectors[i]) for i in stored.column("id").to_pylist()], field.type)
                data = stored.set_column(at, field, filled)
                self._tables.db.written.add(ARCHIVE_PREFIX + tenant_id)
                unfilled = f"target.content_hash = source.content_hash AND target.{column} IS NULL"
                merge = table.merge_insert("id").when_matched_update_all(where=unfilled)
                async with self._tables.db.rewriting(ARCHIVE_PREFIX + tenant_id):
                    result = await merge.execute(data, on_bad_vectors=KEEP_NULL_VECTORS)
            # The in-memory copy holds the store's model's vectors only: still right at the new version.
            await self._tables.after_write(
                tenant_id, table, result.version, lambda copy: copy.unchanged(result.version)
            )
            return int(result.num_updated_rows)
