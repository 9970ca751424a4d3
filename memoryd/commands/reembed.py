"""``memoryd reembed``: move the archive to another embedding model, tenant by tenant, resumably."""

from __future__ import annotations

import asyncio
import math
import sys
from collections.abc import Sequence
from typing import TextIO

from memoryd.app import App, command_app
from memoryd.commands.table import table
from memoryd.config import Settings
from memoryd.core.errors import NotReady
from memoryd.services.reembed import Progress, Reembed, TenantProgress

_NOT_CONFIGURED = (
    "no re-embed target is configured: set [reembed] (enabled = true, provider, model, dimension, "
    "base_url...) in the config of this command and of every daemon and worker of the store"
)


def _job(app: App) -> Reembed:
    if app.memory.reembed is None:
        raise NotReady(_NOT_CONFIGURED)
    return app.memory.reembed


async def run_reembed(
    settings: Settings,
    to: str,
    tenants: Sequence[str],
    *,
    action: str = "run",
    batch: int = 256,
    out: TextIO = sys.stdout,
) -> int:
    """``run`` (fill, then switch each complete tenant), ``switch``, ``switch-back``, ``status`` or ``finish``."""
    async with command_app(settings) as app:
        job = _job(app)
        if action == "status":
            rows = await job.status(to, tenants)
        elif action == "switch":
            rows = await job.switch(to, tenants)
        elif action == "switch-back":
            rows = await job.switch("", tenants)
        elif action == "finish":
            embedded = await job.finish(to)
            counts = ", ".join(f"{n} {kind} rows" for kind, n in sorted(embedded.items())) or "nothing left"
            print(
                f"{to} is now the store's model (embedded here: {counts}); start every daemon and worker "
                "with it as embedding.* and [reembed] off",
                file=out,
            )
            return 0
        else:

            def progress(p: Progress) -> None:
                print(progress_line(p), file=out, flush=True)

            rows = await job.run(to, tenants, batch=batch, on_progress=progress)
            # Processes that had not yet seen the re-embed may have written rows without the new
            # vector just before a switch: wait until every process has, then fill those.
            await asyncio.sleep(settings.reembed.settle_seconds)
            await job.fill_missed(to, [r.tenant_id for r in rows])
            rows = await job.status(to, [r.tenant_id for r in rows])
    print(_table(rows, to), file=out)
    return 0


def progress_line(p: Progress) -> str:
    """One progress line, e.g. "t-a: 48/100 rows · all tenants 148/300, 96 rows/s, ETA 3 s" (ETA once rows land)."""
    eta = f"{p.eta_seconds:.0f} s" if math.isfinite(p.eta_seconds) else "unknown"
    return (
        f"{p.tenant_id}: {p.tenant_filled}/{p.tenant_total} rows · all tenants {p.filled}/{p.total}, "
        f"{p.rows_per_second:.0f} rows/s, ETA {eta}"
    )


def _table(rows: Sequence[TenantProgress], model: str) -> str:
    body = [[r.tenant_id, r.total, r.total - r.missing, r.missing, r.space or "(store's model)"] for r in rows]
    return table(body, ["tenant", "rows", f"in {model}", "missing", "Recall searches"])
