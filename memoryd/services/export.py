"""ExportService: a tenant (or one contact) as versioned JSON lines, and an import into an empty tenant.

Each line is one JSON object: first the header (format, version, tenant, contact, time, the
embedding model when vectors are included), then ``{"type": kind, "row": {...}}`` for every stored
row, then ``{"type": "job", "row": {...}}`` for the ledger's records. An import checks the header,
refuses a newer version and a tenant that holds anything (but what an import of the same export
cut short wrote: that one is continued), checks every record against its table, then writes the
rows kind by kind (memories without vectors of the store's model are embedded again) and restores
the job records as history.
Export → import → export gives the same lines but the header's time and the import's audit events.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import replace
from typing import Any

from memoryd.core.conversation import parse_compact_key
from memoryd.core.data_rights import ALREADY_IMPORTED, EXPORT_FORMAT, EXPORT_VERSION
from memoryd.core.errors import InvalidRequest, PreconditionFailed
from memoryd.core.event_log import LogEvent, Operation
from memoryd.core.job_records import JobRecord, job_from_json, job_to_json
from memoryd.core.keys import Role
from memoryd.core.models import Actor
from memoryd.core.ports import Clock, Embedder, JobLedger, Row, TenantArchive
from memoryd.core.validation import check_agent_id, check_tenant
from memoryd.services.agent_config import AgentConfigService
from memoryd.services.event_log import EventLog
from memoryd.services.provenance import Provenance

_BATCH = 1000


_EVENTS = "audit_event"
"""The security event log's record type."""


class ExportService:
    """Exports and imports."""

    def __init__(
        self,
        archive: TenantArchive,
        ledger: JobLedger | None,
        embedder: Embedder,
        clock: Clock,
        trail: EventLog,
        provenance: Provenance | None = None,
        configs: AgentConfigService | None = None,
    ) -> None:
        self._archive = archive
        self._configs = configs
        """Told when an import wrote the tenant's settings (its full-text language follows them)."""
        self._provenance = provenance
        self._ledger = ledger
        self._embedder = embedder
        self._clock = clock
        self._trail = trail

    async def export(self, actor: Actor, end_user_id: str | None, with_vectors: bool) -> AsyncIterator[Row]:
        """The header, then every record; ``end_user_id``: only what concerns that contact.

        The security event log is the admin's to read (ListAuditEvents): an operator's export leaves it
        out, and its header says so (``left_out``).
        """
        tenant = check_tenant(actor.tenant_id)
        left_out = [] if actor.role >= Role.ADMIN else [_EVENTS]
        if end_user_id is not None:
            check_agent_id(end_user_id, "end_user_id")
        yield {
            "type": "header",
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "tenant": tenant,
            "end_user": end_user_id,
            "exported_at": self._clock.now().isoformat(),
            "embedding_model": self._embedder.model_name if with_vectors else None,
            **({"left_out": left_out} if left_out else {}),
        }
        if self._provenance is not None:  # the last second's servings, and those waiting in a spool
            await self._provenance.settle(tenant)
        conversations: set[str] = set()
        async for kind, row in self._archive.rows(tenant, end_user_id, with_vectors):
            if kind in left_out:
                continue
            if kind == "conversation":
                conversations.add(str(row["conversation_id"]))
            yield {"type": kind, "row": row}
        if self._ledger is None:
            return
        keys = await self._ledger.keys(tenant)
        if end_user_id is not None:
            keys = [k for k in keys if k.startswith("compact:") and parse_compact_key(k)[0] in conversations]
        for start in range(0, len(keys), _BATCH):
            records = await self._ledger.get_many([(tenant, k) for k in sorted(keys)[start : start + _BATCH]])
            for record in records:
                if record is not None:
                    yield {"type": "job", "row": job_to_json(record)}

    async def import_(self, actor: Actor, read: Callable[[], Iterable[Row]]) -> dict[str, int]:
        """Restore an export into the actor's tenant, which must be empty; rows written per kind.

        ``read`` gives the export from its first line, and is called twice: every record is checked
        (its shape, its kind, its row against its table) before the first is written, so a truncated
        or damaged file is refused with the tenant still empty, and the same file can be imported
        once it is mended. An import of the same export that was cut short (a crash, a
        kill) is continued: rows already there are kept, not written twice (``already_imported``).
        """
        tenant = check_tenant(actor.tenant_id)
        header, checked = await self._each(read(), _once_each(self._check), _parsed_job)
        resume = await self._begin(actor, tenant, _export_mark(header, checked))
        kept = 0

        async def write(kind: str, rows: list[Row], _: list[int]) -> int:
            nonlocal kept
            written = await self._archive.import_rows(
                tenant, kind, rows, self._embedder.embed, self._embedder.model_name, resume=resume
            )
            kept += len(rows) - written
            return written

        async def restore(row: Row) -> None:
            if self._ledger is not None:  # without a job queue there is no ledger: the history is dropped
                await self._ledger.restore(replace(_job_of(row), tenant_id=tenant))

        _, counts = await self._each(read(), write, restore)
        if resume:
            counts[ALREADY_IMPORTED] = kept
        if self._configs is not None:
            await self._configs.settings_imported(tenant)
        await self._trail.write(tenant, Operation.IMPORT, actor, (), (), counts)
        return counts

    async def _begin(self, actor: Actor, tenant: str, mark: str) -> bool:
        """Whether this import continues one of the same export cut short; an import's start is recorded first."""
        if await self._archive.is_empty(tenant):
            await self._trail.write(tenant, Operation.IMPORT_STARTED, actor, (mark,))
            return False
        unfinished = await self._unfinished_import(tenant)
        if unfinished == mark:
            return True
        if unfinished:
            raise PreconditionFailed(
                f"tenant {tenant!r} holds an import of another export that was cut short: "
                "import that export again to finish it"
            )
        raise PreconditionFailed(f"tenant {tenant!r} already holds data: import into an empty tenant")

    async def import_unfinished(self, tenant: str) -> bool:
        """Whether the tenant's latest import started and never finished (it holds part of an export)."""
        return bool(await self._unfinished_import(check_tenant(tenant)))

    async def _unfinished_import(self, tenant: str) -> str:
        """The mark of the tenant's latest import if it started and never finished ("" otherwise)."""
        started = await self._latest(tenant, Operation.IMPORT_STARTED)
        finished = await self._latest(tenant, Operation.IMPORT)
        if started is None or not started.ids or (finished is not None and finished.event_id > started.event_id):
            return ""
        return started.ids[0]

    async def _latest(self, tenant: str, operation: Operation) -> LogEvent | None:
        latest, token = None, ""
        while True:  # events page oldest first; a tenant has few imports
            page = await self._trail.page(tenant, None, None, operation, 500, token)
            latest = page.events[-1] if page.events else latest
            if not page.next_page_token:
                return latest
            token = page.next_page_token

    async def _check(self, kind: str, rows: list[Row], numbers: list[int]) -> int:
        misfit = self._archive.misfit(kind, rows, self._embedder.model_name)
        if misfit is not None:
            at, why = misfit
            raise InvalidRequest("export", f"line {numbers[at]}: a {kind!r} record does not fit its table: {why}")
        return len(rows)

    async def _each(
        self,
        lines: Iterable[Row],
        batch: Callable[[str, list[Row], list[int]], Awaitable[int]],
        job: Callable[[Row], Awaitable[object]],
    ) -> tuple[Row, dict[str, int]]:
        """The header, and the records per kind once the header is checked.

        ``batch`` gets each run of up to ``_BATCH`` records of one kind (with their line numbers),
        ``job`` each job record.
        """
        it = iter(lines)
        header = _check_header(next(it, None))
        counts: dict[str, int] = {}
        kind, rows, numbers = "", list[Row](), list[int]()
        for n, line in enumerate(it, start=2):
            if not isinstance(line, dict) or not isinstance(line.get("row"), dict) or "type" not in line:
                raise InvalidRequest("export", f"line {n} is not a record of this format")
            if line["type"] == "job":
                await job(line["row"])
                counts["job"] = counts.get("job", 0) + 1
                continue
            if line["type"] != kind or len(rows) >= _BATCH:
                counts[kind] = counts.get(kind, 0) + (await batch(kind, rows, numbers) if rows else 0)
                kind, rows, numbers = line["type"], [], []
            rows.append(line["row"])
            numbers.append(n)
        counts[kind] = counts.get(kind, 0) + (await batch(kind, rows, numbers) if rows else 0)
        counts.pop("", None)
        return header, counts


