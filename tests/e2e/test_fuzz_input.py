"""Fuzzed input against the real daemon: never INTERNAL or UNKNOWN, and nothing stored by a refusal.

Covers timestamps at and beyond every edge (int64 seconds, negative and oversized nanos) in
each request field that carries one, int64 extremes in revisions, and raw bytes (invalid
UTF-8, truncated messages, random noise) sent to every method of every memoryd service.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from google.protobuf.timestamp_pb2 import Timestamp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memoryd.rpc.client import (
    ConversationServiceStub,
    MemoryServiceStub,
    ProfileServiceStub,
    apb,
    cpb,
    dpb,
    gpb,
    gr,
    jpb,
    kpb,
    pb,
    ppb,
    rpb,
)
from tests.conftest import LiveServer, tenant
from tests.e2e.helpers import fuzz_target, snapshot

T = tenant("fuzz")
INT64 = 2**63 - 1
BAD = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN}
EARLIEST, LATEST = -2208988800, 253402300799  # 1900-01-01, 9999-12-31T23:59:59 (UTC)


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with fuzz_target(Path(tmp_path_factory.mktemp("fuzz")) / "data") as server:
        yield server


@pytest.fixture(scope="module")
def channel(daemon: LiveServer) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(f"127.0.0.1:{daemon.port}") as ch:
        yield ch


def _code(call) -> grpc.StatusCode:
    try:
        call()
    except grpc.RpcError as err:
        return err.code()
    return grpc.StatusCode.OK


seconds = st.one_of(
    st.sampled_from([-INT64 - 1, INT64, EARLIEST - 1, EARLIEST, LATEST, LATEST + 1, 0, -1]),
    st.integers(-(2**63), INT64),
)
nanos = st.one_of(
    st.sampled_from([-1, 0, 999_999_999, 1_000_000_000, -(2**31), 2**31 - 1]), st.integers(-(2**31), 2**31 - 1)
)


def _in_range(s: int, n: int) -> bool:
    return EARLIEST <= s <= LATEST and 0 <= n <= 999_999_999


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(s=seconds, n=nanos, where=st.sampled_from(["memorize", "batch", "recall", "list", "append"]))
def test_timestamps_out_of_range_are_invalid_argument_naming_the_field(daemon, channel, s, n, where) -> None:
    ts = Timestamp(seconds=s, nanos=n)
    memory, conversations = MemoryServiceStub(channel), ConversationServiceStub(channel)
    before = snapshot(daemon._settings.storage.uri, "fuzz")
    calls = {
        "memorize": (
            lambda: memory.Memorize(
                pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content=f"event at {s}.{n}", occurred_at=ts)),
                metadata=T,
            ),
            "memory.occurred_at",
        ),
        "batch": (
            lambda: memory.MemorizeBatch(
                pb.MemorizeBatchRequest(
                    agent_id="a1",
                    items=[pb.MemoryInput(content="fine"), pb.MemoryInput(content=f"event at {s}.{n}", occurred_at=ts)],
                ),
                metadata=T,
            ),
            "items[1].occurred_at",
        ),
        "recall": (
            lambda: memory.Recall(
                pb.RecallRequest(agent_id="a1", query="seed", filter=pb.RecallFilter(since=ts)), metadata=T
            ),
            "filter.since",
        ),
        "list": (
            lambda: memory.ListMemories(
                pb.ListMemoriesRequest(agent_id="a1", filter=pb.RecallFilter(since=ts)), metadata=T
            ),
            "filter.since",
        ),
        "append": (
            lambda: conversations.AppendMessages(
                cpb.AppendMessagesRequest(
                    agent_id="a1",
                    conversation_id="c1",
                    messages=[
                        cpb.MessageInput(message_id=f"m{s}.{n}", role=cpb.ROLE_USER, content="hi", created_at=ts)
                    ],
                ),
                metadata=T,
            ),
            "messages[0].created_at",
        ),
    }
    call, field = calls[where]
    try:
        call()
    except grpc.RpcError as err:
        assert err.code() not in BAD, (where, s, n, err.details())
        if not _in_range(s, n):
            assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and field in (err.details() or ""), err.details()
            assert snapshot(daemon._settings.storage.uri, "fuzz") == before
    else:
        assert _in_range(s, n), (where, s, n)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(revision=st.one_of(st.sampled_from([INT64, -INT64 - 1, 2**53, 2**53 + 1, 0, -1]), st.integers(-(2**63), INT64)))
def test_revision_extremes_are_answered_precisely(channel, revision) -> None:
    profiles = ProfileServiceStub(channel)
    for call in (
        lambda: profiles.GetProfileRevision(
            ppb.GetProfileRevisionRequest(agent_id="a1", revision=revision), metadata=T
        ),
        lambda: profiles.EditProfile(
            ppb.EditProfileRequest(
                agent_id="a1", expected_revision=revision, append=ppb.AppendLine(section="S", line="x")
            ),
            metadata=T,
        ),
    ):
        code = _code(call)
        assert code not in BAD, (revision, code)
        if revision < 0 or revision > 2**53:
            assert code == grpc.StatusCode.INVALID_ARGUMENT, (revision, code)


def _methods() -> list[tuple[str, bool]]:
    out = []
    for module in (pb, ppb, jpb, cpb, apb, kpb, dpb, gpb, gr, rpb):
        for service in module.DESCRIPTOR.services_by_name.values():
            for method in service.methods:
                out.append((f"/{service.full_name}/{method.name}", method.server_streaming))
    return out


METHODS = _methods()
raw = st.one_of(
    st.binary(max_size=64),
    st.builds(
        lambda tag, body: bytes([tag, len(body)]) + body,
        st.sampled_from([0x0A, 0x12, 0x1A, 0x22]),
        st.sampled_from([b"\xff\xfe", b"\xc3\x28", b"\xed\xa0\x80", b"ok\x80"]),
    ),  # invalid UTF-8 strings
    st.sampled_from([b"\x0a\x05ab", b"\x1a\x10\x0a", b"\xff\xff\xff\xff\x0f"]),  # truncated messages
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(method=st.sampled_from(METHODS), body=raw)
def test_raw_bytes_to_every_method_never_internal(daemon, channel, method, body) -> None:
    name, streaming = method
    before = snapshot(daemon._settings.storage.uri, "fuzz")
    identity = {"request_serializer": lambda b: b, "response_deserializer": lambda b: b}
    if streaming:
        call = channel.unary_stream(name, **identity)
        code = _code(lambda: list(call(body, metadata=T, timeout=5)))
    else:
        code = _code(lambda: channel.unary_unary(name, **identity)(body, metadata=T, timeout=5))
    assert code not in BAD and code != grpc.StatusCode.DEADLINE_EXCEEDED, (name, body, code)
    if code != grpc.StatusCode.OK:
        assert snapshot(daemon._settings.storage.uri, "fuzz") == before, (name, body)
