"""The audit log against the real daemon: one event per mutation, never the content, admins only."""

from __future__ import annotations

import re

import grpc
import pytest

from memoryd.core.keys import Role
from memoryd.rpc.client import (
    AuditServiceStub,
    KeyServiceStub,
    MemoryServiceStub,
    ProfileServiceStub,
    apb,
    bearer,
    kpb,
    pb,
    ppb,
)
from tests.conftest import LiveServer

pytestmark = pytest.mark.timeout(120)


def test_every_mutation_leaves_an_event_without_content(live_server: LiveServer) -> None:
    assert live_server.app is not None
    app = live_server.app
    _, admin = live_server.run(app.admin.keys.create("acme", Role.ADMIN))
    _, agent = live_server.run(app.admin.keys.create("acme", Role.AGENT))
    secret = "Nadia's locker code is 4471"
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as ch:
        stub, audits = MemoryServiceStub(ch), AuditServiceStub(ch)
        as_agent, as_admin = (bearer(agent),), (bearer(admin),)
        written = stub.Memorize(
            pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content=secret)), metadata=as_agent
        ).memory
        stub.UpdateMemory(
            pb.UpdateMemoryRequest(agent_id="a1", memory_id=written.id, content=secret + " (changed)"),
            metadata=as_agent,
        )
        profiles = ProfileServiceStub(ch)
        current = profiles.GetProfile(ppb.GetProfileRequest(agent_id="a1"), metadata=as_agent).profile
        profiles.EditProfile(
            ppb.EditProfileRequest(
                agent_id="a1",
                expected_revision=current.revision,
                append=ppb.AppendLine(section="Notes", line="- " + secret),
            ),
            metadata=as_agent,
        )
        stub.Forget(pb.ForgetRequest(agent_id="a1", memory_id=written.id), metadata=as_agent)
        made = KeyServiceStub(ch).CreateKey(kpb.CreateKeyRequest(role=kpb.KEY_ROLE_AGENT), metadata=as_admin)
        with pytest.raises(grpc.RpcError) as denied:
            audits.ListAuditEvents(apb.ListAuditEventsRequest(), metadata=as_agent)
        assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED
        events, token = [], ""
        while True:
            page = audits.ListAuditEvents(apb.ListAuditEventsRequest(page_size=2, page_token=token), metadata=as_admin)
            events += page.events
            token = page.next_page_token
            if not token:
                break
    agent_key = agent.split("_")[1]
    ops = [(e.operation, e.key_id) for e in events]
    assert ops == [
        ("key_create", ""),
        ("key_create", ""),
        ("memorize", agent_key),
        ("update", agent_key),
        ("profile_edit", agent_key),
        ("forget", agent_key),
        ("key_create", admin.split("_")[1]),
    ]
    assert events[2].ids == [written.id] and events[2].scopes == ["private"] and events[2].role == "agent"
    assert events[-1].ids == [made.key.key_id]
    # No event carries the text: its words nowhere, every id a server-made hex id or an agent's name (a
    # random id or a timestamp's nanoseconds may hold the digits 4471 by chance: those are checked by form).
    worded = [[e.operation, e.role, e.agent_id, *e.scopes, *(f"{k}={v}" for k, v in e.counts.items())] for e in events]
    assert not [w for w in worded if any(secret in x or "4471" in x or "locker" in x for x in w)]
    named = [i for e in events for i in e.ids if not re.fullmatch(r"[0-9a-f]{16}|[0-9a-f]{32}", i)]
    assert named == ["a1"]  # the profile edit names its agent
    assert all(secret not in repr(e) and "locker" not in repr(e) for e in events)
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as ch:
        since = AuditServiceStub(ch).ListAuditEvents(
            apb.ListAuditEventsRequest(since=events[5].at, operation="forget"), metadata=(bearer(admin),)
        )
        assert [e.event_id for e in since.events] == [events[5].event_id]
        with pytest.raises(grpc.RpcError) as bad:
            AuditServiceStub(ch).ListAuditEvents(
                apb.ListAuditEventsRequest(operation="drop"), metadata=(bearer(admin),)
            )
        assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "operation" in (bad.value.details() or "")
        # one key's calls, and the events naming one row (a memory's page lists them)
        by_agent = AuditServiceStub(ch).ListAuditEvents(
            apb.ListAuditEventsRequest(key_id=agent_key), metadata=(bearer(admin),)
        )
        assert [e.operation for e in by_agent.events] == ["memorize", "update", "profile_edit", "forget"]
        on_memory = AuditServiceStub(ch).ListAuditEvents(
            apb.ListAuditEventsRequest(row_id=written.id, page_size=1), metadata=(bearer(admin),)
        )
        assert [e.operation for e in on_memory.events] == ["memorize"] and on_memory.next_page_token
        rest = AuditServiceStub(ch).ListAuditEvents(
            apb.ListAuditEventsRequest(row_id=written.id, page_token=on_memory.next_page_token),
            metadata=(bearer(admin),),
        )
        assert [e.operation for e in rest.events] == ["update", "forget"]
        with pytest.raises(grpc.RpcError) as long_id:
            AuditServiceStub(ch).ListAuditEvents(apb.ListAuditEventsRequest(key_id="k" * 65), metadata=(bearer(admin),))
        assert long_id.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "key_id" in (long_id.value.details() or "")
        # A row named with its kind (an erasure names its contact's conversations so) is a row id too.
        long_row = "conversation:" + "c" * 128
        named = AuditServiceStub(ch).ListAuditEvents(
            apb.ListAuditEventsRequest(row_id=long_row), metadata=(bearer(admin),)
        )
        assert list(named.events) == []
