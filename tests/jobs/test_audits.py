"""review_memories and usage reports against the real parts: gRPC, LanceDB, Valkey + arq, the scriptable provider."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import grpc
import pytest
from pydantic import SecretStr

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import build_app
from memoryd.config import Settings
from memoryd.core.job_records import SYSTEM_TENANT, JobKind, JobState
from memoryd.rpc.client import AuditServiceStub, JobServiceStub, MemoryServiceStub, apb, jpb, pb
from memoryd.testing.provider import FakeProvider
from memoryd.workers.settings import running_workers
from tests.conftest import LiveServer, tenant
from tests.fakes import FrozenClock
from tests.jobs.conftest import job_settings, running, seed, wait_for

T = tenant("acme")
PLANTED = {
    "dup_a": ("The VPN needs a hardware key", ["ops"]),
    "dup_b": ("The VPN needs a hardware key", ["security"]),
    "fix_a": ("The customer order number is 48213 for the blue chairs", []),
    "fix_b": ("The customer order number is 99017 for the blue chairs", []),
    "junk": ("thanks!", []),
    "fine": ("Priya leads the search team in Lisbon", []),
}


def keep_everything(system: str, user: str) -> str:
    """A model that confirms each finding and keeps it (deterministic, whatever the order of calls)."""
    asked = re.findall(r"Finding ([0-9a-f]{32}) \((\w+)\)", system)
    return json.dumps(
        {"verdicts": [{"finding_id": f, "confirm": kind != "clutter", "action": "keep"} for f, kind in asked]}
    )


@pytest.fixture
def env(tmp_path: Path, redis_url: str, provider: FakeProvider) -> Settings:
    return job_settings(tmp_path, redis_url, provider, audits={"findings_per_call": 1})


@pytest.fixture
def daemon(env: Settings, onnx_embedder: OnnxMiniLMEmbedder) -> Iterator[LiveServer]:
    with LiveServer(env, onnx_embedder) as server:
        yield server


def plant(memory: MemoryServiceStub) -> dict[str, str]:
    items = [pb.MemoryInput(content=text, tags=tags) for text, tags in PLANTED.values()]
    reply = memory.MemorizeBatch(
        pb.MemorizeBatchRequest(agent_id="a1", items=items, skip_deduplication=True), metadata=T
    )
    return {name: r.memory.id for name, r in zip(PLANTED, reply.results, strict=True)}


async def reviewed(channel: grpc.Channel, env: Settings, embedder: OnnxMiniLMEmbedder) -> apb.GetReviewResponse:
    audits, jobs = AuditServiceStub(channel), JobServiceStub(channel)
    job_id = audits.ReviewMemories(apb.ReviewMemoriesRequest(agent_id="a1"), metadata=T).job_id
    async with running(env, embedder):
        events = await asyncio.to_thread(
            lambda: list(jobs.WatchJob(jpb.WatchJobRequest(job_id=job_id), metadata=T, timeout=60))
        )
    assert events[-1].event.state == jpb.JOB_STATE_SUCCEEDED, events[-1].event.message
    return audits.GetReview(apb.GetReviewRequest(agent_id="a1", review_id=job_id), metadata=T)


async def test_a_review_finds_the_planted_problems_and_applying_never_deletes(
    daemon: LiveServer, env: Settings, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.answer_with(keep_everything)
    with grpc.insecure_channel(f"127.0.0.1:{daemon.port}") as channel:
        memory, audits = MemoryServiceStub(channel), AuditServiceStub(channel)
        ids = plant(memory)
        got = await reviewed(channel, env, onnx_embedder)
        kinds = {f.kind: set(f.memory_ids) for f in got.findings}
        assert kinds[apb.FINDING_KIND_DUPLICATE] == {ids["dup_a"], ids["dup_b"]}
        assert kinds[apb.FINDING_KIND_CONTRADICTION] == {ids["fix_a"], ids["fix_b"]}
        assert kinds[apb.FINDING_KIND_CLUTTER] == {ids["junk"]}
        assert got.review.memories_reviewed == 6 and got.review.model_calls == len(got.findings)
        assert all(f.source == apb.FINDING_SOURCE_MODEL for f in got.findings)
        # Nothing changed by the review itself.
        listed = memory.ListMemories(pb.ListMemoriesRequest(agent_id="a1", page_size=50), metadata=T).memories
        assert len(listed) == 6
        # The model's verdict (keep) replaces the rules' proposal (merge): applying it all leaves every memory active.
        dup = next(f for f in got.findings if f.kind == apb.FINDING_KIND_DUPLICATE)
        assert dup.action == apb.FINDING_ACTION_KEEP
        applied = audits.ApplyFindings(
            apb.ApplyFindingsRequest(agent_id="a1", review_id=got.review.review_id), metadata=T
        )
        assert {f.status for f in applied.findings} <= {apb.FINDING_STATUS_APPLIED, apb.FINDING_STATUS_REJECTED}
        listed = memory.ListMemories(pb.ListMemoriesRequest(agent_id="a1", page_size=50), metadata=T).memories
        assert {m.id for m in listed} == set(ids.values())
        report = audits.GetUsageReport(apb.GetUsageReportRequest(), metadata=T).report
        assert report.memories == 6 and report.by_status == {"active": 6} and report.retrievals == 0
        assert report.duplicate_share == pytest.approx(2 / 6) and [a.agent_id for a in report.agents] == ["a1"]


async def test_merge_supersedes_recall_drops_the_loser_and_restore_brings_it_back(
    daemon: LiveServer, env: Settings, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{daemon.port}") as channel:
        memory, audits = MemoryServiceStub(channel), AuditServiceStub(channel)
        plant(memory)
        got = await reviewed(
            channel,
            env.model_copy(update={"provider": env.provider.model_copy(update={"extraction_model": ""})}),
            onnx_embedder,
        )  # rules only: no model configured for the worker
        dup = next(f for f in got.findings if f.kind == apb.FINDING_KIND_DUPLICATE)
        assert dup.action == apb.FINDING_ACTION_MERGE and dup.certain and dup.source == apb.FINDING_SOURCE_RULES
        applied = audits.ApplyFindings(
            apb.ApplyFindingsRequest(agent_id="a1", review_id=got.review.review_id, finding_ids=[dup.finding_id]),
            metadata=T,
        )
        assert applied.findings[0].status == apb.FINDING_STATUS_APPLIED
        loser = next(i for i in dup.memory_ids if i != dup.survivor_id)
        survivor = memory.GetMemory(pb.GetMemoryRequest(agent_id="a1", memory_id=dup.survivor_id), metadata=T).memory
        lost = memory.GetMemory(pb.GetMemoryRequest(agent_id="a1", memory_id=loser), metadata=T).memory
        assert survivor.status == pb.MEMORY_STATUS_ACTIVE and set(survivor.tags) == {"ops", "security"}
        assert lost.status == pb.MEMORY_STATUS_SUPERSEDED and lost.superseded_by == dup.survivor_id
        hits = memory.Recall(pb.RecallRequest(agent_id="a1", query="VPN hardware key"), metadata=T).hits
        assert loser not in {h.memory.id for h in hits}
        listed = memory.ListMemories(
            pb.ListMemoriesRequest(agent_id="a1", filter=pb.RecallFilter(statuses=[pb.MEMORY_STATUS_SUPERSEDED])),
            metadata=T,
        ).memories
        assert [m.id for m in listed] == [loser]
        again = audits.ApplyFindings(
            apb.ApplyFindingsRequest(agent_id="a1", review_id=got.review.review_id, finding_ids=[dup.finding_id]),
            metadata=T,
        )
        assert again.findings[0].outcome == applied.findings[0].outcome
        memory.RestoreMemory(pb.RestoreMemoryRequest(agent_id="a1", memory_id=loser), metadata=T)
        hits = memory.Recall(pb.RecallRequest(agent_id="a1", query="VPN hardware key"), metadata=T).hits
        assert loser in {h.memory.id for h in hits}
        listed = memory.ListMemories(pb.ListMemoriesRequest(agent_id="a1", page_size=50), metadata=T).memories
        assert len(listed) == 6 and all(m.status == pb.MEMORY_STATUS_ACTIVE for m in listed)


async def test_a_person_rejects_a_finding_which_then_is_never_applied_and_sees_the_texts(
    daemon: LiveServer, env: Settings, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{daemon.port}") as channel:
        memory, audits = MemoryServiceStub(channel), AuditServiceStub(channel)
        ids = plant(memory)
        rules_only = env.model_copy(update={"provider": env.provider.model_copy(update={"extraction_model": ""})})
        got = await reviewed(channel, rules_only, onnx_embedder)
        texts = {m.id: m.content for m in got.memories}  # the findings' memories, side by side
        assert texts[ids["dup_a"]] == texts[ids["dup_b"]] == "The VPN needs a hardware key"
        assert set(texts) == {m for f in got.findings for m in f.memory_ids}
        dup = next(f for f in got.findings if f.kind == apb.FINDING_KIND_DUPLICATE)
        review_id = got.review.review_id
        rejected = audits.RejectFindings(
            apb.RejectFindingsRequest(
                agent_id="a1", review_id=review_id, finding_ids=[dup.finding_id], reason="two teams, two keys"
            ),
            metadata=T,
        )
        assert rejected.findings[0].status == apb.FINDING_STATUS_REJECTED
        assert rejected.findings[0].outcome == "rejected by an operator: two teams, two keys"
        applied = audits.ApplyFindings(
            apb.ApplyFindingsRequest(agent_id="a1", review_id=review_id, finding_ids=[dup.finding_id]), metadata=T
        )
        assert applied.findings[0].status == apb.FINDING_STATUS_REJECTED  # never applied
        for memory_id in dup.memory_ids:
            shown = memory.GetMemory(pb.GetMemoryRequest(agent_id="a1", memory_id=memory_id), metadata=T).memory
            assert shown.status == pb.MEMORY_STATUS_ACTIVE
        events = audits.ListAuditEvents(apb.ListAuditEventsRequest(operation="findings_rejected"), metadata=T).events
        assert len(events) == 1 and set(events[0].ids) == set(dup.memory_ids)
        for bad, field in (
            (apb.RejectFindingsRequest(agent_id="a1", review_id=review_id), "finding_ids"),
            (apb.RejectFindingsRequest(agent_id="a1", review_id=review_id, finding_ids=["f" * 32]), "finding_ids"),
            (
                apb.RejectFindingsRequest(
                    agent_id="a1", review_id=review_id, finding_ids=[dup.finding_id], reason="x" * 501
                ),
                "reason",
            ),
        ):
            with pytest.raises(grpc.RpcError) as err:
                audits.RejectFindings(bad, metadata=T)
            assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and field in (err.value.details() or "")
        with pytest.raises(grpc.RpcError) as err:  # another agent's review: not found, as GetReview
            audits.RejectFindings(
                apb.RejectFindingsRequest(agent_id="a2", review_id=review_id, finding_ids=[dup.finding_id]), metadata=T
            )
        assert err.value.code() == grpc.StatusCode.NOT_FOUND


async def test_an_outage_during_a_review_converges_to_the_clean_findings(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.answer_with(keep_everything)
    results = []
    for run, script in enumerate((["ok"], ["ok", "503", "503", "ok", "429:0.1", "ok", "503"])):
        env = job_settings(tmp_path / f"run{run}", redis_url, provider, audits={"findings_per_call": 1})
        provider.script(*script)
        server = LiveServer(env, onnx_embedder)
        server.start()
        try:
            with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
                plant(MemoryServiceStub(channel))
                got = await reviewed(channel, env, onnx_embedder)
                results.append(sorted((f.kind, f.status, f.action, f.source, f.reason) for f in got.findings))
        finally:
            server.stop()
    assert results[0] == results[1] and results[0]


async def test_a_malformed_answer_fails_the_review_and_applies_nothing(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    env = job_settings(tmp_path, redis_url, provider, audits={"apply": "all"})
    provider.reply_with('{"verdicts": "nope"}')
    server = LiveServer(env, onnx_embedder)
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            memory, audits, jobs = MemoryServiceStub(channel), AuditServiceStub(channel), JobServiceStub(channel)
            plant(memory)
            job_id = audits.ReviewMemories(apb.ReviewMemoriesRequest(agent_id="a1"), metadata=T).job_id
            async with running(env, onnx_embedder):
                events = await asyncio.to_thread(
                    lambda: list(jobs.WatchJob(jpb.WatchJobRequest(job_id=job_id), metadata=T, timeout=60))
                )
            assert events[-1].event.state == jpb.JOB_STATE_FAILED and "verdicts" in events[-1].event.message
            listed = memory.ListMemories(pb.ListMemoriesRequest(agent_id="a1", page_size=50), metadata=T).memories
            assert len(listed) == 6 and all(m.status == pb.MEMORY_STATUS_ACTIVE for m in listed)
    finally:
        server.stop()


def test_audit_rpcs_reject_bad_input(daemon: LiveServer) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{daemon.port}") as channel:
        audits = AuditServiceStub(channel)
        job_id = audits.ReviewMemories(apb.ReviewMemoriesRequest(agent_id="a1"), metadata=T).job_id
        cases = [
            (
                lambda: audits.ReviewMemories(apb.ReviewMemoriesRequest(agent_id="bad agent"), metadata=T),
                grpc.StatusCode.INVALID_ARGUMENT,
                "agent_id",
            ),
            (
                lambda: audits.GetReview(apb.GetReviewRequest(agent_id="a1", review_id=job_id), metadata=T),
                grpc.StatusCode.NOT_FOUND,
                "not found",
            ),  # queued: no review row yet
            (
                lambda: audits.ListReviews(apb.ListReviewsRequest(agent_id="a1", page_size=101), metadata=T),
                grpc.StatusCode.INVALID_ARGUMENT,
                "page_size",
            ),
            (
                lambda: audits.ApplyFindings(apb.ApplyFindingsRequest(agent_id="a2", review_id=job_id), metadata=T),
                grpc.StatusCode.NOT_FOUND,
                "not found",
            ),
            (
                lambda: audits.GetUsageReport(apb.GetUsageReportRequest(agent_id="bad agent"), metadata=T),
                grpc.StatusCode.INVALID_ARGUMENT,
                "agent_id",
            ),
            (
                lambda: audits.ReviewMemories(apb.ReviewMemoriesRequest(agent_id="a1")),
                grpc.StatusCode.UNAUTHENTICATED,
                "x-tenant-id",
            ),
        ]
        for call, code, needle in cases:
            with pytest.raises(grpc.RpcError) as err:
                call()
            assert err.value.code() == code and needle in (err.value.details() or ""), err.value.details()


async def test_the_cron_batch_runs_once_per_period_whoever_triggers_it(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    env = job_settings(tmp_path, redis_url, None, audits={"schedule": "0 3 * * *"})
    clock = FrozenClock(datetime(2026, 6, 30, 3, 2, tzinfo=UTC))  # two minutes after the slot
    key = "review_all:@all:20260630T0300Z"
    async with build_app(env, embedder=onnx_embedder, clock=clock) as app:
        await seed(app, "acme", "a1", "The VPN needs a hardware key", "thanks!")
        await seed(app, "acme", "a2", "Priya leads the search team in Lisbon")
        await seed(app, "globex", "b1", "The build server is in Frankfurt")
        # Two worker processes' worth of workers: both tick the same slot.
        async with running_workers(env, app), running_workers(env, app):
            batch = await wait_for(lambda: app.jobs.service.record(SYSTEM_TENANT, key), timeout=40)
            assert batch.state is JobState.SUCCEEDED, batch.last_error
            again = [await app.jobs.review_batch.tick(), await app.jobs.review_batch.start()]  # and a manual trigger
        assert all(r is not None and r.key == key and r.run == 1 for r in again)
        batches, _ = await app.jobs.service.list_jobs(SYSTEM_TENANT, JobKind.REVIEW_ALL, None, "", 50, 0)
        assert [b.key for b in batches] == [key]
        for tenant, agents in (("acme", 2), ("globex", 1)):
            reviews, _ = await app.jobs.service.list_jobs(tenant, JobKind.REVIEW, None, "", 50, 0)
            assert len(reviews) == agents and all(r.run == 1 for r in reviews)
            kept = await app.admin.reviews.reports(tenant, 5)
            assert [i for i, _ in kept] == [key]
        assert batch.result["agents"] == 3 and batch.result["tenants"] == 2


async def test_operators_read_batch_jobs_with_the_operator_key_and_tenants_never_do(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    env = job_settings(tmp_path, redis_url, None)
    env = env.model_copy(update={"server": env.server.model_copy(update={"operator_key": SecretStr("s3cret")})})
    async with build_app(env, embedder=onnx_embedder) as app:
        await seed(app, "acme", "a1", "The VPN needs a hardware key")
        batch = await app.jobs.review_batch.start()
    server = LiveServer(env, onnx_embedder)
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            jobs = JobServiceStub(channel)
            operator = (("x-operator-key", "s3cret"),)
            listed = jobs.ListJobs(jpb.ListJobsRequest(operator_batches=True), metadata=operator).jobs
            assert [(j.job_id, j.kind) for j in listed] == [(batch.key, "review_all")]
            got = jobs.GetJob(jpb.GetJobRequest(job_id=batch.key, operator_batches=True), metadata=operator).job
            assert got.state == jpb.JOB_STATE_QUEUED
            # A tenant sees its own jobs only, and cannot name the batch.
            assert [j.kind for j in jobs.ListJobs(jpb.ListJobsRequest(), metadata=T).jobs] == []
            with pytest.raises(grpc.RpcError) as hidden:
                jobs.GetJob(jpb.GetJobRequest(job_id=batch.key), metadata=T)
            assert hidden.value.code() == grpc.StatusCode.NOT_FOUND
            for metadata in ((("x-operator-key", "guess"),), T, ()):
                with pytest.raises(grpc.RpcError) as refused:
                    jobs.ListJobs(jpb.ListJobsRequest(operator_batches=True), metadata=metadata)
                assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
                assert "x-operator-key" in (refused.value.details() or "")
    finally:
        server.stop()
    off = LiveServer(job_settings(tmp_path / "off", redis_url, None), onnx_embedder)
    off.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{off.port}") as channel, pytest.raises(grpc.RpcError) as closed:
            JobServiceStub(channel).ListJobs(
                jpb.ListJobsRequest(operator_batches=True), metadata=(("x-operator-key", ""),)
            )
        assert closed.value.code() == grpc.StatusCode.PERMISSION_DENIED and "operator_key" in (
            closed.value.details() or ""
        )
    finally:
        off.stop()
