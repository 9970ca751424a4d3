"""CopyCache: overlapping reads share one version check; a later read checks again."""

from __future__ import annotations

import asyncio
from typing import Any

from memoryd.adapters.lance.copies.cache import CopyCache


class _Table:
    """Counts version checks; each takes a moment, as one through the binding does."""

    def __init__(self) -> None:
        self.checks = 0
        self.version_now = 7

    async def version(self) -> int:
        self.checks += 1
        await asyncio.sleep(0.01)
        return self.version_now

    async def count_rows(self) -> int:
        return 1

    async def uri(self) -> str:
        return "memory://t1"  # not a local directory: every read checks


class _Copy:
    def __init__(self, version: int, data: Any) -> None:
        self.version = version

    def __len__(self) -> int:
        return 1


async def _read(table: Any) -> None:
    return None


async def test_overlapping_reads_share_one_version_check_and_a_later_read_checks_again() -> None:
    cache: CopyCache[_Copy] = CopyCache(max_rows=10, tables=4)
    table = _Table()
    first = await asyncio.gather(*(cache.copy("t1", table, (), _Copy, _read) for _ in range(3)))
    assert first[0] is first[1] is first[2] and first[0] is not None
    assert table.checks == 2  # one shared by the three overlapping reads, one after the load
    table.version_now = 8  # another process committed
    later = await cache.copy("t1", table, (), _Copy, _read)
    assert table.checks >= 3 and later is not None and later.version == 8  # a read after that sees it


async def test_a_table_counted_too_big_is_not_counted_again_at_every_version() -> None:
    # Under writes a table just past the bound changes version every few ms; counting its rows at each
    # version, under the tenant's load lock, serialised every Recall (a mixed load fell to a sixth).
    cache: CopyCache[_Copy] = CopyCache(max_rows=10, tables=4)
    table = _Table()
    counted = []

    async def count_rows() -> int:
        counted.append(table.version_now)
        return 11

    table.count_rows = count_rows  # type: ignore[method-assign]
    for _ in range(5):
        assert await cache.copy("t1", table, (), _Copy, _read) is None
        table.version_now += 1  # this process's or another's write
    assert counted == [7]


class _Sized:
    def __init__(self, version: int, rows: int) -> None:
        self.version, self._rows = version, rows

    def __len__(self) -> int:
        return self._rows


def test_copies_hold_at_most_the_total_rows_the_least_recently_used_going_first() -> None:
    cache: CopyCache[_Sized] = CopyCache(max_rows=30, tables=8, total_rows=50)
    cache.put("a", _Sized(1, 20))
    cache.put("b", _Sized(1, 20))
    cache.put("a", _Sized(2, 21))  # a write of "a": now the most recently used
    cache.put("c", _Sized(1, 9))  # 21 + 20 + 9 = 50: all kept
    assert [t for t in "abc" if cache.current(t) is not None] == ["a", "b", "c"]
    cache.put("d", _Sized(1, 10))  # 60 rows: "b", the least recently used, goes
    assert [t for t in "abcd" if cache.current(t) is not None] == ["a", "c", "d"]
    cache.put("e", _Sized(1, 80))  # past the budget alone: the newest copy is kept, every other goes
    assert [t for t in "abcde" if cache.current(t) is not None] == ["e"]
