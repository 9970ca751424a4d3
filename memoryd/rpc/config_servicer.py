"""ConfigService over gRPC: decode, one service call, encode."""

from __future__ import annotations

from memoryd.app import App
from memoryd.core.keys import KeyScope
from memoryd.rpc._gen.memoryd.v1 import config_pb2 as gpb
from memoryd.rpc._gen.memoryd.v1 import config_pb2_grpc as gpb_grpc
from memoryd.rpc.convert import config as wire
from memoryd.rpc.identity import Ctx, actor, caller, principal, tenant_of
from memoryd.rpc.status import translated


class ConfigServicer(gpb_grpc.ConfigServiceServicer):
    """Thin shell over ``App.configs``."""

    def __init__(self, app: App) -> None:
        self._app = app

    @translated
    async def SetTenantConfig(self, request: gpb.SetTenantConfigRequest, context: Ctx) -> gpb.SetTenantConfigResponse:
        """See the proto."""
        config = await self._app.working.configs.set_tenant(
            caller(context),
            wire.decoded(request.values),
            tuple(request.unset),
            request.expected_version,
            careful=principal().scope is KeyScope.NON_DESTRUCTIVE,
        )
        return gpb.SetTenantConfigResponse(config=wire.stored("", config))

    @translated
    async def SetAgentConfig(self, request: gpb.SetAgentConfigRequest, context: Ctx) -> gpb.SetAgentConfigResponse:
        """See the proto."""
        config = await self._app.working.configs.set_agent(
            caller(context),
            request.agent_id,
            wire.decoded(request.values),
            tuple(request.unset),
            request.expected_version,
            careful=principal().scope is KeyScope.NON_DESTRUCTIVE,
        )
        return gpb.SetAgentConfigResponse(config=wire.stored(request.agent_id, config))

    @translated
    async def GetEffectiveConfig(
        self, request: gpb.GetEffectiveConfigRequest, context: Ctx
    ) -> gpb.GetEffectiveConfigResponse:
        """See the proto."""
        tenant = actor(context, request.agent_id, "").tenant_id if request.agent_id else tenant_of(context)
        resolved, tenant_version, agent_version = await self._app.working.configs.effective(tenant, request.agent_id)
        return gpb.GetEffectiveConfigResponse(
            settings=wire.effective(resolved.values()), tenant_version=tenant_version, agent_version=agent_version
        )
