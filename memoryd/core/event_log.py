"""The audit log as values: one event per mutation, never the content.

An event says who (key id and role), when, in which tenant, as which agent, did what (the
operation), to which rows (ids), in which scopes, and how many (counts). Texts are never in it:
the log must survive an erasure without holding what was erased.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum


class Operation(StrEnum):
    """What an audit event records."""

    MEMORIZE = "memorize"
    UPDATE = "update"
    FORGET = "forget"
    RESTORE = "restore"
    PROFILE_EDIT = "profile_edit"
    FINDINGS_APPLIED = "findings_applied"
    FINDINGS_REJECTED = "findings_rejected"
    KEY_CREATE = "key_create"
    KEY_REVOKE = "key_revoke"
    ERASE = "erase"
    RETENTION_PURGE = "retention_purge"
    IMPORT = "import"
    IMPORT_STARTED = "import_started"
    """Written before an import's first row: one started and never finished (``import``) is continued."""
    FEEDBACK = "feedback"
    CONFIG_CHANGE = "config_change"
    GRAPH_ASSERT = "graph_assert"
    GRAPH_UPDATE = "graph_update"
    GRAPH_FORGET = "graph_forget"
    GRAPH_MERGE = "graph_merge"


@dataclass(frozen=True, slots=True)
class LogEvent:
    """One mutation."""

    event_id: str
    """Time-ordered: the log pages by it."""
    at: datetime
    tenant_id: str
    operation: Operation
    key_id: str = ""
    """Empty for memoryd's own work (jobs, commands) and protected mode."""
    role: str = ""
    agent_id: str = ""
    ids: tuple[str, ...] = ()
    """The rows changed (memory ids, key ids, …); capped so one event stays small."""
    scopes: tuple[str, ...] = ()
    counts: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class EventQuery:
    """Which of a tenant's events to read: the store filters, orders by event id and stops at ``limit``."""

    since: datetime | None = None
    until: datetime | None = None
    """[since, until)."""
    operation: Operation | None = None
    after: str = ""
    """Only events whose id sorts after this one (the page token)."""
    key_id: str = ""
    """Only calls made with this key."""
    row_id: str = ""
    """Only events naming this row."""
    limit: int = 0
    """At most this many (0: all)."""

    def matches(self, event: LogEvent) -> bool:
        """Whether ``event`` is one of these (what a store's filter must keep)."""
        return (
            (self.since is None or event.at >= self.since)
            and (self.until is None or event.at < self.until)
            and (self.operation is None or event.operation is self.operation)
            and event.event_id > self.after
            and (not self.key_id or event.key_id == self.key_id)
            and (not self.row_id or self.row_id in event.ids)
        )


MAX_IDS = 1000
"""Ids kept per event; a larger operation keeps the first ones and counts them all."""
