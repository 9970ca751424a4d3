"""ArchiveCopy: an in-memory copy of one small archive table, for Recall's vector arm and record fetches.

Most agents see a few thousand memories; for those, three LanceDB queries and a fetch cost more
than the search itself. A table of at most ``copy_max_rows`` rows is loaded once (its columns and one
matrix of its unit vectors) and answers ``nearest`` (exact cosine, the same as LanceDB's flat search
under the visibility prefilter; past ``ann_min_rows`` visible rows an IVF index's candidates scored
exactly, as LanceDB's ANN search and refinement, ``faiss_rows``), ``full_text`` (BM25 as the table's
index ranks, ``lance_hot_text``) and ``get_many`` from memory. It is tied to the table's version: a
read finds the table at another version (any process's write, a maintenance pass) and drops it; this
process's own writes are applied in place when their commit is the very next version. A deleted or
rewritten row stays as a hidden row (LanceDB's full-text statistics still count it, and nothing is
copied); a rewritten row comes back as a new row at the end, where LanceDB puts it too. Visibility is
``core.visibility`` here, the same rule ``lance_filters`` renders into SQL.
"""

from __future__ import annotations

import functools
import heapq
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from memoryd.adapters.lance.copies.columns import (
    _BATCH,
    _KEPT_MASKS,
    _SPARE_MIN,
    _UNKNOWN,
    _by_columns,
    _Columns,
    _hex_key,
    _Index,
    _scopes,
    _Source,
    _Spare,
    _time,
    _with_status,
    arrow_parts,
    dot_products,
    visible_mask,
)
from memoryd.adapters.lance.copies.faiss_rows import RowIndex, RowIndexSlot
from memoryd.adapters.lance.copies.text import TextCopy, Vocabulary
from memoryd.adapters.lance.rows import search_text
from memoryd.core.models import Actor, ArmHit, FullTextQuery, FullTextTier, MemoryFilter, MemoryRecord, Vector
from memoryd.core.query_terms import word_prefixes
from memoryd.core.visibility import is_visible, matches_filter

_HEAD_PER_LIMIT, _HEAD_EXTRA = 4, 16
"""A search first orders this many of the rows above the floor (4 × limit + 16), enough unless most
of them fail the filter."""


