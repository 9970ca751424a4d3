"""Embedding spaces: the embedder, a re-embed's second space, its end."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from memoryd.core.embed_roles import EmbedRole
from memoryd.core.models import MemoryRecord, Vector


class Embedder(Protocol):
    """Text to L2-normalised vectors."""

    @property
    def model_name(self) -> str:
        """The name recorded on every row it embeds."""
        ...

    @property
    def dimension(self) -> int:
        """Vector length."""
        ...

    async def embed(self, texts: Sequence[str], role: EmbedRole = EmbedRole.DOCUMENT) -> list[list[float]]:
        """One vector per text, in order; ``role``: a search query or a stored text (``core.embed_roles``)."""
        ...


class EmbeddingSpaces(Protocol):
    """A second embedding space beside the store's model, per tenant (re-embedding after a model change).

    The store's model stays the space every write fills and dedup and reviews compare in; a
    tenant's Recall moves to the other space when it is switched (and back, while both are kept).
    """

    async def target(self) -> tuple[str, int] | None:
        """The model (and dimension) being re-embedded to, if a re-embed began."""
        ...

    async def begin(self, model: str, dimension: int) -> None:
        """Record the re-embed (idempotent); PreconditionFailed when another model's is under way."""
        ...

    async def active(self) -> dict[str, str]:
        """Tenant → the model its Recall searches, for every tenant switched off the store's model."""
        ...

    async def switch(self, tenant_id: str, model: str) -> None:
        """Make ``model`` the tenant's Recall space ("" = back to the store's model), in one commit."""
        ...


class SpaceFiller(Protocol):
    """The archive's rows in a second embedding space: made, counted, filled (the re-embed job's store)."""

    async def tenants(self) -> list[str]:
        """Every tenant with an archive."""
        ...

    async def add_space(self, tenant_id: str, model: str, dimension: int) -> None:
        """Give the tenant's table the space's column (idempotent, safe against a concurrent adder)."""
        ...

    async def space_progress(self, tenant_id: str, model: str) -> tuple[int, int]:
        """(rows still without a vector in the space, rows in all)."""
        ...

    async def missing_in_space(self, tenant_id: str, model: str, limit: int, after_id: str = "") -> list[MemoryRecord]:
        """Up to ``limit`` rows without a vector in the space (ids above ``after_id``), in id order."""
        ...

    async def fill_space(self, tenant_id: str, model: str, rows: Sequence[tuple[MemoryRecord, Vector]]) -> int:
        """Store the space's vectors over rows whose text is unchanged and still unfilled; how many."""
        ...


class ReembedFinisher(Protocol):
    """The end of a re-embed: every table moved to the new model, the old vectors dropped (offline)."""

    async def finish(
        self, model: str, dimension: int, embed: Callable[[Sequence[str]], Awaitable[list[list[float]]]]
    ) -> dict[str, int]:
        """Make ``model`` the store's own (resumable; PreconditionFailed when no re-embed to it is under way)."""
        ...
