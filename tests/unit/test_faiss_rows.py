"""The copy's index slot: built once on a thread, rebuilt when the rows double, a failed build not retried at once."""

from __future__ import annotations

import time

import numpy as np

from memoryd.adapters.lance.copies.faiss_rows import RowIndex, RowIndexSlot


def _matrix(rows: int) -> np.ndarray:
    m = np.random.default_rng(rows).normal(0, 1, (rows, 8)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def _ready(slot: RowIndexSlot, matrix: np.ndarray) -> RowIndex:
    deadline = time.monotonic() + 30
    while (index := slot.current(matrix)) is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    return index


def test_built_once_extended_with_new_rows_and_rebuilt_when_they_double() -> None:
    builds: list[int] = []

    def build(matrix: np.ndarray) -> RowIndex:
        builds.append(len(matrix))
        return RowIndex.build(matrix)

    slot, matrix = RowIndexSlot(100, 400, build), _matrix(900)
    first = _ready(slot, matrix[:400])
    assert builds == [400]
    assert slot.current(matrix[:700]) is first and first.rows == 700  # appended rows join the same lists
    assert builds == [400]
    assert _ready(slot, matrix) is first  # past twice the trained rows: rebuilt on the side meanwhile
    deadline = time.monotonic() + 30
    while slot.current(matrix) is first:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert builds == [400, 900]
    # the new index finds a row by its own vector among all 900
    assert 512 in _ready(slot, matrix).candidates(matrix[512:513], np.ones(900, dtype=bool), 5)[0]


def test_a_failed_build_leaves_searches_exact_and_is_not_retried_at_once() -> None:
    tries: list[int] = []

    def failing(matrix: np.ndarray) -> RowIndex:
        tries.append(len(matrix))
        raise MemoryError("no room for the index")

    slot, matrix = RowIndexSlot(10, 50, failing), _matrix(50)
    deadline = time.monotonic() + 0.5
    while time.monotonic() < deadline:
        assert slot.current(matrix) is None
        time.sleep(0.01)
    assert tries == [50]