class ArchiveCopy:
    """One table's rows and vectors at one version.

    Loading and updating are column work: the arrays the search needs (vectors, scope codes, agents,
    contacts, embedded) come straight from Arrow or numpy, and a row becomes a ``MemoryRecord`` only
    when a search or a fetch reaches it (then it stays converted). Building every record of a
    5,000-row table costs ~100 ms of Python, and under writes from several processes a table is
    reloaded many times a minute.
    """

    def __init__(
        self,
        version: int,
        vectors: np.ndarray,
        columns: _Columns,
        records: list[MemoryRecord | None],
        source: _Source,
        ids: list[str],
        index: _Index,
        spare: _Spare | None = None,
        text: TextCopy | None = None,
        prefixes: TextCopy | None = None,
        rows_index: RowIndexSlot | None = None,
    ) -> None:
        self.version = version
        self._vectors = vectors
        self._spare = spare
        """The matrix ``vectors`` is the start of, when it has room for appends."""
        self._columns = columns
        self._records = records
        """Each row's record once converted (None: still only in ``source``)."""
        self._source = source
        self._ids = ids
        """Each row's memory id (deleted rows included)."""
        self._index = index
        """Each live row's position by id (deleted and rewritten rows are not in it)."""
        self._text = text
        """The full-text part; None when the load could not know the index's statistics."""
        self._prefixes = prefixes
        """The ``prefixes`` index's part (the prefix tier), on the same terms as ``text``."""
        self._rows_index = rows_index
        """The approximate index of the chain of copies this one belongs to (None: searches are exact)."""
        self._seen: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, np.ndarray | None]] = {}
        """Vector searches' visible rows by agent and contact code (``_searched``)."""
        self._seen_rows = 0
        self._masks: dict[tuple[int, int], np.ndarray] = {}
        """The last few actors' visible rows by agent and contact code (``_visible``)."""

    @classmethod
    def from_arrow(
        cls,
        version: int,
        data: pa.Table,
        vocabulary: Vocabulary | None = None,
        covered: frozenset[int] | None = None,
        prefix_vocabulary: Vocabulary | None = None,
        prefix_covered: frozenset[int] | None = None,
        ann_min_rows: int | None = None,
    ) -> ArchiveCopy:
        """From the table's rows (every record column and ``vector``).

        With ``ann_min_rows``, a vector search over at least that many visible rows (and no filter
        beyond status) asks a ``RowIndex`` for candidates and scores those exactly, as LanceDB's ANN
        search with its refinement does for a table on disk of that size.

        With ``vocabulary`` and ``covered`` (the fragments the full-text index covers, none holding a
        deleted row), ``data`` also holds ``search_text`` and ``_rowaddr``, and the copy answers
        ``full_text``; with ``prefix_vocabulary`` and ``prefix_covered`` (the same of the ``prefixes``
        index) and a ``prefixes`` column, its prefix tier too. Rows are kept in row-address order, the
        order LanceDB gives equal scores.
        """
        return cls(version, *arrow_parts(data, vocabulary, covered, prefix_vocabulary, prefix_covered, ann_min_rows))

    @property
    def answers_full_text(self) -> bool:
        """Whether ``full_text`` can answer (else LanceDB must)."""
        return self._text is not None

    @property
    def answers_prefixes(self) -> bool:
        """Whether ``full_text`` can answer with prefix terms (any-word queries only; else LanceDB must)."""
        return self._text is not None and self._prefixes is not None

    def __len__(self) -> int:
        return len(self._records)

    def _at(self, memory_id: str) -> int | None:
        """The row of an id in this copy (the index is shared with newer copies: their rows lie past ours)."""
        at = self._index.ids.get(memory_id)
        return at if at is not None and at < len(self._records) else None

    def nearest(
        self, actor: Actor, vector: Vector, flt: MemoryFilter, limit: int, min_similarity: float
    ) -> list[ArmHit]:
        """Exact cosine kNN over the rows ``actor`` sees that meet ``flt``, floor applied, nearest first."""
        if not self._records:
            return []
        query, (hidden, seen, matrix) = np.asarray(vector, dtype=np.float32), self._searched(actor)
        if (approximate := self._approximate(seen, flt)) is not None:
            return self._rescored(approximate, query[None], hidden, flt, limit, min_similarity)[0]
        if matrix is not None:  # a small visible set of a shared table: multiply and rank its rows only
            return self._hits(*self._best_rows(actor, dot_products(matrix, query), flt, limit, min_similarity, seen))
        scores = dot_products(self._vectors, query)
        scores[hidden] = -np.inf
        return self._hits(*self._best_rows(actor, scores, flt, limit, min_similarity))

    def _searched(self, actor: Actor) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """The rows ``actor``'s vector search may not see, the others, and (under half the table) their vectors.

        Else None: the whole matrix is multiplied. Kept per agent and contact while the copy lives, up to
        as many rows in all as the table has: gathering 1,000 of 10,000 rows cost 60 µs of a 200 µs search.
        """
        c = self._columns
        key = (c.names.get(actor.agent_id, _UNKNOWN), c.names.get(actor.end_user_id, _UNKNOWN))
        if (kept := self._seen.get(key)) is not None:
            return kept
        hidden = self._hidden(actor)
        seen = np.flatnonzero(~hidden)
        approximate = self._rows_index is not None and len(seen) >= self._rows_index.min_rows
        small = 2 * len(seen) < len(hidden) and not approximate
        searched = hidden, seen, self._vectors[seen] if small else None
        if self._seen_rows + len(seen) <= len(hidden):
            self._seen[key] = searched
            self._seen_rows += len(seen)
        return searched

    def full_text(
        self,
        actor: Actor,
        terms: Sequence[str],
        flt: MemoryFilter,
        limit: int,
        require_all: bool,
        prefix_terms: Sequence[str] = (),
    ) -> list[ArmHit]:
        """BM25 over the rows ``actor`` sees that meet ``flt``: every term (``require_all``) or any, best first.

        ``prefix_terms`` (any-word queries only) also match the ``prefixes`` index: as in LanceDB's
        query (``lance_store._text_query``), a row's score is its ``search_text`` score plus its
        ``prefixes`` score for those terms, each with its own index's statistics.
        """
        tier = FullTextTier(FullTextQuery(tuple(terms), tuple(prefix_terms)), require_all)
        return self.full_text_tiers(actor, [tier], flt, limit)

    def full_text_tiers(
        self, actor: Actor, tiers: Sequence[FullTextTier], flt: MemoryFilter, limit: int
    ) -> list[ArmHit]:
        """``full_text`` of each tier, each tier's best rows not placed by an earlier one, up to ``limit`` in all.

        The same hits as separate searches merged (``core.ranking.merge_tiers``): a row's rank within
        a tier does not depend on the rows left out. The tiers share the visibility, the filter and the
        terms' scores; a tier is scored only while places remain.
        """
        text = self._text
        if text is None or any(t.query.prefix_terms and (self._prefixes is None or t.require_all) for t in tiers):
            raise RuntimeError("this copy cannot answer this query (see answers_full_text, answers_prefixes)")
        if not self._records:
            return []
        visible = self._visible(actor)  # live rows only: the scores leave out the rest
        passing = self._passing(flt, visible, any(t.query.prefix_terms for t in tiers))
        flat = passing & ~text.covered
        hits: list[ArmHit] = []
        placed: list[int] = []
        for tier in tiers:
            if len(hits) >= limit:
                break
            terms, prefix_terms = tier.query.terms, tier.query.prefix_terms
            scores = text.scores(terms, visible, flat, tier.require_all)
            if prefix_terms and self._prefixes is not None:
                more = self._prefixes.scores(prefix_terms, visible, passing & ~self._prefixes.covered, False)
                matched = np.isfinite(scores) | np.isfinite(more)
                scores = np.where(np.isfinite(scores), scores, 0.0) + np.where(np.isfinite(more), more, 0.0)
                scores[~matched] = -np.inf
            scores[placed] = -np.inf
            rows, values = self._best_rows(actor, scores, flt, limit - len(hits), 0.0)
            hits += self._hits(rows, values)
            placed += rows
        return hits

    def _passing(self, flt: MemoryFilter, visible: np.ndarray, prefixed: bool) -> np.ndarray:
        """The visible rows meeting ``flt``: exact wherever an index does not cover the row.

        The flat rows' statistics count only those, and that is all they need; rows added since the
        index was folded are few, mostly held as records.
        """
        if _by_columns(flt):
            return np.asarray(visible & self._meeting(flt))
        passing = visible.copy()
        assert self._text is not None
        uncovered = ~self._text.covered
        if prefixed and self._prefixes is not None:
            uncovered = uncovered | ~self._prefixes.covered
        rows = np.flatnonzero(visible & uncovered).tolist()
        for at, record in zip(rows, self._records_at(rows), strict=True):
            passing[at] = matches_filter(record, flt)
        return passing

    def nearest_many(
        self, actor: Actor, vectors: Sequence[Vector], flt: MemoryFilter, limit: int, min_similarity: float
    ) -> list[list[ArmHit]]:
        """``nearest`` for each vector: one visibility mask and one matrix product for all of them.

        The table's matrix is the left operand: OpenBLAS multiplies a few queries by a tall matrix
        1.6-2x faster that way than by its transpose (8 queries, 10,000 rows: 3.7 against 6.2 ms).
        """
        if not self._records:
            return [[] for _ in vectors]
        if len(vectors) == 1:  # one Memorize's lookup: the matrix times a vector (``dot_products``)
            return [self.nearest(actor, vectors[0], flt, limit, min_similarity)]
        queries = np.asarray(vectors, dtype=np.float32).reshape(len(vectors), -1).T
        hidden, seen, matrix = self._searched(actor)
        if (approximate := self._approximate(seen, flt)) is not None:
            return self._rescored(approximate, queries.T, hidden, flt, limit, min_similarity)
        if matrix is not None:  # a small visible set of a shared table, as in ``nearest``
            seen_similarities = np.ascontiguousarray((matrix @ queries).T)
            return [
                self._hits(*self._best_rows(actor, row, flt, limit, min_similarity, seen)) for row in seen_similarities
            ]
        similarities = np.ascontiguousarray((self._vectors @ queries).T)
        similarities[:, hidden] = -np.inf
        return [self._hits(*self._best_rows(actor, row, flt, limit, min_similarity)) for row in similarities]

    def _approximate(self, seen: np.ndarray, flt: MemoryFilter) -> RowIndex | None:
        """The approximate index, when this search may use it and it is built (else the search is exact).

        A filter beyond status, scope and source needs the records of rows past any candidate count: exact.
        So does one that leaves fewer rows than the index's bound: the lists a search probes would hold
        few of them, and it would miss near rows an exact search finds (a dedup lookup its twin).
        """
        slot = self._rows_index
        if slot is None or len(seen) < slot.min_rows or not _by_columns(flt):
            return None
        if np.count_nonzero(self._meeting(flt, seen)) < slot.min_rows:
            return None
        return slot.current(self._vectors)

    def _rescored(
        self,
        index: RowIndex,
        queries: np.ndarray,
        hidden: np.ndarray,
        flt: MemoryFilter,
        limit: int,
        min_similarity: float,
    ) -> list[list[ArmHit]]:
        """Per query, the index's candidates among the rows seen with a wanted status, ranked by exact similarity.

        Ties go to the earlier row, as in an exact search.
        """
        allowed = ~hidden & self._meeting(flt)
        labels = index.candidates(queries, allowed, _HEAD_PER_LIMIT * limit + _HEAD_EXTRA)
        out = []
        for query, rows in zip(queries, labels, strict=True):
            rows = np.sort(rows[rows >= 0])
            similarities = self._vectors[rows] @ query
            kept = similarities >= min_similarity
            rows, similarities = rows[kept], similarities[kept]
            best = np.argsort(-similarities, kind="stable")[:limit]
            out.append(self._hits(rows[best].tolist(), similarities[best].tolist()))
        return out

    def _meeting(self, flt: MemoryFilter, rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        """Which of ``rows`` (all by default) meet ``flt``'s status, scope and source (``_by_columns``)."""
        c = self._columns
        wanted = _with_status(flt, c.status[rows])
        if flt.scopes:  # a lookup table, as for statuses: ``np.isin`` cost ~50 µs on a handful of rows
            wanted &= _scopes(flt.scopes)[c.scope[rows]]
        if flt.source_id:
            wanted &= c.source[rows] == c.names.get(flt.source_id, _UNKNOWN)
        return wanted

    def _visible(self, actor: Actor) -> np.ndarray:
        """Live rows ``actor`` sees (read-only; the last few actors' kept: six passes over the rows each)."""
        c = self._columns
        keys = (c.names.get(actor.agent_id, _UNKNOWN), c.names.get(actor.end_user_id, _UNKNOWN))
        if (kept := self._masks.get(keys)) is not None:
            return kept
        mask = np.asarray(visible_mask(actor, c.scope, c.agent, c.end_user, keys) & c.live)
        mask.flags.writeable = False
        if len(self._masks) >= _KEPT_MASKS:
            del self._masks[next(iter(self._masks))]
        self._masks[keys] = mask
        return mask

    def _hidden(self, actor: Actor) -> Any:
        """Rows ``actor`` may not see, gone, or without a vector yet."""
        return ~(self._visible(actor) & self._columns.embedded)

    def _best_rows(
        self,
        actor: Actor,
        similarities: Any,
        flt: MemoryFilter,
        limit: int,
        min_similarity: float,
        rows: np.ndarray | None = None,
    ) -> tuple[list[int], list[float]]:
        """The rows meeting ``flt`` most similar to one query, best first (ties: the earlier row), and their scores.

        Hidden rows hold -inf; ``rows``: the rows the similarities are of, ascending (default: every row of the copy).
        """
        # Only rows at or above the floor can be hits (hidden rows hold -inf at any floor). Most searches
        # stop after ``limit`` hits: the best few are ordered first, the rest only if they are reached.
        close = np.flatnonzero(similarities >= min_similarity)
        if min_similarity == -np.inf:  # a floor of -inf must still leave out the hidden rows
            close = close[similarities[close] > -np.inf]
        values = similarities[close]
        if rows is not None:
            close = rows[close]
        first = min(len(close), _HEAD_PER_LIMIT * limit + _HEAD_EXTRA)
        if first < len(close):
            head = values >= np.partition(values, len(close) - first)[len(close) - first]
            parts = [(close[head], values[head]), (close[~head], values[~head])]
        else:
            parts = [(close, values)]
        chosen, scores = list[int](), list[float]()
        if _by_columns(flt):  # visibility, status, scope and source are columns here: no row becomes a record
            for part, part_values in parts:
                if len(chosen) == limit:  # the rest is not ordered (at 100,000 rows: ~1 ms a search)
                    break
                order = np.argsort(-part_values, kind="stable")
                ranked, ranked_values = part[order], part_values[order]
                wanted, places = self._meeting(flt, ranked), limit - len(chosen)
                chosen += ranked[wanted][:places].tolist()
                scores += ranked_values[wanted][:places].tolist()
            return chosen, scores
        for part, part_values in parts:  # every row of the first part is at least as similar as any of the second
            order = np.argsort(-part_values, kind="stable")
            ranked, ranked_values = part[order].tolist(), part_values[order].tolist()
            for start in range(0, len(ranked), max(limit, _BATCH)):
                chunk = ranked[start : start + max(limit, _BATCH)]
                for k, (i, record) in enumerate(zip(chunk, self._records_at(chunk), strict=True)):
                    if matches_filter(record, flt) and is_visible(actor, record):
                        chosen.append(i)
                        scores.append(ranked_values[start + k])
                        if len(chosen) == limit:
                            return chosen, scores
        return chosen, scores

    def _hits(self, rows: list[int], scores: list[float]) -> list[ArmHit]:
        """The rows as an arm's hits with these scores (no record made for them)."""
        times, ids = self._columns.occurred[rows].tolist(), self._ids
        return [
            ArmHit(ids[i], score, _time(at), text)
            for i, score, at, text in zip(rows, scores, times, self._contents(rows), strict=True)
        ]

    def _contents(self, rows: Sequence[int]) -> list[str]:
        """The rows' texts: a record's once converted, else the loaded column's (no record made for them)."""
        records = [self._records[at] for at in rows]
        loaded = iter(self._source.contents([at for at, r in zip(rows, records, strict=True) if r is None]))
        return [r.content if r is not None else next(loaded) for r in records]

    def _records_at(self, rows: Sequence[int]) -> list[MemoryRecord]:
        """The records of these rows, converting the ones not yet converted in one batch."""
        missing = [at for at in rows if self._records[at] is None]
        if missing:
            for at, record in zip(missing, self._source.records(missing), strict=True):
                self._records[at] = record
        return [r for r in (self._records[at] for at in rows) if r is not None]

    def page(self, actor: Actor, flt: MemoryFilter, after_id: str, limit: int) -> list[str] | None:
        """Ids of the rows ``actor`` sees that meet ``flt``, after ``after_id`` in id order (a ListMemories page).

        None when ``flt`` narrows by more than scope, status and source: those conditions need the
        records, and LanceDB's predicate answers them without converting rows. The rows are picked by
        their ids' leading 64 bits (``_id_keys``), then ordered by the whole id: comparing every visible
        id in Python cost ~25 ms a page at 100,000 rows.
        """
        if not _by_columns(flt):
            return None
        wanted = self._visible(actor) & self._meeting(flt)
        ids, keys, after = self._ids, self._id_keys, _hex_key(after_id) if after_id else 0
        if keys is None or after is None:  # an id or a cursor the keys cannot stand for: every id compared
            every = np.flatnonzero(wanted).tolist()
            return heapq.nsmallest(limit, (m for m in (ids[at] for at in every) if m > after_id))
        rows = np.flatnonzero(wanted & (keys >= np.uint64(after)))
        tied = keys[rows] == np.uint64(after)  # the cursor's own row, and ids sharing its leading bits
        if tied.any():
            kept = ~tied
            kept[tied] = [ids[at] > after_id for at in rows[tied].tolist()]
            rows = rows[kept]
        if limit < len(rows):  # every id of the page has a key at most the limit-th smallest key
            kth = np.partition(keys[rows], limit - 1)[limit - 1]
            rows = rows[keys[rows] <= kth]
        return sorted(ids[at] for at in rows.tolist())[:limit]

    @functools.cached_property
    def _id_keys(self) -> np.ndarray | None:
        """Each row's id as the number its first 16 hex digits make: ids in order have keys in order.

        The loaded rows' keys are computed once per load; rows added since, from their ids. None when an id
        does not start with 16 lowercase hex digits (memoryd makes no such id; an import could).
        """
        loaded = self._source.id_keys()
        if loaded is None:
            return None
        at = self._source.rows
        keys = np.zeros(len(at), dtype=np.uint64)
        keys[at >= 0] = loaded[at[at >= 0]]
        for row in np.flatnonzero(at < 0).tolist():
            if (key := _hex_key(self._ids[row])) is None:
                return None
            keys[row] = key
        return keys

    def get_many(self, actor: Actor, memory_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        """The visible rows among these ids, whatever their status."""
        found = [(memory_id, at) for memory_id in memory_ids if (at := self._at(memory_id)) is not None]
        records = self._records_at([at for _, at in found])
        return {m: r for (m, _), r in zip(found, records, strict=True) if is_visible(actor, r)}

    def inserted(
        self,
        version: int,
        rows: Sequence[tuple[MemoryRecord, Vector]],
        texts: Sequence[str] | None = None,
        prefixes: Sequence[str] | None = None,
    ) -> ArchiveCopy:
        """A copy with rows appended (a commit of this process that made ``version``, or appends read back).

        ``texts``: the rows' ``search_text`` as written (the full-text part is dropped without them);
        ``prefixes``: their ``prefixes`` as written (default: made from the content, as ``to_table`` does).
        The vectors go into spare rows of the matrix when this copy is the newest one using it (its
        rows are then the matrix's used rows; older copies never look past their own rows), else the
        matrix is copied with room to spare (an eighth more): a write costs its own rows, not the
        table's. The id index and the postings are shared the same way.
        """
        n, added = len(self._records), len(rows)
        vectors = np.asarray([v for _, v in rows], dtype=np.float32).reshape(added, self._vectors.shape[1])
        spare = self._spare
        if spare is None or spare.used != n or spare.array.shape[0] < n + added:
            capacity = n + added + max(_SPARE_MIN, n // 8)
            spare = _Spare(np.empty((capacity, self._vectors.shape[1]), dtype=np.float32), n)
            spare.array[:n] = self._vectors
        spare.array[n : n + added] = vectors
        spare.used = n + added
        records = [r for r, _ in rows]
        text = self._text.appended(texts) if self._text is not None and texts is not None else None
        prefix_index = None
        if self._prefixes is not None and text is not None:  # the column as ``to_table`` writes it
            prefix_index = self._prefixes.appended(
                list(prefixes) if prefixes is not None else [word_prefixes(r.content) for r in records]
            )
        return ArchiveCopy(
            version,
            spare.array[: n + added],
            self._columns.appended(records),
            [*self._records, *records],
            self._source.appended(added),
            [*self._ids, *(r.memory_id for r in records)],
            self._index.extended(n, [r.memory_id for r in records]),
            spare,
            text,
            prefix_index,
            self._rows_index.extended(n, n + added) if self._rows_index is not None else None,
        )

    def replaced(self, version: int, record: MemoryRecord, vector: Vector | None) -> ArchiveCopy | None:
        """A copy where the row is rewritten; None when the row is not here (reload instead).

        As in LanceDB, the old row is deleted and the new one appended (its ``search_text`` is its own
        text: a rewritten memory is indexed by itself).
        """
        at = self._at(record.memory_id)
        if at is None:
            return None
        kept = self._vectors[at].copy() if vector is None else vector
        return self.deleted(version, [record.memory_id]).inserted(version, [(record, kept)], [search_text(record)])

    def unchanged(self, version: int) -> ArchiveCopy:
        """The same rows at ``version`` (a commit of this process that changed no column held here)."""
        return ArchiveCopy(
            version,
            self._vectors,
            self._columns,
            self._records,
            self._source,
            self._ids,
            self._index,
            self._spare,
            self._text,
            self._prefixes,
            self._rows_index,
        )

    def deleted(self, version: int, memory_ids: Sequence[str]) -> ArchiveCopy:
        """A copy where the rows are gone (hidden; the index's statistics may still count them)."""
        gone = {at for memory_id in memory_ids if (at := self._at(memory_id)) is not None}
        if not gone:
            return self.unchanged(version)
        n = len(self._records)
        index = _Index({m: i for m, i in self._index.ids.items() if i < n and i not in gone}, n)
        return ArchiveCopy(
            version,
            self._vectors,
            self._columns.without(sorted(gone)),
            self._records,
            self._source,
            self._ids,
            index,
            self._spare,
            self._text,
            self._prefixes,
            self._rows_index,
        )
