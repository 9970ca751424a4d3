"""Retention as values: how long a tenant keeps memories and conversations, and what a purge removed."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True, slots=True)
class RetentionPolicy:
    """Days kept; 0 keeps forever. Profiles are never expired (their Pinned lines least of all)."""

    memories_days: float = 0.0
    """Memories created longer ago than this are deleted, but pinned ones."""
    conversations_days: float = 0.0
    """Conversations untouched for longer than this are deleted with every item."""
    servings_days: float = 0.0
    """Servings older than this leave the served log."""
    graph_days: float = 0.0
    """Non-pinned graph facts and episodes created longer ago are deleted, then the entities left without facts."""
    graph_decay_days: float = 0.0
    """Non-pinned facts less sure than ``graph_decay_confidence`` that nobody stated for this long are archived."""
    graph_decay_confidence: float = 0.7

    @property
    def keeps_data_forever(self) -> bool:
        """Whether no memory or conversation expires (servings may)."""
        return self.memories_days <= 0 and self.conversations_days <= 0 and self.graph_days <= 0


@dataclass(frozen=True, slots=True)
class RetentionReceipt:
    """What a retention purge removed (or, dry, would remove) in one tenant; no content."""

    tenant_id: str
    at: datetime
    dry_run: bool
    counts: dict[str, int] = field(default_factory=dict)
    memory_ids: tuple[str, ...] = ()


def retention_key(day: str) -> str:
    """The daily retention job over every tenant: one per UTC day, whoever starts it."""
    return f"retention:{day}"
