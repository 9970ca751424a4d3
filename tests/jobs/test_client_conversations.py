"""The Python clients' working memory against a daemon and its workers: append, compact, end, list, watch."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.client import AsyncMemoryClient, MemoryClient, NotFound
from memoryd.client.conversations import Message
from memoryd.config import Settings
from memoryd.rpc.client import cpb
from tests.conftest import LiveServer
from tests.jobs.conftest import job_settings, running, wait_for


@pytest.fixture
def job_env(tmp_path: Path, redis_url: str) -> Settings:
    return job_settings(tmp_path, redis_url, None)  # no model: extractive summaries


@pytest.fixture
def daemon(job_env: Settings, onnx_embedder: OnnxMiniLMEmbedder) -> Iterator[LiveServer]:
    with LiveServer(job_env, onnx_embedder) as server:
        yield server


def _turns(conversation: str, count: int) -> list[tuple[str, str, str]]:
    topic = "about the garden and the raised beds we plan to build this spring"
    return [(f"{conversation}-{i}", "user" if i % 2 == 0 else "assistant", f"turn {i} {topic}") for i in range(count)]


async def test_the_sync_client_compacts_ends_lists_and_watches_a_conversation(
    daemon: LiveServer, job_env: Settings, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    with MemoryClient(f"127.0.0.1:{daemon.port}", tenant="acme") as memory:
        talk = memory.conversations
        appended = talk.append("a1", "c1", _turns("c1", 12), context_window_tokens=300)
        assert list(appended.seqs) == list(range(1, 13)) and not appended.compaction_job_id  # below the threshold
        with pytest.raises(ValueError, match="'robot' is not one of user, assistant, system, tool"):
            talk.append("a1", "c1", [("x", "robot", "hello")])
        with pytest.raises(NotFound):
            talk.compact("a1", "no-such-conversation")
        async with running(job_env, onnx_embedder) as app:
            compacting = talk.compact("a1", "c1")
            assert compacting == "compact:c1:12:force"
            await wait_for(lambda: app.jobs.service.record("acme", compacting), timeout=60)
            talk.append("a1", "c1", _turns("c1", 14))  # two more turns; the first twelve are counted once
            ending = talk.end_session("a1", "c1")
            assert ending == "compact:c1:14:end"
            ended = await wait_for(lambda: app.jobs.service.record("acme", ending), timeout=60)
            assert ended.state.value == "succeeded", ended.last_error
        events = list(talk.watch("a1", "c1", from_start=True, timeout=2))
        assert [(e.kind, e.job_id) for e in events if e.kind != "compaction_started"] == [
            ("compaction_finished", compacting),
            ("compaction_finished", ending),
        ]
        [summary] = list(talk.list("a1"))
        assert (summary.conversation_id, summary.messages, summary.compacted_through) == ("c1", 14, 14)
        context = talk.context("a1", "c1", 2000)
        assert [m.kind for m in context.messages if m.kind in ("message", "summary")] == ["summary", "summary"]


def test_a_conversation_s_options_are_set_with_its_first_append(daemon: LiveServer) -> None:
    with MemoryClient(f"127.0.0.1:{daemon.port}", tenant="acme") as memory:
        talk = memory.conversations
        window = {"strategy": "buffer_window", "window_messages": 4}
        talk.append("a1", "short", _turns("short", 12), context_window_tokens=4000, options=window)
        talk.append("a1", "long", _turns("long", 12), context_window_tokens=4000)
        kept = [m.content for m in talk.context("a1", "short", 4000).messages if m.kind == "message"]
        assert kept == [text for _, _, text in _turns("short", 12)[-4:]]
        assert len([m for m in talk.context("a1", "long", 4000).messages if m.kind == "message"]) == 12
        with pytest.raises(TypeError, match=r"has no field 'options\.window_message'; did you mean 'window_messages'"):
            talk.append("a1", "short", _turns("short", 1), options={"window_message": 4})
        with pytest.raises(ValueError, match=r"strategy: 'forever' is not one of buffer_window"):
            talk.append("a1", "short", _turns("short", 1), options={"strategy": "forever"})
        said: list[Message] = [{"message_id": "d1", "role": "user", "content": "my locker is 1042"}]
        said.append(("d2", "assistant", "noted"))
        said.append({"message_id": "d3", "role": "tool", "content": "{}", "tool_call_id": "c7", "tool_name": "lookup"})
        assert list(talk.append("a1", "mixed", said).seqs) == [1, 2, 3]  # a model's message with its id, or a triple
        assert [(m.role, m.content) for m in talk.context("a1", "mixed", 4000).messages if m.kind == "message"] == [
            (cpb.ROLE_USER, "my locker is 1042"),
            (cpb.ROLE_ASSISTANT, "noted"),
            (cpb.ROLE_TOOL, "{}"),
        ]


async def test_the_async_client_has_the_same_working_memory(
    daemon: LiveServer, job_env: Settings, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    async with AsyncMemoryClient(f"127.0.0.1:{daemon.port}", tenant="acme") as memory:
        talk = memory.conversations
        for contact in ("ida", "omar"):
            options = {"auto_recall": True, "storage_scope": "conversational"}
            await talk.append("a1", f"with-{contact}", _turns(contact, 6), end_user_id=contact, options=options)
        with pytest.raises(NotFound):  # a contact's conversation is found only serving that contact
            await talk.end_session("a1", "with-ida")
        async with running(job_env, onnx_embedder) as app:
            job = await talk.end_session("a1", "with-ida", end_user_id="ida")
            await wait_for(lambda: app.jobs.service.record("acme", job), timeout=60)
        kinds = [e.kind async for e in talk.watch("a1", "with-ida", end_user_id="ida", from_start=True, timeout=2)]
        assert kinds == ["compaction_started", "compaction_finished"]
        assert [c.conversation_id async for c in talk.list("a1", end_user_id="ida")] == ["with-ida"]
        everyone = [c.end_user_id async for c in talk.list("a1", all_contacts=True, page_size=1)]  # two pages
        assert sorted(everyone) == ["ida", "omar"]
        context = await talk.context("a1", "with-ida", 2000, end_user_id="ida")
        assert [m.kind for m in context.messages if m.kind in ("message", "summary")] == ["summary"]
        filed = [m.content async for m in memory.list("a1", end_user_id="ida")]  # storage_scope conversational
        assert sorted(filed) == sorted(f"user: {text}" for _, role, text in _turns("ida", 6) if role == "user")
