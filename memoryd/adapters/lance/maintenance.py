"""StoreMaintenance on LanceDB: fragment compaction, index folding and ANN builds, off the request path.

Every commit adds a fragment and a version; small fragments and rows outside the full-text
index slow every query until ``optimize()`` folds them in. A pass visits either the tables
this process wrote since the last one (cheap, every few seconds: a busy conversation's table
stays merged) or every table (writes of other processes included).

Old versions are pruned soon (``cleanup_older_than``, a minute by default): on a local disk
every LanceDB operation lists the table's versions, so each thousand versions kept adds about a
millisecond to every commit and half of one to every query (``docs/benchmarks.md``). A table
whose writes stopped has its last versions pruned by a later pass.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import timedelta
from typing import Any

from memoryd.adapters.lance.archive_tables import ARCHIVE_PREFIX
from memoryd.adapters.lance.db import META_TABLE, LanceDatabase
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.graph import ENTITIES, FACTS
from memoryd.adapters.lance.purge import LancePurge, materialized
from memoryd.adapters.lance.rows import space_columns
from memoryd.adapters.lance.text_languages import LanceTextLanguages
from memoryd.core.data_rights import TableFile
from memoryd.core.errors import Conflict, Unavailable

log = logging.getLogger(__name__)


_KINDS = (
    "memories_",
    "retrievals_",
    "profiles_",
    "profile_revisions_",
    "profile_failures_",
    "conversations_",
    "conversation_items_",
    "reviews_",
    "review_findings_",
    "usage_reports_",
    "audit_events_",
    "agent_config_",
    "graph_entities_",
    "graph_facts_",
    "graph_episodes_",
    "graph_merge_suggestions_",
    "memory_history_",
    "servings_",
)


def table_kind(name: str) -> str:
    """What a table holds, without its tenant (``memories_acme`` → ``memories``): bounded metric labels."""
    prefix = max((p for p in _KINDS if name.startswith(p)), key=len, default="")
    return prefix.rstrip("_") if prefix else name


_ON_DISK_MERGE_FRAGMENTS = 4
"""An archive read from disk has its small fragments merged from this many on (``_maintain_table``)."""

_NO_PRUNE = timedelta(days=3650)
"""``optimize``'s own pruning window, so wide it prunes nothing: ``LanceMaintenance._prune`` does it."""
_MERGED_MIN_ROWS = 8_192
"""The least a merge's output fragment may grow to (``_merged_rows``)."""

_GAP_ROWS, _MAX_GAPS = 10_000, 3.0
"""A table held in memory waits one more ``optimize_gap`` between optimizes per this many rows, up to three."""
_PRUNE_SHARE = 0.25
"""An optimize prunes when the last prune of its table is this share of ``cleanup_older_than`` ago (15 s at
the default minute): a table keeps at most 1.25 windows of versions, and its prune walks them 3x less often
under writes (one optimize in three at the 5 s ``optimize_gap``)."""

_BUILD_RETRY_SECONDS = 60.0
"""A failed ANN build (a crash, another process's compaction preempting it) is tried again after this."""
_DELTA_GROWTH = 4
"""The newest segments of a vector index are merged once together they hold a quarter of the rows of the one before."""

_SEARCHED = {ARCHIVE_PREFIX: "search_text_idx", FACTS: "sentence_idx", ENTITIES: "name_idx"}
"""Tables searched by vector and full text (an ANN index past ``ann_min_rows``), and their full-text index."""


