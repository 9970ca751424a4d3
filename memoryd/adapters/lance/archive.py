"""The archive's ports on LanceDB, built together over one ``ArchiveTables``."""

from __future__ import annotations

from memoryd.adapters.lance.archive_counts import LancePendingEmbeddings, LanceRetrievalStats
from memoryd.adapters.lance.archive_scans import LanceAgentDirectory, LanceArchiveSnapshot, LanceSpaceFiller
from memoryd.adapters.lance.archive_tables import ArchiveTables
from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.store import LanceMemoryStore
from memoryd.core.ports import ArchivePorts


def lance_archive(
    db: LanceDatabase,
    dimension: int,
    *,
    copy_max_rows: int = 120_000,
    copy_tables: int = 256,
    copy_total_rows: int = 320_000,
    ann_min_rows: int = 25_000,
) -> tuple[ArchiveTables, ArchivePorts]:
    """The tables (with their in-memory copies) and every archive port over them."""
    tables = ArchiveTables(
        db,
        dimension,
        copy_max_rows=copy_max_rows,
        copy_tables=copy_tables,
        copy_total_rows=copy_total_rows,
        ann_min_rows=ann_min_rows,
    )
    ports = ArchivePorts(
        LanceMemoryStore(tables),
        LanceRetrievalStats(tables),
        LancePendingEmbeddings(tables),
        LanceArchiveSnapshot(tables),
        LanceAgentDirectory(tables),
        LanceSpaceFiller(tables),
    )
    return tables, ports
