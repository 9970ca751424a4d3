"""Who is calling: the one place a caller's tenant (and, with API keys, its key) is read from call metadata.

Every servicer turns its request into an ``Actor`` here; nothing else reads metadata.
"""

from __future__ import annotations

from typing import Any

import grpc

from memoryd.core.errors import Unauthenticated
from memoryd.core.models import Actor
from memoryd.core.validation import check_tenant

TENANT_METADATA_KEY = "x-tenant-id"

Ctx = grpc.aio.ServicerContext[Any, Any]


def tenant_of(context: Ctx) -> str:
    """The caller's tenant: exactly one ``x-tenant-id`` entry (never a field of the body)."""
    tenants = [v for k, v in context.invocation_metadata() or () if k == TENANT_METADATA_KEY]
    if len(tenants) != 1 or not isinstance(tenants[0], str):
        raise Unauthenticated(f"exactly one {TENANT_METADATA_KEY!r} metadata entry is required")
    return check_tenant(tenants[0])


def actor(context: Ctx, agent_id: str, end_user_id: str) -> Actor:
    """The caller: tenant from metadata, agent and contact from the request."""
    return Actor(tenant_of(context), agent_id, end_user_id)
