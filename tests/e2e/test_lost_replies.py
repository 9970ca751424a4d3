"""A write whose reply is lost, retried by the Python client: nothing is counted or stored twice.

The interceptor lets each chosen call reach the daemon and complete, then drops its reply as a
network would (UNAVAILABLE); the client retries on its own with the request id it attached.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import grpc
import pytest

from memoryd.client import Aborted, MemoryClient
from memoryd.rpc.client import GraphServiceStub, gr, pb
from tests.conftest import LiveServer


class _Dropped(grpc.RpcError, grpc.Call):
    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.UNAVAILABLE

    def details(self) -> str:
        return "the reply was lost on the way back (test interceptor)"

    def trailing_metadata(self) -> tuple[()]:
        return ()


if TYPE_CHECKING:  # generic in the stubs only
    _Interceptor = grpc.UnaryUnaryClientInterceptor[Any, Any]
else:
    _Interceptor = grpc.UnaryUnaryClientInterceptor


class DropFirstReply(_Interceptor):
    """Each method named runs to completion on the daemon once, and its first reply never arrives."""

    def __init__(self, *methods: str) -> None:
        self.waiting = set(methods)
        self.dropped: list[str] = []

    def intercept_unary_unary(
        self, continuation: Callable[..., Any], details: grpc.ClientCallDetails, request: Any
    ) -> Any:
        outcome = continuation(details, request)
        name = details.method.rsplit("/", 1)[-1]
        if name in self.waiting:
            outcome.result()  # the daemon did the work
            self.waiting.discard(name)
            self.dropped.append(name)
            raise _Dropped()
        return outcome


class LossyClient(MemoryClient):
    """The Python client over a channel that loses the first reply of some methods."""

    interceptor = DropFirstReply()

    @staticmethod
    def _open(target: str, credentials: grpc.ChannelCredentials | None) -> grpc.Channel:
        return grpc.intercept_channel(grpc.insecure_channel(target), LossyClient.interceptor)


@pytest.fixture
def lossy(live_server: LiveServer) -> Iterator[tuple[LossyClient, DropFirstReply]]:
    dropping = DropFirstReply(
        "Memorize", "Feedback", "AutoFeedback", "AssertFact", "UpdateMemory", "AppendMessages", "MemorizeBatch"
    )
    LossyClient.interceptor = dropping
    client = LossyClient(f"127.0.0.1:{live_server.port}", tenant="acme", backoff=0.01)
    try:
        yield client, dropping
    finally:
        client.close()


def test_retried_writes_count_and_store_nothing_twice(lossy: tuple[LossyClient, DropFirstReply]) -> None:
    client, dropping = lossy
    stored = client.memorize("a1", "The loading dock opens at 7:00")
    memory_id = stored.memory.id
    batch = client.memorize_batch("a1", [pb.MemoryInput(content="Parcels go out at 16:00")])
    client.feedback("a1", memory_id, pb.FEEDBACK_SIGNAL_USEFUL)
    client.auto_feedback("a1", {memory_id: True, batch[0].memory.id: False})
    client.update("a1", memory_id, content="The loading dock opens at 6:30")
    client.conversations.append("a1", "dock-chat", [("m1", "user", "when does the dock open?")])
    asserted = client.graph.assert_fact("The dock", "opens_at", "6:30", "The dock opens at 6:30.")
    assert sorted(dropping.dropped) == sorted(
        ["Memorize", "MemorizeBatch", "Feedback", "AutoFeedback", "UpdateMemory", "AppendMessages", "AssertFact"]
    )

    listed = client.list("a1")
    assert sorted(m.content for m in listed) == ["Parcels go out at 16:00", "The loading dock opens at 6:30"]
    got = client.get("a1", memory_id)
    assert (got.feedback.useful, got.feedback.used) == (1, 1)
    assert client.get("a1", batch[0].memory.id).feedback.unused == 1
    history = client.call(client._stub.GetMemoryHistory, pb.GetMemoryHistoryRequest(agent_id="a1", memory_id=memory_id))
    kinds = [e.kind for e in history.events]
    assert kinds == ["created", "feedback", "feedback", "updated"]  # useful, then used: one each
    items = client.conversations.context("a1", "dock-chat", context_window_tokens=2000)
    assert [m.content for m in items.messages].count("when does the dock open?") == 1
    assert asserted.fact.mention_count == 1
    again = client.graph.assert_fact("The dock", "opens_at", "6:30", "The dock opens at 6:30.")
    assert again.fact.mention_count == 2  # a new call (a new request id) is a second mention
    assert isinstance(asserted, gr.AssertFactResponse)


def test_retried_compare_and_swap_writes_apply_once_and_a_retried_forget_is_done(live_server: LiveServer) -> None:
    dropped = ["Forget", "EditProfile", "SetTenantConfig", "SetAgentConfig", "RestoreMemory", "UpdateFact"]
    LossyClient.interceptor = DropFirstReply(*dropped)
    with LossyClient(f"127.0.0.1:{live_server.port}", tenant="acme", backoff=0.01) as client:
        kept = client.memorize("a1", "The loading dock opens at 7:00").memory.id
        gone = client.memorize("a1", "Parcels go out at 16:00").memory.id
        assert client.forget("a1", gone) == gone  # the retry finds it gone: the lost reply's success
        assert [m.id for m in client.list("a1")] == [kept]
        with pytest.raises(Aborted):  # the retry's revision is stale: refused, nothing applied twice
            client.edit_profile("a1", "- answer briefly", section="Style")
        profile = client.get_profile("a1")
        assert profile.revision == 1 and profile.document.count("- answer briefly") == 1
        with pytest.raises(Aborted):
            client.set_config("", {"recall.limit": 7})
        assert client.effective_config()["recall.limit"] == (7, "tenant")
        with pytest.raises(Aborted):
            client.set_config("a1", {"recall.limit": 5})
        assert client.effective_config("a1")["recall.limit"] == (5, "agent")
        client.feedback("a1", kept, pb.FEEDBACK_SIGNAL_CORRECTION, correction="The loading dock opens at 6:00")
        restore = pb.RestoreMemoryRequest(agent_id="a1", memory_id=kept)
        restored = client.call(client._stub.RestoreMemory, restore)  # the retry finds it active: nothing to do
        assert restored.memory.status == pb.MEMORY_STATUS_ACTIVE
        history = client.call(client._stub.GetMemoryHistory, pb.GetMemoryHistoryRequest(agent_id="a1", memory_id=kept))
        assert [e.kind for e in history.events].count("restored") == 1
        fact = client.graph.assert_fact("The dock", "opens_at", "6:00", "The dock opens at 6:00.").fact
        pin = gr.UpdateFactRequest(fact_id=fact.id, pinned=True)
        pinned = client.call(GraphServiceStub(client.channel).UpdateFact, pin)  # the last value, once more
        assert pinned.fact.pinned and pinned.fact.mention_count == 1
    assert LossyClient.interceptor.dropped == dropped
