"""KeyService: create, list and revoke API keys; turn a bearer token into a verified principal.

Verification reads the key row by id and compares the secret's hash. A verified key is cached for
``cache_seconds`` (default 1 s) and then read again, so a revocation written by any replica takes
effect everywhere within that time plus the store's read consistency (0 s on a local disk, 1 s by
default on object storage). The
same bound holds for protected mode: it ends for every replica within ``cache_seconds`` of the
first key being created. ``last_used_at`` is written at most once a minute per key.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import replace
from datetime import timedelta

from memoryd.core.errors import InvalidRequest, NotFound, PermissionDenied, Unauthenticated
from memoryd.core.event_log import Operation
from memoryd.core.job_records import SYSTEM_TENANT
from memoryd.core.keys import (
    KEY_ID_HEX,
    ApiKey,
    KeyScope,
    Principal,
    Role,
    compose_key,
    hash_secret,
    secret_matches,
    split_key,
)
from memoryd.core.models import Actor
from memoryd.core.ports import Clock, KeyStore
from memoryd.core.validation import check_agent_id, check_tenant, check_text
from memoryd.services.event_log import EventLog

_LAST_USED_EVERY = timedelta(minutes=1)
_NAME_CHARS = 200


class KeyService:
    """API keys: the admins' operations and the per-call verification."""

    def __init__(self, store: KeyStore, clock: Clock, cache_seconds: float = 1.0, *, trail: EventLog) -> None:
        self._store = store
        self._trail = trail
        self._clock = clock
        self._ttl = cache_seconds
        self._verified: dict[str, tuple[float, ApiKey]] = {}
        self._protected: tuple[float, bool] = (float("-inf"), True)

    async def create(
        self,
        tenant_id: str,
        role: Role,
        agent_id: str = "",
        name: str = "",
        *,
        by: Actor | None = None,
        scope: KeyScope = KeyScope.ALL,
    ) -> tuple[ApiKey, str]:
        """A new key and its bearer token (shown once: only the hash is kept); ``by``: who asked (audit log)."""
        if role is Role.SYSTEM:
            if tenant_id not in ("", SYSTEM_TENANT):  # taken for the tenant's key: it would act for every one
                raise InvalidRequest(
                    "x-tenant-id", f"a system key acts for every tenant, not {tenant_id!r} alone: name no tenant"
                )
            tenant_id = SYSTEM_TENANT
        else:
            check_tenant(tenant_id)
        if agent_id:
            check_agent_id(agent_id)
            if role is not Role.AGENT:
                raise InvalidRequest("agent_id", "only agent keys are pinned to an agent")
        check_text(name, "name", _NAME_CHARS)
        key_id, secret = secrets.token_hex(KEY_ID_HEX // 2), secrets.token_urlsafe(32)
        key = ApiKey(key_id, tenant_id, role, agent_id, name, hash_secret(secret), self._clock.now(), scope=scope)
        # The event first: a create whose event cannot be written leaves no key behind (an active
        # key nobody was given and nothing recorded is the worse failure; an event of a key that
        # was then never stored names an id that verifies nothing).
        await self._trail.write(tenant_id, Operation.KEY_CREATE, by, [key_id], (), {"role": int(role)})
        await self._store.put_key(key)
        self._protected = (float("-inf"), True)
        return key, compose_key(key_id, secret)

    async def list(self, tenant_id: str | None) -> list[ApiKey]:
        """A tenant's keys (every key with None), revoked ones included."""
        return await self._store.keys(tenant_id)

    async def revoke(self, tenant_id: str | None, key_id: str, *, by: Actor | None = None) -> ApiKey:
        """Revoke a key of ``tenant_id`` (any tenant with None); revoking twice keeps the first time."""
        key = await self._store.key(key_id)
        if key is None or (tenant_id is not None and key.tenant_id != tenant_id):
            raise NotFound(f"key {key_id!r} not found")
        if key.revoked_at is None:
            key = replace(key, revoked_at=self._clock.now())
            await self._store.put_key(key)
            await self._trail.write(key.tenant_id, Operation.KEY_REVOKE, by, [key_id])
        self._verified.pop(key_id, None)
        return key

    async def keys_required(self) -> bool:
        """Whether a key was ever made (then every call needs one); re-read after ``cache_seconds``.

        Revoked keys count: revoking the only key (a leaked admin's) had every loopback caller trusted
        as an admin again, the opposite of what the revocation was for.
        """
        checked_at, required = self._protected
        if time.monotonic() - checked_at >= self._ttl:
            required = await self._store.any_key()
            self._protected = (time.monotonic(), required)
        return required

    async def verify(self, token: str, tenant_header: str | None) -> Principal:
        """The principal of a bearer token; Unauthenticated for an unknown, wrong or revoked key.

        ``tenant_header`` is the call's ``x-tenant-id``: it must name the key's tenant, except for
        system keys, for which it names the tenant acted on.
        """
        key_id, secret = split_key(token)
        key = await self._fresh(key_id)
        if key is None or not secret_matches(key, secret):
            raise Unauthenticated("authorization: unknown API key")
        if key.revoked_at is not None:
            raise Unauthenticated(f"authorization: key {key_id!r} is revoked")
        if key.role is Role.SYSTEM:
            tenant = check_tenant(tenant_header) if tenant_header else SYSTEM_TENANT
        else:
            if tenant_header is not None and tenant_header != key.tenant_id:
                raise PermissionDenied("x-tenant-id: does not match the tenant of this API key")
            tenant = key.tenant_id
        return Principal(tenant, key.role, key.key_id, key.agent_id, key.scope)

    async def _fresh(self, key_id: str) -> ApiKey | None:
        """The key row, cached for ``cache_seconds``; touches ``last_used_at`` at most once a minute."""
        cached = self._verified.get(key_id)
        if cached is not None and time.monotonic() - cached[0] < self._ttl:
            return cached[1]
        key = await self._store.key(key_id)
        if key is None:
            self._verified.pop(key_id, None)
            return None
        now = self._clock.now()
        if key.active and (key.last_used_at is None or now - key.last_used_at >= _LAST_USED_EVERY):
            await self._store.touch_key(key_id, now)  # one column: never races a revocation back
            key = replace(key, last_used_at=now)
        if len(self._verified) > 10_000:  # a bound, not a policy: unknown ids are never cached
            self._verified.clear()
        self._verified[key_id] = (time.monotonic(), key)
        return key
