"""CopyCache: per-tenant in-memory copies of small Lance tables, each tied to the table version it was read at.

The archive's ``ArchiveCopy`` and the graph's ``FactsCopy`` are loaded the same way: check the table's
version (any process's write moves it), reuse the copy made at that version, else read the whole
table when it has at most ``max_rows`` rows (remembering for a few seconds that a table was too big),
keeping at most ``tables`` copies of ``total_rows`` rows in all, least recently used first out. One
load per tenant at a time, and this process's writes to that tenant wait for it.

While this process rewrites a table without changing a row (maintenance's optimize, ``rewriting``),
reads keep the copy and this process's writes are applied to it; at the end the table is loaded once.

The version check (``lance_versions.VersionChecks``) skips the binding on a local disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

from memoryd.adapters.lance.versions import VersionChecks

_ROWS_KEPT = frozenset({"Rewrite", "CreateIndex", "BaseOperation"})
"""Lance operations that change no row: a compaction, an index's build or fold, and the fragment-id
reservation a compaction commits first (an operation the binding does not name, ``BaseOperation``;
on lance 14 the others it does not name are MemWAL and base-path records, which change no row either)."""


_FOLLOW_COMMITS = 64
"""The most commits a copy catches up over by reading what they changed (``commits_since``)."""

_TOO_BIG_SECONDS = 5.0
"""A table counted past ``max_rows`` is taken to stay so this long, whatever commits it meanwhile. Checked
again at every version, a table just past the bound under writes had every Recall count its rows under
the tenant's load lock, one after another: ``bench mixed`` fell from ~140 to ~24 req/s once the tenant
grew past 10,000 rows."""


_REFRESH_TRIES = 3
"""Loads a ``refresh`` tries before leaving the catching up to the next read (each met a commit)."""

_FOLLOWED_SLACK = 8
"""A copy loaded within ``max_rows`` is followed through writes up to an eighth past it. A rewrite hides
the old row and appends the new one, so a copy grows by one row per rewrite until its next load: a table
exactly at the bound was loaded again at every rewrite (~4 s of CPU at 100,000 rows)."""


class _Versioned(Protocol):
    version: int

    def __len__(self) -> int: ...


H = TypeVar("H", bound=_Versioned)


_TRIMMED_FROM_ROWS = 10_000
"""Loads from this size give the memory they freed back to the system (``_return_freed_memory``)."""
_LIBC = ctypes.CDLL(None)
"""The process's C library (``malloc_trim`` where it is glibc)."""


def _return_freed_memory() -> None:
    """Hand the C heap's free pages back to the system (glibc only; elsewhere nothing).

    A load's transient columns are freed into glibc's per-thread arenas, which keep them: loading a
    100,000-row copy left the daemon's RSS ~1,000 MiB above a daemon without the copy, of which
    ``malloc_trim`` returned ~460 (``docs/benchmarks.md``, session 21).
    """
    trim = getattr(_LIBC, "malloc_trim", None)
    if trim is not None:
        trim(0)


