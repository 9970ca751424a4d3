"""The archive's ports on LanceDB, built together over one ``ArchiveTables``."""

from __future__ import annotations

from memoryd.adapters.lance.archive_counts import LancePendingEmbeddings, LanceRetrievalStats
from memoryd.adapters.lance.archive_scans import LanceAgentDirectory, LanceArchiveSnapshot, LanceSpaceFiller
from memoryd.adapters.lance.archive_tables import ArchiveTables
from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.store import LanceMemoryStore
from memoryd.core.ports import ArchivePorts


def lance_archive(db: LanceDatabase, dimension: int, **copies: int) -> tuple[ArchiveTables, ArchivePorts]:
    """The tables (with their in-memory copies: ``ArchiveTables``' bounds) and every archive port over them."""
    tables = ArchiveTables(db, dimension, **copies)
    ports = ArchivePorts(
        LanceMemoryStore(tables),
        LanceRetrievalStats(tables),
        LancePendingEmbeddings(tables),
        LanceArchiveSnapshot(tables),
        LanceAgentDirectory(tables),
        LanceSpaceFiller(tables),
    )
    return tables, ports
