"""The system clock."""

from __future__ import annotations

from datetime import UTC, datetime


class SystemClock:
    """UTC wall time."""

    def now(self) -> datetime:
        """The current UTC time."""
        return datetime.now(UTC)