def _once_each(
    check: Callable[[str, list[Row], list[int]], Awaitable[int]],
) -> Callable[[str, list[Row], list[int]], Awaitable[int]]:
    """``check``, also refusing a memory id seen before: two rows of one id are one memory no call can tell apart."""
    seen: set[str] = set()

    async def checked(kind: str, rows: list[Row], numbers: list[int]) -> int:
        count = await check(kind, rows, numbers)  # first: a row without an id is refused as such
        if kind == "memory":
            for row, number in zip(rows, numbers, strict=True):
                if row["id"] in seen:
                    raise InvalidRequest("export", f"line {number}: memory {row['id']!r} is in the export twice")
                seen.add(row["id"])
        return count

    return checked


def _export_mark(header: Row, counts: dict[str, int]) -> str:
    """One export's fingerprint: its header (tenant, contact, time) and its records per kind."""
    text = json.dumps([header, sorted(counts.items())], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


async def _parsed_job(row: Row) -> JobRecord:
    return _job_of(row)


def _job_of(row: Row) -> JobRecord:
    try:
        return job_from_json(row)
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidRequest("export", f"a job record does not parse: {exc}") from None


def _check_header(header: Any) -> Row:
    if not isinstance(header, dict) or header.get("type") != "header" or header.get("format") != EXPORT_FORMAT:
        raise InvalidRequest("export", f"the first line is not a {EXPORT_FORMAT} header")
    version = header.get("version")
    if not isinstance(version, int) or version > EXPORT_VERSION:
        raise PreconditionFailed(f"export version {version!r} is newer than this memoryd reads ({EXPORT_VERSION})")
    return header
