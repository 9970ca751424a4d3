"""Provenance as values: a memory's history, and the log of what was served to whom.

The history belongs to the tenant, so unlike the audit log (``core.event_log``) it keeps the
earlier text of an update and the restatement a write merged; erasure and retention remove it with
the memory. A serving names ids only, never content.
"""

from __future__ import annotations

from collections.abc import Sequence
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


SERVING_COLUMNS = (
    "id", "at", "item_id", "item_kind", "agent_id", "end_user_id", "key_id", "role", "via", "conversation_id",
    "rank", "score",
)  # fmt: skip
"""The served log's fields, in the order of its lines (``serving_lines``)."""


def serving_lines(
    call_id: str, at: datetime, caller: Sequence[str], items: Sequence[tuple[str, float]], kind: ServedItem
) -> str:
    """One call's servings as tab-separated lines of ``SERVING_COLUMNS``, one per item, best first.

    ``caller``: agent, contact, key id, role, via, conversation. A serving's id is its call's and its
    rank in two hex digits; ``at`` is in microseconds since the epoch. Every field is an id or a name
    memoryd validated (no tab, no newline). Text, because the request path only appends a string:
    the flush and the spool write bytes as they are, and Arrow's CSV reader makes the columns off the
    event loop (a second of Recalls turned into columns in Python took milliseconds of it).
    """
    head = f"\t{int(at.timestamp() * 1_000_000)}\t"
    tail = "\t".join((kind.value, *caller))
    return "".join(
        f"{call_id}{rank:02x}{head}{item}\t{tail}\t{rank}\t{score:.6g}\n"
        for rank, (item, score) in enumerate(items, start=1)
    )


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
