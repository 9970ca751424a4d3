"""An agent applies its own review's findings where the tenant allows it (review.agents_apply), else not."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.client import MemoryClient, PermissionDenied
from memoryd.config import Settings
from memoryd.core.keys import Role
from memoryd.rpc.client import AuditServiceStub, JobServiceStub, apb, jpb, pb
from tests.conftest import LiveServer
from tests.e2e.test_lost_replies import DropFirstReply
from tests.jobs.conftest import job_settings, running

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def env(tmp_path: Path, redis_url: str) -> Settings:
    return job_settings(tmp_path, redis_url, None)


@pytest.fixture
def daemon(env: Settings, onnx_embedder: OnnxMiniLMEmbedder) -> Iterator[LiveServer]:
    with LiveServer(env, onnx_embedder) as server:
        yield server


async def test_an_agent_key_applies_its_own_findings_only_where_the_tenant_allows(
    daemon: LiveServer, env: Settings, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    _, agent = daemon.key("acme", Role.AGENT, "a1", "a1's runtime")
    _, operator = daemon.key("acme", Role.OPERATOR, "", "ops")
    target = f"127.0.0.1:{daemon.port}"
    with MemoryClient(target, api_key=agent) as a1, MemoryClient(target, api_key=operator) as ops:
        twins = [pb.MemoryInput(content="The VPN needs a hardware key")] * 2
        a1.memorize_batch("a1", twins, skip_deduplication=True)
        audits, jobs = AuditServiceStub(a1.channel), JobServiceStub(ops.channel)
        job_id = audits.ReviewMemories(apb.ReviewMemoriesRequest(agent_id="a1"), metadata=a1.metadata).job_id
        async with running(env, onnx_embedder):
            events = await asyncio.to_thread(
                lambda: list(jobs.WatchJob(jpb.WatchJobRequest(job_id=job_id), metadata=ops.metadata, timeout=60))
            )
        assert events[-1].event.state == jpb.JOB_STATE_SUCCEEDED
        review = a1.call(audits.GetReview, apb.GetReviewRequest(agent_id="a1", review_id=job_id))
        merge = next(f for f in review.findings if f.kind == apb.FINDING_KIND_DUPLICATE)
        apply = apb.ApplyFindingsRequest(agent_id="a1", review_id=job_id, finding_ids=[merge.finding_id])
        with pytest.raises(PermissionDenied, match=r"review\.agents_apply"):
            a1.call(audits.ApplyFindings, apply)
        both = pb.RecallFilter(statuses=[pb.MEMORY_STATUS_ACTIVE, pb.MEMORY_STATUS_SUPERSEDED])
        assert [m.status for m in a1.list("a1", where=both)] == [pb.MEMORY_STATUS_ACTIVE] * 2
        ops.set_config("", {"review.agents_apply": True})
        dropping = DropFirstReply("ApplyFindings")  # the first reply is lost: the client applies it again
        lossy = AuditServiceStub(grpc.intercept_channel(a1.channel, dropping))
        applied = a1.call(lossy.ApplyFindings, apply)
        assert dropping.dropped == ["ApplyFindings"]
        assert applied.findings[0].status == apb.FINDING_STATUS_APPLIED
        statuses = sorted(m.status for m in a1.list("a1", where=both))
    assert statuses == sorted([pb.MEMORY_STATUS_ACTIVE, pb.MEMORY_STATUS_SUPERSEDED])
