"""The archive's counts and pending vectors on LanceDB: retrieval statistics, feedback, backfill.

Counts live in the side table ``retrievals_<tenant>`` (never in the memory's row), updated by SQL
increments so flushes of several daemons add up; memories stored during an embedder outage get
their vectors by one merge over the rows still pending with the same text.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import pyarrow as pa

from memoryd.adapters.lance.archive_tables import ARCHIVE_PREFIX, STATS_PREFIX, ArchiveTables
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.filters import ids_in, literal, timestamp
from memoryd.adapters.lance.rows import KEEP_NULL_VECTORS, RECORD_COLUMNS, RETRIEVAL_SCHEMA, rows_of, to_record
from memoryd.core.feedback import SHIFT_BOUND, STEPS, Signal
from memoryd.core.models import PENDING_MODEL, MemoryRecord, Vector


class LanceRetrievalStats:
    """The archive's RetrievalStats port: retrieval and injection counts, feedback signals."""

    def __init__(self, tables: ArchiveTables) -> None:
        self._tables = tables

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
            table = await self._tables.stats_table(tenant_id, write=True)
            await _ensure_stats_rows(table, sorted({*recalled, *injected}))
            for counts, column, extra in (
                (recalled, "retrieval_count", {"last_retrieved_at": timestamp(at)}),
                (injected, "injected_count", {}),
            ):
                if counts:
                    async with self._tables.db.rewriting(STATS_PREFIX + tenant_id):
                        await table.update(where=ids_in(counts), updates_sql={column: _plus(column, counts), **extra})

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
            table = await self._tables.stats_table(tenant_id, write=True)
            await _ensure_stats_rows(table, sorted({m for m, _ in signals}))
            for (signal, n), ids in sorted(groups.items()):
                shift = f"coalesce(salience_shift, 0) + {n * STEPS[signal]!r}"
                bound = f"{SHIFT_BOUND!r}"
                async with self._tables.db.rewriting(STATS_PREFIX + tenant_id):
                    await table.update(
                        where=ids_in(ids),
                        updates_sql={
                            f"fb_{signal.value}": f"coalesce(fb_{signal.value}, 0) + {int(n)}",
                            "salience_shift": f"greatest(-{bound}, least({bound}, {shift}))",
                            "last_feedback_at": timestamp(at),
                        },
                    )


class LancePendingEmbeddings:
    """The archive's PendingEmbeddings port: rows stored without a vector, and their filling."""

    def __init__(self, tables: ArchiveTables) -> None:
        self._tables = tables

    async def pending_embeddings(self, tenant_id: str, limit: int) -> tuple[list[MemoryRecord], int]:
        """Rows stored during an embedder outage (``embedding_model`` empty), oldest first, and their count."""
        async with map_lance_errors():
            table = await self._tables.table(tenant_id)
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
            table = await self._tables.table(tenant_id)
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
            vector = pa.FixedSizeListArray.from_arrays(flat, self._tables.schema.field("vector").type.list_size)
            data = stored.set_column(stored.schema.get_field_index("vector"), "vector", vector)
            at = data.schema.get_field_index("embedding_model")
            data = data.set_column(at, "embedding_model", pa.array([model] * len(ids), pa.string()))
            self._tables.db.written.add(ARCHIVE_PREFIX + tenant_id)
            pending = f"target.embedding_model = {literal(PENDING_MODEL)}"
            unchanged = f"{pending} AND target.content_hash = source.content_hash"
            merge = table.merge_insert("id").when_matched_update_all(where=unchanged)
            async with self._tables.db.rewriting(ARCHIVE_PREFIX + tenant_id):
                result = await merge.execute(data.cast(stored.schema), on_bad_vectors=KEEP_NULL_VECTORS)
            self._tables.copies.pop(tenant_id)  # reloaded at the next read
        return int(result.num_updated_rows)


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
