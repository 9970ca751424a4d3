"""RowIndex: an approximate nearest-rows index (faiss IVF, 8-bit scalar quantised) over a copy's vector matrix.

An in-memory copy answers a vector search by multiplying its whole matrix: 30,000 rows of 384 floats
cost ~3 ms, 100,000 ~8-12 ms, most of a Recall's budget. From ``ann_min_rows`` visible rows (the bound
at which a table on disk gets its ANN index too) the copy asks this index for candidates instead and
scores only those exactly. The index names rows by their position in the matrix; rows are never
removed (a copy hides deleted and rewritten rows by a mask, handed to every search), only added.

On the bench's corpus (``docs/benchmarks.md``, session 21) a list count of twice the square root of
the rows and one list in sixteen probed found the exact top 10 in 100 % of searches at 30,000 and
100,000 rows, in 0.2-0.6 ms (``bench recall`` reports the same figure for its shapes); the candidates
are re-scored exactly by the caller, so the scalar quantisation only decides which rows are candidates.
"""

from __future__ import annotations

import importlib
import logging
import math
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import faiss

_TRAINING_PER_LIST = 40
"""Training rows per list (faiss warns below 39)."""
_PROBED_SHARE = 16
"""One list in this many is probed (at least ``_MIN_PROBES``)."""
_MIN_PROBES = 8
_REBUILD_GROWTH = 2
"""Trained on n rows, the index is rebuilt from scratch past this many times n (its lists grow long)."""
_RETRY_SECONDS = 60.0
"""After a failed build (memory), searches stay exact this long before another is tried."""

log = logging.getLogger(__name__)


def _faiss() -> Any:
    """faiss, imported at its first use.

    Its import costs ~0.5 s of start-up that a process never searching a large copy (a worker, a CLI
    command, a daemon of small tenants) need not pay.
    """
    return importlib.import_module("faiss")


class RowIndex:
    """An index over rows ``[0, rows)`` of a matrix whose rows never change once written."""

    def __init__(self, index: faiss.IndexIVFScalarQuantizer, quantizer: faiss.IndexFlatIP, trained_on: int) -> None:
        self._index = index
        self._quantizer = quantizer
        """The lists' centroids: the index points at it without owning it, so it lives as long."""
        self.trained_on = trained_on
        self.rows = trained_on
        self._probes = max(_MIN_PROBES, index.nlist // _PROBED_SHARE)

    @classmethod
    def build(cls, matrix: np.ndarray) -> RowIndex:
        """Trained on an even sample of ``matrix``'s rows, holding them all (~1 s at 100,000 rows: off the loop)."""
        faiss = _faiss()
        faiss.omp_set_num_threads(1)  # this thread's own setting: the daemon's other work keeps the second core
        rows, dimension = matrix.shape
        lists = max(1, min(4096, int(2 * math.sqrt(rows))))
        quantizer = faiss.IndexFlatIP(dimension)
        index = faiss.IndexIVFScalarQuantizer(
            quantizer, dimension, lists, faiss.ScalarQuantizer.QT_8bit, faiss.METRIC_INNER_PRODUCT
        )
        sample = np.linspace(0, rows - 1, min(rows, _TRAINING_PER_LIST * lists)).astype(np.int64)
        index.train(np.ascontiguousarray(matrix[sample]))
        index.add(np.ascontiguousarray(matrix))
        return cls(index, quantizer, rows)

    def stale(self, rows: int) -> bool:
        """Whether a copy of ``rows`` rows should have this index rebuilt (trained on too few of them)."""
        return rows > _REBUILD_GROWTH * self.trained_on

    def extend(self, matrix: np.ndarray) -> None:
        """Add ``matrix``'s rows past the ones held (the matrix's first rows are the ones held)."""
        if len(matrix) > self.rows:
            _faiss().omp_set_num_threads(1)
            self._index.add(np.ascontiguousarray(matrix[self.rows :]))
            self.rows = len(matrix)

    def candidates(self, queries: np.ndarray, allowed: np.ndarray, count: int) -> np.ndarray:
        """For each query row, up to ``count`` allowed rows nearest by the quantised vectors (-1 pads).

        ``allowed``: one flag per row of the caller's copy; rows past it (added by a newer copy) are
        not candidates.
        """
        faiss = _faiss()
        faiss.omp_set_num_threads(1)
        bitmap = np.packbits(allowed, bitorder="little")
        selector = faiss.IDSelectorBitmap(len(bitmap), faiss.swig_ptr(bitmap))
        params = faiss.SearchParametersIVF()
        params.sel, params.nprobe = selector, self._probes
        _, labels = self._index.search(np.ascontiguousarray(queries, dtype=np.float32), count, params=params)
        return np.asarray(labels)


class RowIndexSlot:
    """The index shared by a chain of copies (one load and the copies made from it), built in the background.

    A search asks ``current``: the index once built (brought up to the caller's rows), else None and a
    build is started on a thread, the search meanwhile exact. Only the event loop's thread searches
    and extends the index; the building thread only reads rows already written and hands the result
    over by one assignment.
    """

    def __init__(self, min_rows: int, rows: int, build: Callable[[np.ndarray], RowIndex] = RowIndex.build) -> None:
        self.min_rows = min_rows
        self.rows = rows
        """How many rows the newest copy using this slot holds (its rows are the ones the index may hold)."""
        self._build = build
        self._ready: RowIndex | None = None
        self._building = False
        self._failed_at = -_RETRY_SECONDS

    def extended(self, n: int, rows: int) -> RowIndexSlot:
        """The slot of a copy of ``rows`` rows made from one of ``n``: this one when that copy was the newest.

        Else a new slot (built afresh when searched): the index may hold the newer copy's rows ``n``…,
        which are not the ones this copy puts there.
        """
        if self.rows != n:
            return RowIndexSlot(self.min_rows, rows, self._build)
        self.rows = rows
        return self

    def current(self, matrix: np.ndarray) -> RowIndex | None:
        """The index over ``matrix``'s rows (the newest copy's or an older one's), or None while it is built."""
        ready = self._ready
        if ready is None or ready.stale(len(matrix)):
            self._start(matrix)
        if ready is None:
            return None
        ready.extend(matrix)
        return ready

    def _start(self, matrix: np.ndarray) -> None:
        if self._building or time.monotonic() - self._failed_at < _RETRY_SECONDS:
            return
        self._building = True

        def run() -> None:
            try:
                self._ready = self._build(matrix)
            except Exception:  # searches stay exact; the next try is a minute away
                self._failed_at = time.monotonic()
                log.exception("building a copy's vector index failed", extra={"rows": len(matrix)})
            finally:
                self._building = False

        threading.Thread(target=run, name="memoryd-row-index", daemon=True).start()
