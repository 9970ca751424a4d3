"""ConversationService over gRPC: appends, context, forced compaction, the event stream, bad input."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.config import Settings
from memoryd.rpc.client import ConversationServiceStub, MemoryServiceStub, cpb, pb
from memoryd.testing.provider import FakeProvider
from tests.conftest import LiveServer, tenant
from tests.jobs.conftest import job_settings, running, wait_for

T, OTHER = tenant("acme"), tenant("globex")
GOOD = '{"summary": "They planned the garden.", "memories": [], "profile": "## Garden\\n- plans raised beds"}'


@pytest.fixture
def job_env(tmp_path: Path, redis_url: str, provider: FakeProvider) -> Settings:
    return job_settings(tmp_path, redis_url, provider, max_tries=2)


@pytest.fixture
def daemon(job_env: Settings, onnx_embedder: OnnxMiniLMEmbedder) -> Iterator[LiveServer]:
    with LiveServer(job_env, onnx_embedder) as server:
        yield server


def _append(stub: Any, ids: range, **extra: Any) -> cpb.AppendMessagesResponse:
    messages = [
        cpb.MessageInput(
            message_id=f"m{i}",
            role=cpb.ROLE_USER if i % 2 == 0 else cpb.ROLE_ASSISTANT,
            content=f"message {i} about the garden and the raised beds we plan to build",
        )
        for i in ids
    ]
    return stub.AppendMessages(
        cpb.AppendMessagesRequest(agent_id="a1", conversation_id="c1", messages=messages, **extra), metadata=T
    )


def _watch(stub: Any, events: list[cpb.ConversationEvent], stop: threading.Event) -> None:
    call = stub.WatchConversation(
        cpb.WatchConversationRequest(agent_id="a1", conversation_id="c1", from_start=True), metadata=T
    )
    try:
        for reply in call:
            events.append(reply.event)
            if stop.is_set():
                break
    except grpc.RpcError as err:
        assert err.code() == grpc.StatusCode.CANCELLED
    finally:
        call.cancel()


async def test_forced_compaction_failure_then_success_streams_every_event(
    daemon: LiveServer, job_env: Settings, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.reply_with('{"summary": ""}', GOOD, GOOD)
    with grpc.insecure_channel(f"127.0.0.1:{daemon.port}") as channel:
        stub = ConversationServiceStub(channel)
        appended = _append(stub, range(12), context_window_tokens=300)
        assert list(appended.seqs) == list(range(1, 13)) and not appended.compaction_job_id  # far below threshold
        events: list[cpb.ConversationEvent] = []
        stop = threading.Event()
        watcher = threading.Thread(target=_watch, args=(stub, events, stop), daemon=True)
        watcher.start()
        async with running(job_env, onnx_embedder):
            failing = stub.Compact(cpb.CompactRequest(agent_id="a1", conversation_id="c1"), metadata=T).job_id
            assert failing == "compact:c1:12:force"
            while not any(e.kind == "compaction_failed" for e in events):
                await asyncio.sleep(0.05)
            _append(stub, range(12, 14))
            stub.Compact(cpb.CompactRequest(agent_id="a1", conversation_id="c1"), metadata=T)
            while not any(e.kind == "compaction_finished" for e in events):
                await asyncio.sleep(0.05)
        stop.set()
        kinds = [e.kind for e in events]
        assert kinds[:2] == ["compaction_started", "compaction_failed"] and "ModelOutputInvalid" in events[1].message
        finished = next(e for e in events if e.kind == "compaction_finished")
        assert finished.path == "model" and finished.summarized_messages > 0
        assert finished.tokens_out == 2 * (len(GOOD) // 4 + 1) and finished.tokens_in > finished.tokens_out
        ctx = stub.GetContext(
            cpb.GetContextRequest(agent_id="a1", conversation_id="c1", context_window_tokens=2000), metadata=T
        )
        kinds = [m.kind for m in ctx.messages]
        assert kinds[0] == "profile" and "summary" in kinds and kinds[-1] == "message"
        assert ctx.total_tokens == sum(m.token_count for m in ctx.messages) <= 2000
        assert ctx.strategy == cpb.STRATEGY_ACCUMULATE and ctx.encoding == "o200k_base"
        summary = next(m for m in ctx.messages if m.kind == "summary")
        assert "They planned the garden." in summary.content and summary.content.startswith("[20")


def test_conversation_rpcs_reject_bad_input_and_other_tenants(daemon: LiveServer) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{daemon.port}") as channel:
        stub = ConversationServiceStub(channel)
        _append(stub, range(2))
        bad = [
            (
                cpb.AppendMessagesRequest(
                    agent_id="a1",
                    conversation_id="c 1",
                    messages=[cpb.MessageInput(message_id="x", role=cpb.ROLE_USER)],
                ),
                "conversation_id",
            ),
            (cpb.AppendMessagesRequest(agent_id="a1", conversation_id="c1"), "messages"),
            (
                cpb.AppendMessagesRequest(
                    agent_id="a1",
                    conversation_id="c1",
                    messages=[cpb.MessageInput(message_id="m 1", role=cpb.ROLE_USER)],
                ),
                "messages[0].message_id",
            ),
            (
                cpb.AppendMessagesRequest(
                    agent_id="a1", conversation_id="c1", messages=[cpb.MessageInput(message_id="x")]
                ),
                "messages[0].role",
            ),
            (
                cpb.AppendMessagesRequest(
                    agent_id="a1", conversation_id="c1", messages=[cpb.MessageInput(message_id="x", role=cpb.ROLE_TOOL)]
                ),
                "messages[0].tool_name",
            ),
            (
                cpb.AppendMessagesRequest(
                    agent_id="a1",
                    conversation_id="c1",
                    context_window_tokens=10,
                    messages=[cpb.MessageInput(message_id="x", role=cpb.ROLE_USER)],
                ),
                "context_window_tokens",
            ),
            (
                cpb.AppendMessagesRequest(
                    agent_id="a1",
                    conversation_id="c1",
                    options=cpb.ConversationOptions(window_messages=0),
                    messages=[cpb.MessageInput(message_id="x", role=cpb.ROLE_USER)],
                ),
                "options.window_messages",
            ),
        ]
        for request, field in bad:
            with pytest.raises(grpc.RpcError) as err:
                stub.AppendMessages(request, metadata=T)
            assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and field in (err.value.details() or "")
        with pytest.raises(grpc.RpcError) as err:
            stub.GetContext(cpb.GetContextRequest(agent_id="a1", conversation_id="c1"), metadata=T)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "context_window_tokens" in (
            err.value.details() or ""
        )
        for metadata, agent in ((OTHER, "a1"), (T, "a2")):  # another tenant, another agent: not visible
            with pytest.raises(grpc.RpcError) as err:
                stub.GetContext(
                    cpb.GetContextRequest(agent_id=agent, conversation_id="c1", context_window_tokens=1000),
                    metadata=metadata,
                )
            assert err.value.code() == grpc.StatusCode.NOT_FOUND
        for agent, contact in (("a2", ""), ("a1", "omar")):  # another agent's or contact's id is taken, not missing
            with pytest.raises(grpc.RpcError) as err:
                stub.AppendMessages(
                    cpb.AppendMessagesRequest(
                        agent_id=agent,
                        end_user_id=contact,
                        conversation_id="c1",
                        messages=[cpb.MessageInput(message_id="m9", role=cpb.ROLE_USER, content="hello")],
                    ),
                    metadata=T,
                )
            assert err.value.code() == grpc.StatusCode.ALREADY_EXISTS
            assert "conversation_id 'c1'" in (err.value.details() or "") and "choose another id" in (
                err.value.details() or ""
            )
        ctx = stub.GetContext(
            cpb.GetContextRequest(agent_id="a1", conversation_id="c1", context_window_tokens=1000), metadata=T
        )
        assert [m.seq for m in ctx.messages if m.kind == "message"] == [1, 2]  # nothing changed


def test_a_message_id_reused_for_another_message_is_refused_and_a_true_retry_counted_once(daemon: LiveServer) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{daemon.port}") as channel:
        stub = ConversationServiceStub(channel)
        _append(stub, range(2))
        retry = _append(stub, range(2))  # a retry after a lost reply: nothing new
        assert retry.duplicates == 2
        other = cpb.MessageInput(message_id="m1", role=cpb.ROLE_ASSISTANT, content="something else entirely")
        with pytest.raises(grpc.RpcError) as err:
            stub.AppendMessages(
                cpb.AppendMessagesRequest(agent_id="a1", conversation_id="c1", messages=[other]), metadata=T
            )
        assert err.value.code() == grpc.StatusCode.ALREADY_EXISTS and "'m1'" in (err.value.details() or "")
        twice = [cpb.MessageInput(message_id="m7", role=cpb.ROLE_USER, content=text) for text in ("yes", "no")]
        with pytest.raises(grpc.RpcError) as err:
            stub.AppendMessages(
                cpb.AppendMessagesRequest(agent_id="a1", conversation_id="c1", messages=twice), metadata=T
            )
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "messages[1].message_id" in (
            err.value.details() or ""
        )
        ctx = stub.GetContext(
            cpb.GetContextRequest(agent_id="a1", conversation_id="c1", context_window_tokens=1000), metadata=T
        )
        kept = [m.content for m in ctx.messages if m.kind == "message"]
        assert len(kept) == 2 and kept[1].startswith("message 1 about the garden")


async def test_end_session_summarises_the_whole_tail_and_files_the_session(
    daemon: LiveServer, job_env: Settings, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.reply_with(GOOD, GOOD)
    with grpc.insecure_channel(f"127.0.0.1:{daemon.port}") as channel:
        stub, memory = ConversationServiceStub(channel), MemoryServiceStub(channel)
        _append(stub, range(6))
        for metadata, agent in ((OTHER, "a1"), (T, "a2")):  # another tenant's or agent's conversation: not found
            with pytest.raises(grpc.RpcError) as err:
                stub.EndSession(cpb.EndSessionRequest(agent_id=agent, conversation_id="c1"), metadata=metadata)
            assert err.value.code() == grpc.StatusCode.NOT_FOUND
        async with running(job_env, onnx_embedder) as app:
            job_id = stub.EndSession(cpb.EndSessionRequest(agent_id="a1", conversation_id="c1"), metadata=T).job_id
            assert job_id == "compact:c1:6:end"
            done = await wait_for(lambda: app.jobs.service.record("acme", job_id), timeout=60)
            assert done.state.value == "succeeded" and done.result["summarized_messages"] == 6, done.last_error
        ctx = stub.GetContext(
            cpb.GetContextRequest(agent_id="a1", conversation_id="c1", context_window_tokens=2000), metadata=T
        )
        assert [m.kind for m in ctx.messages if m.kind in ("message", "summary")] == ["summary"]
        listed = memory.ListMemories(pb.ListMemoriesRequest(agent_id="a1", page_size=50), metadata=T).memories
        session = [m for m in listed if m.category == "conversation summary"]
        assert len(session) == 1 and "They planned the garden." in session[0].content
        assert session[0].source_context == "conversation c1 summary 1-6"
