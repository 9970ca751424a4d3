"""What every section shares: unknown keys refused, the core defaults the sections read."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from memoryd.core.conversation import WorkingPolicy
from memoryd.core.job_records import RetryPolicy
from memoryd.core.ranking import RecallTuning
from memoryd.core.review import ReviewLimits

_RECALL = RecallTuning()


_REVIEW = ReviewLimits()


_RETRY = RetryPolicy()


_POLICY = WorkingPolicy()


class _Section(BaseModel):
    """A config section: unknown keys are errors (a typo must not silently fall back to a default)."""

    model_config = ConfigDict(extra="forbid")
