"""One classification of provider failures for chat and embeddings: each branch pinned."""

from __future__ import annotations

import json

import httpx2
import openai
import pytest

from memoryd.adapters.openai.errors import map_openai_errors
from memoryd.core.errors import MemorydError, ModelOutputInvalid, NotReady, RateLimited, Unavailable

REQUEST = httpx2.Request("POST", "http://127.0.0.1/v1/chat/completions")


def status_error(status: int, retry_after: str | None = None) -> openai.APIStatusError:
    headers = {"retry-after": retry_after} if retry_after is not None else {}
    response = httpx2.Response(status, headers=headers, request=REQUEST)
    cls = {
        429: openai.RateLimitError,
        500: openai.InternalServerError,
        400: openai.BadRequestError,
        401: openai.AuthenticationError,
        404: openai.NotFoundError,
        409: openai.ConflictError,
        422: openai.UnprocessableEntityError,
    }.get(status, openai.APIStatusError)
    return cls(f"status {status}", response=response, body=None)


async def _mapped(exc: BaseException) -> MemorydError:
    with pytest.raises(MemorydError) as caught:
        async with map_openai_errors("provider"):
            raise exc
    return caught.value


@pytest.mark.parametrize(
    ("exc", "kind", "retryable", "after"),
    [
        (status_error(429, "1.5"), RateLimited, True, 1.5),
        (status_error(429), RateLimited, True, None),
        (status_error(500), Unavailable, True, None),
        (status_error(503, "30"), Unavailable, True, 30.0),
        (status_error(408), Unavailable, True, None),
        (status_error(409), Unavailable, True, None),
        (status_error(400), NotReady, False, None),
        (status_error(401), NotReady, False, None),
        (status_error(404), NotReady, False, None),
        (status_error(422), NotReady, False, None),
        (openai.APIConnectionError(request=REQUEST), Unavailable, True, None),
        (openai.APITimeoutError(request=REQUEST), Unavailable, True, None),
        (json.JSONDecodeError("bad", "x", 0), ModelOutputInvalid, False, None),
    ],
)
async def test_each_failure_maps_to_one_error_with_its_retry_data(exc, kind, retryable, after) -> None:
    mapped = await _mapped(exc)
    assert type(mapped) is kind
    assert mapped.retryable is retryable and mapped.retry_after == after


async def test_a_retry_after_that_is_not_a_number_is_ignored() -> None:
    assert (await _mapped(status_error(503, "Wed, 21 Oct 2026 07:28:00 GMT"))).retry_after is None
