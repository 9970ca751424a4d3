"""NeighbourSearch with numpy: exact top-k cosine neighbours of every vector, in blocks.

Vectors are unit length, so cosine is a dot product; blocks of rows keep the similarity matrix
in memory at ``block x n`` floats (256 rows of a 100k-memory archive: 100 MB) rather than n².
The cost is the matrix product, quadratic in the archive (``memoryd bench audit`` measures it).
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
        for start in range(0, n, _BLOCK):
            block = matrix[start : start + _BLOCK] @ matrix.T
            rows = np.arange(len(block))
            block[rows, start + rows] = -np.inf  # a vector is not its own neighbour
            # Only pairs above the threshold survive (few, at the rules' thresholds): no sort of whole rows.
            row, col = np.nonzero(block >= min_similarity)
            score = block[row, col]
            order = np.lexsort((col, -score, row))  # by row, best first, ties by index
            row, col, score = row[order], col[order], score[order]
            bounds = np.searchsorted(row, np.arange(len(block) + 1))
            for r in range(len(block)):
                lo = bounds[r]
                hi = min(bounds[r + 1], lo + k)
                out.append(list(zip(col[lo:hi].tolist(), score[lo:hi].tolist(), strict=True)))
        return out
