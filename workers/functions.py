"""One arq function per job kind: read the message, run the service body, map the outcome.

The payload is (tenant_id, key): primitives in JSON. Everything else is read from
the ledger, so a message can be redelivered any number of times.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from arq import Retry
from arq.typing import WorkerCoroutine
from opentelemetry import trace

from memoryd.core.errors import NotReady
from memoryd.core.job_records import JobKind, JobState
from memoryd.services.job_runner import Body
from memoryd.workers.context import WorkerContext, context_of

log = logging.getLogger(__name__)


_tracer = trace.get_tracer("memoryd.jobs")


async def _run(ctx: dict[str, Any], tenant_id: str, key: str, body: Body, timeout: float) -> None:
    kind = key.split(":", 1)[0]  # the kind, never the key: it can name agents and conversations
    with _tracer.start_as_current_span(f"job {kind}", attributes={"memoryd.job.kind": kind}):
        delay = await context_of(ctx).jobs.runner.run(tenant_id, key, body, timeout_seconds=timeout)
    if delay is not None:
        raise Retry(defer=delay)


def _job(body_of: Callable[[WorkerContext], Body], *, model_bound: bool) -> WorkerCoroutine:
    """The arq function of one job kind: its body, under the model-bound or the short timeout."""

    async def job(ctx: dict[str, Any], tenant_id: str, key: str) -> None:
        c = context_of(ctx)
        await _run(ctx, tenant_id, key, body_of(c), c.model_timeout if model_bound else c.short_timeout)

    return job


def _graph_extraction(c: WorkerContext) -> Body:
    if c.jobs.graph_extraction is None:  # a worker built without the graph store (never in production wiring)
        raise RuntimeError("this worker has no memory-graph store")
    return c.jobs.graph_extraction.run


def _reembed(c: WorkerContext) -> Body:
    if c.app.memory.reembed is None:  # no [reembed]: the job fails saying so, rather than waiting forever
        raise NotReady("this worker has no re-embed target configured ([reembed] enabled = true)")
    return c.app.memory.reembed.job


async def audit_tick(ctx: dict[str, Any]) -> None:
    """The cron tick: start the audit batch of a due slot of ``audits.schedule`` (one per period, whoever ticks)."""
    started = await context_of(ctx).jobs.review_batch.tick()
    if started is not None and started.state is JobState.QUEUED:
        log.info("audit batch queued", extra={"job_id": started.key})


async def reconcile_tick(ctx: dict[str, Any]) -> None:
    """Every minute: queue again the live jobs whose message may be lost (``JobService.reconcile``)."""
    c = context_of(ctx)
    requeued = await c.jobs.service.reconcile(c.app.settings.jobs.reconcile_stale_seconds)
    if requeued:
        log.info("re-queued live jobs", extra={"jobs": requeued})


async def retention_tick(ctx: dict[str, Any]) -> None:
    """The hourly cron: queue today's retention job (the same job all day, whoever ticks)."""
    c = context_of(ctx)
    started = await c.app.admin.retention.start_daily(c.jobs.service)
    if started is not None and started.state is JobState.QUEUED:
        log.info("retention purge queued", extra={"job_id": started.key})


FUNCTIONS = {
    # Compile one agent's archive into its profile; RegenerateProfile runs the same body under its own kind.
    JobKind.BOOTSTRAP: _job(lambda c: c.jobs.bootstrap.compile, model_bound=True),
    JobKind.REGENERATE: _job(lambda c: c.jobs.bootstrap.compile, model_bound=True),
    # The batch over every agent: it only queues and checks.
    JobKind.BOOTSTRAP_ALL: _job(lambda c: c.jobs.bootstrap.run_batch, model_bound=False),
    # A conversation's compaction: model-bound when a model is configured, extractive otherwise.
    JobKind.COMPACT: _job(lambda c: c.jobs.compaction.run, model_bound=True),
    # review_memories over one agent's archive: rules, and the model judges when there is one.
    JobKind.REVIEW: _job(lambda c: c.jobs.review.run, model_bound=True),
    # The audit batch: it asks for reviews and counts them, then keeps the usage reports.
    JobKind.REVIEW_ALL: _job(lambda c: c.jobs.review_batch.run, model_bound=False),
    # The daily retention purge over every tenant with a policy.
    JobKind.RETENTION: _job(lambda c: c.app.admin.retention.run, model_bound=False),
    # A compaction's summary turned into memory-graph facts.
    JobKind.GRAPH_EXTRACT: _job(_graph_extraction, model_bound=True),
    # A tenant's archive filled in the re-embed's space, a slice per message, then switched.
    JobKind.REEMBED: _job(_reembed, model_bound=False),
}
