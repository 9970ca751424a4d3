"""``memoryd bootstrap --all``: queue the batch and follow it with a progress line.

The batch and its per-agent jobs live in the ledger, so interrupting this
command loses nothing: running it again follows the same batch (or re-drives
the failed agents of a finished one) and never redoes an agent that succeeded.
By default the command also runs a worker in-process, so it completes on a
machine where no worker is running; with ``--no-worker`` it only queues and
follows (the workers of ``memoryd up`` / ``memoryd worker`` do the work).
"""

from __future__ import annotations

import asyncio
import sys
import time
from typing import TextIO

from memoryd.app import command_app
from memoryd.config import Settings
from memoryd.core.errors import NotReady
from memoryd.core.job_records import SYSTEM_TENANT, JobRecord, JobState, bootstrap_all_key, bootstrap_done_flag
from memoryd.workers.settings import NO_QUEUE, running_workers

_WIDTH = 24


def progress_line(record: JobRecord, elapsed: float, start_done: int) -> str:
    """``[#####---] 420/1000 · 3 failed · 577 remaining · 41.2 agents/s · ETA 14 s``."""
    r = record.result
    total = int(r.get("agents", 0))
    succeeded, failed, remaining = int(r.get("succeeded", 0)), int(r.get("failed", 0)), int(r.get("remaining", 0))
    finished = succeeded + failed
    filled = int(_WIDTH * finished / total) if total else 0
    rate = max(0, finished - start_done) / elapsed if elapsed > 0 else 0.0
    eta = f"{remaining / rate:.0f} s" if rate > 0 else "?"
    return (
        f"[{'#' * filled}{'-' * (_WIDTH - filled)}] {succeeded}/{total} done · {failed} failed · "
        f"{remaining} remaining · {rate:.1f} agents/s · ETA {eta}"
    )


async def run_bootstrap_all(settings: Settings, *, with_worker: bool = True, out: TextIO = sys.stdout) -> int:
    """Run the batch to its end; 0 when every agent succeeded or had nothing to compile."""
    if not settings.redis.dsn:
        raise NotReady(NO_QUEUE.format(command="bootstrap"))
    async with command_app(settings) as app:
        jobs = app.jobs
        version = jobs.bootstrap.schema_version
        new = await jobs.bootstrap.never_compiled()
        job = await jobs.bootstrap.start_batch(every_agent=True)
        if job is None:
            print(f"profile bootstrap v{version}: every agent already had one; nothing to do", file=out)
            return 0
        if new and job.key != bootstrap_all_key(version):
            print(f"profile bootstrap v{version}: {len(new)} agents created since the last batch", file=out)
        started, start_done, tty = time.monotonic(), -1, out.isatty()
        async with running_workers(settings, app, enabled=with_worker):
            while True:
                record = await jobs.service.get(SYSTEM_TENANT, job.key)
                if start_done < 0 and record.result:
                    start_done = int(record.result.get("succeeded", 0)) + int(record.result.get("failed", 0))
                line = progress_line(record, time.monotonic() - started, max(start_done, 0))
                print(("\r" if tty else "") + line, end="" if tty else "\n", file=out, flush=True)
                if not record.live:
                    break
                await asyncio.sleep(0.5 if tty else 2.0)
        r = record.result
        print(
            ("\n" if tty else "") + f"bootstrap v{version}: {record.state.value} in "
            f"{time.monotonic() - started:.1f} s — {r.get('compiled', 0)} compiled, "
            f"{r.get('nothing_to_compile', 0)} had nothing to compile, {r.get('failed', 0)} failed"
            + (f" ({record.last_error})" if record.last_error else ""),
            file=out,
        )
        done = await jobs.service.flag(bootstrap_done_flag(version))
        return 0 if record.state == JobState.SUCCEEDED and done else 1
