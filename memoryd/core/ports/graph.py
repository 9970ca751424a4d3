"""The memory graph's store."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from memoryd.core.graph import (
    Entity,
    Episode,
    Fact,
    FactCursor,
    FactStatus,
    GraphScope,
    MergeSuggestion,
    SuggestionStatus,
)
from memoryd.core.models import Actor, ArmHit, Vector


class GraphStore(Protocol):
    """The memory graph's rows, per tenant; reads named ``visible_*`` or taking an actor apply the scope rule."""

    async def put_entities(self, tenant_id: str, rows: Sequence[tuple[Entity, Vector]]) -> None:
        """Upsert entities (with their name embeddings) by id."""
        ...

    async def entities(self, tenant_id: str, entity_ids: Sequence[str]) -> dict[str, Entity]:
        """Entities by id (the caller checks visibility)."""
        ...

    async def entity_vectors(self, tenant_id: str, entity_ids: Sequence[str]) -> dict[str, Vector]:
        """Stored name embeddings."""
        ...

    async def entities_named(self, tenant_id: str, where: GraphScope, names: Sequence[str]) -> list[Entity]:
        """Entities of exactly this scope whose normalised name or an alias is one of ``names``."""
        ...

    async def nearest_entities(self, tenant_id: str, where: GraphScope, vector: Vector, limit: int) -> list[ArmHit]:
        """The closest entities of exactly this scope by name embedding (score: cosine similarity)."""
        ...

    async def put_facts(self, tenant_id: str, rows: Sequence[tuple[Fact, Vector]]) -> None:
        """Upsert facts (with their sentence embeddings) by id, in one commit."""
        ...

    async def fact_vectors(self, tenant_id: str, fact_ids: Sequence[str]) -> dict[str, Vector]:
        """Stored sentence embeddings."""
        ...

    async def facts(self, tenant_id: str, fact_ids: Sequence[str]) -> dict[str, Fact]:
        """Facts by id (the caller checks visibility)."""
        ...

    async def facts_of(self, tenant_id: str, where: GraphScope, subject_id: str) -> list[Fact]:
        """Every fact of one subject in exactly this scope."""
        ...

    async def facts_touching(self, tenant_id: str, entity_ids: Sequence[str]) -> list[Fact]:
        """Every fact whose subject or object is one of ``entity_ids`` (merges, erasure)."""
        ...

    async def visible_facts_touching(self, actor: Actor, entity_ids: Sequence[str], limit: int) -> list[Fact]:
        """Facts the actor sees whose subject or object is one of ``entity_ids``."""
        ...

    async def facts_page(
        self, actor: Actor, status: FactStatus | None, entity_id: str, after: FactCursor | None, limit: int
    ) -> list[Fact]:
        """Facts the actor sees (of ``status``; naming ``entity_id``) after ``after``, at most ``limit``.

        Pending first, then the others, each newest first then by id; the store reads no further.
        """
        ...

    async def entities_page(
        self, actor: Actor, after: tuple[str, str] | None, limit: int, *, merged: bool = False
    ) -> list[Entity]:
        """Entities in use the actor sees after ``after`` (a normalised name and id), at most ``limit``.

        In use: no merge folded them away, no decay archived them; by normalised name, then id.
        """
        ...

    async def fact_seeds(
        self, actor: Actor, vector: Vector, words: Sequence[str], limit: int
    ) -> tuple[list[tuple[Fact, float]], list[tuple[Fact, float]]]:
        """Visible facts nearest the vector, and those matching the words, with their arm scores, best first."""
        ...

    async def entity_seeds(self, actor: Actor, words: Sequence[str], limit: int) -> list[str]:
        """Visible, unmerged entities whose names match the words, best first."""
        ...

    async def delete_facts(self, tenant_id: str, fact_ids: Sequence[str]) -> None:
        """Delete facts by id."""
        ...

    async def put_episode(self, tenant_id: str, episode: Episode) -> None:
        """Insert an episode once."""
        ...

    async def episode(self, tenant_id: str, episode_id: str) -> Episode | None:
        """One episode by id."""
        ...

    async def expire(self, tenant_id: str, before: datetime, dry_run: bool) -> dict[str, int]:
        """Delete (or count) non-pinned facts and episodes created before ``before``, then the orphaned entities."""
        ...

    async def decay(
        self, tenant_id: str, now: datetime, seen_before: datetime, below: float, dry_run: bool
    ) -> dict[str, int]:
        """Archive (or count) unsure facts nobody stated since ``seen_before``, then the entities left unnamed.

        Counts as ``graph_archived`` and ``graph_entities_archived``.
        """
        ...

    async def listed_episodes(self, actor: Actor) -> list[Episode]:
        """Every episode the actor sees (by its scope), the newest first."""
        ...

    async def add_suggestions(self, tenant_id: str, suggestions: Sequence[MergeSuggestion]) -> None:
        """Keep merge suggestions; a pair already kept (open or dismissed) stays as it is."""
        ...

    async def suggestions(self, tenant_id: str, status: SuggestionStatus | None) -> list[MergeSuggestion]:
        """The tenant's merge suggestions (of ``status``), the newest first."""
        ...

    async def set_suggestion(self, tenant_id: str, suggestion: MergeSuggestion) -> None:
        """Store a suggestion's new status."""
        ...

    async def drop_suggestions(self, tenant_id: str, entity_ids: Sequence[str]) -> None:
        """Delete the suggestions naming these entities (a merge decided them)."""
        ...

    async def erase_end_user(self, tenant_id: str, end_user_id: str) -> tuple[dict[str, int], list[str]]:
        """Delete a contact's entities, facts and episodes and every fact naming its entities; (counts, tables)."""
        ...
