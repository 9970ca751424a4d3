"""AuditService over gRPC: decode, one service call, encode."""

from __future__ import annotations

from memoryd.app import App
from memoryd.core.audit import Action, Finding, FindingKind, FindingSource, FindingStatus, Review
from memoryd.core.audit_log import AuditEvent, Operation
from memoryd.core.errors import InvalidRequest
from memoryd.core.usage import UsageReport
from memoryd.core.validation import check_range
from memoryd.rpc import convert
from memoryd.rpc._gen.memoryd.v1 import audit_pb2 as apb
from memoryd.rpc._gen.memoryd.v1 import audit_pb2_grpc as apb_grpc
from memoryd.rpc.identity import Ctx, actor, tenant_of
from memoryd.rpc.status import translated

_KINDS = {
    FindingKind.DUPLICATE: apb.FINDING_KIND_DUPLICATE,
    FindingKind.CONTRADICTION: apb.FINDING_KIND_CONTRADICTION,
    FindingKind.STALE: apb.FINDING_KIND_STALE,
    FindingKind.CLUTTER: apb.FINDING_KIND_CLUTTER,
    FindingKind.DISPUTED: apb.FINDING_KIND_DISPUTED,
}
_ACTIONS = {
    Action.MERGE: apb.FINDING_ACTION_MERGE,
    Action.UPDATE: apb.FINDING_ACTION_UPDATE,
    Action.ARCHIVE: apb.FINDING_ACTION_ARCHIVE,
    Action.KEEP: apb.FINDING_ACTION_KEEP,
}
_STATUSES = {
    FindingStatus.PROPOSED: apb.FINDING_STATUS_PROPOSED,
    FindingStatus.APPLIED: apb.FINDING_STATUS_APPLIED,
    FindingStatus.REJECTED: apb.FINDING_STATUS_REJECTED,
}
_SOURCES = {FindingSource.RULES: apb.FINDING_SOURCE_RULES, FindingSource.MODEL: apb.FINDING_SOURCE_MODEL}


def finding(f: Finding) -> apb.Finding:
    """A Finding as a message."""
    return apb.Finding(
        finding_id=f.finding_id,
        kind=_KINDS[f.kind],
        memory_ids=list(f.memory_ids),
        reason=f.reason,
        action=_ACTIONS[f.action],
        source=_SOURCES[f.source],
        survivor_id=f.survivor_id,
        text=f.text,
        certain=f.certain,
        status=_STATUSES[f.status],
        outcome=f.outcome,
    )


def review(r: Review) -> apb.Review:
    """A Review as a message."""
    out = apb.Review(
        review_id=r.review_id,
        agent_id=r.agent_id,
        archive_version=r.archive_version,
        memories_reviewed=r.memories_reviewed,
        counts=r.counts,
        model=r.model,
        model_calls=r.model_calls,
        tokens_in=r.tokens_in,
        tokens_out=r.tokens_out,
    )
    if r.created_at is not None:
        out.created_at.CopyFrom(convert.to_timestamp(r.created_at))
    if r.finished_at is not None:
        out.finished_at.CopyFrom(convert.to_timestamp(r.finished_at))
    return out


def usage(u: UsageReport) -> apb.UsageReport:
    """A UsageReport as a message."""
    out = apb.UsageReport(
        memories=u.memories,
        by_scope=u.by_scope,
        by_type=u.by_type,
        by_status=u.by_status,
        growth=[apb.DayCount(day=d, created=n) for d, n in u.growth],
        never_retrieved_share=u.never_retrieved_share,
        retrievals=u.retrievals,
        injections=u.injections,
        top1pct_share=u.top1pct_share,
        top10_share=u.top10_share,
        gini=u.gini,
        age_days=[apb.Bucket(label=label, count=n) for label, n in u.age_days],
        salience=[apb.Bucket(label=label, count=n) for label, n in u.salience],
        duplicate_share=u.duplicate_share,
        agents=[
            apb.AgentUsage(
                agent_id=a.agent_id,
                memories=a.memories,
                retrievals=a.retrievals,
                never_retrieved_share=a.never_retrieved_share,
            )
            for a in u.agents
        ],
        concentration_alarm=bool(u.alarms),
        alarms=list(u.alarms),
        seconds=u.seconds,
        lorenz=[apb.LorenzPoint(memories_share=x, retrievals_share=y) for x, y in u.lorenz],
        feedback=dict(u.feedback),
    )
    out.computed_at.CopyFrom(convert.to_timestamp(u.computed_at))
    return out


