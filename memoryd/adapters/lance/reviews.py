"""ReviewStore on LanceDB: reviews, their findings, and the usage reports audit batches keep; per tenant.

Ids are deterministic (the review id is the job key, a finding's id hashes the review, kind and
memories), and every write is an upsert on them, so a review re-run after a crash or a retry
converges on the same rows.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pyarrow as pa
from lancedb.index import BTree

from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.filters import literal
from memoryd.adapters.lance.rows import PRIMARY_KEY, TIMESTAMP, as_utc_or_none, record_of, row_of
from memoryd.core.review import Action, Finding, FindingKind, FindingSource, FindingStatus, Review
from memoryd.core.usage import UsageReport, report_from_dict, report_to_dict

_TEXT = pa.string()
REVIEW_SCHEMA = pa.schema(
    [
        pa.field("review_id", _TEXT, nullable=False, metadata=PRIMARY_KEY),
        pa.field("agent_id", _TEXT, nullable=False),
        pa.field("archive_version", _TEXT, nullable=False),
        pa.field("memories_reviewed", pa.int64(), nullable=False),
        pa.field("counts", _TEXT, nullable=False),
        pa.field("model", _TEXT, nullable=False),
        pa.field("model_calls", pa.int64(), nullable=False),
        pa.field("tokens_in", pa.int64(), nullable=False),
        pa.field("tokens_out", pa.int64(), nullable=False),
        pa.field("created_at", TIMESTAMP, nullable=True),
        pa.field("finished_at", TIMESTAMP, nullable=True),
    ]
)
FINDING_SCHEMA = pa.schema(
    [
        pa.field("finding_id", _TEXT, nullable=False, metadata=PRIMARY_KEY),
        pa.field("review_id", _TEXT, nullable=False),
        pa.field("kind", _TEXT, nullable=False),
        pa.field("memory_ids", pa.list_(_TEXT), nullable=False),
        pa.field("reason", _TEXT, nullable=False),
        pa.field("action", _TEXT, nullable=False),
        pa.field("source", _TEXT, nullable=False),
        pa.field("survivor_id", _TEXT, nullable=False),
        pa.field("text", _TEXT, nullable=False),
        pa.field("certain", pa.bool_(), nullable=False),
        pa.field("status", _TEXT, nullable=False),
        pa.field("judged", pa.bool_(), nullable=False),
        pa.field("outcome", _TEXT, nullable=False),
        pa.field("content_hashes", pa.list_(_TEXT), nullable=False),
    ]
)


REPORT_SCHEMA = pa.schema(
    [
        pa.field("report_id", _TEXT, nullable=False, metadata=PRIMARY_KEY),
        pa.field("computed_at", TIMESTAMP, nullable=False),
        pa.field("alarms", pa.list_(_TEXT), nullable=False),
        pa.field("report", _TEXT, nullable=False),
    ]
)
"""The whole report is one JSON column: it is read back whole, and its shape may grow."""


TABLES: dict[str, tuple[pa.Schema, list[tuple[str, Any]]]] = {
    "reviews": (REVIEW_SCHEMA, [("agent_id", BTree())]),
    "review_findings": (FINDING_SCHEMA, [("review_id", BTree())]),
    "usage_reports": (REPORT_SCHEMA, []),
}
"""Each table (named ``{table}_{tenant}``) with its schema and scalar indexes."""


def _review_row(r: Review) -> dict[str, Any]:
    return row_of(r, counts=json.dumps(r.counts, sort_keys=True))


def review_of(row: dict[str, Any]) -> Review:
    """A review row as the reads parse it."""
    return record_of(
        Review,
        row,
        counts=json.loads(row["counts"]),
        created_at=as_utc_or_none(row["created_at"]),
        finished_at=as_utc_or_none(row["finished_at"]),
    )


def _finding_row(f: Finding) -> dict[str, Any]:
    enums = {"kind": f.kind.value, "action": f.action.value, "source": f.source.value, "status": f.status.value}
    return row_of(f, memory_ids=list(f.memory_ids), content_hashes=list(f.content_hashes), **enums)


def finding_of(row: dict[str, Any]) -> Finding:
    """A finding row as the reads parse it."""
    return record_of(
        Finding,
        row,
        kind=FindingKind(row["kind"]),
        memory_ids=tuple(row["memory_ids"]),
        action=Action(row["action"]),
        source=FindingSource(row["source"]),
        status=FindingStatus(row["status"]),
        content_hashes=tuple(row["content_hashes"]),
    )


class LanceReviewStore:
    """Reviews on the archive's LanceDB database."""

    def __init__(self, db: LanceDatabase) -> None:
        self._db = db

    async def _writing(self, table: str, tenant_id: str) -> Any:
        """A table to write, created when missing."""
        schema, indexes = TABLES[table]
        return await self._db.table(f"{table}_{tenant_id}", schema, indexes, write=True)

    async def _reading(self, table: str, tenant_id: str) -> Any | None:
        """A table to read, or None when missing (a read creates nothing)."""
        return await self._db.table_if_exists(f"{table}_{tenant_id}")

    async def put_review(self, tenant_id: str, review: Review) -> None:
        """Upsert by review id."""
        data = pa.Table.from_pylist([_review_row(review)], REVIEW_SCHEMA)
        async with map_lance_errors():
            table = await self._writing("reviews", tenant_id)
            await table.merge_insert("review_id").when_matched_update_all().when_not_matched_insert_all().execute(data)

    async def review(self, tenant_id: str, review_id: str) -> Review | None:
        """One review row."""
        async with map_lance_errors():
            table = await self._reading("reviews", tenant_id)
            if table is None:
                return None
            rows = (await table.query().where(f"review_id = {literal(review_id)}").to_arrow()).to_pylist()
        return review_of(rows[0]) if rows else None

    async def reviews(self, tenant_id: str, agent_id: str, limit: int) -> list[Review]:
        """Newest first."""
        async with map_lance_errors():
            table = await self._reading("reviews", tenant_id)
            if table is None:
                return []
            rows = (await table.query().where(f"agent_id = {literal(agent_id)}").to_arrow()).to_pylist()
        found = [review_of(r) for r in rows]
        found.sort(key=lambda r: (r.created_at or datetime.min.replace(tzinfo=UTC), r.review_id), reverse=True)
        return found[:limit]

    async def put_findings(self, tenant_id: str, findings: Sequence[Finding]) -> None:
        """Upsert by finding id (one commit)."""
        if not findings:
            return
        data = pa.Table.from_pylist([_finding_row(f) for f in findings], FINDING_SCHEMA)
        async with map_lance_errors():
            table = await self._writing("review_findings", tenant_id)
            merge = table.merge_insert("finding_id").when_matched_update_all().when_not_matched_insert_all()
            await merge.execute(data)

    async def findings(self, tenant_id: str, review_id: str) -> list[Finding]:
        """A review's findings by kind, then id."""
        async with map_lance_errors():
            table = await self._reading("review_findings", tenant_id)
            if table is None:
                return []
            rows = (await table.query().where(f"review_id = {literal(review_id)}").to_arrow()).to_pylist()
        return sorted((finding_of(r) for r in rows), key=lambda f: (f.kind.value, f.finding_id))

    async def erase_findings(self, tenant_id: str, memory_ids: Sequence[str]) -> tuple[int, list[str]]:
        """Delete the findings that name any of these memories (their texts quote them)."""
        if not memory_ids:
            return 0, []
        async with map_lance_errors():
            table = await self._reading("review_findings", tenant_id)
            if table is None:
                return 0, []
            deleted = 0
            for start in range(0, len(memory_ids), 500):
                chunk = ", ".join(literal(m) for m in memory_ids[start : start + 500])
                result = await table.delete(f"array_has_any(memory_ids, [{chunk}])")
                deleted += result.num_deleted_rows
        return deleted, [f"review_findings_{tenant_id}"] if deleted else []

    async def put_report(self, tenant_id: str, report_id: str, report: UsageReport) -> None:
        """Upsert by report id."""
        row = {
            "report_id": report_id,
            "computed_at": report.computed_at,
            "alarms": list(report.alarms),
            "report": json.dumps(report_to_dict(report), sort_keys=True),
        }
        data = pa.Table.from_pylist([row], REPORT_SCHEMA)
        async with map_lance_errors():
            table = await self._writing("usage_reports", tenant_id)
            await table.merge_insert("report_id").when_matched_update_all().when_not_matched_insert_all().execute(data)

    async def reports(self, tenant_id: str, limit: int) -> list[tuple[str, UsageReport]]:
        """Newest first."""
        async with map_lance_errors():
            table = await self._reading("usage_reports", tenant_id)
            if table is None:
                return []
            rows = (await table.query().select(["report_id", "computed_at", "report"]).to_arrow()).to_pylist()
        rows.sort(key=lambda r: (r["computed_at"], r["report_id"]), reverse=True)
        return [(r["report_id"], report_from_dict(json.loads(r["report"]))) for r in rows[:limit]]
