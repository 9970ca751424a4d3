"""JobService over gRPC: a daemon with a job queue, and a worker process beside it sharing the store."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import grpc
import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.config import Settings
from memoryd.core.models import Actor, MemoryDraft
from memoryd.rpc.client import AuditServiceStub, JobServiceStub, ProfileServiceStub, apb, jpb, ppb
from memoryd.testing.provider import FakeProvider
from tests.conftest import LiveServer, tenant
from tests.jobs.conftest import PROFILE_REPLY, job_settings, running

ACME, GLOBEX = tenant("acme"), tenant("globex")


@pytest.fixture
def job_env(tmp_path: Path, redis_url: str, provider: FakeProvider) -> Settings:
    return job_settings(tmp_path, redis_url, provider)


@pytest.fixture
def daemon(job_env: Settings, onnx_embedder: OnnxMiniLMEmbedder) -> Iterator[LiveServer]:
    server = LiveServer(job_env, onnx_embedder)
    server.start()
    assert server.app is not None
    server.run(
        server.app.memory.memorize.memorize_batch(
            Actor("acme", "a1"),
            [MemoryDraft(content="a1 prefers tea"), MemoryDraft(content="a1 is on billing")],
            skip_deduplication=True,
        )
    )
    yield server
    server.stop()


def _stubs(daemon: LiveServer) -> tuple[grpc.Channel, JobServiceStub, ProfileServiceStub]:
    channel = grpc.insecure_channel(f"127.0.0.1:{daemon.port}")
    return channel, JobServiceStub(channel), ProfileServiceStub(channel)


async def test_regenerate_then_get_list_watch_and_retry(
    daemon: LiveServer, job_env: Settings, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.script("503")
    provider.reply_with('{"profile": 42}', PROFILE_REPLY)
    channel, jobs, profiles = _stubs(daemon)
    with channel:
        job_id = profiles.RegenerateProfile(ppb.RegenerateProfileRequest(agent_id="a1"), metadata=ACME).job_id
        assert job_id == "regenerate:acme:a1:r0"
        again = profiles.RegenerateProfile(ppb.RegenerateProfileRequest(agent_id="a1"), metadata=ACME).job_id
        assert again == job_id
        queued = jobs.GetJob(jpb.GetJobRequest(job_id=job_id), metadata=ACME).job
        assert queued.state == jpb.JOB_STATE_QUEUED and queued.kind == "regenerate" and queued.agent_id == "a1"
        async with running(job_env, onnx_embedder):
            events = await asyncio.to_thread(
                lambda: list(jobs.WatchJob(jpb.WatchJobRequest(job_id=job_id), metadata=ACME, timeout=30))
            )
        states = [e.event.state for e in events]
        assert states[0] == jpb.JOB_STATE_QUEUED and states[-1] == jpb.JOB_STATE_FAILED
        assert jpb.JOB_STATE_RETRYING in states and jpb.JOB_STATE_RUNNING in states
        failed = jobs.GetJob(jpb.GetJobRequest(job_id=job_id), metadata=ACME).job
        assert failed.attempts == 2 and "'profile'" in failed.last_error and failed.HasField("finished_at")

        listed = jobs.ListJobs(jpb.ListJobsRequest(state=jpb.JOB_STATE_FAILED, agent_id="a1"), metadata=ACME).jobs
        assert [j.job_id for j in listed] == [job_id]
        by_kind = jobs.ListJobs(jpb.ListJobsRequest(kind="regenerate"), metadata=ACME).jobs
        assert [j.job_id for j in by_kind] == [job_id]
        assert not jobs.ListJobs(jpb.ListJobsRequest(kind="bootstrap"), metadata=ACME).jobs
        assert not jobs.ListJobs(jpb.ListJobsRequest(kind="bootstrap"), metadata=GLOBEX).jobs

        retried = jobs.RetryJob(jpb.RetryJobRequest(job_id=job_id), metadata=ACME).job
        assert retried.state == jpb.JOB_STATE_QUEUED and retried.run == 2 and retried.attempts == 0
        async with running(job_env, onnx_embedder):
            events = await asyncio.to_thread(
                lambda: list(jobs.WatchJob(jpb.WatchJobRequest(job_id=job_id), metadata=ACME, timeout=30))
            )
        assert events[-1].event.state == jpb.JOB_STATE_SUCCEEDED
        done = jobs.GetJob(jpb.GetJobRequest(job_id=job_id), metadata=ACME).job
        assert done.result["outcome"] == "compiled" and done.result["revision"] == "1"
        profile = profiles.GetProfile(ppb.GetProfileRequest(agent_id="a1"), metadata=ACME).profile
        assert "likes green tea" in profile.document and profile.source == "rewrite:regenerate:r0"


def test_job_rpcs_reject_bad_input_and_other_tenants(daemon: LiveServer) -> None:
    channel, jobs, profiles = _stubs(daemon)
    with channel:
        job_id = profiles.RegenerateProfile(ppb.RegenerateProfileRequest(agent_id="a1"), metadata=ACME).job_id
        cases = [
            (lambda: jobs.GetJob(jpb.GetJobRequest(job_id=job_id), metadata=GLOBEX), grpc.StatusCode.NOT_FOUND, ""),
            (
                lambda: jobs.GetJob(jpb.GetJobRequest(job_id=""), metadata=ACME),
                grpc.StatusCode.INVALID_ARGUMENT,
                "job_id",
            ),
            (lambda: jobs.GetJob(jpb.GetJobRequest(job_id=job_id)), grpc.StatusCode.UNAUTHENTICATED, "x-tenant-id"),
            (
                lambda: jobs.ListJobs(jpb.ListJobsRequest(kind="nope"), metadata=ACME),
                grpc.StatusCode.INVALID_ARGUMENT,
                "kind",
            ),
            (
                lambda: jobs.ListJobs(jpb.ListJobsRequest(state=cast(Any, 99)), metadata=ACME),
                grpc.StatusCode.INVALID_ARGUMENT,
                "state",
            ),
            (
                lambda: jobs.ListJobs(jpb.ListJobsRequest(page_size=501), metadata=ACME),
                grpc.StatusCode.INVALID_ARGUMENT,
                "page_size",
            ),
            (
                lambda: jobs.ListJobs(jpb.ListJobsRequest(page_token="x"), metadata=ACME),
                grpc.StatusCode.INVALID_ARGUMENT,
                "page_token",
            ),
            (
                lambda: jobs.RetryJob(jpb.RetryJobRequest(job_id=job_id), metadata=ACME),
                grpc.StatusCode.FAILED_PRECONDITION,
                "queued",
            ),
            (lambda: jobs.RetryJob(jpb.RetryJobRequest(job_id=job_id), metadata=GLOBEX), grpc.StatusCode.NOT_FOUND, ""),
            (
                lambda: list(jobs.WatchJob(jpb.WatchJobRequest(job_id="nope"), metadata=ACME)),
                grpc.StatusCode.NOT_FOUND,
                "",
            ),
        ]
        for call, code, field in cases:
            with pytest.raises(grpc.RpcError) as err:
                call()
            assert err.value.code() == code, (code, err.value.details())
            assert field in (err.value.details() or "")
        assert jobs.GetJob(jpb.GetJobRequest(job_id=job_id), metadata=ACME).job.state == jpb.JOB_STATE_QUEUED


def test_list_jobs_pages_newest_first(daemon: LiveServer) -> None:
    channel, jobs, profiles = _stubs(daemon)
    with channel:
        for agent in ("b1", "b2", "b3"):
            profiles.RegenerateProfile(ppb.RegenerateProfileRequest(agent_id=agent), metadata=ACME)
        first = jobs.ListJobs(jpb.ListJobsRequest(page_size=2), metadata=ACME)
        assert [j.agent_id for j in first.jobs] == ["b3", "b2"] and first.next_page_token
        second = jobs.ListJobs(jpb.ListJobsRequest(page_size=2, page_token=first.next_page_token), metadata=ACME)
        assert [j.agent_id for j in second.jobs] == ["b1"] and not second.next_page_token
        assert len(jobs.ListJobs(jpb.ListJobsRequest(page_size=500), metadata=ACME).jobs) == 3  # the maximum


async def test_model_usage_counts_each_jobs_calls_and_tokens_per_tenant_and_day(
    daemon: LiveServer, job_env: Settings, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.script("503")  # one call refused, then the profile
    provider.reply_with(PROFILE_REPLY)
    channel, jobs, profiles = _stubs(daemon)
    with channel:
        audits = AuditServiceStub(channel)
        assert not audits.GetModelUsage(apb.GetModelUsageRequest(), metadata=ACME).days
        job_id = profiles.RegenerateProfile(ppb.RegenerateProfileRequest(agent_id="a1"), metadata=ACME).job_id
        async with running(job_env, onnx_embedder) as worker:
            events = await asyncio.to_thread(
                lambda: list(jobs.WatchJob(jpb.WatchJobRequest(job_id=job_id), metadata=ACME, timeout=30))
            )
            assert events[-1].event.state == jpb.JOB_STATE_SUCCEEDED
            assert worker.jobs.model_usage is not None
            await worker.jobs.model_usage.flush()  # the count is written behind the call
        (day,) = audits.GetModelUsage(apb.GetModelUsageRequest(days=1), metadata=ACME).days
        assert day.day == datetime.now(UTC).date().isoformat() and day.model == "fake-model"
        assert (day.calls, day.failed_calls) == (2, 1) and day.tokens_in > 0 and day.tokens_out > 0
        assert not audits.GetModelUsage(apb.GetModelUsageRequest(), metadata=GLOBEX).days  # per tenant
        with pytest.raises(grpc.RpcError) as bad:
            audits.GetModelUsage(apb.GetModelUsageRequest(days=401), metadata=ACME)
        assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "days" in (bad.value.details() or "")
