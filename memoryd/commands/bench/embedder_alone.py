"""The embedder alone, in the bench's own process: the baseline the write path is measured against."""

from __future__ import annotations

import time
from collections.abc import Sequence

from memoryd.core.ports import Embedder


async def texts_per_second(embedder: Embedder, texts: Sequence[str], size: int) -> float:
    """``texts`` embedded in batches of ``size``, one batch after the other, as texts per second."""
    start = time.perf_counter()
    for at in range(0, len(texts), size):
        await embedder.embed(texts[at : at + size])
    return len(texts) / (time.perf_counter() - start)
