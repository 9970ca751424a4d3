"""Bad input for the key, audit-log and data-rights RPCs: a precise status naming the field, nothing changed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import grpc
import pytest
from google.protobuf.timestamp_pb2 import Timestamp

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.rpc.client import AuditServiceStub, DataServiceStub, KeyServiceStub, MemoryServiceStub, apb, dpb, kpb, pb
from tests.conftest import LiveServer, make_settings, tenant
from tests.e2e.helpers import snapshot

T = tenant("acme")
C = grpc.StatusCode


@dataclass
class World:
    server: LiveServer
    keys: Any
    audits: Any
    data: Any

    def state(self) -> tuple[Any, ...]:
        assert self.server.app is not None
        keys = self.server.run(self.server.app.admin.keys.list(None))
        return (snapshot(self.server._settings.storage.uri, "acme"), [(k.key_id, k.revoked_at) for k in keys])


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    server = LiveServer(make_settings(tmp_path_factory.mktemp("bad-trust") / "data"), OnnxMiniLMEmbedder(threads=2))
    server.start()
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        MemoryServiceStub(channel).Memorize(
            pb.MemorizeRequest(agent_id="a1", end_user_id="u1", memory=pb.MemoryInput(content="Sam likes tea")),
            metadata=T,
        )
        yield World(server, KeyServiceStub(channel), AuditServiceStub(channel), DataServiceStub(channel))
    server.stop()


def _far_future() -> Timestamp:
    return Timestamp(seconds=253402300800)


CASES: list[tuple[str, Callable[[World], Any], C, str]] = [
    ("key without role", lambda w: w.keys.CreateKey(kpb.CreateKeyRequest(), metadata=T), C.INVALID_ARGUMENT, "role"),
    (
        "key with unknown role",
        lambda w: w.keys.CreateKey(kpb.CreateKeyRequest(role=42), metadata=T),  # type: ignore[arg-type]
        C.INVALID_ARGUMENT,
        "role",
    ),
    (
        "key pinned to a bad agent id",
        lambda w: w.keys.CreateKey(kpb.CreateKeyRequest(role=kpb.KEY_ROLE_AGENT, agent_id="a b'"), metadata=T),
        C.INVALID_ARGUMENT,
        "agent_id",
    ),
    (
        "operator key pinned to an agent",
        lambda w: w.keys.CreateKey(kpb.CreateKeyRequest(role=kpb.KEY_ROLE_OPERATOR, agent_id="a1"), metadata=T),
        C.INVALID_ARGUMENT,
        "agent_id",
    ),
    (
        "key name too long",
        lambda w: w.keys.CreateKey(kpb.CreateKeyRequest(role=kpb.KEY_ROLE_AGENT, name="n" * 201), metadata=T),
        C.INVALID_ARGUMENT,
        "name",
    ),
    (
        "system key over the API",
        lambda w: w.keys.CreateKey(kpb.CreateKeyRequest(role=kpb.KEY_ROLE_SYSTEM), metadata=T),
        C.PERMISSION_DENIED,
        "role",
    ),
    ("revoke without id", lambda w: w.keys.RevokeKey(kpb.RevokeKeyRequest(), metadata=T), C.INVALID_ARGUMENT, "key_id"),
    (
        "revoke unknown",
        lambda w: w.keys.RevokeKey(kpb.RevokeKeyRequest(key_id="'; drop"), metadata=T),
        C.NOT_FOUND,
        "'; drop",
    ),
    (
        "audit log unknown operation",
        lambda w: w.audits.ListAuditEvents(apb.ListAuditEventsRequest(operation="drop"), metadata=T),
        C.INVALID_ARGUMENT,
        "operation",
    ),
    (
        "audit log page size",
        lambda w: w.audits.ListAuditEvents(apb.ListAuditEventsRequest(page_size=501), metadata=T),
        C.INVALID_ARGUMENT,
        "page_size",
    ),
    (
        "audit log garbled token",
        lambda w: w.audits.ListAuditEvents(apb.ListAuditEventsRequest(page_token="not-a-token!"), metadata=T),
        C.INVALID_ARGUMENT,
        "page_token",
    ),
    (  # a key id no key has: an empty page looked like "this key did nothing"
        "audit log filtered by a malformed key id",
        lambda w: w.audits.ListAuditEvents(apb.ListAuditEventsRequest(key_id="mdk_0123456789abcdef_x"), metadata=T),
        C.INVALID_ARGUMENT,
        "key_id",
    ),
    (  # no row id holds a quote or a space: an empty page hid the typo
        "audit log filtered by a malformed row id",
        lambda w: w.audits.ListAuditEvents(apb.ListAuditEventsRequest(row_id="m1' OR 1=1"), metadata=T),
        C.INVALID_ARGUMENT,
        "row_id",
    ),
    (
        "audit log since out of range",
        lambda w: w.audits.ListAuditEvents(apb.ListAuditEventsRequest(since=_far_future()), metadata=T),
        C.INVALID_ARGUMENT,
        "since",
    ),
    *[
        (  # a filter no row can match was an empty page, not the field named
            f"served log filtered by a bad {field}",
            lambda w, field=field, value=value: w.audits.ListServings(
                apb.ListServingsRequest(**{field: value}), metadata=T
            ),
            C.INVALID_ARGUMENT,
            field,
        )
        for field, value in (
            ("item_id", "zz' OR 1=1"),
            ("agent_id", "bad agent"),
            ("end_user_id", "u" * 129),
            ("conversation_id", "c/1"),
        )
    ],
    (
        "erase without contact",
        lambda w: w.data.EraseEndUser(dpb.EraseEndUserRequest(), metadata=T),
        C.INVALID_ARGUMENT,
        "end_user_id",
    ),
    (
        "erase a bad contact id",
        lambda w: w.data.EraseEndUser(dpb.EraseEndUserRequest(end_user_id="u1' OR 1=1"), metadata=T),
        C.INVALID_ARGUMENT,
        "end_user_id",
    ),
    (
        "export without contact",
        lambda w: list(w.data.ExportEndUser(dpb.ExportEndUserRequest(), metadata=T)),
        C.INVALID_ARGUMENT,
        "end_user_id",
    ),
    (
        "export a bad contact id",
        lambda w: list(w.data.ExportEndUser(dpb.ExportEndUserRequest(end_user_id="u1' OR 1=1"), metadata=T)),
        C.INVALID_ARGUMENT,
        "end_user_id",
    ),
]


@pytest.mark.parametrize("name", [c[0] for c in CASES])
def test_trust_rpcs_reject_bad_input_and_change_nothing(world: World, name: str) -> None:
    before = world.state()
    assert len(before[0]) == 1
    _, call, code, needle = next(case for case in CASES if case[0] == name)
    with pytest.raises(grpc.RpcError) as err:
        call(world)
    assert err.value.code() == code, err.value.details()
    assert needle in (err.value.details() or ""), err.value.details()
    assert world.state() == before
