"""Background jobs for both clients: a job's record, its events, waiting for it, listing, re-driving a failed one.

Compact, EndSession, RegenerateProfile and the reviews answer with a job's id; ``Jobs`` follows it
on the blocking client, ``AsyncJobs`` on the asyncio one. Each request is built once here.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import cast

import grpc

from memoryd.client.fields import build
from memoryd.client.namespaces import AsyncCaller, Caller, watch_ended
from memoryd.client.paging import async_pages, pages
from memoryd.rpc.client import JobServiceStub, jpb

UNSETTLED = frozenset({"queued", "running", "retrying", "waiting_for_provider"})
"""The states a job leaves by itself; ``wait`` polls while the job is in one."""


@dataclass(frozen=True, slots=True)
class JobUpdate:
    """One event of a job, its state by name ("queued", "running", "succeeded", "failed"…)."""

    state: str
    message: str
    attempts: int


def _state(value: int) -> str:
    return str(jpb.JobState.Name(value)).removeprefix("JOB_STATE_").lower()


def _update(reply: jpb.WatchJobResponse) -> JobUpdate:
    return JobUpdate(_state(reply.event.state), reply.event.message, reply.event.attempts)


def _listing(kind: str, state: str, agent_id: str, page_size: int, token: str) -> jpb.ListJobsRequest:
    """One page's request; ``state`` by short name ("failed"), checked before anything is sent."""
    fields = {"kind": kind, "agent_id": agent_id, "page_size": page_size, "page_token": token}
    return build(jpb.ListJobsRequest, {**fields, "state": state} if state else fields)


class Jobs:
    """Background jobs: their records and their events."""

    def __init__(self, client: Caller) -> None:
        self._client = client

    def get(self, job_id: str) -> jpb.Job:
        """The job's record (state, attempts, last error, progress, result)."""
        stub = JobServiceStub(self._client.channel)
        return cast(jpb.Job, self._client.call(stub.GetJob, jpb.GetJobRequest(job_id=job_id)).job)

    def state(self, job_id: str) -> str:
        """The job's state by name."""
        return _state(self.get(job_id).state)

    def list(self, *, kind: str = "", state: str = "", agent_id: str = "", page_size: int = 50) -> Iterator[jpb.Job]:
        """The tenant's jobs (operators), the latest first: of one kind, state ("failed", "dead"…) or agent."""
        _listing(kind, state, agent_id, page_size, "")  # a mistyped state is said here, not at the first next()
        stub = JobServiceStub(self._client.channel)
        return pages(
            lambda token: self._client.call(stub.ListJobs, _listing(kind, state, agent_id, page_size, token)), "jobs"
        )

    def retry(self, job_id: str) -> jpb.Job:
        """Run a failed or dead job again from attempt 1 (operators); FailedPrecondition in any other state."""
        stub = JobServiceStub(self._client.channel)
        return cast(jpb.Job, self._client.call(stub.RetryJob, jpb.RetryJobRequest(job_id=job_id)).job)

    def watch(self, job_id: str, *, timeout: float | None = None) -> Iterator[JobUpdate]:
        """Every event of the job, then live ones, until it settles or ``timeout`` seconds pass.

        Without a worker running (``memoryd up`` starts one) a job stays queued: the timeout ends
        the watch, and ``state`` tells where it stands.
        """
        stub = JobServiceStub(self._client.channel)
        stream = stub.WatchJob(jpb.WatchJobRequest(job_id=job_id), metadata=self._client.metadata, timeout=timeout)
        try:
            for reply in stream:
                yield _update(reply)
        except grpc.RpcError as err:
            watch_ended(err)

    def wait(self, job_id: str, *, timeout: float, poll: float = 0.2) -> str:
        """The job's state once it settles, or when ``timeout`` seconds passed."""
        deadline = time.monotonic() + timeout
        state = self.state(job_id)
        while state in UNSETTLED and time.monotonic() < deadline:
            time.sleep(poll)
            state = self.state(job_id)
        return state


class AsyncJobs:
    """The same calls for ``AsyncMemoryClient`` (see ``Jobs``)."""

    def __init__(self, client: AsyncCaller) -> None:
        self._client = client

    async def get(self, job_id: str) -> jpb.Job:
        """The job's record."""
        stub = JobServiceStub(self._client.channel)
        return cast(jpb.Job, (await self._client.call(stub.GetJob, jpb.GetJobRequest(job_id=job_id))).job)

    async def state(self, job_id: str) -> str:
        """The job's state by name."""
        return _state((await self.get(job_id)).state)

    def list(
        self, *, kind: str = "", state: str = "", agent_id: str = "", page_size: int = 50
    ) -> AsyncIterator[jpb.Job]:
        """The tenant's jobs (operators), the latest first."""
        _listing(kind, state, agent_id, page_size, "")
        stub = JobServiceStub(self._client.channel)
        return async_pages(
            lambda token: self._client.call(stub.ListJobs, _listing(kind, state, agent_id, page_size, token)), "jobs"
        )

    async def retry(self, job_id: str) -> jpb.Job:
        """Run a failed or dead job again from attempt 1 (operators)."""
        stub = JobServiceStub(self._client.channel)
        return cast(jpb.Job, (await self._client.call(stub.RetryJob, jpb.RetryJobRequest(job_id=job_id))).job)

    async def watch(self, job_id: str, *, timeout: float | None = None) -> AsyncIterator[JobUpdate]:
        """Every event of the job, then live ones, until it settles or ``timeout`` seconds pass."""
        stub = JobServiceStub(self._client.channel)
        stream = stub.WatchJob(jpb.WatchJobRequest(job_id=job_id), metadata=self._client.metadata, timeout=timeout)
        try:
            async for reply in stream:
                yield _update(reply)
        except grpc.RpcError as err:
            watch_ended(err)

    async def wait(self, job_id: str, *, timeout: float, poll: float = 0.2) -> str:
        """The job's state once it settles, or when ``timeout`` seconds passed."""
        deadline = time.monotonic() + timeout
        state = await self.state(job_id)
        while state in UNSETTLED and time.monotonic() < deadline:
            await asyncio.sleep(poll)
            state = await self.state(job_id)
        return state
