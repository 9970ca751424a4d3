"""Who is calling: the one place a caller is read from call metadata and turned into an ``Actor``.

``admit`` runs before every memoryd method (the ``Authenticate`` interceptor): it verifies the
bearer key (or, in protected mode, trusts the loopback caller's ``x-tenant-id``), checks the
method against the key's role, and leaves the principal in a context variable for the call. Every
servicer turns its request into an ``Actor`` here; nothing else reads metadata.
"""

from __future__ import annotations

import hmac
from contextvars import ContextVar
from typing import Any

import grpc

from memoryd.core.errors import PermissionDenied, Unauthenticated
from memoryd.core.job_records import SYSTEM_TENANT
from memoryd.core.keys import Principal, Role, Rule, authorize, check_agent
from memoryd.core.models import Actor
from memoryd.core.validation import check_tenant
from memoryd.services.keys import KeyService

TENANT_METADATA_KEY = "x-tenant-id"
OPERATOR_METADATA_KEY = "x-operator-key"
AUTHORIZATION_METADATA_KEY = "authorization"

Ctx = grpc.aio.ServicerContext[Any, Any]

_PRINCIPAL: ContextVar[Principal | None] = ContextVar("memoryd_principal", default=None)
_METHOD: ContextVar[str] = ContextVar("memoryd_method", default="")


def _entries(context: Ctx, name: str) -> list[Any]:
    return [v for k, v in context.invocation_metadata() or () if k == name]


def _tenant_header(context: Ctx) -> str | None:
    """The ``x-tenant-id`` entry: None when absent; more than one is refused."""
    tenants = _entries(context, TENANT_METADATA_KEY)
    if not tenants:
        return None
    if len(tenants) != 1 or not isinstance(tenants[0], str):
        raise Unauthenticated(f"exactly one {TENANT_METADATA_KEY!r} metadata entry is required")
    return check_tenant(tenants[0])


async def admit(context: Ctx, method: str, keys: KeyService, trust_without_keys: bool) -> tuple[Principal, Rule]:
    """The verified caller of ``method`` (``Service/Method``) and the method's rule.

    ``trust_without_keys``: protected mode is allowed (a loopback listener, or ``auth.insecure``);
    it applies while no active key exists.
    """
    given = _entries(context, AUTHORIZATION_METADATA_KEY)
    tenant = _tenant_header(context)
    if given:
        scheme, _, token = str(given[0]).partition(" ")
        if len(given) != 1 or scheme.lower() != "bearer" or not token.strip():
            raise Unauthenticated("authorization: expected exactly one 'Bearer <API key>' entry")
        principal = await keys.verify(token.strip(), tenant)
    elif not trust_without_keys or await keys.keys_required():
        raise Unauthenticated("authorization: this server requires an API key ('authorization: Bearer mdk_...')")
    else:  # protected mode: a loopback listener and no keys yet; the tenant is whatever the caller names
        principal = Principal(tenant or "", Role.ADMIN)
    return principal, authorize(principal, method)


def bind(principal: Principal, method: str = "") -> None:
    """Make ``principal`` the caller of the running call, through ``method`` (the interceptor does, first)."""
    _PRINCIPAL.set(principal)
    _METHOD.set(method)


def principal() -> Principal:
    """The verified caller of the running call."""
    found = _PRINCIPAL.get()
    if found is None:  # a method reached without the interceptor: a wiring bug, refuse rather than trust
        raise Unauthenticated("the caller was not authenticated")
    return found


def tenant_of(context: Ctx) -> str:
    """The caller's tenant (the key's; in protected mode, the one ``x-tenant-id`` entry)."""
    tenant = principal().tenant_id
    if not tenant or tenant == SYSTEM_TENANT:
        raise Unauthenticated(f"exactly one {TENANT_METADATA_KEY!r} metadata entry is required")
    return tenant


def actor(context: Ctx, agent_id: str, end_user_id: str) -> Actor:
    """The caller acting as ``agent_id`` for ``end_user_id``; a key pinned to another agent is refused."""
    who = principal()
    tenant = tenant_of(context)
    check_agent(who, agent_id)
    return Actor(tenant, agent_id, end_user_id, who.role, who.key_id, _METHOD.get())


def caller(context: Ctx) -> Actor:
    """The caller as an actor of no particular agent (key management: who asked, for the audit log)."""
    who = principal()
    return Actor(tenant_of(context), who.agent_id, "", who.role, who.key_id, _METHOD.get())


def job_partition(context: Ctx, operator_batches: bool, operator_key: str) -> str:
    """The ledger partition a JobService call reads: the caller's tenant, or the batches' (operator path).

    The operator path is open to system keys, and to calls whose ``x-operator-key`` equals the
    configured key (compared in constant time; without a configured key that door is shut).
    """
    if not operator_batches:
        return tenant_of(context)
    if principal().role is Role.SYSTEM:
        return SYSTEM_TENANT
    if not operator_key:
        raise PermissionDenied("operator_batches: needs a system key (server.operator_key is not set)")
    given = _entries(context, OPERATOR_METADATA_KEY)
    if len(given) != 1 or not isinstance(given[0], str) or not hmac.compare_digest(given[0], operator_key):
        raise PermissionDenied(f"operator_batches needs a system key or the {OPERATOR_METADATA_KEY!r} of this server")
    return SYSTEM_TENANT