class AuditServicer(apb_grpc.AuditServiceServicer):
    """Thin shell over ``App.jobs.review`` and ``App.usage``."""

    def __init__(self, app: App) -> None:
        self._app = app

    @translated
    async def ReviewMemories(self, request: apb.ReviewMemoriesRequest, context: Ctx) -> apb.ReviewMemoriesResponse:
        """See the proto."""
        job = await self._app.jobs.review.request(actor(context, request.agent_id, ""))
        return apb.ReviewMemoriesResponse(job_id=job.key)

    @translated
    async def GetReview(self, request: apb.GetReviewRequest, context: Ctx) -> apb.GetReviewResponse:
        """See the proto."""
        who = actor(context, request.agent_id, "")
        r, findings = await self._app.jobs.review.get(who, request.review_id)
        shown = await self._app.jobs.review.memories_of(who, findings)
        return apb.GetReviewResponse(
            review=review(r), findings=[finding(f) for f in findings], memories=[convert.memory(m) for m in shown]
        )

    @translated
    async def ListReviews(self, request: apb.ListReviewsRequest, context: Ctx) -> apb.ListReviewsResponse:
        """See the proto."""
        found = await self._app.jobs.review.list_reviews(actor(context, request.agent_id, ""), request.page_size or 20)
        return apb.ListReviewsResponse(reviews=[review(r) for r in found])

    @translated
    async def ApplyFindings(self, request: apb.ApplyFindingsRequest, context: Ctx) -> apb.ApplyFindingsResponse:
        """See the proto."""
        who = actor(context, request.agent_id, "")
        applied = await self._app.jobs.review.apply(who, request.review_id, list(request.finding_ids))
        return apb.ApplyFindingsResponse(findings=[finding(f) for f in applied])

    @translated
    async def RejectFindings(self, request: apb.RejectFindingsRequest, context: Ctx) -> apb.RejectFindingsResponse:
        """See the proto."""
        who = actor(context, request.agent_id, "")
        found = await self._app.jobs.review.reject(who, request.review_id, list(request.finding_ids), request.reason)
        return apb.RejectFindingsResponse(findings=[finding(f) for f in found])

    @translated
    async def GetUsageReport(self, request: apb.GetUsageReportRequest, context: Ctx) -> apb.GetUsageReportResponse:
        """See the proto."""
        since = convert.to_datetime(request.since, "since") if request.HasField("since") else None
        report = await self._app.usage.report(tenant_of(context), request.agent_id, since)
        return apb.GetUsageReportResponse(report=usage(report))

    @translated
    async def ListUsageReports(
        self, request: apb.ListUsageReportsRequest, context: Ctx
    ) -> apb.ListUsageReportsResponse:
        """See the proto."""
        kept = await self._app.usage.kept(tenant_of(context), request.page_size or 10)
        return apb.ListUsageReportsResponse(
            reports=[apb.KeptUsageReport(report_id=i, report=usage(r)) for i, r in kept]
        )

    @translated
    async def ListAuditEvents(self, request: apb.ListAuditEventsRequest, context: Ctx) -> apb.ListAuditEventsResponse:
        """See the proto."""
        since = convert.to_datetime(request.since, "since") if request.HasField("since") else None
        until = convert.to_datetime(request.until, "until") if request.HasField("until") else None
        try:
            operation = Operation(request.operation) if request.operation else None
        except ValueError:
            raise InvalidRequest("operation", f"unknown operation {request.operation!r}") from None
        size = check_range(request.page_size or 100, "page_size", 1, 500)
        page = await self._app.trail.page(tenant_of(context), since, until, operation, size, request.page_token)
        return apb.ListAuditEventsResponse(
            events=[audit_event(e) for e in page.events], next_page_token=page.next_page_token
        )


def audit_event(e: AuditEvent) -> apb.AuditEvent:
    """An AuditEvent as a message."""
    out = apb.AuditEvent(
        event_id=e.event_id,
        operation=e.operation.value,
        key_id=e.key_id,
        role=e.role,
        agent_id=e.agent_id,
        ids=list(e.ids),
        scopes=list(e.scopes),
        counts=e.counts,
    )
    out.at.CopyFrom(convert.to_timestamp(e.at))
    return out
