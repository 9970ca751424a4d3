"""A memory's history and the served log, end to end: MCP, gRPC with keys, a review job, LanceDB, Valkey."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.config import Settings
from memoryd.core.keys import Role
from memoryd.rpc.client import AuditServiceStub, JobServiceStub, MemoryServiceStub, apb, jpb, pb
from tests.conftest import LiveServer
from tests.jobs.conftest import job_settings, running
from tests.mcp_stdio import mcp_session

pytestmark = pytest.mark.timeout(180)

FACT = "The VPN needs a hardware key"


@pytest.fixture
def env(tmp_path: Path, redis_url: str) -> Settings:
    return job_settings(tmp_path, redis_url, None)  # no model: the review's rules alone propose the merge


@pytest.fixture
def daemon(env: Settings, onnx_embedder: OnnxMiniLMEmbedder) -> Iterator[LiveServer]:
    with LiveServer(env, onnx_embedder) as server:
        yield server


def bearer(token: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")]


async def memorized_through_mcp(port: int, token: str) -> str:
    async with mcp_session(port, token) as session:
        stored = await session.call_tool("memorize", {"content": FACT})
        assert not stored.is_error, stored.content
        assert isinstance(stored.structured_content, dict)
        return str(stored.structured_content["id"])


async def test_a_memorys_history_tells_its_story_and_the_served_log_its_two_recalls(
    daemon: LiveServer, env: Settings, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    agent_key, agent = daemon.key("acme", Role.AGENT, "a1", "a1's runtime")
    admin_key, admin = daemon.key("acme", Role.ADMIN, "", "the operator")
    mine = await memorized_through_mcp(daemon.port, agent)
    with grpc.insecure_channel(f"127.0.0.1:{daemon.port}") as channel:
        memory, audits, jobs = MemoryServiceStub(channel), AuditServiceStub(channel), JobServiceStub(channel)
        restated = memory.Memorize(
            pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content=FACT + "."), request_id="restate-1"),
            metadata=bearer(agent),
        )
        assert restated.deduplicated and restated.memory.id == mine
        # A shared twin: the review's merge keeps the wider memory and supersedes the MCP one.
        twin = pb.MemoryInput(content=FACT, scope=pb.SCOPE_SHARED)
        memory.MemorizeBatch(
            pb.MemorizeBatchRequest(agent_id="a1", items=[twin], skip_deduplication=True), metadata=bearer(agent)
        )
        job_id = audits.ReviewMemories(apb.ReviewMemoriesRequest(agent_id="a1"), metadata=bearer(agent)).job_id
        async with running(env, onnx_embedder):
            events = await asyncio.to_thread(
                lambda: list(jobs.WatchJob(jpb.WatchJobRequest(job_id=job_id), metadata=bearer(admin), timeout=60))
            )
        assert events[-1].event.state == jpb.JOB_STATE_SUCCEEDED, events[-1].event.message
        review = audits.GetReview(apb.GetReviewRequest(agent_id="a1", review_id=job_id), metadata=bearer(agent))
        merge = next(f for f in review.findings if f.kind == apb.FINDING_KIND_DUPLICATE)
        assert mine in merge.memory_ids and merge.survivor_id != mine
        audits.ApplyFindings(
            apb.ApplyFindingsRequest(agent_id="a1", review_id=job_id, finding_ids=[merge.finding_id]),
            metadata=bearer(admin),
        )
        memory.RestoreMemory(pb.RestoreMemoryRequest(agent_id="a1", memory_id=mine), metadata=bearer(admin))
        memory.Feedback(
            pb.FeedbackRequest(agent_id="a1", memory_id=mine, signal=pb.FEEDBACK_SIGNAL_USEFUL), metadata=bearer(agent)
        )
        for _ in range(2):
            hits = memory.Recall(pb.RecallRequest(agent_id="a1", query="VPN hardware key"), metadata=bearer(agent)).hits
            assert mine in [h.memory.id for h in hits]
        history = memory.GetMemoryHistory(
            pb.GetMemoryHistoryRequest(agent_id="a1", memory_id=mine), metadata=bearer(agent)
        )
        servings = audits.ListServings(apb.ListServingsRequest(item_id=mine), metadata=bearer(admin)).servings

    story = [(e.kind, e.key_id, e.via) for e in history.events]
    assert story == [
        ("created", agent_key.key_id, "MemoryService/Memorize"),
        ("merged", agent_key.key_id, "MemoryService/Memorize"),
        ("superseded", admin_key.key_id, "AuditService/ApplyFindings"),
        ("restored", admin_key.key_id, "MemoryService/RestoreMemory"),
        ("feedback", agent_key.key_id, "MemoryService/Feedback"),
        ("served", agent_key.key_id, "MemoryService/Recall"),
        ("served", agent_key.key_id, "MemoryService/Recall"),
    ]
    created, merged, superseded, restored, feedback = history.events[:5]
    assert created.role == "agent" and created.agent_id == "a1"
    assert merged.request_id == "restate-1" and merged.detail["restatement"] == FACT + "."
    assert superseded.role == "admin" and superseded.detail["review_id"] == job_id
    assert (
        superseded.detail["finding_id"] == merge.finding_id and superseded.detail["superseded_by"] == merge.survivor_id
    )
    assert restored.detail["status"] == "superseded" and feedback.detail["signal"] == "useful"
    assert history.servings_total == 2
    assert [(s.key_id, s.agent_id, s.via, s.item_kind) for s in servings] == [
        (agent_key.key_id, "a1", "MemoryService/Recall", "memory")
    ] * 2
    assert all(s.rank >= 1 and s.score > 0 for s in servings)
