"""Appenders: table handles for appends that skip LanceDB's check of every kept version on a local disk.

A handle of a connection that re-reads the latest version at every call (``read_consistency_interval=0``,
memoryd's on a local disk) lists the table's ``_versions`` directory at each, and an append asks more than
once (its schema, the commit): on a table of 1,517 versions (one writer keeps ~3,000, a minute's worth)
an append cost 6.95 ms p50 where one through a handle that never re-reads took 3.94. So the archive's appends go through
handles of a second connection that never re-reads; before each, the next version's manifest name
(``LatestVersion``, a ``stat`` or two) tells whether another process committed since the handle's version,
and only then does the handle move to the latest. Through the daemon, one writer: p50 17.3-19.0 against
19.3-20.0 ms over 30 s, 18.9-20.0 against 22.4-22.9 over two minutes (``docs/benchmarks.md``, session 35).

A commit between that look and the append is what any check leaves open: Lance rebases an append over
another append or a compaction, and refuses it over a schema change, as through any handle.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import lancedb

from memoryd.adapters.lance.versions import LatestVersion


class Appenders:
    """One handle per table of a local directory, kept at the latest version by look, not by listing."""

    def __init__(self, connection: lancedb.AsyncConnection, directory: str) -> None:
        self._connection = connection
        """A connection with ``read_consistency_interval=None`` (its handles move only when told)."""
        self._directory = directory
        self._handles: dict[str, tuple[Any, LatestVersion | None]] = {}
        self._lock = asyncio.Lock()

    async def handle(self, name: str) -> Any:
        """The table's handle, at the latest version as of this call (the table exists)."""
        entry = self._handles.get(name)
        if entry is None:
            async with self._lock:
                if name not in self._handles:
                    table = await self._connection.open_table(name)  # at the latest version
                    self._handles[name] = (table, None)
                    return table
            entry = self._handles[name]
        table, seen = entry
        now = seen.now(self._versions(name)) if seen is not None else None
        if seen is None or now is None or now.version != seen.version:  # another process committed, or unknown
            await table.checkout_latest()
            self._handles[name] = (table, self._latest(name, int(await table.version())))
        return table

    def appended(self, name: str, version: int) -> None:
        """After an append through :meth:`handle`: the version it made, the handle's now.

        (Two appends of one handle finishing out of order may leave the handle at the earlier one: a later
        append through it is rebased by Lance like any other behind the latest, and only this process's
        appends came between, so no schema change is missed.)
        """
        if (entry := self._handles.get(name)) is not None:
            self._handles[name] = (entry[0], self._latest(name, version))

    def _latest(self, name: str, version: int) -> LatestVersion | None:
        return LatestVersion.of(self._versions(name), version)

    def _versions(self, name: str) -> str:
        return os.path.join(self._directory, f"{name}.lance", "_versions")

    def close(self) -> None:
        """Release the connection."""
        self._handles.clear()
        self._connection.close()  # type: ignore[no-untyped-call]  # lancedb leaves close() unannotated
