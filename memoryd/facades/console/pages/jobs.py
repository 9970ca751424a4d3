"""Jobs: the tenant's jobs by kind, state and agent; one job's record; retry a failed or dead one."""

from __future__ import annotations

from typing import Any

from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from memoryd.facades.console.web import Console, View, link, page
from memoryd.rpc.client import jpb

PAGE_SIZE = 50
STATES: dict[str, Any] = {jpb.JobState.Name(v).removeprefix("JOB_STATE_").lower(): v for v in jpb.JobState.values()}
del STATES["unspecified"]
KINDS = (
    "bootstrap", "bootstrap_all", "regenerate", "compact", "review", "review_all", "graph_extract", "reembed",
    "retention",
)  # fmt: skip
RETRYABLE = {jpb.JOB_STATE_FAILED, jpb.JOB_STATE_DEAD}
EVENTS = 200
"""A job's events shown at most (each attempt's start, retries, the end; a long batch's progress)."""
EVENT_SECONDS = 0.5
"""How long the page waits on a live job's event stream (a settled job's ends at once)."""


async def jobs(view: View) -> Response:
    """A page of the tenant's jobs (or the batches), filtered."""
    request = jpb.ListJobsRequest(
        kind=view.arg("kind"),
        state=view.choice("state", STATES, jpb.JOB_STATE_UNSPECIFIED),
        agent_id=view.arg("agent"),
        page_size=PAGE_SIZE,
        page_token=view.arg("page"),
        operator_batches=view.arg("batches") == "1",
    )
    reply = await view.call(view.daemon.jobs.ListJobs, request)
    next_link = (
        link("/jobs", **{**view.request.query_params, "page": reply.next_page_token}) if reply.next_page_token else ""
    )
    return view.render("jobs.html", jobs=list(reply.jobs), states=list(STATES), kinds=KINDS, next_link=next_link)


async def job(view: View) -> Response:
    """One job's record."""
    batches = view.arg("batches") == "1"
    request = jpb.GetJobRequest(job_id=view.request.path_params["job_id"], operator_batches=batches)
    reply = await view.call(view.daemon.jobs.GetJob, request)
    watch = jpb.WatchJobRequest(job_id=reply.job.job_id, operator_batches=batches)
    events = await view.calls.stream(view.daemon.jobs.WatchJob, watch, limit=EVENTS, seconds=EVENT_SECONDS)
    values: dict[str, Any] = {"retryable": reply.job.state in RETRYABLE, "batches": batches, "done": view.arg("done")}
    return view.render("job.html", job=reply.job, events=[e.event for e in events], **values)


async def retry(view: View) -> Response:
    """Re-drive a failed or dead job (a new run)."""
    job_id, batches = view.request.path_params["job_id"], view.arg("batches") == "1"
    await view.call(view.daemon.jobs.RetryJob, jpb.RetryJobRequest(job_id=job_id, operator_batches=batches))
    return RedirectResponse(link(f"/jobs/{job_id}", batches="1" if batches else "", done="retried"), 303)


def routes(console: Console) -> list[Route]:
    """The routes of the view."""
    return [
        Route("/jobs", page(console, jobs, role="operator"), methods=["GET"]),
        Route("/jobs/{job_id:path}/retry", page(console, retry, role="operator"), methods=["POST"]),
        Route("/jobs/{job_id:path}", page(console, job, role="operator"), methods=["GET"]),
    ]
