"""ConfigService over gRPC: decode, one service call, encode."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from memoryd.app import App
from memoryd.client.settings import config_value, python_value
from memoryd.core.agent_config import SETTINGS, Effective, Level, StoredConfig, Tighten, Value
from memoryd.core.errors import InvalidRequest
from memoryd.rpc._gen.memoryd.v1 import config_pb2 as gpb
from memoryd.rpc._gen.memoryd.v1 import config_pb2_grpc as gpb_grpc
from memoryd.rpc.identity import Ctx, actor, caller, tenant_of
from memoryd.rpc.status import translated

_LEVELS = {
    Level.DEFAULT: gpb.CONFIG_LEVEL_DEFAULT,
    Level.TENANT: gpb.CONFIG_LEVEL_TENANT,
    Level.DAEMON_AGENT: gpb.CONFIG_LEVEL_DAEMON_AGENT,
    Level.AGENT: gpb.CONFIG_LEVEL_AGENT,
}


def _decoded(values: Mapping[str, gpb.ConfigValue]) -> dict[str, Value]:
    out: dict[str, Value] = {}
    for key, v in values.items():
        if v.WhichOneof("kind") is None:
            raise InvalidRequest(f"values[{key}]", "has no value (set one of bool/int/double/string_value)")
        out[key] = python_value(v)
    return out


def _stored(agent_id: str, config: StoredConfig) -> gpb.StoredConfig:
    values = {k: config_value(v) for k, v in config.values.items()}
    return gpb.StoredConfig(agent_id=agent_id, values=values, version=config.version)


def _effective(items: Iterable[Effective]) -> list[gpb.EffectiveSetting]:
    return [
        gpb.EffectiveSetting(
            key=e.key,
            value=config_value(e.value),
            level=_LEVELS[e.level],
            capped=e.capped,
            tighten_only=SETTINGS[e.key].tighten is not Tighten.NONE,
            description=SETTINGS[e.key].doc,
        )
        for e in sorted(items, key=lambda e: e.key)
    ]


class ConfigServicer(gpb_grpc.ConfigServiceServicer):
    """Thin shell over ``App.configs``."""

    def __init__(self, app: App) -> None:
        self._app = app

    @translated
    async def SetTenantConfig(self, request: gpb.SetTenantConfigRequest, context: Ctx) -> gpb.SetTenantConfigResponse:
        """See the proto."""
        config = await self._app.configs.set_tenant(
            caller(context), _decoded(request.values), tuple(request.unset), request.expected_version
        )
        return gpb.SetTenantConfigResponse(config=_stored("", config))

    @translated
    async def SetAgentConfig(self, request: gpb.SetAgentConfigRequest, context: Ctx) -> gpb.SetAgentConfigResponse:
        """See the proto."""
        config = await self._app.configs.set_agent(
            caller(context),
            request.agent_id,
            _decoded(request.values),
            tuple(request.unset),
            request.expected_version,
        )
        return gpb.SetAgentConfigResponse(config=_stored(request.agent_id, config))

    @translated
    async def GetEffectiveConfig(
        self, request: gpb.GetEffectiveConfigRequest, context: Ctx
    ) -> gpb.GetEffectiveConfigResponse:
        """See the proto."""
        tenant = actor(context, request.agent_id, "").tenant_id if request.agent_id else tenant_of(context)
        resolved, tenant_version, agent_version = await self._app.configs.effective(tenant, request.agent_id)
        return gpb.GetEffectiveConfigResponse(
            settings=_effective(resolved.values()), tenant_version=tenant_version, agent_version=agent_version
        )
