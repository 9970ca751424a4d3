"""``memoryd export``, ``memoryd import`` and ``memoryd erase``: data-subject rights from the command line."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from memoryd.app import command_app
from memoryd.commands.table import table
from memoryd.config import Settings
from memoryd.config.errors import ConfigError
from memoryd.core.data_rights import ALREADY_IMPORTED, json_line
from memoryd.core.errors import InvalidRequest, NotFound
from memoryd.core.keys import Role
from memoryd.core.models import Actor


def _operator(tenant_id: str) -> Actor:
    """The command acting on a tenant as memoryd itself (local access to the store is the root of trust)."""
    return Actor(tenant_id, "", role=Role.ADMIN)


async def run_export(
    settings: Settings,
    tenant_id: str,
    end_user_id: str | None,
    embeddings: bool,
    out: TextIO = sys.stdout,
    progress: TextIO = sys.stderr,
) -> int:
    """Write the tenant's (or one contact's) JSONL export to ``out``; progress and a summary to ``progress``."""
    counts: dict[str, int] = {}
    started = last = time.monotonic()
    async with command_app(settings) as app:
        await app.admin.directory.check(tenant_id)
        async for record in app.admin.exports.export(_operator(tenant_id), end_user_id, embeddings):
            out.write(json_line(record) + "\n")
            kind = str(record["type"])
            counts[kind] = counts.get(kind, 0) + 1
            if time.monotonic() - last >= _PROGRESS_SECONDS:
                last = time.monotonic()
                print(f"exporting {tenant_id}: {sum(counts.values()) - 1} records ({kind})", file=progress, flush=True)
        queue = app.job_parts is not None
        unfinished = await app.admin.exports.import_unfinished(tenant_id)
    counts.pop("header", None)
    if end_user_id is not None and not counts:
        raise NotFound(_nothing_of(end_user_id, tenant_id, "exported"))
    rows = [[k, n] for k, n in sorted(counts.items())]
    seconds = time.monotonic() - started
    print(f"exported {sum(counts.values())} records of {tenant_id} in {seconds:.1f} s", file=progress)
    print(table(rows, ["record", "rows"]) if rows else "nothing stored", file=progress)
    if not queue:
        print("job records: not exported (no job queue: run beside `memoryd up`, or set REDIS_URL)", file=progress)
    if unfinished:  # a backup taken now would hold part of what the tenant is meant to hold
        print(
            f"memoryd: an import into {tenant_id} was cut short: this export holds only what it wrote so far "
            "(finish it by running that import again)",
            file=progress,
        )
    return 0


_PROGRESS_SECONDS = 1.0


@contextlib.contextmanager
def replaced_on_success(path: Path) -> Iterator[TextIO]:
    """A new file that takes ``path``'s place only when the block ends without an error.

    A failed or interrupted export must neither empty the previous export at ``path`` nor leave a partial
    one under its name. The file is its owner's alone (0600, as ``mkstemp`` makes it): it holds personal data.
    """
    if not path.parent.is_dir():
        raise ConfigError(f"--out {str(path)!r}: the directory {str(path.parent)!r} does not exist")
    if path.is_dir():
        raise ConfigError(f"--out {str(path)!r}: is a directory")
    try:
        fd, partial = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    except OSError as exc:
        raise ConfigError(f"--out {str(path)!r}: {exc.strerror}") from None
    try:
        with open(fd, "w", encoding="utf-8") as out:
            yield out
        os.replace(partial, path)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise


def _lines(path: Path) -> Iterator[dict[str, object]]:
    with path.open(encoding="utf-8") as f:
        for n, text in enumerate(f, start=1):
            if text.strip():
                try:
                    yield json.loads(text)
                except json.JSONDecodeError as exc:
                    raise InvalidRequest("export", f"line {n} is not JSON: {exc}") from None


async def run_import(settings: Settings, tenant_id: str, path: Path, out: TextIO = sys.stdout) -> int:
    """Restore an export into an empty tenant; prints the rows written per kind."""
    async with command_app(settings, create=True) as app:
        counts = await app.admin.exports.import_(_operator(tenant_id), lambda: _lines(path))
    kept = counts.pop(ALREADY_IMPORTED, None)
    if kept is not None:
        print(
            f"memoryd: continued an import of this export that was cut short ({kept} rows were there)", file=sys.stderr
        )
    print(table([[k, n] for k, n in sorted(counts.items())], ["record", "rows"]), file=out)
    return 0


async def run_erase(settings: Settings, tenant_id: str, end_user_id: str, out: TextIO = sys.stdout) -> int:
    """Erase one contact and print the receipt."""
    async with command_app(settings) as app:
        await app.admin.directory.check(tenant_id)
        receipt = await app.admin.erasure.erase_end_user(_operator(tenant_id), end_user_id)
    if not any(receipt.counts.values()):  # a mistyped id: the contact's data would stay while this said "erased"
        raise NotFound(_nothing_of(end_user_id, tenant_id, "erased"))
    rows = [[k, n] for k, n in sorted(receipt.counts.items())]
    rows += [["versions purged", receipt.versions_purged], ["seconds", receipt.seconds]]
    print(f"erased contact {receipt.subject} of tenant {receipt.tenant_id}", file=out)
    print(table(rows, ["removed", "count"]), file=out)
    return 0


def _nothing_of(end_user_id: str, tenant_id: str, done: str) -> str:
    return (
        f"--end-user {end_user_id!r}: tenant {tenant_id!r} holds nothing of this contact; nothing {done} (check the id)"
    )


async def run_retention(settings: Settings, tenant_id: str, dry_run: bool, out: TextIO = sys.stdout) -> int:
    """Apply retention now (one tenant, or every tenant with a policy); print what was (or would be) removed."""
    async with command_app(settings) as app:
        if tenant_id:
            await app.admin.directory.check(tenant_id)
        tenants = [tenant_id] if tenant_id else await app.admin.retention.tenants()
        receipts = [await app.admin.retention.purge(t, dry_run=dry_run) for t in tenants]
    kinds = ["memories", "conversations", "conversation_items", "filed_from_conversations"]
    rows = [[r.tenant_id, *(r.counts[k] for k in kinds)] for r in receipts]
    print(
        ("dry run: nothing removed\n" if dry_run else "")
        + table(rows, ["tenant", "memories", "conversations", "items", "filed first"]),
        file=out,
    )
    return 0
