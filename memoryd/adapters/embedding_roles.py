"""An embedder whose texts carry their role's prefix (``core.embed_roles``): e5's ``query: `` / ``passage: ``.

Wraps the configured model once, in the composition root, so every caller gets it: a caller says
the role, never the prefix. Request fields (``input_type``) are the OpenAI adapter's own.
"""

from __future__ import annotations

from collections.abc import Sequence

from memoryd.core.embed_roles import EmbedRole, RoleMarking
from memoryd.core.ports import Embedder


class RoleMarkedEmbedder:
    """``inner`` with each text prefixed as its role asks."""

    def __init__(self, inner: Embedder, marking: RoleMarking) -> None:
        self._inner = inner
        self._marking = marking
        self.model_name = inner.model_name
        self.dimension = inner.dimension

    @property
    def inner(self) -> Embedder:
        """The wrapped model."""
        return self._inner

    async def embed(self, texts: Sequence[str], role: EmbedRole = EmbedRole.DOCUMENT) -> list[list[float]]:
        """The texts, prefixed for ``role``, embedded by the wrapped model."""
        prefix = self._marking.prefix(role)
        return await self._inner.embed([prefix + t for t in texts] if prefix else texts, role)

    def for_queries(self) -> RoleMarkedEmbedder:
        """The wrapped model's query lane (when it has one), marked the same way."""
        lane = getattr(self._inner, "for_queries", None)
        return RoleMarkedEmbedder(lane() if lane is not None else self._inner, self._marking)

    async def aclose(self) -> None:
        """Close the wrapped model's clients, if it has any."""
        close = getattr(self._inner, "aclose", None)
        if close is not None:
            await close()
