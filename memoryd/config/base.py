"""What every section shares: unknown keys refused, the core defaults the sections read."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict

from memoryd.core.conversation import WorkingPolicy
from memoryd.core.job_records import RetryPolicy
from memoryd.core.ranking import RecallTuning
from memoryd.core.review import ReviewLimits

_RECALL = RecallTuning()


_REVIEW = ReviewLimits()


_RETRY = RetryPolicy()


_POLICY = WorkingPolicy()


def _http_url(url: str | None) -> str | None:
    if url and not url.startswith(("http://", "https://")):  # else every call to it fails later, not the start
        raise ValueError(f"{url!r} is not an http:// or https:// URL")
    return url


Endpoint = Annotated[str | None, AfterValidator(_http_url)]
"""An OpenAI-compatible endpoint's base URL (None: not configured)."""

HttpUrl = Annotated[str, AfterValidator(_http_url)]
"""A server's http(s) URL ("": not configured)."""


class _Section(BaseModel):
    """A config section: unknown keys are errors (a typo must not silently fall back to a default)."""

    model_config = ConfigDict(extra="forbid")
