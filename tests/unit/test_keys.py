"""Keys and roles as values and the key service on fakes."""

from __future__ import annotations

import pytest

from memoryd.core.errors import InvalidRequest, NotFound, PermissionDenied, Unauthenticated
from memoryd.core.job_records import SYSTEM_TENANT
from memoryd.core.keys import METHOD_RULES, Principal, Role, authorize, check_agent, hash_secret, split_key
from memoryd.rpc.server import SERVICE_NAMES
from memoryd.services.event_log import EventLog
from memoryd.services.keys import KeyService
from tests.fakes import FrozenClock, InMemoryEventLog, InMemoryKeys


def test_every_method_of_every_service_has_a_rule_and_every_rule_a_method() -> None:
    from google.protobuf import descriptor_pool

    pool = descriptor_pool.Default()
    methods = {
        f"{name.rsplit('.', 1)[1]}/{m.name}" for name in SERVICE_NAMES for m in pool.FindServiceByName(name).methods
    }
    assert set(METHOD_RULES) == methods  # a rule for every method, and no rule for a method that is gone


def test_roles_include_the_lower_ones_and_unknown_methods_are_refused() -> None:
    operator = Principal("acme", Role.OPERATOR, "k")
    assert authorize(operator, "MemoryService/Recall").role is Role.AGENT
    assert authorize(operator, "AuditService/GetUsageReport").role is Role.OPERATOR
    assert authorize(Principal("acme", Role.AGENT, "k", "a1"), "AuditService/ReviewMemories").role is Role.AGENT
    with pytest.raises(PermissionDenied, match="needs the admin role"):
        authorize(operator, "KeyService/CreateKey")
    with pytest.raises(PermissionDenied, match="no role may call"):
        authorize(Principal("acme", Role.SYSTEM), "MemoryService/DropEverything")
    check_agent(Principal("acme", Role.AGENT, "k", "a1"), "a1")
    with pytest.raises(PermissionDenied, match="pinned"):
        check_agent(Principal("acme", Role.AGENT, "k", "a1"), "a2")


@pytest.mark.parametrize("token", ["", "mdk_", "mdk_short_x", "mdk_0123456789abcdef_", "sk-0123456789abcdef_x"])
def test_malformed_tokens_are_unauthenticated(token: str) -> None:
    with pytest.raises(Unauthenticated):
        split_key(token)


async def test_keys_keep_only_a_hash_and_verify_revoke_and_pin() -> None:
    store = InMemoryKeys()
    keys = KeyService(store, FrozenClock(), cache_seconds=60, trail=EventLog(InMemoryEventLog(), FrozenClock()))
    assert not await keys.keys_required()
    key, token = await keys.create("acme", Role.AGENT, "a1", "bot")
    secret = token.split("_", 2)[2]
    assert secret not in repr(store.by_id) and store.by_id[key.key_id].secret_hash == hash_secret(secret)
    assert await keys.keys_required()
    who = await keys.verify(token, None)
    assert (who.tenant_id, who.role, who.agent_id) == ("acme", Role.AGENT, "a1")
    assert store.by_id[key.key_id].last_used_at is not None
    with pytest.raises(PermissionDenied, match="x-tenant-id"):
        await keys.verify(token, "globex")
    with pytest.raises(Unauthenticated, match="unknown"):
        await keys.verify(token[:-2] + "zz", None)
    with pytest.raises(NotFound):
        await keys.revoke("globex", key.key_id)
    await keys.revoke("acme", key.key_id)
    with pytest.raises(Unauthenticated, match="revoked"):
        await keys.verify(token, None)


async def test_system_keys_act_on_the_tenant_they_name_and_pins_are_for_agent_keys() -> None:
    keys = KeyService(InMemoryKeys(), FrozenClock(), trail=EventLog(InMemoryEventLog(), FrozenClock()))
    with pytest.raises(InvalidRequest, match="x-tenant-id: a system key acts for every tenant, not 'acme' alone"):
        await keys.create("acme", Role.SYSTEM)  # was made, silently, for every tenant
    system, token = await keys.create("", Role.SYSTEM)
    assert system.tenant_id == SYSTEM_TENANT
    assert (await keys.verify(token, "globex")).tenant_id == "globex"
    assert (await keys.verify(token, None)).tenant_id == SYSTEM_TENANT
    with pytest.raises(InvalidRequest, match="agent_id"):
        await keys.create("acme", Role.OPERATOR, "a1")
    with pytest.raises(InvalidRequest, match="x-tenant-id"):
        await keys.create("bad tenant!", Role.AGENT)


class _RefusingAuditLog(InMemoryEventLog):
    async def append_events(self, tenant_id: str, events: object) -> None:
        raise OSError("the event log is not writable")


async def test_a_create_whose_event_cannot_be_written_leaves_no_key() -> None:
    store = InMemoryKeys()
    keys = KeyService(store, FrozenClock(), trail=EventLog(_RefusingAuditLog(), FrozenClock()))
    with pytest.raises(OSError, match="not writable"):
        await keys.create("acme", Role.ADMIN, name="ops")
    assert store.by_id == {} and not await keys.keys_required()
