"""ChatModel on any OpenAI-compatible ``/v1/chat/completions`` endpoint.

The client's own retries are off (``max_retries=0``): jobs own retrying, so
a provider outage is retried with the job's backoff instead of stacking two
retry loops. Errors are classified here and nowhere else.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import openai

from memoryd.core.errors import ModelOutputInvalid, NotReady, RateLimited, Unavailable


def _retry_after(exc: openai.APIStatusError) -> float | None:
    value = exc.response.headers.get("retry-after")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


@asynccontextmanager
async def _map_openai_errors() -> AsyncIterator[None]:
    """Classify provider failures.

    Connection errors, timeouts, 429 and 5xx are retryable; other 4xx are configuration errors;
    a body that is not JSON is invalid output (permanent, like an answer that fails validation).
    """
    try:
        yield
    except json.JSONDecodeError as exc:  # the HTTP body itself is not JSON: the provider answered garbage
        raise ModelOutputInvalid(f"chat provider returned a body that is not JSON: {exc}") from exc
    except openai.RateLimitError as exc:
        raise RateLimited(f"chat provider rate limited: {exc.message}", _retry_after(exc)) from exc
    except openai.APIConnectionError as exc:  # includes APITimeoutError
        raise Unavailable(f"chat provider unreachable: {exc}") from exc
    except openai.APIStatusError as exc:
        if exc.status_code >= 500 or exc.status_code in (408, 409):
            raise Unavailable(f"chat provider failed ({exc.status_code}): {exc.message}",
                              _retry_after(exc)) from exc
        raise NotReady(f"chat provider refused the request ({exc.status_code}): {exc.message}") from exc


class OpenAIChat:
    """JSON-mode chat completions."""

    def __init__(self, client: openai.AsyncOpenAI, model: str) -> None:
        self._client = client.with_options(max_retries=0)
        self._model = model

    @property
    def model_name(self) -> str:
        """The configured model."""
        return self._model

    async def complete_json(self, system: str, user: str) -> tuple[dict[str, object], int, int]:
        """One call; the answer must be a JSON object."""
        async with _map_openai_errors():
            response = await self._client.chat.completions.create(
                model=self._model, response_format={"type": "json_object"},
                messages=[{"role": "system", "content": system}, {"role": "user", "content": user}])
        content = response.choices[0].message.content if response.choices else None
        try:
            parsed = json.loads(content or "")
        except json.JSONDecodeError as exc:
            raise ModelOutputInvalid(f"model answer is not JSON: {(content or '')[:200]!r}") from exc
        if not isinstance(parsed, dict):
            raise ModelOutputInvalid(f"model answer is JSON but not an object: {type(parsed).__name__}")
        usage = response.usage
        return parsed, (usage.prompt_tokens if usage else 0), (usage.completion_tokens if usage else 0)
