"""KeyService over gRPC: decode, one service call, encode."""

from __future__ import annotations

from memoryd.app import App
from memoryd.core.errors import InvalidRequest, PermissionDenied
from memoryd.core.keys import Role
from memoryd.rpc._gen.memoryd.v1 import keys_pb2 as kpb
from memoryd.rpc._gen.memoryd.v1 import keys_pb2_grpc as kpb_grpc
from memoryd.rpc.convert import keys as wire
from memoryd.rpc.identity import Ctx, caller, principal, tenant_of
from memoryd.rpc.status import translated


class KeyServicer(kpb_grpc.KeyServiceServicer):
    """Admins manage their tenant's keys."""

    def __init__(self, app: App) -> None:
        self._app = app

    @translated
    async def CreateKey(self, request: kpb.CreateKeyRequest, context: Ctx) -> kpb.CreateKeyResponse:
        """A key of the caller's tenant, at most the caller's role; system keys come from the command line."""
        role = wire.FROM_WIRE.get(request.role)
        if role is None:
            raise InvalidRequest("role", "is required: KEY_ROLE_AGENT, KEY_ROLE_OPERATOR or KEY_ROLE_ADMIN")
        if role is Role.SYSTEM or role > principal().role:
            raise PermissionDenied(f"role: a {principal().role.label} key cannot create a {role.label} key")
        scope = wire.SCOPES_FROM_WIRE.get(request.scope)
        if scope is None:
            raise InvalidRequest("scope", f"unknown key scope {request.scope}")
        if not principal().scope.allows(scope):
            raise PermissionDenied(f"scope: a {principal().scope.value} key cannot create a {scope.value} key")
        key, token = await self._app.admin.keys.create(
            tenant_of(context), role, request.agent_id, request.name, by=caller(context), scope=scope
        )
        return kpb.CreateKeyResponse(key=wire.api_key(key), token=token)

    @translated
    async def ListKeys(self, request: kpb.ListKeysRequest, context: Ctx) -> kpb.ListKeysResponse:
        """The tenant's keys, oldest first."""
        return kpb.ListKeysResponse(keys=[wire.api_key(k) for k in await self._app.admin.keys.list(tenant_of(context))])

    @translated
    async def RevokeKey(self, request: kpb.RevokeKeyRequest, context: Ctx) -> kpb.RevokeKeyResponse:
        """Revoke a key of the tenant (NOT_FOUND for another tenant's)."""
        if not request.key_id:
            raise InvalidRequest("key_id", "is required")
        revoked = await self._app.admin.keys.revoke(tenant_of(context), request.key_id, by=caller(context))
        return kpb.RevokeKeyResponse(key=wire.api_key(revoked))

    @translated
    async def WhoAmI(self, request: kpb.WhoAmIRequest, context: Ctx) -> kpb.WhoAmIResponse:
        """The verified caller: tenant, role, key and pinned agent."""
        who = principal()
        return kpb.WhoAmIResponse(
            tenant_id=tenant_of(context),
            role=wire.ROLES[who.role],
            key_id=who.key_id,
            agent_id=who.agent_id,
            protected_mode=not who.key_id,
            scope=wire.SCOPES[who.scope],
        )
