"""JobService over gRPC: decode, one service call, encode."""

from __future__ import annotations

from collections.abc import AsyncIterator

from memoryd.app import App
from memoryd.core.errors import InvalidRequest
from memoryd.core.job_records import JobKind
from memoryd.rpc._gen.memoryd.v1 import jobs_pb2 as jpb
from memoryd.rpc._gen.memoryd.v1 import jobs_pb2_grpc as jpb_grpc
from memoryd.rpc.convert import jobs as wire
from memoryd.rpc.identity import Ctx, job_partition
from memoryd.rpc.open_streams import OpenStreams
from memoryd.rpc.status import translated, translated_stream
from memoryd.services.job_service import JobService


class JobServicer(jpb_grpc.JobServiceServicer):
    """Thin shell over ``JobService``."""

    def __init__(self, app: App, streams: OpenStreams) -> None:
        self._app = app
        self._streams = streams

    def _partition(self, context: Ctx, operator_batches: bool) -> str:
        return job_partition(context, operator_batches, self._app.settings.server.operator_key.get_secret_value())

    def _jobs(self) -> JobService:
        return self._app.jobs.service  # Unavailable (UNAVAILABLE) without a wire.job queue

    @translated
    async def GetJob(self, request: jpb.GetJobRequest, context: Ctx) -> jpb.GetJobResponse:
        """See the proto."""
        tenant = self._partition(context, request.operator_batches)
        return jpb.GetJobResponse(job=wire.job(await self._jobs().get(tenant, request.job_id)))

    @translated
    async def ListJobs(self, request: jpb.ListJobsRequest, context: Ctx) -> jpb.ListJobsResponse:
        """See the proto."""
        tenant = self._partition(context, request.operator_batches)
        try:
            kind = JobKind(request.kind) if request.kind else None
        except ValueError:
            raise InvalidRequest(
                "kind", f"unknown wire.job kind {request.kind!r}; one of {', '.join(k.value for k in JobKind)}"
            ) from None
        if request.state and request.state not in wire.STATE_FROM_PB:
            raise InvalidRequest("state", f"unknown wire.job state {request.state}")
        state = wire.STATE_FROM_PB.get(request.state)
        try:
            before = float(request.page_token) if request.page_token else 0.0
        except ValueError:
            raise InvalidRequest("page_token", "must come from a previous ListJobs reply") from None
        page, more = await self._jobs().list_jobs(
            tenant, kind, state, request.agent_id, request.page_size or 50, before
        )
        token = repr(page[-1].created_at.timestamp()) if more and page[-1].created_at else ""
        return jpb.ListJobsResponse(jobs=[wire.job(r) for r in page], next_page_token=token)

    @translated_stream
    async def WatchJob(self, request: jpb.WatchJobRequest, context: Ctx) -> AsyncIterator[jpb.WatchJobResponse]:
        """See the proto."""
        tenant = self._partition(context, request.operator_batches)
        with self._streams.held():
            await context.send_initial_metadata(())  # admitted: the caller knows the stream is open
            async for event in self._jobs().watch(tenant, request.job_id):
                yield jpb.WatchJobResponse(event=wire.event(event))

    @translated
    async def RetryJob(self, request: jpb.RetryJobRequest, context: Ctx) -> jpb.RetryJobResponse:
        """See the proto."""
        tenant = self._partition(context, request.operator_batches)
        return jpb.RetryJobResponse(job=wire.job(await self._jobs().retry(tenant, request.job_id)))
