"""Converters of the job service's messages (``job_servicer``: decode → call → encode)."""

from __future__ import annotations

from memoryd.core.job_records import JobEvent, JobRecord, JobState
from memoryd.rpc._gen.memoryd.v1 import jobs_pb2 as jpb

STATE_TO_PB = {
    JobState.QUEUED: jpb.JOB_STATE_QUEUED,
    JobState.RUNNING: jpb.JOB_STATE_RUNNING,
    JobState.WAITING_FOR_PROVIDER: jpb.JOB_STATE_WAITING_FOR_PROVIDER,
    JobState.RETRYING: jpb.JOB_STATE_RETRYING,
    JobState.SUCCEEDED: jpb.JOB_STATE_SUCCEEDED,
    JobState.FAILED: jpb.JOB_STATE_FAILED,
    JobState.DEAD: jpb.JOB_STATE_DEAD,
}
STATE_FROM_PB: dict[int, JobState] = {value: state for state, value in STATE_TO_PB.items()}


def job(r: JobRecord) -> jpb.Job:
    """A job record on the wire."""
    return jpb.Job(
        job_id=r.key,
        kind=r.kind.value,
        agent_id=r.agent_id,
        state=STATE_TO_PB[r.state],
        attempts=r.attempts,
        last_error=r.last_error,
        progress_done=r.progress_done,
        progress_total=r.progress_total,
        run=r.run,
        result={k: str(v) for k, v in r.result.items()},
        created_at=r.created_at,
        updated_at=r.updated_at,
        started_at=r.started_at,
        finished_at=r.finished_at,
        next_attempt_at=r.next_attempt_at,
    )


def event(e: JobEvent) -> jpb.JobEvent:
    """A job event on the wire."""
    return jpb.JobEvent(
        job_id=e.key,
        state=STATE_TO_PB[e.state],
        message=e.message,
        attempts=e.attempts,
        progress_done=e.progress_done,
        progress_total=e.progress_total,
        at=e.at,
    )
