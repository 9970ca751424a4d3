"""Files of a table that no version references: what commits that lost left behind.

A commit preempted by a concurrent one (a compaction by a state-row update, an index fold, a
retried delete) leaves the files it wrote: rewritten fragments, index pages, a transaction. Lance
keeps every such file for 7 days, since a file no version references may be a commit still in
flight. Those files hold whatever rows the commit read, so an erased contact's conversation ids
stayed in a failed index fold's pages after the erasure had purged every version.

``unreferenced`` lists a table's files that no version references (``all_files`` minus
``tracked_files``, under the folders commits write: data, deletions, indexes, transactions);
``remove`` deletes those of them still unreferenced. Callers pass only files older than the grace
no commit of memoryd's stays in flight (``storage.orphan_grace_seconds``): deleting a file a
commit is about to reference would break the table.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from pyarrow import fs

from memoryd.core.data_rights import TableFile

_SWEPT = ("data/", "_deletions/", "_indices/", "_transactions/")
"""Folders whose files commits write and versions reference; manifests and tags are never touched."""


def unreferenced(dataset: Any, table: str) -> list[TableFile]:
    """The table's files in the swept folders that no version references (blocking: run in a thread)."""
    tracked = set(dataset.tracked_files().read_all().column("path").to_pylist())
    present = dataset.all_files().read_all().to_pylist()
    return [
        TableFile(table, row["path"], row["last_modified"])
        for row in present
        if row["path"].startswith(_SWEPT) and row["path"] not in tracked
    ]


class FileRemover:
    """Deletes files under the database's root: a directory, or an ``s3://`` bucket through pyarrow."""

    def __init__(self, uri: str, storage_options: dict[str, str]) -> None:
        self._root, self._fs = _filesystem(uri, storage_options)

    async def remove(self, dataset: Any, files: Sequence[TableFile]) -> int:
        """Delete ``files`` (one table's) that no version references now; how many were deleted."""
        if not files:
            return 0
        return await asyncio.to_thread(self._remove, dataset, files)

    def _remove(self, dataset: Any, files: Sequence[TableFile]) -> int:
        # Read the references again: a file listed a moment ago may have been committed since.
        tracked = set(dataset.tracked_files().read_all().column("path").to_pylist())
        removed = 0
        for file in files:
            if file.path in tracked or not file.path.startswith(_SWEPT):
                continue
            try:
                self._fs.delete_file(f"{self._root}/{file.table}.lance/{file.path}")
            except FileNotFoundError:
                continue
            removed += 1
        return removed


def _filesystem(uri: str, options: dict[str, str]) -> tuple[str, fs.FileSystem]:
    parsed = urlparse(uri)
    if parsed.scheme != "s3":
        return str(Path(uri).resolve()), fs.LocalFileSystem()
    endpoint = urlparse(options["aws_endpoint"]) if "aws_endpoint" in options else None
    s3 = fs.S3FileSystem(
        access_key=options.get("aws_access_key_id"),
        secret_key=options.get("aws_secret_access_key"),
        region=options.get("aws_region"),
        endpoint_override=endpoint.netloc if endpoint else None,
        scheme=endpoint.scheme if endpoint else "https",
    )
    return f"{parsed.netloc}{parsed.path}".rstrip("/"), s3
