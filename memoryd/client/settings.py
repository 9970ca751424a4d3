"""Stored settings on the wire: Python values to ``ConfigValue`` and back (ConfigService's messages)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memoryd.rpc.client import gpb

Setting = bool | int | float | str


def config_value(value: Setting) -> gpb.ConfigValue:
    """A Python value as a ``ConfigValue`` (bool before int: ``True`` is an int too)."""
    if isinstance(value, bool):
        return gpb.ConfigValue(bool_value=value)
    if isinstance(value, int):
        return gpb.ConfigValue(int_value=value)
    if isinstance(value, float):
        return gpb.ConfigValue(double_value=value)
    if isinstance(value, str):
        return gpb.ConfigValue(string_value=value)
    raise TypeError(f"a setting is a bool, int, float or str, not {type(value).__name__}")


def python_value(value: gpb.ConfigValue) -> Setting:
    """A ``ConfigValue`` as a Python value."""
    kind = value.WhichOneof("kind")
    if kind is None:
        raise ValueError("the ConfigValue holds no value")
    out: Setting = getattr(value, kind)
    return out


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
