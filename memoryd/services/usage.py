"""UsageService: usage reports of an archive (GetUsageReport, `memoryd report`), and those audit batches keep."""

from __future__ import annotations

from datetime import datetime

from memoryd.core.errors import InvalidRequest
from memoryd.core.models import Actor
from memoryd.core.ports import Clock, ReviewStore, UsageAnalytics
from memoryd.core.usage import UsageReport, with_alarms
from memoryd.core.validation import check_actor, check_range, check_tenant


class UsageService:
    """Reports with the operator's alarm thresholds applied."""

    def __init__(
        self,
        analytics: UsageAnalytics,
        kept_reports: ReviewStore,
        clock: Clock,
        top1_threshold: float,
        never_threshold: float,
    ) -> None:
        self._analytics = analytics
        self._kept = kept_reports
        self._clock = clock
        self._top1 = top1_threshold
        self._never = never_threshold

    async def report(self, tenant_id: str, agent_id: str = "", since: datetime | None = None) -> UsageReport:
        """The tenant's report (``agent_id`` empty), or one agent's memories', since a time."""
        check_tenant(tenant_id)
        if agent_id:
            check_actor(Actor(tenant_id, agent_id))
        now = self._clock.now()
        if since is not None and since > now:
            raise InvalidRequest("since", "is in the future")
        return with_alarms(await self._analytics.report(tenant_id, agent_id, since, now), self._top1, self._never)

    async def keep(self, tenant_id: str, report_id: str) -> UsageReport:
        """Compute the tenant's report and keep it under ``report_id`` (an audit batch's; a re-run replaces it)."""
        report = await self.report(tenant_id)
        await self._kept.put_report(tenant_id, report_id, report)
        return report

    async def kept(self, tenant_id: str, limit: int) -> list[tuple[str, UsageReport]]:
        """ListUsageReports: the reports audit batches kept, newest first."""
        check_tenant(tenant_id)
        check_range(limit, "page_size", 1, 100)
        return await self._kept.reports(tenant_id, limit)
