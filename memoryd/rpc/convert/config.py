"""Converters of the config service's messages (``config_servicer``: decode → call → encode)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from memoryd.core.agent_config import SETTINGS, Effective, Level, StoredConfig, Tighten, Value
from memoryd.core.errors import InvalidRequest
from memoryd.rpc._gen.memoryd.v1 import config_pb2 as gpb
from memoryd.rpc.config_values import config_value, python_value

LEVELS = {
    Level.DEFAULT: gpb.CONFIG_LEVEL_DEFAULT,
    Level.TENANT: gpb.CONFIG_LEVEL_TENANT,
    Level.DAEMON_AGENT: gpb.CONFIG_LEVEL_DAEMON_AGENT,
    Level.AGENT: gpb.CONFIG_LEVEL_AGENT,
}


def decoded(values: Mapping[str, gpb.ConfigValue]) -> dict[str, Value]:
    """Stored values from the wire, each checked to be one of ConfigValue's kinds (INVALID_ARGUMENT naming the key)."""
    out: dict[str, Value] = {}
    for key, v in values.items():
        if v.WhichOneof("kind") is None:
            raise InvalidRequest(f"values[{key}]", "has no value (set one of bool/int/double/string_value)")
        out[key] = python_value(v)
    return out


def stored(agent_id: str, config: StoredConfig) -> gpb.StoredConfig:
    """A stored config row on the wire."""
    values = {k: config_value(v) for k, v in config.values.items()}
    return gpb.StoredConfig(agent_id=agent_id, values=values, version=config.version)


def effective(items: Iterable[Effective]) -> list[gpb.EffectiveSetting]:
    """What an agent runs with, each key with its level, on the wire."""
    return [
        gpb.EffectiveSetting(
            key=e.key,
            value=config_value(e.value),
            level=LEVELS[e.level],
            capped=e.capped,
            tighten_only=SETTINGS[e.key].tighten is not Tighten.NONE,
            description=SETTINGS[e.key].doc,
        )
        for e in sorted(items, key=lambda e: e.key)
    ]
