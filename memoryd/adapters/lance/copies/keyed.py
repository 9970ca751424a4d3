"""KeyedCopy: a tenant's small keyed table in memory at one version, each row converted once.

Profiles and conversation states are read by key on every GetProfile, GetContext and
AppendMessages: a LanceDB query of a table of a few rows cost 3-7 ms (the version check, the key's
index, the read), where the copy answers in microseconds. Loaded through ``CopyCache`` (any process's
commit moves the table's version and the next read loads it again); this process's own
compare-and-swap is applied to the copy when it committed right after the copy's version
(``follow``), so a tenant written by one process keeps its copy between writes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

import pyarrow as pa

from memoryd.adapters.lance.copies.cache import CopyCache, commits_since
from memoryd.adapters.lance.filters import literal

T = TypeVar("T")


class KeyedCopy(Generic[T]):
    """The converted rows of one table version, by key."""

    def __init__(self, version: int, rows: dict[str, T]) -> None:
        self.version = version
        self._rows = rows

    @classmethod
    def builder(cls, key: str, convert: Callable[[dict[str, Any]], T]) -> Callable[[int, pa.Table], KeyedCopy[T]]:
        """``CopyCache``'s builder for a table keyed by column ``key``."""

        def build(version: int, data: pa.Table) -> KeyedCopy[T]:
            return cls(version, {row[key]: convert(row) for row in data.to_pylist()})

        return build

    @classmethod
    def follower(
        cls, key: str, columns: Sequence[str], convert: Callable[[dict[str, Any]], T]
    ) -> Callable[[KeyedCopy[T], Any, int], Awaitable[KeyedCopy[T] | None]]:
        """``CopyCache``'s follower: a copy brought up to a later version by the rows the commits since wrote.

        Concurrent compare-and-swaps of one process commit out of order with their ``follow``: each
        one that found the copy a version behind made the next read load the whole table while the
        tenant's reads waited (a bootstrap of one tenant's agents, 16 at once: ~0.5 s a profile read).
        """

        async def caught_up(copy: KeyedCopy[T], table: Any, version: int) -> KeyedCopy[T] | None:
            steps = await commits_since(table, copy.version, version, columns, key)
            if steps is None:
                return None
            rows = dict(copy._rows)
            for step in steps:
                for gone in step.deleted:
                    rows.pop(gone, None)
                if step.added is not None:
                    rows.update((row[key], convert(row)) for row in step.added.select(list(columns)).to_pylist())
            return cls(version, rows)

        return caught_up

    def get(self, key: str) -> T | None:
        """The row, or None when the table has none under that key."""
        return self._rows.get(key)

    def with_rows(self, version: int, rows: Mapping[str, T]) -> KeyedCopy[T]:
        """The copy after a commit ``version`` that wrote these rows."""
        return KeyedCopy(version, {**self._rows, **rows})

    def __len__(self) -> int:
        return len(self._rows)


def follow(copies: CopyCache[KeyedCopy[T]], tenant_id: str, version: int, rows: Mapping[str, T]) -> None:
    """After this process's write of ``rows`` (by key), committed as ``version``: bring the tenant's copy along.

    Only a copy of the version just before can take it; over anyone else's commit in between it
    would skip theirs, so it is left to the next read's version check (which loads the table).
    """
    copy = copies.current(tenant_id)
    if copy is not None and copy.version == version - 1:
        copies.put(tenant_id, copy.with_rows(version, rows))


async def rows_written(
    table: Any, version: int, rows: list[dict[str, Any]], key: str, convert: Callable[[dict[str, Any]], T]
) -> set[str]:
    """Which of ``rows`` (by column ``key``) this process's merge-insert committed as ``version`` wrote, when only some.

    The rows that commit added, as its transaction says; when that cannot be read (a version gone
    already), the rows now stored that convert equal to ours (wrong only if another writer replaced one since).
    """
    mine = {r[key]: r for r in rows}
    steps = await commits_since(table, version - 1, version, list(rows[0]), key)
    if steps is not None and len(steps) == 1 and steps[0].added is not None:
        return {k for k in steps[0].added.column(key).to_pylist() if k in mine}
    keys = ", ".join(literal(k) for k in mine)
    stored = (await table.query().where(f"{key} IN ({keys})").to_arrow()).to_pylist()
    return {r[key] for r in stored if convert(r) == convert(mine[r[key]])}


async def swap_rows(
    copies: CopyCache[KeyedCopy[T]],
    tenant_id: str,
    table: Any,
    rows: list[dict[str, Any]],
    schema: pa.Schema,
    key: str,
    convert: Callable[[dict[str, Any]], T],
) -> set[str]:
    """Compare-and-swap of several rows on their ``revision``; the keys written.

    One merge-insert for the new rows (revision 1: inserted only if absent) and one for the others
    (each updated only where the stored revision is the one before its own); the tenant's copy
    follows each commit.
    """
    swapped: set[str] = set()
    for new in (True, False):
        part = [r for r in rows if (r["revision"] == 1) == new]
        if not part:
            continue
        merge = table.merge_insert(key)
        if new:
            merge = merge.when_not_matched_insert_all()
        else:
            merge = merge.when_matched_update_all(where="target.revision = source.revision - 1")
        result = await merge.execute(pa.Table.from_pylist(part, schema))
        count = result.num_updated_rows + result.num_inserted_rows
        if count == 0:
            continue
        written = {r[key] for r in part}
        if count < len(part):
            written = await rows_written(table, result.version, part, key, convert)
        swapped |= written
        follow(copies, tenant_id, result.version, {r[key]: convert(r) for r in part if r[key] in written})
    return swapped
