"""ReembedService over gRPC: the tenant's re-embed as a job run by the workers, its status, the switch and back."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import grpc
import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.config import ReembedSettings
from memoryd.core.models import Actor, MemoryDraft
from memoryd.rpc.client import JobServiceStub, ReembedServiceStub, jpb, rpb
from memoryd.testing.provider import FakeProvider
from tests.conftest import LiveServer, make_settings, tenant
from tests.jobs.conftest import job_settings, running

pytestmark = pytest.mark.timeout(120)

MODEL, DIM = "fake-embed", 256
ACME, GLOBEX = tenant("acme"), tenant("globex")


def _code(call: Callable[[], object]) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as err:
        call()
    return err.value.code(), str(err.value.details())


async def test_reembed_runs_as_a_job_switches_the_tenant_and_switches_back(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    # Each batch waits 1.5 s for the provider: the fill outlives half the job's 6 s and goes on in a
    # new message, while a batch keeps seconds of margin to the timeout on a loaded machine.
    with FakeProvider(latency=1.5) as embedder_endpoint:
        target = ReembedSettings(
            enabled=True,
            provider="openai",
            base_url=embedder_endpoint.base_url,
            model=MODEL,
            dimension=DIM,
            send_dimensions=True,
            refresh_seconds=0.05,
        )
        # The fill continues over several messages (Defer) without spending attempts.
        settings = job_settings(tmp_path, redis_url, None, short_job_timeout_seconds=6).model_copy(
            update={"reembed": target}
        )
        server = LiveServer(settings, onnx_embedder)
        server.start()
        assert server.app is not None
        drafts = [MemoryDraft(f"acme note {i} about item {i}") for i in range(700)]
        server.run(server.app.memory.memorize.memorize_batch(Actor("acme", "a"), drafts, True))
        server.run(server.app.memory.memorize.memorize_batch(Actor("globex", "a"), drafts[:10], True))
        try:
            with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
                stub, jobs = ReembedServiceStub(channel), JobServiceStub(channel)
                before = stub.GetReembedStatus(rpb.GetReembedStatusRequest(), metadata=ACME).status
                assert (before.model, before.memories, before.missing, before.recall_model) == (MODEL, 700, 700, "")
                code, details = _code(lambda: stub.Reembed(rpb.ReembedRequest(model="other"), metadata=ACME))
                assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith("model:")
                job_id = stub.Reembed(rpb.ReembedRequest(model=MODEL), metadata=ACME).job_id
                assert job_id == f"reembed:{MODEL}"
                assert stub.Reembed(rpb.ReembedRequest(model=MODEL), metadata=ACME).job_id == job_id  # the live job
                async with running(settings, onnx_embedder):
                    events = await asyncio.to_thread(
                        lambda: list(jobs.WatchJob(jpb.WatchJobRequest(job_id=job_id), metadata=ACME, timeout=60))
                    )
                done = jobs.GetJob(jpb.GetJobRequest(job_id=job_id), metadata=ACME).job
                assert done.state == jpb.JOB_STATE_SUCCEEDED and done.attempts <= 1, done.last_error
                assert done.result["rows"] == "700" and done.result["switched"] == "True"
                runs = [e.event.state for e in events].count(jpb.JOB_STATE_RUNNING)
                assert runs >= 2  # it went on in a new message at least once
                after = stub.GetReembedStatus(rpb.GetReembedStatusRequest(), metadata=ACME).status
                assert (after.memories, after.missing, after.recall_model) == (700, 0, MODEL)

                # Another tenant is untouched, and cannot be switched before its rows are filled.
                other = stub.GetReembedStatus(rpb.GetReembedStatusRequest(), metadata=GLOBEX).status
                assert (other.memories, other.missing, other.recall_model) == (10, 10, "")
                code, details = _code(lambda: stub.SwitchRecallModel(rpb.SwitchRecallModelRequest(), metadata=GLOBEX))
                assert code == grpc.StatusCode.FAILED_PRECONDITION and "10 rows" in details

                # A tenant with no memories yet: zeros, and nothing to re-embed or switch to.
                empty = tenant("initech")
                nothing = stub.GetReembedStatus(rpb.GetReembedStatusRequest(), metadata=empty).status
                assert (nothing.memories, nothing.missing, nothing.recall_model) == (0, 0, "")
                for call in (
                    lambda: stub.Reembed(rpb.ReembedRequest(model=MODEL), metadata=empty),
                    lambda: stub.SwitchRecallModel(rpb.SwitchRecallModelRequest(), metadata=empty),
                ):
                    code, details = _code(call)
                    assert code == grpc.StatusCode.FAILED_PRECONDITION and "no memories" in details
                stub.SwitchRecallModel(rpb.SwitchRecallModelRequest(back=True), metadata=empty)  # staying is fine

                back = stub.SwitchRecallModel(rpb.SwitchRecallModelRequest(back=True), metadata=ACME).status
                assert back.recall_model == "" and back.missing == 0
                again = stub.SwitchRecallModel(rpb.SwitchRecallModelRequest(), metadata=ACME).status
                assert again.recall_model == MODEL
        finally:
            server.stop()


def test_a_daemon_without_a_target_refuses_reembed(tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder) -> None:
    server = LiveServer(make_settings(tmp_path / "data"), onnx_embedder)
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            stub = ReembedServiceStub(channel)
            code, details = _code(lambda: stub.Reembed(rpb.ReembedRequest(model=MODEL), metadata=ACME))
            assert code == grpc.StatusCode.FAILED_PRECONDITION and "[reembed]" in details
            code, _ = _code(lambda: stub.GetReembedStatus(rpb.GetReembedStatusRequest(), metadata=ACME))
            assert code == grpc.StatusCode.FAILED_PRECONDITION
    finally:
        server.stop()