class LanceMaintenance:
    """Compacts and indexes the tables of one database."""

    def __init__(
        self,
        db: LanceDatabase,
        *,
        ann_min_rows: int = 25_000,
        optimize_min_fragments: int = 16,
        cleanup_older_than: timedelta = timedelta(hours=1),
        forget_purge_every: timedelta = timedelta(hours=1),
        observe: Callable[[dict[str, tuple[int, int]]], None] | None = None,
        copy_max_rows: int = 0,
        optimize_gap: timedelta = timedelta(seconds=5),
        keeping_copy: Callable[[str], AbstractAsyncContextManager[None]] | None = None,
        build_timeout: timedelta = timedelta(hours=1),
        orphan_grace: timedelta = timedelta(seconds=60),
    ) -> None:
        self._purge = LancePurge(db, orphan_grace)
        self._languages = LanceTextLanguages(db)
        """The tenants' full-text languages, followed by their archive tables' indexes (``text_languages``)."""
        self._pauses = 0
        self._passing = asyncio.Lock()
        """Held by a pass; ``paused`` waits for it."""
        self._keeping_copy = keeping_copy
        """Around an optimize of a table small enough for memory: what keeps its copy answering meanwhile."""
        self._copy_max_rows = copy_max_rows
        """Archive tables up to this size are held in memory; their optimize also drops deleted rows."""
        self._optimize_gap = optimize_gap.total_seconds()
        """Between two optimizes of a table by quick passes (a copy reloads after each; the index fold costs)."""
        self._optimized_at: dict[str, float] = {}
        self._observe = observe
        self._db = db
        self._forget_purge_every = forget_purge_every.total_seconds()
        self._last_forget_purge = time.monotonic()
        self._ann_min_rows = ann_min_rows
        self._optimize_min_fragments = optimize_min_fragments
        self._cleanup_older_than = cleanup_older_than
        self._builds: dict[tuple[str, str], asyncio.Task[None]] = {}
        """The ANN index builds running, by table and column (``_build_soon``)."""
        self._build_timeout = build_timeout.total_seconds()
        """A build still running after this is stopped (a hung one would hold its table's merges forever)."""
        self._failed: dict[tuple[str, str], float] = {}
        """When a build of each failed last: tried again after ``_BUILD_RETRY_SECONDS``, not at every pass."""
        self._unpruned: set[str] = set()
        """Tables whose last optimize (``_optimized_at``) left versions too young to prune."""
        self._pruned_at: dict[str, float] = {}
        """When each table's optimize last pruned; the optimizes less than ``_PRUNE_SHARE`` of the window
        after one fold without pruning (``_optimize``)."""

    @property
    def pending(self) -> frozenset[str]:
        """The tables this process wrote since the last pass (what a quick pass visits)."""
        return frozenset(self._db.written)

    async def use_text_language(self, tenant_id: str, language: str) -> None:
        """Index the tenant's memories' text in ``language`` from now on (``LanceTextLanguages.use``)."""
        await self._languages.use(tenant_id, language)

    async def purge(self, names: Sequence[str]) -> int:
        """Remove deleted rows from disk now (``LancePurge.purge``); the versions removed."""
        return await self._purge.purge(names)

    async def unreferenced(self, names: Sequence[str]) -> list[TableFile]:
        """The files of these tables that no version references (``lance_orphans``)."""
        return await self._purge.unreferenced(names)

    async def remove(self, files: Sequence[TableFile], older_than: timedelta) -> int:
        """Delete those of ``files`` older than ``older_than`` that no version references now; how many."""
        return await self._purge.remove(files, older_than)

    async def _purge_forgotten(self, names: Sequence[str]) -> None:
        """Once per ``forget_purge_every``: deleted rows out of the files, and old versions pruned, in every table.

        Every table is visited, so rows deleted by any process (a worker's retention purge, another
        replica's Forget) are found: fragments holding a deletion are rewritten without it, then
        ``optimize`` prunes versions older than ``cleanup_older_than`` (fragments deleted whole live
        only in those). A forgotten row's bytes leave the disk within the sum of the two settings.
        """
        if time.monotonic() - self._last_forget_purge < self._forget_purge_every:
            return
        self._last_forget_purge = time.monotonic()
        for name in names:
            try:
                async with map_lance_errors():
                    if (listed := await self._db.open_listed(name)) is None:
                        continue
                    async with self._db.rewriting(name):
                        await self._optimized_and_pruned(await _without_deleted_rows(listed))
            except Conflict:
                log.info("purge of deleted rows yielded to a concurrent write", extra={"table": name})
        await self._purge.remove_leftovers(names)

    @contextlib.asynccontextmanager
    async def paused(self) -> AsyncIterator[None]:
        """No pass runs meanwhile: a pass under way finishes first, index builds stop (a later pass restarts them)."""
        self._pauses += 1
        try:
            async with self._passing:
                await self.close()
            yield
        finally:
            self._pauses -= 1

    async def maintain(self, *, full: bool = True) -> None:
        """One pass: every table (``full``) or the tables this process wrote since the last pass."""
        if self._pauses:
            return
        async with self._passing:
            await self._pass(full=full)

    async def _pass(self, *, full: bool) -> None:
        written = set(self._db.written)
        self._db.written.clear()
        async with map_lance_errors():
            names = [n async for n in self._db.names() if n != META_TABLE] if full else sorted(written)
        if full:
            await self._languages.refresh()
            await self._purge_forgotten(names)
        sizes: dict[str, tuple[int, int]] = {}
        for name in names:
            try:
                async with map_lance_errors():
                    if (table := await self._db.open_listed(name)) is None:
                        continue
                    rows = await self._maintain_table(name, table, full=full)
                    if full:
                        kind = table_kind(name)
                        total, versions = sizes.get(kind, (0, 0))
                        sizes[kind] = (total + rows, versions + await table.version())
            except Conflict:  # a writer committed meanwhile: nothing is lost, the next pass folds it in
                log.info("maintenance of a table yielded to a concurrent write", extra={"table": name})
                self._db.written.add(name)
        if full and self._observe is not None:
            self._observe(sizes)

    async def _maintain_table(self, name: str, table: Any, *, full: bool) -> int:
        """Optimize and index the table as it needs; its rows.

        A quick pass (``full`` False, every second) optimizes a table at most every ``optimize_gap``;
        in between, an archive table read from disk has its small fragments merged alone, which leaves
        its index as it is: every query of such a table pays for each fragment (at 12k rows a fetch,
        a full-text tier and the vector arm took 32 / 49 / 17 ms with 65 fragments; merged, 5.9 / 8.4 /
        6.3 ms; with the index folded too, 5.1 / 4.5 / 5.7 — the merge took 59 ms, the fold 118).
        """
        stats = await table.stats()
        if any(building == name for building, _ in self._builds):
            # Lance refuses an index built over fragments a compaction rewrote meanwhile (the build's
            # commit is preempted): the table's fragments stay as they are until its build ends.
            self._db.written.add(name)
            return int(stats["num_rows"])
        if await self._languages.follow(name, table):
            stats = await table.stats()
        small = stats["fragment_stats"]["num_small_fragments"]
        text_index = next((index for prefix, index in _SEARCHED.items() if name.startswith(prefix)), None)
        if text_index is None:
            if small >= self._optimize_min_fragments:
                async with self._db.rewriting(name):
                    await self._optimize(name, table)
            else:
                await self._prune_tail(name, table)
            return int(stats["num_rows"])
        fts = await table.index_stats(text_index)
        unindexed = fts.num_unindexed_rows if fts else 0
        archive = name.startswith(ARCHIVE_PREFIX)
        in_memory = archive and stats["num_rows"] <= self._copy_max_rows
        on_disk = archive and not in_memory  # (the graph's tables have in-memory copies of their own)
        # an archive read from disk: rows the index does not cover are scanned by every full-text
        # query, so they are folded at the quick passes' cadence too
        wanted = small >= self._optimize_min_fragments or unindexed >= 1000 or (unindexed > 0 and on_disk)
        if wanted and (full or self._due(name, _gaps(stats["num_rows"]) if in_memory else 1.0)):
            keeping = self._keeping_copy(name) if in_memory and self._keeping_copy else contextlib.nullcontext()
            # the copy's hold outside the lock: its closing load waits for this process's writes, and a
            # merge among them waits for the lock
            async with keeping, self._db.rewriting(name):  # else this process's merges preempt the compaction
                if in_memory:
                    # An in-memory copy ranks full text itself only when no indexed fragment holds a
                    # deleted row (the index still counts it); rewriting such fragments of a small table
                    # costs little next to waiting for the hourly purge (``lance_hot_text``).
                    table = await _without_deleted_rows(table)
                await self._optimize(name, table)
            log.info("optimized table", extra={"table": name, "small_fragments": small, "unindexed": unindexed})
        else:
            if wanted:  # not due yet: the next quick pass looks again
                self._db.written.add(name)
            if on_disk and small >= _ON_DISK_MERGE_FRAGMENTS:
                async with self._db.rewriting(name):
                    await _compacted(table)
            elif not wanted:
                await self._prune_tail(name, table)
        if stats["num_rows"] >= self._ann_min_rows:
            await self._index_vectors(name, table, int(stats["num_rows"]))
        return int(stats["num_rows"])

    async def _index_vectors(self, name: str, table: Any, rows: int) -> None:
        """Start the ANN builds the table lacks (a re-embed's space too, searched once its tenant is switched)."""
        for column in ["vector", *space_columns(await table.schema())]:
            key = (name, column)
            if time.monotonic() - self._failed.get(key, -1e9) < _BUILD_RETRY_SECONDS:
                continue
            if key not in self._builds and not await _indexed(table, column):
                self._build_soon(name, column, rows)

    def _build_soon(self, name: str, column: str, rows: int) -> None:
        """Start building the table's ANN index on ``column`` beside the passes.

        A pass that waited for a build (seconds, ~8 at 30,000 rows on two cores) merged and optimized no
        table meanwhile (``docs/benchmarks.md``); now only the table being indexed waits (a compaction of
        it would preempt the build's commit). The build commits whenever it ends, over the appends made
        since it began; the rows those wrote are folded in by the next optimize.
        """
        log.info("building vector index", extra={"table": name, "column": column, "rows": rows})
        task = asyncio.create_task(self._build_vector_index(name, column))
        self._builds[(name, column)] = task
        task.add_done_callback(functools.partial(self._built, (name, column), time.monotonic()))

    def _built(self, key: tuple[str, str], began: float, task: asyncio.Task[None]) -> None:
        self._builds.pop(key, None)
        if task.cancelled():
            return
        if (exc := task.exception()) is not None:
            self._failed[key] = time.monotonic()
            log.warning("vector index not built; a later pass tries again", extra={"table": key[0], "error": str(exc)})
        else:
            seconds = round(time.monotonic() - began, 1)
            log.info("vector index built", extra={"table": key[0], "column": key[1], "seconds": seconds})

    async def settled(self) -> None:
        """Wait for the index builds that earlier passes started."""
        while self._builds:
            await asyncio.gather(*self._builds.values(), return_exceptions=True)

    async def close(self) -> None:
        """Stop the builds in flight (a later process starts them again)."""
        builds = list(self._builds.values())
        for task in builds:
            task.cancel()
        await asyncio.gather(*builds, return_exceptions=True)

    async def _build_vector_index(self, name: str, column: str) -> None:
        """The table's ANN index on ``column``, built by a child process (``lance_index_child`` says why)."""
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "memoryd.adapters.lance.index_child",
            self._db.uri,
            name,
            column,
            str(os.getpid()),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            talk = child.communicate(json.dumps(self._db.storage_options).encode())
            _, err = await asyncio.wait_for(talk, self._build_timeout)
        except TimeoutError:
            child.kill()
            await child.wait()
            raise Unavailable(f"the vector index of {name} was not built in {self._build_timeout:g} s") from None
        except BaseException:  # cancelled (the daemon stops): the build stops with it; the next pass retries
            child.kill()
            await child.wait()
            raise
        if child.returncode != 0:
            lines = err.decode(errors="replace").strip().splitlines()
            raise Unavailable(f"the vector index of {name} was not built: {lines[-1] if lines else child.returncode}")

    async def _optimize(self, name: str, table: Any) -> None:
        """Compact, fold the indexes and prune the versions older than ``cleanup_older_than``.

        LanceDB's ``optimize`` compacts toward its own target (a million rows), so it still rewrites a
        smaller table whole; its index fold is the one whose statistics the copies' full text follows.
        """
        await self._optimized(name, table)
        if any(name.startswith(prefix) for prefix in _SEARCHED):  # the only tables given a vector index
            await _merge_vector_deltas(table)
        self._optimized_at[name] = time.monotonic()
        self._unpruned.add(name)

    async def _optimized(self, name: str, table: Any) -> None:
        """LanceDB's ``optimize``, its prune at most once every ``_PRUNE_SHARE`` of the window.

        The prune reads every kept version's manifest, and a table written all the time keeps many, each
        listing the fragments written since the last optimize: one writer's table at ~3,000 versions cost
        1 s of CPU a walk, every 5 s (``docs/benchmarks.md``, session 34; through the daemon, one writer for
        two minutes: p50 16.6-16.8 against 19.2-19.8 ms, session 35). An optimize sooner after the last
        prune compacts and folds the indexes as LanceDB's does, with the same options, and no more.
        """
        now = time.monotonic()
        if now - self._pruned_at.get(name, -1e9) < self._cleanup_older_than.total_seconds() * _PRUNE_SHARE:
            await _folded(table)
            return
        await self._optimized_and_pruned(table)
        self._pruned_at[name] = now

    async def _optimized_and_pruned(self, table: Any) -> None:
        """LanceDB's ``optimize`` pruning with ``cleanup_older_than``; a table with a tagged version pruned apart.

        A prune reads the manifest of every version kept, whatever it removes: ~0.5 s of CPU at 1,500
        versions of a written table, and a second walk in ``optimize`` with a window that prunes nothing
        cost as much again at every optimize. ``optimize`` always prunes, so it prunes with the real
        window unless an operator tagged a version, on which its prune fails before the index fold:
        then it prunes nothing and ``_prune`` skips the tags (a tag made meanwhile, likewise).
        """
        if not await table.tags.list():
            try:
                await table.optimize(cleanup_older_than=self._cleanup_older_than)
                return
            except RuntimeError as exc:
                if "tagged version" not in str(exc):
                    raise
        await table.optimize(cleanup_older_than=_NO_PRUNE)
        await self._prune(table)

    def _due(self, name: str, gaps: float = 1.0) -> bool:
        """Whether a quick pass may optimize the table now (``gaps`` times ``optimize_gap`` since its last optimize)."""
        return time.monotonic() - self._optimized_at.get(name, -1e9) >= self._optimize_gap * gaps

    async def _prune(self, table: Any) -> None:
        """Drop the versions older than ``cleanup_older_than``, except the ones an operator tagged.

        ``optimize`` prunes as well, but fails on a tagged version in its window (a backup point):
        every pass of that table would then fail, and its fragments pile up.
        """
        dataset = await table.to_lance()
        prune = functools.partial(
            dataset.cleanup_old_versions, older_than=self._cleanup_older_than, error_if_tagged_old_versions=False
        )
        await asyncio.to_thread(prune)

    async def _prune_tail(self, name: str, table: Any) -> None:
        """Prune the versions an optimize left (too young then), once they are old enough.

        Without it a table whose writes stop keeps its last minute of versions, and every read of
        it pays for them, until enough new writes call for the next optimize.
        """
        if name not in self._unpruned:
            return
        if time.monotonic() - self._optimized_at[name] < self._cleanup_older_than.total_seconds():
            return
        await self._prune(table)
        self._unpruned.discard(name)


