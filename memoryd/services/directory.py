"""Directory: which tenants and agents the store knows, so commands refuse a name it does not.

A mistyped ``--tenant`` used to exit 0 with zeros (and ``erase`` wrote its event into the new name,
which then refused an ``import``); nothing is read or written for a name the store does not know.
"""

from __future__ import annotations

from memoryd.core.errors import NotFound
from memoryd.core.ports import AgentDirectory, TenantArchive

_SHOWN = 20


def _names(names: list[str]) -> str:
    shown = ", ".join(names[:_SHOWN]) + (f" and {len(names) - _SHOWN} more" if len(names) > _SHOWN else "")
    return shown or "none yet"


class Directory:
    """The tenants with anything stored and the agents with memories."""

    def __init__(self, archive: TenantArchive, agents: AgentDirectory) -> None:
        self._archive = archive
        self._agents = agents

    async def check(self, tenant_id: str, agent_id: str = "") -> None:
        """NotFound naming the known ones unless ``tenant_id`` (and ``agent_id``'s memories there) exist."""
        tenants = await self._archive.tenants()
        if tenant_id not in tenants:
            raise NotFound(f"--tenant {tenant_id!r} is not a tenant of this store (tenants: {_names(tenants)})")
        if agent_id:
            agents = sorted(a for t, a in await self._agents.agents() if t == tenant_id)
            if agent_id not in agents:
                raise NotFound(
                    f"--agent {agent_id!r} has no memories in tenant {tenant_id!r} (agents: {_names(agents)})"
                )
