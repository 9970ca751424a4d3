"""Who is calling: the one place a caller's tenant (and, with API keys, its key) is read from call metadata.

Every servicer turns its request into an ``Actor`` here; nothing else reads metadata.
"""

from __future__ import annotations

import hmac
from typing import Any

import grpc

from memoryd.core.errors import PermissionDenied, Unauthenticated
from memoryd.core.job_records import SYSTEM_TENANT
from memoryd.core.models import Actor
from memoryd.core.validation import check_tenant

TENANT_METADATA_KEY = "x-tenant-id"
OPERATOR_METADATA_KEY = "x-operator-key"

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


def job_partition(context: Ctx, operator_batches: bool, operator_key: str) -> str:
    """The ledger partition a JobService call reads: the caller's tenant, or the batches' (operator path).

    The operator path needs ``x-operator-key`` to equal the configured key (compared in constant
    time); without a configured key it is off.
    """
    if not operator_batches:
        return tenant_of(context)
    if not operator_key:
        raise PermissionDenied("operator_batches: the operator path is off (server.operator_key is not set)")
    given = [v for k, v in context.invocation_metadata() or () if k == OPERATOR_METADATA_KEY]
    if len(given) != 1 or not isinstance(given[0], str) or not hmac.compare_digest(given[0], operator_key):
        raise PermissionDenied(f"operator_batches needs the {OPERATOR_METADATA_KEY!r} metadata of this server")
    return SYSTEM_TENANT