async def _folded(table: Any) -> None:
    """LanceDB's ``optimize`` without its prune: the compaction, then the index fold, with its defaults.

    (pylance's ``optimize_indices`` with ``num_indices_to_merge=0`` would leave each fold a segment of its
    own, which ranks ties otherwise; the default folds into the newest, as LanceDB does.)
    """
    await asyncio.to_thread((await table.to_lance()).optimize.compact_files)
    await table.checkout_latest()
    await asyncio.to_thread((await table.to_lance()).optimize.optimize_indices)
    await table.checkout_latest()


async def _merge_vector_deltas(table: Any) -> None:
    """Merge the newest segments of each vector index as ``_deltas_to_merge`` says.

    Every optimize indexes the rows written since the last one as a segment of its own, and every ANN
    query searches each segment: at 100,000 rows, 60 optimizes with five rows written before each took
    a query from 7.4 to 22.4 ms (under writes a table is optimized every few seconds). Merging the newest
    segments by size keeps a few of them, and rewrites each row's entry a few times in all.
    """
    dataset = await table.to_lance()
    rows = {f.fragment_id: f.metadata.physical_rows for f in dataset.get_fragments()}
    merged = False
    for index in dataset.describe_indices():
        if not index.type_url.endswith("VectorIndexDetails"):
            continue
        found = sorted((s.dataset_version_at_last_update, s.fragment_ids) for s in index.segments)
        if count := _deltas_to_merge([sum(rows.get(i, 0) for i in fragments) for _, fragments in found]):
            optimize = functools.partial(
                dataset.optimize.optimize_indices, index_names=[index.name], num_indices_to_merge=count
            )
            await asyncio.to_thread(optimize)
            merged = True
    if merged:
        await table.checkout_latest()


