"""NumpyNeighbours equals a brute-force search written independently here."""

from __future__ import annotations

import random

from memoryd.adapters.numpy_neighbours import NumpyNeighbours
from memoryd.core.vectors import cosine


def unit(rng: random.Random, dim: int = 16) -> list[float]:
    v = [rng.gauss(0, 1) for _ in range(dim)]
    norm = sum(x * x for x in v) ** 0.5
    return [x / norm for x in v]


def test_neighbours_are_the_exact_top_k_above_the_threshold_and_never_oneself() -> None:
    rng = random.Random(5)
    vectors = [unit(rng) for _ in range(600)]  # more than two blocks
    vectors += [[x + rng.gauss(0, 0.02) for x in v] for v in vectors[:40]]  # near copies
    vectors = [[x / sum(y * y for y in v) ** 0.5 for x in v] for v in vectors]
    for k, floor in ((3, 0.0), (8, 0.9), (1, 0.5)):
        got = NumpyNeighbours().neighbours(vectors, k, floor)
        for i, row in enumerate(got):
            scored = sorted(
                ((cosine(vectors[i], w), j) for j, w in enumerate(vectors) if j != i), key=lambda p: (-p[0], p[1])
            )
            expected = [j for s, j in scored if s >= floor][:k]
            assert [j for j, _ in row] == expected, (k, floor, i)
            assert all(abs(s - cosine(vectors[i], vectors[j])) < 1e-5 for j, s in row)
    assert NumpyNeighbours().neighbours([], 3, 0.5) == []
