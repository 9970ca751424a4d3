"""The audit schedule: which cron period a moment falls in, and the batch key of a period. Pure.

A batch's key names its period (``review_all:{tenant or all}:{period}``), so two workers' cron
ticks, a restart, and a manual ``memoryd audit`` in the same period all find the same batch.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from croniter import croniter

ALL_TENANTS = "@all"
"""The scope of a batch over every tenant (``@`` is not allowed in a tenant id, so no tenant is called this)."""
CATCH_UP = timedelta(minutes=10)
"""A tick starts the batch of a slot at most this long after it (a worker that was down for the
slot catches up; one started hours later waits for the next slot instead of auditing at once)."""


def check_schedule(expression: str) -> str:
    """A five-field cron expression (minute hour day month weekday), or "" (off); ValueError otherwise."""
    text = " ".join(expression.split())
    if text and (len(text.split(" ")) != 5 or not croniter.is_valid(text)):
        raise ValueError(f"{expression!r} is not a five-field cron expression (e.g. '0 3 * * *')")
    return text


def last_slot(expression: str, now: datetime) -> datetime:
    """The latest time at or before ``now`` (to the minute) that the expression names."""
    minute = now.replace(second=0, microsecond=0)
    return croniter(expression, minute + timedelta(seconds=1)).get_prev(datetime)


def due_period(expression: str, now: datetime) -> str | None:
    """The period a cron tick at ``now`` should run, or None (no schedule, or the slot is past catching up)."""
    if not expression:
        return None
    slot = last_slot(expression, now)
    return period_label(slot) if now - slot <= CATCH_UP else None


def current_period(expression: str, now: datetime) -> str:
    """The period a manual run belongs to: the schedule's current slot, or the UTC day without a schedule."""
    return period_label(last_slot(expression, now)) if expression else now.strftime("%Y%m%d")


def period_label(slot: datetime) -> str:
    """``20261130T0300Z``: sortable, and free of ':' (the key's separator)."""
    return slot.strftime("%Y%m%dT%H%MZ")


def review_all_key(tenant_id: str, period: str) -> str:
    """The audit batch of a tenant (or ``all``) for a period."""
    return f"review_all:{tenant_id or ALL_TENANTS}:{period}"


def batch_scope(key: str) -> str:
    """The tenant of a batch key ("" for every tenant)."""
    scope = key.split(":")[1]
    return "" if scope == ALL_TENANTS else scope