class CopyCache(Generic[H]):
    """The copies of one store (archive or graph facts), by tenant."""

    def __init__(self, max_rows: int, tables: int, total_rows: int | None = None) -> None:
        self.max_rows = max_rows
        self._tables = tables
        self._total_rows = total_rows if total_rows is not None else max_rows * tables
        """The rows all copies may hold together (the newest copy is kept whatever its size)."""
        self._copies: OrderedDict[str, H] = OrderedDict()
        self._too_big: dict[str, float] = {}
        """When each tenant's table was last counted past ``max_rows`` (``time.monotonic``)."""
        self._loading: dict[str, asyncio.Lock] = {}
        self._writes: dict[str, set[asyncio.Future[None]]] = {}
        self._gates: dict[str, asyncio.Event] = {}
        """Tenants whose copy is being loaded: this process's writes to them wait (``copy``)."""
        self._versions = VersionChecks()
        """Each tenant's table's latest version (``lance_versions``)."""
        self._held: dict[str, dict[tuple[int, int], asyncio.Future[bool]]] = {}
        """Tenants whose table this process is rewriting without changing a row (``rewriting``), with the
        verdicts on the versions reads met meanwhile: (copy's version, table's version) → no row changed."""

    @contextlib.asynccontextmanager
    async def rewriting(self, tenant_id: str, reload: Callable[[], Awaitable[object]]) -> AsyncIterator[None]:
        """Around this process's rewrite of the tenant's table that changes no row (an optimize).

        Each of an optimize's commits (the fragment reservation, the compaction, the index fold) sent
        the next read to load the table again, holding the tenant's writes and Recalls each time: under
        16 mixed clients, three loads of 55-270 ms at every optimize, most of Recall's p99. Meanwhile
        a read keeps the copy while every commit since its version changed no row, as the commits' own
        transactions say (``unchanged``; another process's write makes the read load as before), and
        this process's writes are applied to it over those commits. At the end ``reload`` loads the
        table once (its writes wait for that load only), reads answered by the old copy until then.

        Until that load, the copy ranks full text with the index statistics of its own version (the
        same rows, before the optimize folded them): a read answers as LanceDB did just before it.

        A copy first loaded while the rewrite runs is kept the same way: a daemon's first reads of a
        tenant just written in bulk meet the optimize folding those rows, and each of its commits sent
        them to load the table again.
        """
        if tenant_id in self._held:  # an outer rewrite holds it already
            yield
            return
        self._held[tenant_id] = {}
        reloaded = False
        try:
            yield
            await reload()
            reloaded = True
        finally:
            del self._held[tenant_id]
            if not reloaded:  # a copy carried over the rewrite's commits must not outlive it unloaded
                self._copies.pop(tenant_id, None)

    async def refresh(
        self,
        tenant_id: str,
        table: Any,
        columns: Sequence[str],
        build: Callable[[int, Any], H],
        read: Callable[[Any], Awaitable[Any]] | None = None,
    ) -> H | None:
        """Load the table at its current version, the tenant's copy answering reads until the new one is in.

        Even when the copy bears that version: carried over a rewrite, it still ranks full text with
        the statistics of before it.

        A load that met a commit during its read is tried again (``_REFRESH_TRIES`` in all): a write
        of this process acknowledged just before it could leave the handle's first answer a version
        behind, and the copy carried over the rewrite must not wait for the next read to catch up.
        """
        if not self.max_rows or tenant_id not in self._copies:
            return None
        async with self._loading.setdefault(tenant_id, asyncio.Lock()):
            for _ in range(_REFRESH_TRIES):
                copy = await self._load(tenant_id, await table.version(), table, columns, build, read, keep=True)
                if copy is not None or tenant_id not in self._copies:  # loaded, or too big now
                    return copy
            return None

    def holds(self, copy: H) -> bool:
        """Whether a copy this process brought up to date may be kept (a load needs ``max_rows`` or fewer)."""
        return len(copy) <= self.max_rows + self.max_rows // _FOLLOWED_SLACK

    def current(self, tenant_id: str) -> H | None:
        """The tenant's copy at whatever version it is (no check)."""
        return self._copies.get(tenant_id)

    async def unchanged(self, tenant_id: str, table: Any, since: int, version: int) -> bool:
        """Whether no commit after ``since`` up to ``version`` changed a row (only known while ``rewriting``)."""
        if version <= since:
            return version == since
        verdicts = self._held.get(tenant_id)
        if verdicts is None:
            return False
        verdict = verdicts.get((since, version))
        if verdict is None:
            verdict = verdicts[since, version] = asyncio.ensure_future(_rows_kept(table, since, version))
        return await asyncio.shield(verdict)

    @contextlib.asynccontextmanager
    async def writing(self, tenant_id: str) -> AsyncIterator[None]:
        """Around a write of this process whose commit the copy follows (``put`` when it returns).

        A read that meets the write's version before the copy has applied it waits for the write
        instead of reading the whole table again: under 16 mixed clients that race reloaded the copy
        three times a second. A write waits while the tenant's copy loads (``copy``).
        """
        while (gate := self._gates.get(tenant_id)) is not None:
            await gate.wait()
        done = asyncio.get_running_loop().create_future()
        writes = self._writes.setdefault(tenant_id, set())
        writes.add(done)
        try:
            yield
        finally:
            writes.discard(done)
            done.set_result(None)
            if not writes:
                self._writes.pop(tenant_id, None)

    async def copy(
        self,
        tenant_id: str,
        table: Any,
        columns: Sequence[str],
        build: Callable[[int, Any], H],
        read: Callable[[Any], Awaitable[Any]] | None = None,
        follow: Callable[[H, Any, int], Awaitable[H | None]] | None = None,
    ) -> H | None:
        """The tenant's table in memory at its current version, when small enough (else None).

        ``read``: how to read the table for ``build`` (default: the ``columns`` of every row).
        ``follow``: how a copy catches up to a later version (None: it cannot; the table is read again).
        """
        if not self.max_rows:
            return None
        version = await self._versions.latest(tenant_id, table)
        copy = self._copies.get(tenant_id)
        if (copy is None or copy.version != version) and (writes := self._writes.get(tenant_id)):
            await asyncio.wait(list(writes))  # this process's commit: the copy is one apply away
            version = await table.version()
            copy = self._copies.get(tenant_id)
        if copy is not None and (
            copy.version == version or await self.unchanged(tenant_id, table, copy.version, version)
        ):  # (the second: the rows of this process's rewrite under way, as they were)
            if self._copies.get(tenant_id) is copy:  # (a load or a write may have replaced it during the check)
                self._copies.move_to_end(tenant_id)
            return copy
        if time.monotonic() - self._too_big.get(tenant_id, -_TOO_BIG_SECONDS) < _TOO_BIG_SECONDS:
            return None
        async with self._loading.setdefault(tenant_id, asyncio.Lock()):
            copy = self._copies.get(tenant_id)
            if copy is not None and copy.version >= version:  # loaded meanwhile, at this version or a later one
                return copy
            if (
                copy is not None
                and follow is not None
                and (caught := await self._follow(tenant_id, copy, table, version, follow))
            ):
                return caught
            return await self._load(tenant_id, version, table, columns, build, read)

    async def _follow(
        self, tenant_id: str, copy: H, table: Any, version: int, follow: Callable[[H, Any, int], Awaitable[H | None]]
    ) -> H | None:
        """The copy brought up to ``version`` by ``follow`` while this process's writes wait; None if it cannot be.

        Another process's commits (a worker filing a compaction's memories) made every copy of the tenant
        load the whole table again: at 30,000 rows ~1.5 s of CPU, at 100,000 four to six.
        """
        gate = self._gates[tenant_id] = asyncio.Event()
        try:
            if writes := self._writes.get(tenant_id):  # the writes already past the gate land first
                await asyncio.wait(list(writes))
            if self._copies.get(tenant_id) is not copy:  # a write of this process replaced or dropped it
                return None
            caught = await follow(copy, table, version)
            if caught is None or not self.holds(caught):
                return None
            self.put(tenant_id, caught)
            return caught
        finally:
            del self._gates[tenant_id]
            gate.set()

    async def _load(
        self,
        tenant_id: str,
        version: int,
        table: Any,
        columns: Sequence[str],
        build: Callable[[int, Any], H],
        read: Callable[[Any], Awaitable[Any]] | None,
        *,
        keep: bool = False,
    ) -> H | None:
        """Read the table and build its copy while this process's writes to it wait (None: too big now).

        ``keep``: the tenant's copy answers reads meanwhile (``refresh``); else it is dropped first.

        A copy is only good at the version it was read at, and nothing brings a copy read at an older
        version up to date: when writes landed during the read, the load was wasted. Under 16 mixed
        clients (a write every few ms) after a maintenance commit, 222 of 256 loads failed so, each
        reading the whole table, while Recall took LanceDB's slower path. Writes of this process wait
        for the load instead (tens of ms, after a commit the copy could not follow); another process's
        write still fails it, and the next read tries again.
        """
        if await table.count_rows() > self.max_rows:  # remembered for ``_TOO_BIG_SECONDS``
            self._copies.pop(tenant_id, None)
            self._too_big[tenant_id] = time.monotonic()
            return None
        gate = self._gates[tenant_id] = asyncio.Event()
        try:
            if writes := self._writes.get(tenant_id):  # the writes already past the gate land first
                await asyncio.wait(list(writes))
                version = await table.version()
                copy = self._copies.get(tenant_id)
                if not keep and copy is not None and copy.version == version:  # they brought the copy up to date
                    return copy
            if not keep:
                self._copies.pop(tenant_id, None)
            data = await (read(table) if read else table.query().select(list(columns)).to_arrow())
            if await table.version() != version:  # another process wrote meanwhile: the next read tries again
                return None
            copy = await asyncio.to_thread(build, version, data)  # 10k rows: off the event loop
            self.put(tenant_id, copy)
            if len(copy) >= _TRIMMED_FROM_ROWS:
                del data
                await asyncio.to_thread(_return_freed_memory)
            return copy
        finally:
            del self._gates[tenant_id]
            gate.set()

    def put(self, tenant_id: str, copy: H) -> None:
        """Keep a copy (one this process brought up to date after its own write), the most recently used."""
        self._copies[tenant_id] = copy
        self._copies.move_to_end(tenant_id)
        while len(self._copies) > 1 and (
            len(self._copies) > self._tables or sum(len(h) for h in self._copies.values()) > self._total_rows
        ):
            self._copies.popitem(last=False)

    def pop(self, tenant_id: str) -> H | None:
        """Forget the tenant's copy (the next read loads it again)."""
        return self._copies.pop(tenant_id, None)


