"""The Prometheus endpoint, scraped after real calls to a real daemon."""

from __future__ import annotations

import socket
import urllib.request

import grpc
import pytest

from memoryd.rpc.client import ConversationServiceStub, MemoryServiceStub, cpb, pb
from tests.conftest import LiveServer, tenant

T = tenant("acme")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one series in a scrape (0 when absent)."""
    for line in text.splitlines():
        if line.startswith(name + "{") or line.startswith(name + " "):
            have = line[len(name) :].split(" ")[0]
            if all(f'{k}="{v}"' in have for k, v in labels.items()):
                return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_metrics_count_calls_statuses_writes_recalls_and_the_embedder(
    live_server: LiveServer, stub: MemoryServiceStub
) -> None:
    assert live_server.app is not None
    port = free_port()
    live_server.app.metrics.serve("127.0.0.1", port)
    for text in ("espresso machine on floor 3", "green tea in the kitchen"):
        stub.Memorize(pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content=text)), metadata=T)
    stub.Memorize(
        pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="espresso machine on floor 3")), metadata=T
    )
    stub.Recall(pb.RecallRequest(agent_id="a1", query="espresso"), metadata=T)
    with pytest.raises(grpc.RpcError):
        stub.Recall(pb.RecallRequest(agent_id="a1", query=""), metadata=T)

    assert live_server.app.maintenance is not None
    live_server.run(live_server.app.maintenance.maintain(full=True))  # what the maintenance loop does every 30 s

    scrape = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    assert sample(scrape, "memoryd_table_rows", kind="memories") == 2  # two stored, one merged into the first
    assert sample(scrape, "memoryd_table_versions", kind="memories") >= 2

    rpc = "rpc_server_duration_seconds_count"
    memory = {"rpc_system": "grpc", "rpc_service": "memoryd.v1.MemoryService"}
    assert sample(scrape, rpc, rpc_method="Memorize", rpc_grpc_status_code="OK", **memory) == 3
    assert sample(scrape, rpc, rpc_method="Recall", rpc_grpc_status_code="OK", **memory) == 1
    assert sample(scrape, rpc, rpc_method="Recall", rpc_grpc_status_code="INVALID_ARGUMENT", **memory) == 1
    assert sample(scrape, "memoryd_memories_written_total", outcome="stored") == 2
    assert sample(scrape, "memoryd_memories_written_total", outcome="deduplicated") == 1
    assert sample(scrape, "memoryd_recalls_total", degraded="false") == 1
    assert sample(scrape, "memoryd_recall_hits_total") >= 1
    assert sample(scrape, "memoryd_embedder_duration_seconds_count", outcome="ok") >= 3
    assert "acme" not in scrape  # no tenant in any label


def test_get_context_counts_its_fill_auto_recall_hits_and_misses(
    live_server: LiveServer, channel: grpc.Channel
) -> None:
    assert live_server.app is not None
    port = free_port()
    live_server.app.metrics.serve("127.0.0.1", port)
    memory, conversations = MemoryServiceStub(channel), ConversationServiceStub(channel)
    espresso = pb.MemoryInput(content="Caroline takes her espresso without sugar")
    memory.Memorize(pb.MemorizeRequest(agent_id="a1", memory=espresso), metadata=T)
    for conversation, text in (("hit", "How does Caroline take her espresso?"), ("miss", "Book the meeting room")):
        ask = cpb.MessageInput(message_id="m1", role=cpb.ROLE_USER, content=text)
        options = cpb.ConversationOptions(auto_recall=True)
        conversations.AppendMessages(
            cpb.AppendMessagesRequest(agent_id="a1", conversation_id=conversation, messages=[ask], options=options),
            metadata=T,
        )
        context = conversations.GetContext(
            cpb.GetContextRequest(agent_id="a1", conversation_id=conversation, context_window_tokens=4000), metadata=T
        )
        assert any(m.kind == "memory" for m in context.messages) == (conversation == "hit")
    scrape = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    assert sample(scrape, "memoryd_auto_recalls_total", outcome="hit") == 1
    assert sample(scrape, "memoryd_auto_recalls_total", outcome="miss") == 1
    assert sample(scrape, "memoryd_auto_recalled_memories_total") == 1
    assert sample(scrape, "memoryd_context_fill_ratio_count") == 2
    assert sample(scrape, "memoryd_context_fill_ratio_bucket", le="0.1") == 2  # a few dozen tokens of 4,000
    assert sample(scrape, "memoryd_graph_blocks_total", unit="blocks") == 0
