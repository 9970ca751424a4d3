"""Deleted rows off the disk now (an erasure), and the files of commits that lost (every purge).

``purge`` rewrites every fragment holding a deleted row, builds the scalar indexes again from the
rows left, folds the rest and drops every old version: after it, no version, data or index file
still referenced holds a deleted row. ``unreferenced`` / ``remove`` deal with the files no version
references (``lance_orphans``): what commits that lost left, holding whatever rows they read.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import warnings
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from lancedb.index import Bitmap, BTree, LabelList

from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.orphans import FileRemover, unreferenced
from memoryd.core.data_rights import TableFile
from memoryd.core.errors import Conflict, NotFound, Unavailable

log = logging.getLogger(__name__)

_PURGE_ATTEMPTS = 10
_PURGE_BACKOFF_SECONDS = 0.05
"""A purge preempted by a concurrent write tries again after this, a little longer each time."""
_KEY_INDEXES = {"BTree": BTree, "Bitmap": Bitmap, "LabelList": LabelList}


class LancePurge:
    """Purges tables of one database and removes their lost commits' files."""

    def __init__(self, db: LanceDatabase, orphan_grace: timedelta) -> None:
        self._db = db
        self._orphan_grace = orphan_grace
        """Unreferenced files older than this are a lost commit's leftovers, never one in flight."""
        self._remover = FileRemover(db.uri, db.storage_options)

    async def purge(self, names: Sequence[str]) -> int:
        """Remove deleted rows from disk: rewrite every fragment holding one, rebuild the indexes, drop old versions.

        Returns the versions removed. Readers of an old version fail meanwhile (an erasure is rare
        and must not wait an hour); files no version references are left to ``remove`` (they may
        be an in-flight commit of another process). A rewrite preempted by a concurrent write (a
        conversation's state row updated by an append) is tried again from the latest version.
        """
        removed = 0
        for name in dict.fromkeys(names):
            removed += await self._purged(name)
        return removed

    async def _purged(self, name: str) -> int:
        for attempt in range(_PURGE_ATTEMPTS):
            try:
                async with map_lance_errors():
                    table = await materialized(await self._db.open_existing(name))
                    await _rebuilt_key_indexes(table)
                    with warnings.catch_warnings():  # "readers of older versions will fail": meant, see above
                        warnings.simplefilter("ignore", UserWarning)
                        async with self._db.rewriting(name):
                            # A version keeps its commit's record, a delete's predicate included (an
                            # erasure's names the contact). When nothing is left to rewrite, the delete
                            # would stay the latest version, never pruned: a commit that changes nothing
                            # comes after it.
                            await table.delete("false")
                            stats = await table.optimize(cleanup_older_than=timedelta(0))
                            # The optimize's prune keeps the versions made while it ran (the rewrite's,
                            # the fold's own, concurrent appends'); they reference the indexes as they
                            # were before, deleted keys included: pruned again, after it.
                            again = await _pruned_to_latest(table)
                return int(stats.prune.old_versions_removed) + again
            except Conflict:
                if attempt == _PURGE_ATTEMPTS - 1:
                    raise
                log.info("purge yielded to a concurrent write; again", extra={"table": name, "attempt": attempt + 1})
                await asyncio.sleep(_PURGE_BACKOFF_SECONDS * (attempt + 1))
        raise AssertionError("unreachable")  # the loop returns or raises

    async def unreferenced(self, names: Sequence[str]) -> list[TableFile]:
        """The files of these tables that no version references (``lance_orphans``)."""
        found: list[TableFile] = []
        for name in dict.fromkeys(names):
            async with map_lance_errors():
                dataset = await (await self._db.open_existing(name)).to_lance()
                found += await asyncio.to_thread(unreferenced, dataset, name)
        return found

    async def remove(self, files: Sequence[TableFile], older_than: timedelta) -> int:
        """Delete those of ``files`` older than ``older_than`` that no version references now; how many."""
        ripe = datetime.now(UTC) - older_than
        files = [f for f in files if f.modified <= ripe]
        removed = 0
        for name in dict.fromkeys(f.table for f in files):
            async with map_lance_errors():
                dataset = await (await self._db.open_existing(name)).to_lance()
                removed += await self._remover.remove(dataset, [f for f in files if f.table == name])
        return removed

    async def remove_leftovers(self, names: Sequence[str]) -> None:
        """Every table's lost commits' files past the grace (Lance would keep them a week)."""
        for name in names:
            try:
                if removed := await self.remove(await self.unreferenced([name]), self._orphan_grace):
                    log.info("removed files of lost commits", extra={"table": name, "files": removed})
            except (Conflict, Unavailable, NotFound):
                log.info("leftover sweep of a table skipped; the next purge looks again", extra={"table": name})


async def materialized(table: Any) -> Any:
    """The table with every fragment that holds a deleted row rewritten without it.

    LanceDB's ``optimize`` rewrites only fragments past a deletion ratio: a lone deleted row would stay.
    """
    dataset = await table.to_lance()
    await asyncio.to_thread(
        dataset.optimize.compact_files, materialize_deletions=True, materialize_deletions_threshold=0.0
    )
    await table.checkout_latest()
    return table


async def _rebuilt_key_indexes(table: Any) -> None:
    """The table's scalar indexes built again from its rows.

    A compaction remaps them without the deleted rows, but a bitmap index keeps each deleted value
    as a key with no rows: an erased contact's id stayed in ``end_user_id``'s index pages in 4 of
    20 erasures under writes. Built from the rows as they are now, no deleted value is left.
    """
    for index in await table.list_indices():
        config = _KEY_INDEXES.get(index.index_type)
        if config is not None:
            await table.create_index(index.columns[0], config=config(), replace=True)


async def _pruned_to_latest(table: Any) -> int:
    """Every version but the latest removed; how many."""
    dataset = await table.to_lance()
    prune = functools.partial(dataset.cleanup_old_versions, older_than=timedelta(0), error_if_tagged_old_versions=False)
    return int((await asyncio.to_thread(prune)).old_versions)
