"""Data-subject rights as values: the erasure receipt, the subject's digest, the export format.

A receipt says what an erasure removed — counts per table, the memory ids, versions purged, time —
and names the contact and its conversations only by digest: it is kept (in the audit log) after
the contact is gone, so it must not hold what was erased, and ids chosen by callers may be
personal ("chat-with-alice@example.com").
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime

EXPORT_FORMAT = "memoryd-export"
EXPORT_VERSION = 1
"""The JSONL export's version: readers refuse a newer one instead of guessing."""
ALREADY_IMPORTED = "already_imported"
"""In a continued import's counts: the rows an earlier, cut-short run of it had written."""


def json_line(record: dict[str, object]) -> str:
    """One export line: compact JSON, keys sorted (two exports of the same data are byte-equal)."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(tenant_id: str, value: str) -> str:
    """A stable, non-reversible name for a contact or conversation id within a tenant."""
    return hashlib.sha256(f"{tenant_id}\n{value}".encode()).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class ErasureReceipt:
    """What EraseEndUser removed."""

    tenant_id: str
    subject: str
    """The contact's digest."""
    at: datetime
    counts: dict[str, int] = field(default_factory=dict)
    """Rows removed per kind: memories, conversations, conversation_items, findings, jobs."""
    memory_ids: tuple[str, ...] = ()
    conversations: tuple[str, ...] = ()
    """Digests of the conversations removed."""
    versions_purged: int = 0
    """Old table versions removed so the bytes left the disk."""
    persistence_rewritten: bool = False
    """Whether the job queue's persistence files were rewritten without the removed jobs."""
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class TableFile:
    """A file of a stored table that no version references (what a commit that lost left behind)."""

    table: str
    path: str
    """Relative to the table's folder (``data/….lance``, ``_indices/<uuid>/…``)."""
    modified: datetime
