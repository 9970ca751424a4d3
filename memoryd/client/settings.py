"""ConfigService's messages for the client: effective values read, set requests built."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memoryd.rpc.client import gpb
from memoryd.rpc.config_values import Setting, config_value, python_value


def effective_values(reply: gpb.GetEffectiveConfigResponse) -> dict[str, tuple[Setting, str]]:
    """Every key's value and the level it came from ("default", "tenant", "daemon_agent", "agent")."""
    levels = {v: k.removeprefix("CONFIG_LEVEL_").lower() for k, v in gpb.ConfigLevel.items()}
    return {s.key: (python_value(s.value), levels[s.level]) for s in reply.settings}


def set_request(agent_id: str, values: Mapping[str, Setting], unset: Any, expected_version: int) -> Any:
    """A SetAgentConfigRequest (or, with no agent, SetTenantConfigRequest)."""
    wire = {k: config_value(v) for k, v in values.items()}
    if agent_id:
        return gpb.SetAgentConfigRequest(
            agent_id=agent_id, values=wire, unset=list(unset), expected_version=expected_version
        )
    return gpb.SetTenantConfigRequest(values=wire, unset=list(unset), expected_version=expected_version)
