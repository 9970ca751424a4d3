"""Provenance as values: a memory's history, and the log of what was served to whom.

The history belongs to the tenant, so unlike the audit log (``core.event_log``) it keeps the
earlier text of an update and the restatement a write merged; erasure and retention remove it with
the memory. A serving names ids only, never content.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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


SERVED_CALL_FIELDS = (
    "call", "at", "item_kind", "agent_id", "end_user_id", "key_id", "role", "via", "conversation_id", "items",
)  # fmt: skip
"""The fields of a served call's line (``served_call_line``), in order."""


def served_call_line(
    call_id: str, at: datetime, caller: Sequence[str], items: Iterable[tuple[str, float]], kind: ServedItem
) -> str:
    """One call's servings as one tab-separated line of ``SERVED_CALL_FIELDS``.

    ``caller``: agent, contact, key id, role, via, conversation. ``items``, best first, go in the last
    field as ``id score id score …`` (ids are hex); the store makes a serving of each, whose id is the
    call's and its rank in two hex digits. ``at`` is in microseconds since the epoch. Every field is
    an id or a name memoryd validated (no tab, no newline, no space in an id). Text, because the
    flush makes it cheaply (on the event loop, a slice of calls at a time) and the spool writes bytes
    as they are; Arrow makes the columns off the loop. One line per call, not per serving: a third of
    the bytes and of the time to make (``bench recall``'s minute, 18k calls of 10 items: 8.7 MB against
    26.8, 3.8 µs a call against 10.0), and a minute's move parses a tenth of the rows.
    """
    served = " ".join(f"{item} {score:.6g}" for item, score in items)
    return f"{call_id}\t{int(at.timestamp() * 1_000_000)}\t{kind.value}\t" + "\t".join(caller) + f"\t{served}\n"


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
