"""NeighbourSearch with numpy: exact top-k cosine neighbours of every vector, in blocks.

Vectors are unit length, so cosine is a dot product; blocks of rows keep the similarity matrix
in memory at ``block x n`` floats (256 rows of a 100k-memory archive: 100 MB) rather than n².
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memoryd.core.models import Vector

_BLOCK = 256


class NumpyNeighbours:
    """Exact, blocked matrix products."""

    def neighbours(self, vectors: Sequence[Vector], k: int, min_similarity: float) -> list[list[tuple[int, float]]]:
        """For each vector, up to ``k`` other indices with cosine at least ``min_similarity``, best first."""
        matrix = np.asarray(vectors, dtype=np.float32)
        n = len(matrix)
        out: list[list[tuple[int, float]]] = []
        if n == 0 or k <= 0:
            return [[] for _ in range(n)]
        take = min(k + 1, n)
        for start in range(0, n, _BLOCK):
            block = matrix[start : start + _BLOCK] @ matrix.T
            rows = np.arange(len(block))
            block[rows, start + rows] = -np.inf  # a vector is not its own neighbour
            top = np.argpartition(-block, take - 1, axis=1)[:, :take]
            for row, candidates in enumerate(top):
                scores = block[row, candidates]
                order = np.argsort(-scores)
                out.append([(int(candidates[o]), float(scores[o])) for o in order if scores[o] >= min_similarity][:k])
        return out
