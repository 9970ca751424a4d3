"""One arq function per job kind: read the message, run the service body, map the outcome.

The payload is (tenant_id, key): primitives in JSON. Everything else is read from
the ledger, so a message can be redelivered any number of times.
"""

from __future__ import annotations

import logging
from typing import Any

from arq import Retry
from opentelemetry import trace

from memoryd.core.errors import NotReady
from memoryd.core.job_records import JobKind, JobState
from memoryd.services.job_runner import Body
from memoryd.workers.context import context_of

log = logging.getLogger(__name__)


_tracer = trace.get_tracer("memoryd.jobs")


async def _run(ctx: dict[str, Any], tenant_id: str, key: str, body: Body, timeout: float) -> None:
    kind = key.split(":", 1)[0]  # the kind, never the key: it can name agents and conversations
    with _tracer.start_as_current_span(f"job {kind}", attributes={"memoryd.job.kind": kind}):
        delay = await context_of(ctx).jobs.runner.run(tenant_id, key, body, timeout_seconds=timeout)
    if delay is not None:
        raise Retry(defer=delay)


async def bootstrap(ctx: dict[str, Any], tenant_id: str, key: str) -> None:
    """Compile one agent's archive into its profile (model-bound)."""
    c = context_of(ctx)
    await _run(ctx, tenant_id, key, c.jobs.bootstrap.compile, c.model_timeout)


async def regenerate(ctx: dict[str, Any], tenant_id: str, key: str) -> None:
    """RegenerateProfile: the same body as bootstrap, listed under its own kind (model-bound)."""
    await bootstrap(ctx, tenant_id, key)


async def bootstrap_all(ctx: dict[str, Any], tenant_id: str, key: str) -> None:
    """The batch over every agent (short: it only queues and checks)."""
    c = context_of(ctx)
    await _run(ctx, tenant_id, key, c.jobs.bootstrap.run_batch, c.short_timeout)


async def compact(ctx: dict[str, Any], tenant_id: str, key: str) -> None:
    """Compact a conversation (model-bound when a model is configured; extractive otherwise)."""
    c = context_of(ctx)
    await _run(ctx, tenant_id, key, c.jobs.compaction.run, c.model_timeout)


async def review(ctx: dict[str, Any], tenant_id: str, key: str) -> None:
    """review_memories: audit one agent's archive (rules; the model judges when there is one)."""
    c = context_of(ctx)
    await _run(ctx, tenant_id, key, c.jobs.review.run, c.model_timeout)


async def review_all(ctx: dict[str, Any], tenant_id: str, key: str) -> None:
    """The audit batch (short: it asks for reviews and counts them; then keeps the usage reports)."""
    c = context_of(ctx)
    await _run(ctx, tenant_id, key, c.jobs.review_batch.run, c.short_timeout)


async def graph_extract(ctx: dict[str, Any], tenant_id: str, key: str) -> None:
    """Turn a compaction's summary into memory-graph facts (model-bound)."""
    c = context_of(ctx)
    extraction = c.jobs.graph_extraction
    if extraction is None:  # a worker built without the graph store (never in production wiring)
        raise RuntimeError("this worker has no memory-graph store")
    await _run(ctx, tenant_id, key, extraction.run, c.model_timeout)


async def audit_tick(ctx: dict[str, Any]) -> None:
    """The cron tick: start the audit batch of a due slot of ``audits.schedule`` (one per period, whoever ticks)."""
    started = await context_of(ctx).jobs.review_batch.tick()
    if started is not None and started.state is JobState.QUEUED:
        log.info("audit batch queued", extra={"job_id": started.key})


async def retention(ctx: dict[str, Any], tenant_id: str, key: str) -> None:
    """The daily retention purge over every tenant with a policy."""
    c = context_of(ctx)
    await _run(ctx, tenant_id, key, c.app.admin.retention.run, c.short_timeout)


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


async def reembed(ctx: dict[str, Any], tenant_id: str, key: str) -> None:
    """Fill a tenant's archive in the re-embed's space, a slice per message, then switch it (short)."""
    c = context_of(ctx)
    job = c.app.memory.reembed
    if job is None:  # this worker has no [reembed]: the job fails saying so, rather than waiting forever
        raise NotReady("this worker has no re-embed target configured ([reembed] enabled = true)")
    await _run(ctx, tenant_id, key, job.job, c.short_timeout)


FUNCTIONS = {
    JobKind.BOOTSTRAP: bootstrap,
    JobKind.REGENERATE: regenerate,
    JobKind.BOOTSTRAP_ALL: bootstrap_all,
    JobKind.COMPACT: compact,
    JobKind.REVIEW: review,
    JobKind.REVIEW_ALL: review_all,
    JobKind.RETENTION: retention,
    JobKind.GRAPH_EXTRACT: graph_extract,
    JobKind.REEMBED: reembed,
}
