"""Provenance as values: a memory's history, and the log of what was served to whom.

The history belongs to the tenant, so unlike the audit log (``core.event_log``) it keeps the
earlier text of an update and the restatement a write merged; erasure and retention remove it with
the memory. A serving names ids only, never content.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import NamedTuple


class HistoryKind(StrEnum):
    """What happened to a memory."""

    CREATED = "created"
    MERGED = "merged"
    """A write that restated it was merged into it (``detail["restatement"]`` holds that text)."""
    UPDATED = "updated"
    """``detail`` holds the earlier content and scope where they changed."""
    SUPERSEDED = "superseded"
    ARCHIVED = "archived"
    RESTORED = "restored"
    FEEDBACK = "feedback"
    IMPORTED = "imported"
    SERVED = "served"
    """Only in a history's answer: the servings (``Serving``) read beside the events."""


@dataclass(frozen=True, slots=True)
class HistoryEvent:
    """One event on one memory."""

    event_id: str
    """Time-ordered; a history reads in its order."""
    at: datetime
    memory_id: str
    kind: HistoryKind
    end_user_id: str = ""
    """The memory's contact (erasure removes the contact's histories)."""
    key_id: str = ""
    """The caller's key; empty for memoryd's own work and protected mode."""
    role: str = ""
    agent_id: str = ""
    """The agent the call acted as."""
    via: str = ""
    """The RPC (``MemoryService/Memorize``) or job (``job:compact``) that did it."""
    request_id: str = ""
    detail: dict[str, str] = field(default_factory=dict)
    """Kind-specific: ``source_context``, ``content`` (earlier text), ``scope``, ``review_id``,
    ``finding_id``, ``signal``, ``restatement``, ``superseded_by``."""


class ServedItem(StrEnum):
    """What a serving names."""

    MEMORY = "memory"
    FACT = "fact"


ServedCall = tuple[str, datetime, str, str, str, str, str, str, str, tuple[str, ...], tuple[float, ...]]
"""One call's servings as the request path keeps them until the flush: (call id, at, agent, contact,
key id, role, via, conversation, item kind, the item ids best first, their scores). A plain tuple of
atomic values, which the cyclic garbage collector stops tracking: a second of Recalls (thousands of
servings) adds no work to its collections, which stop the event loop."""


class Serving(NamedTuple):
    """One item served to one caller: ids, rank and score, never the text (as the served log reads it)."""

    serving_id: str
    at: datetime
    item_id: str
    item_kind: ServedItem
    agent_id: str
    end_user_id: str
    """The contact the call served ("" for none)."""
    key_id: str = ""
    role: str = ""
    via: str = ""
    conversation_id: str = ""
    rank: int = 0
    """1-based place in the answer."""
    score: float = 0.0


@dataclass(frozen=True, slots=True)
class ServingFilter:
    """Which servings a listing returns; empty fields match everything."""

    item_id: str = ""
    agent_id: str = ""
    end_user_id: str = ""
    conversation_id: str = ""
    since: datetime | None = None
    until: datetime | None = None
