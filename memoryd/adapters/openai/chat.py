"""ChatModel on any OpenAI-compatible ``/v1/chat/completions`` endpoint.

The client's own retries are off (``max_retries=0``): jobs own retrying, so
a provider outage is retried with the job's backoff instead of stacking two
retry loops. Errors are classified in ``openai_errors`` (shared with the embedder).

Servers differ in what they honour (``provider.structured_output``): OpenAI, vLLM, llama.cpp's
server and Ollama take ``response_format`` with a JSON schema; some take only JSON mode; some only
tools; some ignore the field and write prose around the JSON. ``auto`` asks for the most
constrained form first and steps down, per model, when the server refuses the field (a 400/422 naming it);
the answer is then read from the tool call or the text (the first JSON object in it). A truncated
or non-object answer is ModelOutputInvalid: nothing partial goes on.
"""

from __future__ import annotations

import json
from typing import Any

import openai

from memoryd.adapters.openai.errors import map_openai_errors
from memoryd.core.answer_schemas import AnswerSchema
from memoryd.core.errors import ModelOutputInvalid

MODES = ("json_schema", "json_object", "tools", "prompt")
"""From the most constrained to none: ``auto`` tries them in this order."""
_REFUSED = frozenset({400, 422})
"""What a server that does not take a request field answers."""
_FIELDS = ("response_format", "json_schema", "json_object", "tool")
"""Words of such a refusal's message: any other 400 is a configuration problem and is not stepped past."""


class OpenAIChat:
    """Chat completions answered with one JSON object."""

    def __init__(self, client: openai.AsyncOpenAI, model: str, structured_output: str = "auto") -> None:
        self._client = client.with_options(max_retries=0)
        self._model = model
        self._structured = structured_output
        self._modes: dict[str, int] = {}
        """Per model under ``auto``: the index in ``MODES`` its server took last (refusals step down)."""

    @classmethod
    def connect(
        cls, base_url: str, api_key: str, timeout: float, model: str, structured_output: str = "auto"
    ) -> OpenAIChat:
        """A chat model with a client of its own on ``base_url`` (its retries off: jobs retry)."""
        client = openai.AsyncOpenAI(base_url=base_url, api_key=api_key or "none", timeout=timeout, max_retries=0)
        return cls(client, model, structured_output)

    @property
    def model_name(self) -> str:
        """The configured model."""
        return self._model

    async def aclose(self) -> None:
        """Close the client's connections (the composition root calls it for the clients it built)."""
        await self._client.close()

    async def complete_json(
        self, system: str, user: str, model: str = "", schema: AnswerSchema | None = None
    ) -> tuple[dict[str, object], int, int]:
        """One call (two or three when ``auto`` steps down); the answer must be a JSON object."""
        used = model or self._model
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        if self._structured != "auto":
            return await self._call(used, messages, self._structured, schema)
        at = self._modes.get(used, 0)
        while True:
            mode = MODES[at]
            try:
                answer = await self._call(used, messages, mode, schema, refusal=at < len(MODES) - 1)
            except _Refused:
                at += 1
                self._modes[used] = at
                continue
            return answer

    async def _call(
        self,
        model: str,
        messages: list[dict[str, str]],
        mode: str,
        schema: AnswerSchema | None,
        *,
        refusal: bool = False,
    ) -> tuple[dict[str, object], int, int]:
        body: dict[str, Any] = {"messages": messages, **_constraint(mode, schema)}
        async with map_openai_errors("chat provider"):
            try:
                # The body goes as ``extra_body``, merged after the client's request transform: that walk
                # of the parameters' types cost ~0.5 of the 2.7 ms of event-loop CPU a call took, for a
                # body it leaves byte-identical (plain strings). ``messages=[]`` is overridden by the body's.
                response = await self._client.chat.completions.create(model=model, messages=[], extra_body=body)
            except openai.APIStatusError as exc:
                if refusal and exc.status_code in _REFUSED and any(f in str(exc.message).lower() for f in _FIELDS):
                    raise _Refused from exc  # not an openai error: passes the mapping untouched
                raise
        choice = response.choices[0].message if response.choices else None
        calls = getattr(choice, "tool_calls", None) or []
        text = calls[0].function.arguments if mode == "tools" and calls else (choice.content if choice else None)
        usage = response.usage
        tokens_in, tokens_out = (usage.prompt_tokens, usage.completion_tokens) if usage else (0, 0)
        try:
            return _json_object(text or ""), tokens_in, tokens_out
        except ModelOutputInvalid as exc:
            exc.tokens = (tokens_in, tokens_out)  # counted: the answer was paid for
            raise


class _Refused(Exception):  # control flow: the server does not take this mode's field
    pass


def _constraint(mode: str, schema: AnswerSchema | None) -> dict[str, Any]:
    """The request fields that ask for the answer's shape in ``mode``."""
    if mode == "json_schema" and schema is not None:
        return {
            "response_format": {"type": "json_schema", "json_schema": {"name": schema.name, "schema": schema.schema}}
        }
    if mode in ("json_schema", "json_object"):
        return {"response_format": {"type": "json_object"}}
    if mode == "tools" and schema is not None:
        tool = {"type": "function", "function": {"name": schema.name, "parameters": schema.schema}}
        return {"tools": [tool], "tool_choice": {"type": "function", "function": {"name": schema.name}}}
    return {}


def _json_object(text: str) -> dict[str, object]:
    """The answer's JSON object: the whole text, or the object opening at its first ``{`` (prose around).

    Only the first ``{``: an answer cut short must fail whole, not yield one of its inner objects. A
    truncated object, or JSON that is not an object, is ModelOutputInvalid.
    """
    try:
        parsed: object = json.loads(text)
    except json.JSONDecodeError:
        start = text.find("{")
        try:
            parsed = json.JSONDecoder().raw_decode(text, start)[0] if start != -1 else None
        except json.JSONDecodeError:
            parsed = None
    if not isinstance(parsed, dict):
        kind = "no whole JSON object" if parsed is None else f"JSON but not an object: {type(parsed).__name__}"
        raise ModelOutputInvalid(f"model answer is {kind}: {text[:200]!r}")
    return parsed