_FOLLOWED_DELETES = 64
"""The most rows a copy hides for other processes' deletes it catches up over (past it, a load)."""


@dataclass(frozen=True, slots=True)
class Committed:
    """What one commit did to the rows: the ids it deleted, then the rows it added (a rewrite does both)."""

    version: int
    deleted: list[str]
    added: Any | None
    """The rows of the fragments it wrote, in row-address order (with ``_rowaddr``); None when it wrote none."""


async def commits_since(
    table: Any, since: int, version: int, columns: Sequence[str], key: str = "id"
) -> list[Committed] | None:
    """What the commits after ``since`` up to ``version`` did, in order, when each only added, deleted or rewrote rows.

    As their transactions say: an append (its rows in fragments of their own), a delete (rows gone,
    nothing written) or an update that rewrote whole rows (a merge, an upsert: the old rows deleted, the
    new ones in fragments of their own). None for any other commit (a compaction, an index, an update
    of columns in place), past ``_FOLLOW_COMMITS`` commits or ``_FOLLOWED_DELETES`` deleted rows, or when
    a version was pruned meanwhile: the whole table is then read instead. Rows are named by column ``key``.
    """
    if version - since > _FOLLOW_COMMITS:
        return None
    try:
        dataset = await table.to_lance()

        def read() -> list[Committed] | None:
            operations = [_transaction_operation(dataset, v) for v in range(since + 1, version + 1)]
            if not all(_rows_only(o) for o in operations):
                return None
            steps: list[Committed] = []
            deleted = 0
            before = dataset.checkout_version(since)
            for v, operation in zip(range(since + 1, version + 1), operations, strict=True):
                at = dataset.checkout_version(v)
                ids = [] if type(operation).__name__ == "Append" else _deleted_ids(before, at, key)
                deleted += len(ids)
                if deleted > _FOLLOWED_DELETES:
                    return None
                known = {f.fragment_id for f in before.get_fragments()}
                fresh = [f for f in at.get_fragments() if f.fragment_id not in known]
                added = None
                if fresh:
                    rows = at.scanner(columns=list(columns), fragments=fresh, with_row_address=True).to_table()
                    added = rows.sort_by("_rowaddr")
                steps.append(Committed(v, ids, added))
                before = at
            return steps

        return await asyncio.to_thread(read)
    except Exception:  # noqa: BLE001  # unsure (a version pruned meanwhile, a store's error): the read loads
        return None


