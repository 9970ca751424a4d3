"""ChatModel on any OpenAI-compatible ``/v1/chat/completions`` endpoint.

The client's own retries are off (``max_retries=0``): jobs own retrying, so
a provider outage is retried with the job's backoff instead of stacking two
retry loops. Errors are classified in ``openai_errors`` (shared with the embedder).
"""

from __future__ import annotations

import json

import openai

from memoryd.adapters.openai.errors import map_openai_errors
from memoryd.core.errors import ModelOutputInvalid


class OpenAIChat:
    """JSON-mode chat completions."""

    def __init__(self, client: openai.AsyncOpenAI, model: str) -> None:
        self._client = client.with_options(max_retries=0)
        self._model = model

    @classmethod
    def connect(cls, base_url: str, api_key: str, timeout: float, model: str) -> OpenAIChat:
        """A chat model with a client of its own on ``base_url`` (its retries off: jobs retry)."""
        client = openai.AsyncOpenAI(base_url=base_url, api_key=api_key or "none", timeout=timeout, max_retries=0)
        return cls(client, model)

    @property
    def model_name(self) -> str:
        """The configured model."""
        return self._model

    async def aclose(self) -> None:
        """Close the client's connections (the composition root calls it for the clients it built)."""
        await self._client.close()

    async def complete_json(self, system: str, user: str, model: str = "") -> tuple[dict[str, object], int, int]:
        """One call; the answer must be a JSON object."""
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        async with map_openai_errors("chat provider"):
            # The body goes as ``extra_body``, merged after the client's request transform: that walk of
            # the parameters' types cost ~0.5 of the 2.7 ms of event-loop CPU a call took, for a body it
            # leaves byte-identical (plain strings). ``messages=[]`` is overridden by the body's.
            response = await self._client.chat.completions.create(
                model=model or self._model,
                messages=[],
                extra_body={"response_format": {"type": "json_object"}, "messages": messages},
            )
        content = response.choices[0].message.content if response.choices else None
        try:
            parsed = json.loads(content or "")
        except json.JSONDecodeError as exc:
            raise ModelOutputInvalid(f"model answer is not JSON: {(content or '')[:200]!r}") from exc
        if not isinstance(parsed, dict):
            raise ModelOutputInvalid(f"model answer is JSON but not an object: {type(parsed).__name__}")
        usage = response.usage
        return parsed, (usage.prompt_tokens if usage else 0), (usage.completion_tokens if usage else 0)
