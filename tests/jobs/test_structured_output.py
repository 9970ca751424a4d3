"""Structured output against servers that differ: schema honoured, JSON mode only, tools only, ignored, cut short."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.adapters.openai.chat import OpenAIChat
from memoryd.core.answer_schemas import PROFILE
from memoryd.core.errors import ModelOutputInvalid
from memoryd.core.job_records import JobState
from memoryd.core.models import Actor
from memoryd.testing.provider import FakeProvider
from tests.jobs.conftest import PROFILE_REPLY, job_settings, running, seed, wait_for

ANSWER = {"profile": "## Preferences\n- likes green tea", "demoted": []}


def asked(provider: FakeProvider) -> list[str]:
    """How each chat request asked for its shape: the response_format type, "tools", or "" (nothing)."""
    out = []
    for request in provider.requests:
        body = request["body"]
        out.append((body.get("response_format") or {}).get("type") or ("tools" if body.get("tools") else ""))
    return out


@pytest.mark.parametrize(
    ("structured", "expected"),
    [
        ("schema", ["json_schema", "json_schema"]),
        ("json_mode", ["json_schema", "json_object", "json_object"]),  # refused once, then remembered
        ("tools", ["json_schema", "json_object", "tools", "tools"]),
        ("ignores", ["json_schema", "json_schema"]),  # the JSON read out of prose and a code fence
    ],
)
async def test_auto_steps_down_to_what_the_server_takes_and_reads_the_answer(
    structured: str, expected: list[str]
) -> None:
    with FakeProvider(structured=structured) as provider:
        provider.reply_with(json.dumps(ANSWER), json.dumps(ANSWER))
        chat = OpenAIChat.connect(provider.base_url, "", 5, "fake-model")
        try:
            for _ in range(2):
                answer, tokens_in, tokens_out = await chat.complete_json("Write the profile.", "Go.", schema=PROFILE)
                assert answer == ANSWER and tokens_in > 0 and tokens_out > 0
        finally:
            await chat.aclose()
        assert asked(provider) == expected
        first = provider.requests[0]["body"]["response_format"]
        assert first["json_schema"]["name"] == "profile" and first["json_schema"]["schema"] == PROFILE.schema


async def test_a_fixed_mode_asks_only_for_it_and_prompt_asks_for_nothing() -> None:
    with FakeProvider(structured="ignores") as provider:
        provider.reply_with(json.dumps(ANSWER), json.dumps(ANSWER))
        for mode, want in (("prompt", ""), ("tools", "tools")):
            chat = OpenAIChat.connect(provider.base_url, "", 5, "fake-model", mode)
            try:
                assert (await chat.complete_json("Write the profile.", "Go.", schema=PROFILE))[0] == ANSWER
            finally:
                await chat.aclose()
            assert asked(provider)[-1] == want


@pytest.mark.parametrize(
    "reply",
    [
        '{"profile": "## Preferences\\n- likes green tea", "demoted": [',  # cut short by max_tokens
        'Here: {"profile": "## A", "demoted": [{"x": 1}',  # cut short inside prose: no inner object taken
        "I cannot help with that.",
        '["profile"]',
    ],
)
async def test_an_answer_that_is_not_a_whole_json_object_is_refused(reply: str) -> None:
    with FakeProvider() as provider:
        provider.reply_with(reply)
        chat = OpenAIChat.connect(provider.base_url, "", 5, "fake-model")
        try:
            with pytest.raises(ModelOutputInvalid, match="model answer"):
                await chat.complete_json("Write the profile.", "Go.", schema=PROFILE)
        finally:
            await chat.aclose()


async def test_parse_failures_show_in_the_metrics_and_the_job_result_and_nothing_is_applied(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.reply_with('{"profile": "## Preferences\\n- likes', PROFILE_REPLY)
    async with running(job_settings(tmp_path, redis_url, provider), onnx_embedder) as app:
        await seed(app, "acme", "a1", "a1 prefers answers in French")
        job = await app.jobs.bootstrap.regenerate(Actor("acme", "a1"))
        failed = await wait_for(lambda: app.jobs.service.record("acme", job.key))
        assert failed.state is JobState.FAILED and "model answer" in failed.last_error
        assert (failed.result["parse_failures"], failed.result["parse_failures_model"]) == (1, "fake-model")
        assert (await app.working.profile.get(Actor("acme", "a1"))).revision == 0  # nothing partial applied
        calls = {"tenant": "acme", "model": "fake-model", "outcome": "invalid"}
        assert app.metrics.registry.get_sample_value("memoryd_provider_calls_total", calls) == 1
        tokens = {"tenant": "acme", "model": "fake-model", "direction": "input"}
        assert (app.metrics.registry.get_sample_value("memoryd_provider_tokens_total", tokens) or 0) > 0  # paid for
        again = await app.jobs.bootstrap.regenerate(Actor("acme", "a1"))  # a good answer: applied, none counted
        done = await wait_for(lambda: app.jobs.service.record("acme", again.key))
        assert done.state is JobState.SUCCEEDED and "parse_failures" not in done.result
        assert (await app.working.profile.get(Actor("acme", "a1"))).revision == 1