def _rows_only(operation: Any) -> bool:
    """Whether a commit's operation only added, deleted or rewrote whole rows (what ``commits_since`` follows)."""
    name = type(operation).__name__
    if name == "Update":  # a rewrite of columns in place changes rows without new fragments or deletions
        return getattr(operation, "update_mode", "") == "rewrite_rows" and not getattr(operation, "fields_modified", [])
    return name in ("Append", "Delete")


def _deleted_ids(before: Any, after: Any, key: str) -> list[str]:
    """The ids of the rows a commit removed: in fragments it dropped or gave a new deletion file.

    Of a fragment still there, only the row addresses of both versions are read and the ids of the
    rows gone taken (reading every id of a 30,000-row fragment twice cost ~45 ms a commit).
    """
    kept = {f.fragment_id: f for f in after.get_fragments()}
    ids: list[str] = []
    for fragment in before.get_fragments():
        now = kept.get(fragment.fragment_id)
        if now is None:
            ids.extend(sorted(fragment.to_table(columns=[key]).column(key).to_pylist()))
            continue
        if now.metadata.deletion_file == fragment.metadata.deletion_file:
            continue
        was, left = _addresses(before, fragment), _addresses(after, now)
        gone = np.setdiff1d(was, left, assume_unique=True)
        # a fragment's ``take`` counts rows past its deleted ones: a row's place among the live rows of before
        places = np.searchsorted(was, gone)
        ids.extend(sorted(fragment.take(places.tolist(), columns=[key]).column(key).to_pylist()))
    return ids


