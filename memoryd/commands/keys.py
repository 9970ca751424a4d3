"""``memoryd keys create|list|revoke``: API keys from the command line (the first admin key starts here)."""

from __future__ import annotations

import sys
from typing import TextIO

from memoryd.app import command_app
from memoryd.commands.table import table
from memoryd.config import Settings
from memoryd.core.errors import InvalidRequest
from memoryd.core.keys import ApiKey, KeyScope, Role


def _when(key: ApiKey) -> tuple[str, str, str]:
    def fmt(value: object) -> str:
        return value.strftime("%Y-%m-%d %H:%M") if hasattr(value, "strftime") else "-"

    return fmt(key.created_at), fmt(key.last_used_at), fmt(key.revoked_at)


def key_table(keys: list[ApiKey]) -> str:
    """Keys as a table (never a secret)."""
    rows = [[k.key_id, k.tenant_id, k.role.label, k.scope.value, k.agent_id or "*", k.name, *_when(k)] for k in keys]
    return table(rows, ["key id", "tenant", "role", "scope", "agent", "name", "created", "last used", "revoked"])


_FLAGS = {"x-tenant-id": "--tenant", "agent_id": "--agent", "name": "--name"}
"""The command's option for each field the keys service names in its errors."""


async def run_keys(
    settings: Settings,
    action: str,
    *,
    tenant_id: str = "",
    role: str = "agent",
    agent_id: str = "",
    name: str = "",
    key_id: str = "",
    scope: str = "all",
    out: TextIO = sys.stdout,
) -> int:
    """Create (prints the token once), list or revoke keys; returns the exit status."""
    async with command_app(settings, create=action == "create") as app:  # a first key may begin a store
        if action == "create":
            try:
                key, token = await app.admin.keys.create(
                    tenant_id, Role.parse(role), agent_id, name, scope=KeyScope.parse(scope)
                )
            except InvalidRequest as exc:  # name the option the operator typed, not the RPC's field
                raise InvalidRequest(_FLAGS.get(exc.field, exc.field), exc.problem) from None
            print(key_table([key]), file=out)
            print(f"\ntoken (shown once, store it now): {token}", file=out)
        elif action == "list":
            keys = await app.admin.keys.list(tenant_id or None)
            if tenant_id and not keys:  # a mistyped tenant is an error, not an empty table
                await app.admin.directory.check(tenant_id)
            print(key_table(keys), file=out)
        else:
            print(key_table([await app.admin.keys.revoke(tenant_id or None, key_id)]), file=out)
    return 0
