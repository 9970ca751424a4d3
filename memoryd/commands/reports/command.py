"""`memoryd report [--tenant T] [--agent A] [--since DATE] [--json PATH] [--html PATH]`.

Without ``--tenant`` it reports every tenant of the store, one after the other. It reads the
store directly (DuckDB over the Lance tables), so it needs no daemon and no job queue.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from memoryd.app import command_app
from memoryd.commands.reports.page import usage_page
from memoryd.commands.reports.text import usage_text
from memoryd.config import Settings
from memoryd.config.errors import ConfigError
from memoryd.core.errors import InvalidRequest
from memoryd.core.usage import UsageReport, report_to_dict


def _written(path: Path, text: str, option: str) -> str:
    """Write ``text`` to ``path``, its directories made; a path that cannot be written is one line naming ``option``."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    except OSError as exc:
        raise ConfigError(f"{option} {str(path)!r}: {exc.strerror}") from None
    return f"wrote {path}"


def parse_since(value: str) -> datetime:
    """``2026-11-01`` or a full ISO time; naive times are UTC."""
    try:
        at = datetime.fromisoformat(value)
    except ValueError:
        raise InvalidRequest("--since", f"{value!r} is not an ISO date or time (e.g. 2026-11-01)") from None
    at = at if at.tzinfo else at.replace(tzinfo=UTC)
    if at > datetime.now(UTC):  # the report's own check would name its field, since, not the option
        raise InvalidRequest("--since", f"{value!r} is in the future")
    return at


async def run_report(
    settings: Settings,
    *,
    tenant_id: str = "",
    agent_id: str = "",
    since: datetime | None = None,
    json_path: Path | None = None,
    html_path: Path | None = None,
    fail_on_alarm: bool = False,
    out: TextIO | None = None,
) -> int:
    """Print the report(s); write the JSON and HTML files when asked. 1 on an alarm if ``fail_on_alarm``."""
    out = out or sys.stdout  # read at call time (tests and callers may swap it)
    if agent_id and not tenant_id:
        raise InvalidRequest("--agent", "needs --tenant")
    async with command_app(settings) as app:
        if tenant_id:
            await app.admin.directory.check(tenant_id, agent_id)
        tenants = [tenant_id] if tenant_id else sorted({t for t, _ in await app.memory.ports.agents.agents()})
        reports: list[tuple[str, UsageReport]] = [
            (t, await app.admin.usage.report(t, agent_id, since)) for t in tenants
        ]
    if not reports:
        print("the store holds no memories yet", file=out)
    for i, (tenant, report) in enumerate(reports):
        print(("\n" if i else "") + usage_text(tenant, report, agent_id), file=out)
    if json_path is not None:
        body = {"tenants": {t: report_to_dict(r) for t, r in reports}, "agent_id": agent_id or None}
        print(_written(json_path, json.dumps(body, indent=2, sort_keys=True), "--json"), file=out)
    if html_path is not None:
        titles = [(f"{t} / {agent_id}" if agent_id else t, r) for t, r in reports]
        print(_written(html_path, usage_page(titles), "--html"), file=out)
    return 1 if fail_on_alarm and any(r.alarms for _, r in reports) else 0