def _addresses(dataset: Any, fragment: Any) -> Any:
    """The row addresses of a fragment's live rows, ascending."""
    scanned = dataset.scanner(columns=[], with_row_address=True, fragments=[fragment]).to_table()
    return np.sort(scanned.column("_rowaddr").to_numpy())


async def _rows_kept(table: Any, since: int, version: int) -> bool:
    """Whether every commit after ``since`` up to ``version`` changed no row, by its transaction (False if unsure)."""
    try:
        dataset = await table.to_lance()
        operations = await asyncio.to_thread(lambda: [_operation(dataset, v) for v in range(since + 1, version + 1)])
    except Exception:  # noqa: BLE001  # unsure (a version pruned meanwhile, a store's error): the read loads, as before
        return False
    return all(operation in _ROWS_KEPT for operation in operations)


def _operation(dataset: Any, version: int) -> str | None:
    """The name of the operation that made ``version`` (None: unknown)."""
    try:
        transaction = dataset.read_transaction(version)
    except TypeError as exc:
        # lance 14's binding cannot build the remapped indexes (``RewrittenIndex``) of a compaction
        # that rewrote indexed fragments; only a Rewrite holds them
        return "Rewrite" if "RewrittenIndex" in str(exc) else None
    return None if transaction is None else type(transaction.operation).__name__


def _transaction_operation(dataset: Any, version: int) -> Any:
    """The operation that made ``version`` (None: unknown, or one the binding cannot read)."""
    try:
        transaction = dataset.read_transaction(version)
    except TypeError:  # a compaction's remapped indexes (see ``_operation``): not followed
        return None
    return None if transaction is None else transaction.operation
