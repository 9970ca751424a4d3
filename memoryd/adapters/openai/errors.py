"""The one classification of OpenAI-compatible provider failures, shared by the chat and embedding adapters.

=====================================  ====================  =========================================
failure                                memoryd error         why
=====================================  ====================  =========================================
connection refused / reset, timeout    Unavailable           transient: try again later
HTTP 429                               RateLimited           throttled: wait out ``Retry-After``
HTTP 5xx, 408, 409                     Unavailable           the server's trouble or a race: try again
other 4xx (400, 401, 403, 404, 422…)   NotReady              a configuration problem: retrying won't help
a body that is not JSON                ModelOutputInvalid    the provider answered garbage: permanent
=====================================  ====================  =========================================

``Retry-After`` (seconds) is carried on the error whenever the provider sent it.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import openai

from memoryd.core.errors import ModelOutputInvalid, NotReady, RateLimited, Unavailable

_RETRYABLE_STATUSES = frozenset({408, 409})


def retry_after(exc: openai.APIStatusError) -> float | None:
    """The provider's Retry-After in seconds, if it sent a number."""
    value = exc.response.headers.get("retry-after")
    try:
        seconds = float(value) if value is not None else None
    except ValueError:
        return None
    return seconds if seconds is not None and seconds >= 0 else None


@asynccontextmanager
async def map_openai_errors(provider: str) -> AsyncIterator[None]:
    """Re-raise the ``openai`` client's failures as memoryd errors (table in the module docstring)."""
    try:
        yield
    except json.JSONDecodeError as exc:
        raise ModelOutputInvalid(f"{provider} returned a body that is not JSON: {exc}") from exc
    except openai.RateLimitError as exc:
        raise RateLimited(f"{provider} rate limited: {exc.message}", retry_after(exc)) from exc
    except openai.APIConnectionError as exc:  # includes APITimeoutError
        raise Unavailable(f"{provider} unreachable: {exc}") from exc
    except openai.APIStatusError as exc:
        if exc.status_code >= 500 or exc.status_code in _RETRYABLE_STATUSES:
            raise Unavailable(f"{provider} failed ({exc.status_code}): {exc.message}", retry_after(exc)) from exc
        raise NotReady(f"{provider} refused the request ({exc.status_code}): {exc.message}") from exc
