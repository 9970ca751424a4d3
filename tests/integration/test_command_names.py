"""A mistyped --tenant or --agent is an error naming the known ones, and nothing is written for it."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memoryd.app import build_app
from memoryd.commands.audit import run_audit
from memoryd.commands.data import run_erase, run_export, run_retention
from memoryd.commands.reports.command import run_report
from memoryd.config import Settings
from memoryd.core.errors import NotFound
from memoryd.core.models import Actor, MemoryDraft

pytestmark = pytest.mark.timeout(120)


async def _seed(settings: Settings) -> None:
    async with build_app(settings.without_maintenance()) as app:
        await app.memory.memorize.memorize(Actor("acme", "assistant"), MemoryDraft("Caroline prefers espresso"))


async def test_every_command_refuses_a_tenant_or_agent_the_store_does_not_know(settings: Settings) -> None:
    await _seed(settings)
    out = io.StringIO()
    for call in (
        run_report(settings, tenant_id="acmee", out=out),
        run_export(settings, "acmee", None, False, out),
        run_erase(settings, "acmee", "contact-1", out),
        run_retention(settings, "acmee", True, out),
        run_audit(settings, tenant_id="acmee", dry_run=True, out=out),
    ):
        with pytest.raises(NotFound, match=r"--tenant 'acmee' is not a tenant of this store \(tenants: acme\)"):
            await call
    for call in (
        run_report(settings, tenant_id="acme", agent_id="asistant", out=out),
        run_audit(settings, tenant_id="acme", agent_id="asistant", dry_run=True, out=out),
    ):
        with pytest.raises(NotFound, match=r"--agent 'asistant' has no memories in tenant 'acme' \(agents: assistant"):
            await call
    async with build_app(settings.without_maintenance()) as app:
        await app.admin.directory.check("acme", "assistant")  # the right names pass
        with pytest.raises(NotFound):
            await app.admin.directory.check("acmee")  # the refused erase wrote no event that would create the name
    assert out.getvalue() == ""


def test_the_command_line_prints_one_line_and_exits_non_zero(settings: Settings, tmp_path: Path) -> None:
    import asyncio

    asyncio.run(_seed(settings))
    data = settings.storage.uri
    done = subprocess.run(
        [sys.executable, "-m", "memoryd", "erase", "--tenant", "acmee", "--end-user", "u1", "--data", str(data)],
        capture_output=True,
        text=True,
        env={**os.environ, "LANCEDB_LOG": "error"},
        timeout=120,
    )
    assert done.returncode == 1
    expected = "memoryd: --tenant 'acmee' is not a tenant of this store (tenants: acme)"
    assert done.stderr.strip().splitlines() == [expected]
