"""Converters of the key service's messages (``key_servicer``: decode → call → encode)."""

from __future__ import annotations

from memoryd.core.keys import ApiKey, KeyScope, Role
from memoryd.rpc._gen.memoryd.v1 import keys_pb2 as kpb

ROLES = {
    Role.AGENT: kpb.KEY_ROLE_AGENT,
    Role.OPERATOR: kpb.KEY_ROLE_OPERATOR,
    Role.ADMIN: kpb.KEY_ROLE_ADMIN,
    Role.SYSTEM: kpb.KEY_ROLE_SYSTEM,
}
FROM_WIRE = {v: k for k, v in ROLES.items()}
SCOPES = {
    KeyScope.ALL: kpb.KEY_SCOPE_ALL,
    KeyScope.READ_ONLY: kpb.KEY_SCOPE_READ_ONLY,
    KeyScope.NON_DESTRUCTIVE: kpb.KEY_SCOPE_NON_DESTRUCTIVE,
}
SCOPES_FROM_WIRE = {v: k for k, v in SCOPES.items()} | {kpb.KEY_SCOPE_UNSPECIFIED: KeyScope.ALL}


def api_key(k: ApiKey) -> kpb.ApiKey:
    """An ApiKey as a message (never the secret or its hash)."""
    return kpb.ApiKey(
        key_id=k.key_id,
        tenant_id=k.tenant_id,
        role=ROLES[k.role],
        agent_id=k.agent_id,
        name=k.name,
        created_at=k.created_at,
        last_used_at=k.last_used_at,
        revoked_at=k.revoked_at,
        scope=SCOPES[k.scope],
    )