def _deltas_to_merge(sizes: Sequence[int]) -> int:
    """How many of a vector index's newest segments to merge into one (0: none); ``sizes`` in rows, oldest first.

    The newest segment takes the ones before it in while together they hold at least a
    ``1 / _DELTA_GROWTH`` of the next one's rows (size tiers, as a log-structured merge keeps them:
    small segments merge often, large ones seldom). The oldest, the index as first built, stays.
    """
    run, total = 1, sizes[-1] if sizes else 0
    for size in reversed(sizes[1:-1]):
        if total * _DELTA_GROWTH < size:
            break
        run, total = run + 1, total + size
    return run if run >= 2 else 0


async def _indexed(table: Any, column: str) -> bool:
    """Whether an index covers the column (a re-embed's index keeps its name when its column is renamed)."""
    return any(ix.columns == [column] for ix in await table.list_indices())


async def _without_deleted_rows(table: Any) -> Any:
    """The table, its fragments holding a deleted row rewritten without it (only when one does)."""
    dataset = await table.to_lance()
    if any(f.metadata.deletion_file is not None for f in dataset.get_fragments()):
        return await materialized(table)
    return table


def _merged_rows(rows: int) -> int:
    """The rows the merges between optimizes grow fragments to: a quarter of the table, at least ``_MERGED_MIN_ROWS``.

    A merge bundles the fragments an index covers apart from the others and, with Lance's own target (a
    million rows), rewrites every such bundle of a smaller table: once an optimize had left two covered
    fragments, each merge of a few new rows rewrote the whole table (at 32,000 rows 0.71 s of CPU for 50
    one-row fragments, every second under writes). Fragments already this large stay as they are (0.05 s
    for the same merge); a table keeps about four of them and its tail until its next optimize.
    """
    return max(_MERGED_MIN_ROWS, rows // 4)


def _gaps(rows: int) -> float:
    """How many ``optimize_gap`` apart a table held in memory is optimized under writes: more as it grows.

    LanceDB's optimize rewrites such a table whole (its compaction target is a million rows): at 35,000
    rows 0.7-1.1 s of CPU, every 5 s under writes. One gap per ``_GAP_ROWS`` rows, at most
    ``_MAX_GAPS``: between optimizes its one-row fragments pile up, and each adds to every append.
    """
    return min(_MAX_GAPS, max(1.0, rows / _GAP_ROWS))


def _merge_small_fragments(dataset: Any) -> None:
    """Blocking (counting the rows reads the deletion files): run in a thread."""
    dataset.optimize.compact_files(target_rows_per_fragment=_merged_rows(dataset.count_rows()))


async def _compacted(table: Any) -> None:
    """The table's small fragments merged, its indexes left as they are (rows they do not cover stay so)."""
    await asyncio.to_thread(_merge_small_fragments, await table.to_lance())
    await table.checkout_latest()
