"""ReviewBatchService: the audit batch — a review per agent whose archive changed, then a usage report per tenant.

The batch is a ``review_all`` job in the operator partition, keyed by its period
(``review_all:{tenant or @all}:{period}``): the cron ticks of several workers, a restart, and a
manual ``memoryd audit`` in the same period all find the same batch, so it runs once. Its first
pass asks each agent's review (``ReviewService.request``, keyed by the archive as it is: an agent
whose archive has not changed since its last review gets that review back, not a new one) and
remembers the review jobs in the ledger; later passes only count them. When none is live, it
computes and keeps each tenant's usage report, whose alarms are what an operator acts on.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from memoryd.core.errors import PreconditionFailed
from memoryd.core.job_records import SYSTEM_TENANT, JobKind, JobRecord, JobResult, JobState, tally_batch
from memoryd.core.models import Actor
from memoryd.core.ports import AgentDirectory, Clock
from memoryd.core.schedule import batch_scope, current_period, due_period, review_all_key
from memoryd.core.validation import check_tenant
from memoryd.services.job_runner import Defer, JobContext
from memoryd.services.job_service import JobService
from memoryd.services.review import ReviewService
from memoryd.services.usage import UsageService

log = logging.getLogger(__name__)

_FAN_OUT_CHUNK = 200
"""Reviews asked for between two writes of the batch's parts (a crash redoes at most this many asks)."""


class ReviewBatchService:
    """Start (by schedule or by hand) and run audit batches."""

    def __init__(
        self,
        directory: AgentDirectory,
        reviews: ReviewService,
        usage: UsageService,
        jobs: JobService,
        clock: Clock,
        schedule: str,
        check_seconds: float,
        review_enabled: Callable[[str, str], Awaitable[bool]],
    ) -> None:
        self._directory = directory
        self._review_enabled = review_enabled
        self._reviews = reviews
        self._usage = usage
        self._jobs = jobs
        self._clock = clock
        self.schedule = schedule
        self._check_seconds = check_seconds

    async def start(self, tenant_id: str = "") -> JobRecord:
        """The batch of the current period over one tenant or all (``memoryd audit``); one per period."""
        if tenant_id:
            check_tenant(tenant_id)
        return await self._enqueue(review_all_key(tenant_id, current_period(self.schedule, self._clock.now())))

    async def tick(self) -> JobRecord | None:
        """A cron tick: the batch over every tenant of a slot that is due, or None (no schedule, none due)."""
        period = due_period(self.schedule, self._clock.now())
        return None if period is None else await self._enqueue(review_all_key("", period))

    async def _enqueue(self, key: str) -> JobRecord:
        return await self._jobs.enqueue(JobKind.REVIEW_ALL, SYSTEM_TENANT, key, redrive=True)

    async def reviews_of(self, batch_key: str) -> list[tuple[str, str]]:
        """The (tenant, review id) of every review the batch asked for, in a stable order."""
        parts = await self._jobs.parts(batch_key)
        return [parts[name] for name in sorted(parts)]

    # -- the job body ---------------------------------------------------------------

    async def run(self, ctx: JobContext) -> JobResult:
        """Fan out (first pass), then wait for every review; then keep each tenant's usage report."""
        key = ctx.record.key
        before = ctx.record.result
        result = dict(before)
        if not result.get("fanned_out"):
            result = {"fanned_out": True, "unchanged": await self._fan_out(key, batch_scope(key))}
        reviews = await self.reviews_of(key)
        children = await self._jobs.records(reviews)
        states: dict[JobState, int] = {}
        findings = applied = calls = tokens = 0
        for child in children:
            state = child.state if child is not None else JobState.FAILED  # expired from the ledger
            states[state] = states.get(state, 0) + 1
            if child is not None and state is JobState.SUCCEEDED:
                findings += int(child.result.get("findings", 0))
                applied += int(child.result.get("applied", 0))
                calls += int(child.result.get("model_calls", 0))
                tokens += int(child.result.get("tokens_in", 0)) + int(child.result.get("tokens_out", 0))
        at = tally_batch(states, len(reviews), ctx.now().timestamp(), before, self._check_seconds)
        result |= {**at.summary, "findings": findings, "applied": applied, "model_calls": calls, "tokens": tokens}
        told = f"{at.succeeded} reviewed, {at.failed} failed, {at.remaining} remaining"
        await ctx.progress(at.finished, len(reviews), told, result)
        if at.remaining:
            raise Defer(at.wait, JobState.RUNNING, f"waiting for {at.remaining} reviews")
        result |= await self._keep_reports(key, sorted({tenant for tenant, _ in reviews}))
        if at.failed:
            await ctx.progress(at.finished, len(reviews), "reports kept", result)
            raise PreconditionFailed(
                f"{at.failed} of {len(reviews)} reviews failed; re-driving this batch (RetryJob, or `memoryd audit` "
                "in the same period) re-drives them"
            )
        return result

    async def _fan_out(self, key: str, scope: str) -> int:
        """Ask each agent's review and remember it; how many agents' archives had not changed since theirs."""
        agents = [(t, a) for t, a in await self._directory.agents() if not scope or t == scope]
        unchanged = 0
        for start in range(0, len(agents), _FAN_OUT_CHUNK):
            chunk = agents[start : start + _FAN_OUT_CHUNK]
            wanted = [Actor(t, a) for t, a in chunk if await self._review_enabled(t, a)]  # review.enabled
            reviews = await self._reviews.request_many(wanted)
            unchanged += sum(review.state is JobState.SUCCEEDED for review in reviews)
            parts = {f"{a.tenant_id}/{a.agent_id}": (a.tenant_id, r.key) for a, r in zip(wanted, reviews, strict=True)}
            await self._jobs.add_parts(key, parts)
        return unchanged

    async def _keep_reports(self, key: str, tenants: list[str]) -> JobResult:
        alarms = 0
        for tenant_id in tenants:
            report = await self._usage.keep(tenant_id, key)
            for alarm in report.alarms:
                log.warning("usage alarm", extra={"tenant_id": tenant_id, "alarm": alarm, "batch": key})
            alarms += len(report.alarms)
        return {"tenants": len(tenants), "alarms": alarms}
