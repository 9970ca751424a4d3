"""``memoryd audit``: run the audit batch now (or one agent's review), follow it, summarise it.

The batch is the scheduled one (``ReviewBatchService``): started by hand in a period the schedule
already ran, it finds that batch instead of starting another. Its reviews live in the ledger, so
an interrupt loses nothing: running the command again follows the same batch and re-drives only
what failed. ``--apply`` then applies the proposals the policy covers (applying is idempotent, so
a re-run applies nothing twice); ``--dry-run`` only runs the rules over each archive and prints
what they would propose, storing and applying nothing. Like ``bootstrap --all``, the command runs
a worker in-process unless ``--no-worker`` says the running workers will do the work.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections import Counter
from typing import TextIO

from memoryd.app import App, command_app
from memoryd.commands.table import table
from memoryd.config import Settings
from memoryd.core.errors import InvalidRequest, NotReady
from memoryd.core.job_records import SYSTEM_TENANT, JobRecord, JobState
from memoryd.core.models import Actor
from memoryd.core.review import ApplyPolicy, Finding, FindingSource, FindingStatus
from memoryd.workers.settings import NO_QUEUE, running_workers

_WIDTH = 24


def batch_line(record: JobRecord, elapsed: float, start_done: int) -> str:
    """``[#####---] 420/1000 reviewed · 3 failed · 1290 findings · 577 remaining · 41.2 agents/s · ETA 14 s``."""
    r = record.result
    total, failed = int(r.get("agents", 0)), int(r.get("failed", 0))
    finished = int(r.get("succeeded", 0)) + failed
    filled = int(_WIDTH * finished / total) if total else 0
    rate = max(0, finished - start_done) / elapsed if elapsed > 0 else 0.0
    remaining = int(r.get("remaining", 0))
    eta = f"{remaining / rate:.0f} s" if rate > 0 else "?"
    return (
        f"[{'#' * filled}{'-' * (_WIDTH - filled)}] {finished - failed}/{total} reviewed · {failed} failed · "
        f"{r.get('findings', 0)} findings · {remaining} remaining · {rate:.1f} agents/s · ETA {eta}"
    )


def review_line(record: JobRecord, elapsed: float) -> str:
    """One agent's review: its state, attempts and time so far."""
    who = f"{record.tenant_id}/{record.agent_id}"
    return f"review of {who}: {record.state.value} · attempt {record.attempts} · {elapsed:.0f} s"


async def run_audit(
    settings: Settings,
    *,
    tenant_id: str = "",
    agent_id: str = "",
    apply: ApplyPolicy = ApplyPolicy.NONE,
    dry_run: bool = False,
    with_worker: bool = True,
    out: TextIO | None = None,
) -> int:
    """Audit now; 0 when every review succeeded."""
    out = out or sys.stdout  # read at call time (tests and callers may swap it)
    if agent_id and not tenant_id:
        raise InvalidRequest("--agent", "needs --tenant")
    if dry_run and apply is not ApplyPolicy.NONE:
        raise InvalidRequest("--apply", "a dry run applies nothing; drop one of --apply and --dry-run")
    if dry_run:  # the rules alone: no job queue needed
        async with command_app(settings) as app:
            if tenant_id:
                await app.admin.directory.check(tenant_id, agent_id)
            return await _dry_run(app, tenant_id, agent_id, out)
    if not settings.redis.dsn:
        raise NotReady(NO_QUEUE.format(command="audit"))
    async with command_app(settings) as app:
        if tenant_id:
            await app.admin.directory.check(tenant_id, agent_id)
        jobs = app.jobs
        if agent_id:
            job, partition = await jobs.review.request(Actor(tenant_id, agent_id)), tenant_id
        else:
            job, partition = await jobs.review_batch.start(tenant_id), SYSTEM_TENANT
        record = await _follow(app, settings, partition, job, with_worker, out)
        reviews = [(tenant_id, record.key)] if agent_id else await jobs.review_batch.reviews_of(record.key)
        applied = await _apply(app, reviews, apply)
        findings = [f for tenant, key in reviews for f in await app.admin.reviews.findings(tenant, key)]
        print(_summary(record, findings, applied, apply, single=bool(agent_id)), file=out)
        return 0 if record.state is JobState.SUCCEEDED else 1


async def _follow(
    app: App, settings: Settings, partition: str, job: JobRecord, with_worker: bool, out: TextIO
) -> JobRecord:
    started, start_done, tty = time.monotonic(), -1, out.isatty()
    async with running_workers(settings, app, enabled=with_worker):
        while True:
            record = await app.jobs.service.get(partition, job.key)
            elapsed = time.monotonic() - started
            if job.agent_id:
                line = review_line(record, elapsed)
            else:
                if start_done < 0 and record.result:
                    start_done = int(record.result.get("succeeded", 0)) + int(record.result.get("failed", 0))
                line = batch_line(record, elapsed, max(start_done, 0))
            print(("\r" if tty else "") + line, end="" if tty else "\n", file=out, flush=True)
            if not record.live:
                break
            await asyncio.sleep(0.5 if tty else 2.0)
    if tty:
        print(file=out)
    return record


async def _apply(app: App, reviews: list[tuple[str, str]], policy: ApplyPolicy) -> int:
    if policy is ApplyPolicy.NONE:
        return 0
    applied = 0
    for record in await app.jobs.service.records(reviews):
        if record is not None and record.state is JobState.SUCCEEDED:
            actor = Actor(record.tenant_id, record.agent_id)
            applied += await app.jobs.review.apply_by_policy(actor, record.key, policy)
    return applied


def _summary(record: JobRecord, findings: list[Finding], applied: int, policy: ApplyPolicy, *, single: bool) -> str:
    rows = []
    for kind in sorted({f.kind for f in findings}):
        of_kind = [f for f in findings if f.kind is kind]
        status = Counter(f.status for f in of_kind)
        rows.append(
            [
                kind.value,
                len(of_kind),
                sum(f.certain and f.source is FindingSource.RULES for f in of_kind),
                sum(f.judged for f in of_kind),
                status[FindingStatus.APPLIED],
                status[FindingStatus.REJECTED],
                status[FindingStatus.PROPOSED],
            ]
        )
    r = record.result
    head = f"audit {record.key}: {record.state.value}" + (f" ({record.last_error})" if record.last_error else "")
    if single:
        counts = f"{r.get('model_calls', 0)} model calls, {r.get('tokens_in', 0)} + {r.get('tokens_out', 0)} tokens"
    else:
        counts = (
            f"{r.get('agents', 0)} agents: {r.get('succeeded', 0)} reviewed ({r.get('unchanged', 0)} unchanged since "
            f"their last review), {r.get('failed', 0)} failed · {r.get('model_calls', 0)} model calls, "
            f"{r.get('tokens', 0)} tokens · {r.get('alarms', 0)} usage alarms"
        )
    lines = [head, counts]
    if policy is not ApplyPolicy.NONE:
        lines.append(f"--apply {policy.value}: {applied} findings applied now")
    header = ["kind", "findings", "certain (rules)", "judged (model)", "applied", "rejected", "proposed"]
    lines += ["", table(rows, header) if rows else "no findings"]
    return "\n".join(lines)


async def _dry_run(app: App, tenant_id: str, agent_id: str, out: TextIO) -> int:
    agents = [(tenant_id, agent_id)] if agent_id else await app.memory.ports.agents.agents()
    agents = [(t, a) for t, a in agents if not tenant_id or t == tenant_id]
    found: Counter[str] = Counter()
    certain: Counter[str] = Counter()
    tty = out.isatty()
    for i, (tenant, agent) in enumerate(agents, 1):
        for f in await app.admin.review_rules.preview(Actor(tenant, agent)):
            found[f.kind.value] += 1
            certain[f.kind.value] += f.certain
        line = f"[{i}/{len(agents)}] {tenant}/{agent} · {sum(found.values())} findings so far"
        print(("\r" if tty else "") + line, end="" if tty else "\n", file=out, flush=True)
    rows = [[kind, n, certain[kind]] for kind, n in sorted(found.items())]
    print(
        ("\n" if tty else "")
        + f"dry run over {len(agents)} agents: what the rules would propose (nothing stored, nothing applied)\n\n"
        + (table(rows, ["kind", "findings", "certain (rules)"]) if rows else "no findings"),
        file=out,
    )
    return 0
