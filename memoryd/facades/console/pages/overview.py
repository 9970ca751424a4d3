"""The tenant at a glance: the usage report's figures, alarms and charts; jobs running, retrying, failed, dead.

At most six calls whatever the tenant's size: the latest report an audit kept (or one computed on
request), and one page of jobs per state counted up to ``COUNTED``.
"""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import Route

from memoryd.facades.console import charts
from memoryd.facades.console.web import Console, View, page
from memoryd.rpc.client import apb, jpb

COUNTED = 500
"""Jobs of a state counted on the overview; more shows as ``500+`` (the jobs page pages through them)."""
WATCHED = {
    "running": jpb.JOB_STATE_RUNNING,
    "retrying": jpb.JOB_STATE_RETRYING,
    "failed": jpb.JOB_STATE_FAILED,
    "dead": jpb.JOB_STATE_DEAD,
}


async def overview(view: View) -> Response:
    """The usage report and the job counts."""
    report: Any = None
    kept_at = ""
    if view.arg("compute") == "1":
        report = (await view.call(view.daemon.audit.GetUsageReport, apb.GetUsageReportRequest())).report
    else:
        kept = await view.call(view.daemon.audit.ListUsageReports, apb.ListUsageReportsRequest(page_size=1))
        if kept.reports:
            report, kept_at = kept.reports[0].report, kept.reports[0].report_id
    counts: dict[str, str] = {}
    for name, state in WATCHED.items():
        reply = await view.call(view.daemon.jobs.ListJobs, jpb.ListJobsRequest(state=state, page_size=COUNTED))
        counts[name] = f"{len(reply.jobs)}+" if reply.next_page_token else str(len(reply.jobs))
    growth = lorenz = ""
    if report is not None:
        growth = charts.bars([(d.day, d.created) for d in report.growth], title="memories created per day")
        lorenz = charts.curve([(p.memories_share, p.retrievals_share) for p in report.lorenz], title="Lorenz curve")
    return view.render("overview.html", report=report, kept_at=kept_at, counts=counts, growth=growth, lorenz=lorenz)


def routes(console: Console) -> list[Route]:
    """The routes of the view."""
    return [Route("/", page(console, overview, role="operator"), methods=["GET"])]
