"""Feedback signals: what callers say about memories, and how far it may move salience. Pure.

Signals are counted per memory beside the archive (never a rewrite of the memory's row) and
shift salience by a fixed step each, within ``SHIFT_BOUND``: a handful of reports nudges the
opt-in salience/decay ranking, none can dominate it, and the default relevance ranking never
reads them (feeding usage back into ranking made a few memories win every query).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum


class Signal(StrEnum):
    """One kind of feedback; the value names its counter."""

    USEFUL = "useful"
    NOT_USEFUL = "not_useful"
    WRONG = "wrong"
    EXPLICIT_POSITIVE = "explicit_positive"
    EXPLICIT_NEGATIVE = "explicit_negative"
    CORRECTION = "correction"
    USED = "used"
    """AutoFeedback: the runtime used a recalled memory."""
    UNUSED = "unused"
    """AutoFeedback: the runtime did not use it (weak evidence: the query may have been about something else)."""


STEPS = {
    Signal.USEFUL: 0.02,
    Signal.NOT_USEFUL: -0.02,
    Signal.WRONG: -0.10,
    Signal.EXPLICIT_POSITIVE: 0.05,
    Signal.EXPLICIT_NEGATIVE: -0.05,
    Signal.CORRECTION: -0.10,
    Signal.USED: 0.01,
    Signal.UNUSED: -0.005,
}
"""How far one signal moves the salience shift. A person's word outweighs a runtime's report."""

SHIFT_BOUND = 0.25
"""The shift stays within ±this: feedback can move a memory about one salience default's width."""

AUTO_SIGNALS = frozenset({Signal.USED, Signal.UNUSED})
"""Signals only AutoFeedback sends."""


@dataclass(frozen=True, slots=True)
class FeedbackSummary:
    """The signals one memory received."""

    counts: dict[Signal, int] = field(default_factory=dict)
    salience_shift: float = 0.0
    last_at: datetime | None = None

    def count(self, signal: Signal) -> int:
        """How many times ``signal`` was given."""
        return self.counts.get(signal, 0)


NO_FEEDBACK = FeedbackSummary()


def bounded(shift: float) -> float:
    """A shift within ±SHIFT_BOUND."""
    return max(-SHIFT_BOUND, min(SHIFT_BOUND, shift))


def shifted_salience(salience: float, feedback: FeedbackSummary) -> float:
    """Salience with the feedback shift, within [0, 1] (what the salience/decay ranking uses)."""
    return max(0.0, min(1.0, salience + feedback.salience_shift))
