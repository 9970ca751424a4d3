"""UsageService: usage reports of an archive (GetUsageReport, `memoryd report`, the audit batch)."""

from __future__ import annotations

from datetime import datetime

from memoryd.core.errors import InvalidRequest
from memoryd.core.models import Actor
from memoryd.core.ports import Clock, UsageAnalytics
from memoryd.core.usage import UsageReport, with_alarms
from memoryd.core.validation import check_actor, check_tenant


class UsageService:
    """Reports with the operator's alarm thresholds applied."""

    def __init__(self, analytics: UsageAnalytics, clock: Clock, top1_threshold: float, never_threshold: float) -> None:
        self._analytics = analytics
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
