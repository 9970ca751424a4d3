"""A mistyped --tenant, --agent or --data is an error naming it, and nothing is written for it."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memoryd.app import build_app
from memoryd.commands.audit import run_audit
from memoryd.commands.data import run_erase, run_export, run_import, run_retention
from memoryd.commands.keys import run_keys
from memoryd.commands.reports.command import run_report
from memoryd.config import Settings
from memoryd.config.errors import ConfigError
from memoryd.core.errors import InvalidRequest, NotFound
from memoryd.core.models import Actor, MemoryDraft, Scope

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


async def test_a_contact_the_tenant_holds_nothing_of_is_named_not_erased_or_exported_in_silence(
    settings: Settings,
) -> None:
    """A mistyped contact id answered "erased" with zero rows while the real contact's data stayed."""
    async with build_app(settings.without_maintenance()) as app:
        draft = MemoryDraft("Maria prefers email", scope=Scope.END_USER)
        await app.memory.memorize.memorize(Actor("acme", "assistant", "maria"), draft)
    out = io.StringIO()
    said = r"--end-user 'mariaa': tenant 'acme' holds nothing of this contact; nothing {} \(check the id\)"
    with pytest.raises(NotFound, match=said.format("exported")):
        await run_export(settings, "acme", "mariaa", False, out, out)
    with pytest.raises(NotFound, match=said.format("erased")):
        await run_erase(settings, "acme", "mariaa", out)
    assert await run_export(settings, "acme", "maria", False, out, io.StringIO()) == 0
    assert '"content":"Maria prefers email"' in out.getvalue()
    assert await run_erase(settings, "acme", "maria", out) == 0 and "memories                  1" in out.getvalue()


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
        cwd=Path(data).parent,  # not beside a `make run` of this checkout: its var/up.json names another store
    )
    assert done.returncode == 1
    expected = "memoryd: --tenant 'acmee' is not a tenant of this store (tenants: acme)"
    assert done.stderr.strip().splitlines() == [expected]


async def test_a_command_over_a_store_that_does_not_exist_refuses_it_and_creates_nothing(
    settings: Settings, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "dta"  # a typo of the store's directory: once created empty and reported as empty
    there = settings.model_copy(update={"storage": settings.storage.model_copy(update={"uri": str(missing)})})
    out = io.StringIO()
    for call in (
        run_report(there, out=out),
        run_keys(there, "list", out=out),
        run_export(there, "acme", None, False, out),
        run_erase(there, "acme", "contact-1", out),
        run_retention(there, "", True, out),
        run_audit(there, dry_run=True, out=out),
    ):
        with pytest.raises(ConfigError, match=rf"storage.uri '{missing}' holds no memoryd store"):
            await call
    assert not missing.exists() and out.getvalue() == ""
    capsys.readouterr()
    assert await run_keys(there, "create", tenant_id="acme", role="admin", out=out) == 0  # a first key begins one
    began = f"memoryd: began a new store at '{missing}' (none was there); a daemon must use it as --data / storage.uri"
    assert capsys.readouterr().err.splitlines() == [began]  # not silent: the daemon may be reading another store
    assert await run_keys(there, "create", tenant_id="acme", role="agent", agent_id="a1", out=out) == 0
    assert await run_keys(there, "list", out=out) == 0 and out.getvalue().count("acme") == 4
    assert capsys.readouterr().err == ""  # the store is there now
    export = tmp_path / "empty.jsonl"
    export.write_text("")
    fresh = there.model_copy(update={"storage": there.storage.model_copy(update={"uri": str(tmp_path / "new")})})
    with pytest.raises(InvalidRequest, match="header"):  # an import may begin a store: it gets as far as the file
        await run_import(fresh, "acme", export, out)
