"""The tenant at a glance: the usage report's figures, alarms and charts; jobs by state; model tokens.

Six calls whatever the tenant's size: the latest report an audit kept (or one computed on request),
one page of jobs per state counted up to ``COUNTED``, and the model usage of the last ``days`` days.
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
    days = view.whole("days", 7)
    usage = (await view.call(view.daemon.audit.GetModelUsage, apb.GetModelUsageRequest(days=days))).days
    models = _by_model(usage)
    tokens: dict[str, int] = {}
    for u in usage:
        tokens[u.day] = tokens.get(u.day, 0) + u.tokens_in + u.tokens_out
    spent = charts.bars(sorted(tokens.items()), title="model tokens per day") if tokens else ""
    growth = lorenz = ""
    if report is not None:
        growth = charts.bars([(d.day, d.created) for d in report.growth], title="memories created per day")
        lorenz = charts.curve([(p.memories_share, p.retrievals_share) for p in report.lorenz], title="Lorenz curve")
    values: dict[str, Any] = {"models": models, "days": days, "spent": spent, "growth": growth, "lorenz": lorenz}
    return view.render("overview.html", report=report, kept_at=kept_at, counts=counts, **values)


def _by_model(usage: list[Any]) -> list[dict[str, Any]]:
    """The span's calls and tokens per model, the most tokens first."""
    totals: dict[str, dict[str, Any]] = {}
    for u in usage:
        row = totals.setdefault(u.model, {"model": u.model, "calls": 0, "failed": 0, "tokens_in": 0, "tokens_out": 0})
        row["calls"] += u.calls
        row["failed"] += u.failed_calls
        row["tokens_in"] += u.tokens_in
        row["tokens_out"] += u.tokens_out
    return sorted(totals.values(), key=lambda r: -(r["tokens_in"] + r["tokens_out"]))


def routes(console: Console) -> list[Route]:
    """The routes of the view."""
    return [Route("/", page(console, overview, role="operator"), methods=["GET"])]
