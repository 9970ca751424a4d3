"""The served log's spool: servings wait in local files and go into LanceDB a minute at a time.

A LanceDB append each second, behind the replies, was the served log's whole cost on Recall's tail
(``bench recall``: p99 of the 1-2 ms Recalls 2.6-3.0 ms without the log, 4.4-4.7 ms with it, 2.6-2.7
with the append skipped). Writing a file costs a fraction of that, so the once-a-second flush writes
the tenant's served lines (``core.provenance.served_call_line``) as one file here (written aside, then
renamed: a file is whole or absent), and every ``hold`` the files go into LanceDB in one append per
tenant, made into columns by Arrow's CSV reader off the event loop. A crash of the process
loses nothing that reached a file: the next process to start, or to move, takes them.

Every read, delete and export of a tenant's servings moves that tenant's files first, so a reader
sees what was served before its call and an erasure leaves nothing behind in a file. Any process
sharing the directory may move any file, one at a time per tenant (a ``flock`` in the tenant's
folder); two moving one file at once all the same (another host's process on a shared disk, where
``flock`` may not reach) append its rows twice, which ``LanceProvenance`` reads once (a serving's id
is its call's and its rank).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import time
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

import pyarrow as pa

from memoryd.adapters.lance.creation import FileLock
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.provenance import LanceProvenance, serving_columns
from memoryd.core.errors import MemorydError
from memoryd.core.provenance import HistoryEvent, Serving, ServingFilter

log = logging.getLogger(__name__)
_SUFFIX = ".tsv"
_ASIDE = ".part"
_STALE_ASIDE_SECONDS = 600.0
"""A file still aside after this long was being written by a process that died: removed at a move."""
_MOVING = ".moving.lock"


def _write(path: Path, lines: bytes) -> None:
    aside = path.with_suffix(_ASIDE)
    aside.write_bytes(lines)
    os.replace(aside, path)


def _read(paths: Sequence[Path]) -> tuple[list[pa.Table], list[Path]]:
    """The files' rows and the paths read (a file another mover took meanwhile is skipped).

    A file Arrow cannot read as served lines is renamed ``.bad`` and said in the log: it would
    otherwise stop every later move.
    """
    tables, read = [], []
    for path in paths:
        try:
            tables.append(serving_columns(path.read_bytes()))
        except FileNotFoundError:
            continue
        except pa.ArrowInvalid as error:
            log.warning("servings spool file %s is unreadable (%s): kept aside as .bad", path, error)
            path.replace(path.with_suffix(".bad"))
            continue
        read.append(path)
    return tables, read


class SpooledProvenance:
    """A ``ProvenanceStore``: ``LanceProvenance`` with servings held in ``directory`` for up to ``hold`` seconds."""

    def __init__(self, inner: LanceProvenance, directory: Path, hold: float) -> None:
        self._inner = inner
        self._directory = directory
        self._hold = hold
        self._names = itertools.count()
        self._oldest: float | None = None
        """When this process wrote its oldest file not yet moved (monotonic)."""
        self._moving = asyncio.Lock()

    async def open(self) -> None:
        """Create the directory (an error if it cannot be) and move what an earlier process left in it.

        A failed move is logged: the next one takes the files.
        """
        async with map_lance_errors():
            await asyncio.to_thread(self._directory.mkdir, parents=True, exist_ok=True)
        try:
            await self.settle()
        except MemorydError:
            log.warning("could not move the servings spool %s into the store at start", self._directory, exc_info=True)

    async def append_history(self, tenant_id: str, events: Sequence[HistoryEvent]) -> None:
        """Histories go straight to LanceDB (written on changes, not on reads)."""
        await self._inner.append_history(tenant_id, events)

    async def history(self, tenant_id: str, memory_id: str) -> list[HistoryEvent]:
        """One memory's events (``LanceProvenance.history``)."""
        return await self._inner.history(tenant_id, memory_id)

    async def append_servings(self, tenant_id: str, lines: bytes) -> None:
        """Write the lines to a file; move the files into LanceDB when the oldest is ``hold`` old."""
        if lines:
            folder = self._directory / tenant_id.encode().hex()  # "." and ".." are valid tenant ids
            name = f"{time.time_ns():020d}-{os.getpid()}-{next(self._names):08d}{_SUFFIX}"
            async with map_lance_errors():
                await asyncio.to_thread(folder.mkdir, exist_ok=True)
                await asyncio.to_thread(_write, folder / name, lines)
            self._oldest = self._oldest or time.monotonic()
        if self._oldest is not None and time.monotonic() - self._oldest >= self._hold:
            await self.settle()

    async def settle(self, tenant_id: str | None = None) -> None:
        """Move the tenant's files (every tenant's: None) into LanceDB: this process's and any other's.

        Done before a tenant's servings are read, deleted or exported.
        """
        if tenant_id is not None:
            await self._move([self._directory / tenant_id.encode().hex()])
            return
        self._oldest = None
        async with map_lance_errors():
            folders = await asyncio.to_thread(lambda: sorted(p for p in self._directory.iterdir() if p.is_dir()))
        await self._move(folders)

    async def _move(self, folders: Sequence[Path]) -> None:
        async with self._moving:
            for folder in folders:
                if not await asyncio.to_thread(folder.is_dir):
                    continue
                async with map_lance_errors(), FileLock(folder / _MOVING, "servings spool's move lock").hold():
                    paths = await asyncio.to_thread(self._spooled, folder)
                    tables, read = await asyncio.to_thread(_read, paths) if paths else ([], [])
                    if tables:  # on failure the files stay, and the next move takes them
                        tenant_id = bytes.fromhex(folder.name).decode()
                        await self._inner.add_serving_columns(tenant_id, pa.concat_tables(tables))
                    for path in read:
                        path.unlink(missing_ok=True)

    @staticmethod
    def _spooled(folder: Path) -> list[Path]:
        now = time.time()
        for aside in folder.glob(f"*{_ASIDE}"):
            try:
                if now - aside.stat().st_mtime > _STALE_ASIDE_SECONDS:
                    aside.unlink(missing_ok=True)
            except FileNotFoundError:
                continue
        return sorted(folder.glob(f"*{_SUFFIX}"))

    async def servings(
        self, tenant_id: str, where: ServingFilter, after_id: str, limit: int, *, newest: bool = False
    ) -> list[Serving]:
        """``LanceProvenance.servings`` after the tenant's files are moved."""
        await self.settle(tenant_id)
        return await self._inner.servings(tenant_id, where, after_id, limit, newest=newest)

    async def count_servings(self, tenant_id: str, where: ServingFilter) -> int:
        """``LanceProvenance.count_servings`` after the tenant's files are moved."""
        await self.settle(tenant_id)
        return await self._inner.count_servings(tenant_id, where)

    async def forget(self, tenant_id: str, memory_ids: Sequence[str]) -> list[str]:
        """``LanceProvenance.forget`` after the tenant's files are moved."""
        await self.settle(tenant_id)
        return await self._inner.forget(tenant_id, memory_ids)

    async def erase_end_user(
        self, tenant_id: str, end_user_id: str, memory_ids: Sequence[str]
    ) -> tuple[int, list[str]]:
        """``LanceProvenance.erase_end_user`` after the tenant's files are moved.

        A file put aside as unreadable (``.bad``) may name the contact and cannot be sifted: it goes.
        """
        await self.settle(tenant_id)
        folder = self._directory / tenant_id.encode().hex()
        async with map_lance_errors():
            for bad in await asyncio.to_thread(lambda: sorted(folder.glob("*.bad")) if folder.is_dir() else []):
                log.warning("erasure removes the unreadable servings spool file %s", bad)
                bad.unlink(missing_ok=True)
        return await self._inner.erase_end_user(tenant_id, end_user_id, memory_ids)

    async def expire_servings(self, tenant_id: str, before: datetime, dry_run: bool) -> int:
        """``LanceProvenance.expire_servings`` after the tenant's files are moved."""
        await self.settle(tenant_id)
        return await self._inner.expire_servings(tenant_id, before, dry_run)
