"""JobService over gRPC: decode, one service call, encode."""

from __future__ import annotations

from collections.abc import AsyncIterator

from memoryd.app import App
from memoryd.core.errors import InvalidRequest
from memoryd.core.job_records import JobEvent, JobKind, JobRecord, JobState
from memoryd.rpc import convert
from memoryd.rpc._gen.memoryd.v1 import jobs_pb2 as jpb
from memoryd.rpc._gen.memoryd.v1 import jobs_pb2_grpc as jpb_grpc
from memoryd.rpc.identity import Ctx, job_partition
from memoryd.rpc.status import translated, translated_stream
from memoryd.services.job_service import JobService

_STATE_TO_PB = {
    JobState.QUEUED: jpb.JOB_STATE_QUEUED,
    JobState.RUNNING: jpb.JOB_STATE_RUNNING,
    JobState.WAITING_FOR_PROVIDER: jpb.JOB_STATE_WAITING_FOR_PROVIDER,
    JobState.RETRYING: jpb.JOB_STATE_RETRYING,
    JobState.SUCCEEDED: jpb.JOB_STATE_SUCCEEDED,
    JobState.FAILED: jpb.JOB_STATE_FAILED,
    JobState.DEAD: jpb.JOB_STATE_DEAD,
}
_STATE_FROM_PB: dict[int, JobState] = {value: state for state, value in _STATE_TO_PB.items()}


def _job(r: JobRecord) -> jpb.Job:
    out = jpb.Job(
        job_id=r.key,
        kind=r.kind.value,
        agent_id=r.agent_id,
        state=_STATE_TO_PB[r.state],
        attempts=r.attempts,
        last_error=r.last_error,
        progress_done=r.progress_done,
        progress_total=r.progress_total,
        run=r.run,
        result={k: str(v) for k, v in r.result.items()},
    )
    for name in ("created_at", "updated_at", "started_at", "finished_at", "next_attempt_at"):
        value = getattr(r, name)
        if value is not None:
            getattr(out, name).CopyFrom(convert.to_timestamp(value))
    return out


def _event(e: JobEvent) -> jpb.JobEvent:
    out = jpb.JobEvent(
        job_id=e.key,
        state=_STATE_TO_PB[e.state],
        message=e.message,
        attempts=e.attempts,
        progress_done=e.progress_done,
        progress_total=e.progress_total,
    )
    out.at.CopyFrom(convert.to_timestamp(e.at))
    return out


class JobServicer(jpb_grpc.JobServiceServicer):
    """Thin shell over ``JobService``."""

    def __init__(self, app: App) -> None:
        self._app = app

    def _partition(self, context: Ctx, operator_batches: bool) -> str:
        return job_partition(context, operator_batches, self._app.settings.server.operator_key.get_secret_value())

    def _jobs(self) -> JobService:
        return self._app.jobs.service  # Unavailable (UNAVAILABLE) without a job queue

    @translated
    async def GetJob(self, request: jpb.GetJobRequest, context: Ctx) -> jpb.GetJobResponse:
        """See the proto."""
        tenant = self._partition(context, request.operator_batches)
        return jpb.GetJobResponse(job=_job(await self._jobs().get(tenant, request.job_id)))

    @translated
    async def ListJobs(self, request: jpb.ListJobsRequest, context: Ctx) -> jpb.ListJobsResponse:
        """See the proto."""
        tenant = self._partition(context, request.operator_batches)
        try:
            kind = JobKind(request.kind) if request.kind else None
        except ValueError:
            raise InvalidRequest(
                "kind", f"unknown job kind {request.kind!r}; one of {', '.join(k.value for k in JobKind)}"
            ) from None
        if request.state and request.state not in _STATE_FROM_PB:
            raise InvalidRequest("state", f"unknown job state {request.state}")
        state = _STATE_FROM_PB.get(request.state)
        try:
            before = float(request.page_token) if request.page_token else 0.0
        except ValueError:
            raise InvalidRequest("page_token", "must come from a previous ListJobs reply") from None
        page, more = await self._jobs().list_jobs(
            tenant, kind, state, request.agent_id, request.page_size or 50, before
        )
        token = repr(page[-1].created_at.timestamp()) if more and page[-1].created_at else ""
        return jpb.ListJobsResponse(jobs=[_job(r) for r in page], next_page_token=token)

    @translated_stream
    async def WatchJob(self, request: jpb.WatchJobRequest, context: Ctx) -> AsyncIterator[jpb.WatchJobResponse]:
        """See the proto."""
        tenant = self._partition(context, request.operator_batches)
        async for event in self._jobs().watch(tenant, request.job_id):
            yield jpb.WatchJobResponse(event=_event(event))

    @translated
    async def RetryJob(self, request: jpb.RetryJobRequest, context: Ctx) -> jpb.RetryJobResponse:
        """See the proto."""
        tenant = self._partition(context, request.operator_batches)
        return jpb.RetryJobResponse(job=_job(await self._jobs().retry(tenant, request.job_id)))
