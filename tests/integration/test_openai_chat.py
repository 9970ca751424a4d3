"""The chat adapter against the scriptable provider: answers, and every failure classified."""

from __future__ import annotations

from collections.abc import Iterator

import openai
import pytest

from memoryd.adapters.openai.chat import OpenAIChat
from memoryd.core.errors import ModelOutputInvalid, NotReady, RateLimited, Unavailable
from memoryd.testing.provider import FakeProvider


@pytest.fixture
def provider() -> Iterator[FakeProvider]:
    with FakeProvider() as p:
        yield p


def chat(provider: FakeProvider, timeout: float = 2.0) -> OpenAIChat:
    client = openai.AsyncOpenAI(base_url=provider.base_url, api_key="test", timeout=timeout, max_retries=5)
    return OpenAIChat(client, "fake-chat")


async def test_answers_are_parsed_with_token_usage(provider: FakeProvider) -> None:
    provider.reply_with('{"profile": "## A\\n- x", "demoted": []}')
    answer, prompt_tokens, completion_tokens = await chat(provider).complete_json("system", "user")
    # the fake reports about a token per four characters: "system" + "user" = 10 chars, the reply 39
    assert answer == {"profile": "## A\n- x", "demoted": []} and (prompt_tokens, completion_tokens) == (3, 10)
    assert provider.requests[0]["body"] == {  # the whole body, as the client's own transform would have made it
        "model": "fake-chat",
        "messages": [{"role": "system", "content": "system"}, {"role": "user", "content": "user"}],
        "response_format": {"type": "json_object"},
    }


@pytest.mark.parametrize(
    ("behaviour", "error"),
    [
        ("500", Unavailable),
        ("503", Unavailable),
        ("drop", Unavailable),
        ("429", RateLimited),
        ("400", NotReady),
    ],
)
async def test_failures_are_classified_and_never_retried_by_the_client(
    provider: FakeProvider, behaviour: str, error: type[Exception]
) -> None:
    provider.script(behaviour)
    with pytest.raises(error):
        await chat(provider).complete_json("s", "u")
    assert provider.calls["/v1/chat/completions"] == 1  # jobs own retrying, not the client


async def test_retry_after_is_reported(provider: FakeProvider) -> None:
    provider.script("429:7")
    with pytest.raises(RateLimited) as err:
        await chat(provider).complete_json("s", "u")
    assert err.value.retryable and err.value.retry_after == 7.0


async def test_timeout_is_retryable(provider: FakeProvider) -> None:
    provider.script("sleep:2")
    with pytest.raises(Unavailable):
        await chat(provider, timeout=0.5).complete_json("s", "u")


@pytest.mark.parametrize("content", ["not json at all", "[1, 2]", ""])
async def test_invalid_output_is_permanent(provider: FakeProvider, content: str) -> None:
    provider.reply_with(content)
    with pytest.raises(ModelOutputInvalid) as err:
        await chat(provider).complete_json("s", "u")
    assert not err.value.retryable


async def test_a_malformed_http_body_is_invalid_output(provider: FakeProvider) -> None:
    provider.script("malformed")
    with pytest.raises(ModelOutputInvalid):
        await chat(provider).complete_json("s", "u")
