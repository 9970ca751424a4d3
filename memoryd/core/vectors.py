"""Small vector helpers in plain Python (the core does not import numpy)."""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence

from memoryd.core.errors import InvalidRequest


def normalised(vector: Sequence[float], dimension: int, field: str) -> list[float]:
    """The vector scaled to unit length; InvalidRequest if the size or norm is wrong."""
    if len(vector) != dimension:
        raise InvalidRequest(field, f"has {len(vector)} dimensions; the embedding model has {dimension}")
    norm = math.sqrt(sum(x * x for x in vector))
    if not math.isfinite(norm) or norm == 0.0:
        raise InvalidRequest(field, "must be a non-zero finite vector")
    return [x / norm for x in vector]


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two unit vectors (their dot product)."""
    return float(sum(map(operator.mul, a, b)))
