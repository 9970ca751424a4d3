"""Model usage as values: a tenant's calls and tokens per model per day (UTC), from the jobs' model calls."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

MAX_DAYS = 400
"""How far back usage is kept and may be asked for (a little over a year, for year-on-year questions)."""


@dataclass(frozen=True, slots=True)
class ModelUsage:
    """One model's use by one tenant on one day."""

    day: date
    model: str
    calls: int
    failed_calls: int
    tokens_in: int
    tokens_out: int


def days_back(today: datetime, days: int) -> list[date]:
    """The last ``days`` UTC days up to ``today``'s, oldest first."""
    last = today.date()
    return [last - timedelta(days=n) for n in range(days - 1, -1, -1)]
