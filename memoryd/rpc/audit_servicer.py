"""AuditService over gRPC: decode, one service call, encode."""

from __future__ import annotations

from memoryd.app import App
from memoryd.core.errors import InvalidRequest
from memoryd.core.event_log import LogEvent, Operation
from memoryd.core.provenance import ServingFilter
from memoryd.core.validation import check_filter_id, check_range
from memoryd.rpc import convert
from memoryd.rpc._gen.memoryd.v1 import audit_pb2 as apb
from memoryd.rpc._gen.memoryd.v1 import audit_pb2_grpc as apb_grpc
from memoryd.rpc.convert import audit as wire
from memoryd.rpc.identity import Ctx, actor, tenant_of
from memoryd.rpc.status import translated


class AuditServicer(apb_grpc.AuditServiceServicer):
    """Thin shell over ``App.jobs.review`` and ``App.usage``."""

    def __init__(self, app: App) -> None:
        self._app = app

    @translated
    async def ReviewMemories(self, request: apb.ReviewMemoriesRequest, context: Ctx) -> apb.ReviewMemoriesResponse:
        """See the proto."""
        who = actor(context, request.agent_id, "")  # a key's refusal before the queue's absence
        job = await self._app.jobs.review.request(who)
        return apb.ReviewMemoriesResponse(job_id=job.key)

    @translated
    async def GetReview(self, request: apb.GetReviewRequest, context: Ctx) -> apb.GetReviewResponse:
        """See the proto."""
        who = actor(context, request.agent_id, "")
        r, findings = await self._app.jobs.review.get(who, request.review_id)
        shown = await self._app.jobs.review.memories_of(who, findings)
        return apb.GetReviewResponse(
            review=wire.review(r),
            findings=[wire.finding(f) for f in findings],
            memories=[convert.memory(m) for m in shown],
        )

    @translated
    async def ListReviews(self, request: apb.ListReviewsRequest, context: Ctx) -> apb.ListReviewsResponse:
        """See the proto."""
        found = await self._app.jobs.review.list_reviews(actor(context, request.agent_id, ""), request.page_size or 20)
        return apb.ListReviewsResponse(reviews=[wire.review(r) for r in found])

    @translated
    async def ApplyFindings(self, request: apb.ApplyFindingsRequest, context: Ctx) -> apb.ApplyFindingsResponse:
        """See the proto."""
        who = actor(context, request.agent_id, "")
        await self._app.working.configs.check_apply(who)  # a key's refusal before the queue's absence
        applied = await self._app.jobs.review.apply(who, request.review_id, list(request.finding_ids))
        return apb.ApplyFindingsResponse(findings=[wire.finding(f) for f in applied])

    @translated
    async def RejectFindings(self, request: apb.RejectFindingsRequest, context: Ctx) -> apb.RejectFindingsResponse:
        """See the proto."""
        who = actor(context, request.agent_id, "")
        found = await self._app.jobs.review.reject(who, request.review_id, list(request.finding_ids), request.reason)
        return apb.RejectFindingsResponse(findings=[wire.finding(f) for f in found])

    @translated
    async def GetUsageReport(self, request: apb.GetUsageReportRequest, context: Ctx) -> apb.GetUsageReportResponse:
        """See the proto."""
        since = convert.to_datetime(request.since, "since") if request.HasField("since") else None
        report = await self._app.admin.usage.report(tenant_of(context), request.agent_id, since)
        return apb.GetUsageReportResponse(report=wire.usage(report))

    @translated
    async def ListUsageReports(
        self, request: apb.ListUsageReportsRequest, context: Ctx
    ) -> apb.ListUsageReportsResponse:
        """See the proto."""
        kept = await self._app.admin.usage.kept(tenant_of(context), request.page_size or 10)
        return apb.ListUsageReportsResponse(
            reports=[apb.KeptUsageReport(report_id=i, report=wire.usage(r)) for i, r in kept]
        )

    @translated
    async def GetModelUsage(self, request: apb.GetModelUsageRequest, context: Ctx) -> apb.GetModelUsageResponse:
        """See the proto."""
        tenant = tenant_of(context)
        usage = self._app.jobs.model_usage
        found = await usage.report(tenant, request.days or 7) if usage is not None else []
        return apb.GetModelUsageResponse(
            days=[
                apb.ModelUsageDay(
                    day=u.day.isoformat(),
                    model=u.model,
                    calls=u.calls,
                    failed_calls=u.failed_calls,
                    tokens_in=u.tokens_in,
                    tokens_out=u.tokens_out,
                )
                for u in found
            ]
        )

    @translated
    async def ListServings(self, request: apb.ListServingsRequest, context: Ctx) -> apb.ListServingsResponse:
        """See the proto."""
        where = ServingFilter(
            check_filter_id(request.item_id, "item_id", "item"),
            check_filter_id(request.agent_id, "agent_id"),
            check_filter_id(request.end_user_id, "end_user_id"),
            check_filter_id(request.conversation_id, "conversation_id"),
            convert.to_datetime(request.since, "since") if request.HasField("since") else None,
            convert.to_datetime(request.until, "until") if request.HasField("until") else None,
        )
        size = check_range(request.page_size or 100, "page_size", 1, 500)
        page = await self._app.admin.served_log().servings(tenant_of(context), where, size, request.page_token)
        return apb.ListServingsResponse(
            servings=[wire.serving(s) for s in page.servings], next_page_token=page.next_page_token
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
        page = await self._app.admin.trail.page(
            tenant_of(context),
            since,
            until,
            operation,
            size,
            request.page_token,
            key_id=check_filter_id(request.key_id, "key_id", "key"),
            row_id=check_filter_id(request.row_id, "row_id", "row"),
        )
        return apb.ListAuditEventsResponse(
            events=[audit_event(e) for e in page.events], next_page_token=page.next_page_token
        )


def audit_event(e: LogEvent) -> apb.AuditEvent:
    """An LogEvent as a message."""
    return apb.AuditEvent(
        event_id=e.event_id,
        operation=e.operation.value,
        key_id=e.key_id,
        role=e.role,
        agent_id=e.agent_id,
        ids=list(e.ids),
        scopes=list(e.scopes),
        counts=e.counts,
        at=e.at,
    )
