"""Generated requests for every method of every service: 0 INTERNAL or UNKNOWN, 0 hangs, refusals store nothing.

Each request is built from the method's descriptor: strings huge, odd (NUL, bidi controls, astral
planes, quotes), integers at their extremes, NaN and infinities in floats, enum numbers nobody
defined, nested messages and maps, garbage page tokens.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message_factory import GetMessageClass
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memoryd.client.errors import from_rpc_error
from memoryd.core.keys import METHOD_RULES
from memoryd.rpc.client import apb, cpb, dpb, gpb, gr, jpb, kpb, pb, ppb, rpb
from tests.conftest import LiveServer, tenant
from tests.e2e.helpers import fuzz_target, snapshot

pytestmark = pytest.mark.timeout(600)
T = tenant("fuzz")
BAD = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.DEADLINE_EXCEEDED}
STREAMING_WAITS = {"WatchJob", "WatchConversation"}
"""Streams that legitimately wait for events: a deadline after their first message is not a hang."""

ODD = [
    "",
    "\x00",
    "a\x00b",
    "\u202eevil",
    "🙂" * 20,
    "x" * 70_000,
    "'; DROP TABLE memories_fuzz; --",
    "a" * 129,
    "../../etc/passwd",
    "mdk_0123456789abcdef_x",
    "%00%ff",
    "\ud7ff\ue000\U0010fffd",
]
text = st.one_of(
    st.sampled_from(ODD),
    st.text(max_size=24),
    st.text(alphabet=st.characters(min_codepoint=0x80, max_codepoint=0x10FFFF, exclude_categories=["Cs"]), max_size=12),
)
F = FieldDescriptor
_INTS = {
    F.TYPE_INT32: (-(2**31), 2**31 - 1),
    F.TYPE_SINT32: (-(2**31), 2**31 - 1),
    F.TYPE_SFIXED32: (-(2**31), 2**31 - 1),
    F.TYPE_INT64: (-(2**63), 2**63 - 1),
    F.TYPE_SINT64: (-(2**63), 2**63 - 1),
    F.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    F.TYPE_UINT32: (0, 2**32 - 1),
    F.TYPE_FIXED32: (0, 2**32 - 1),
    F.TYPE_UINT64: (0, 2**64 - 1),
    F.TYPE_FIXED64: (0, 2**64 - 1),
}


def _scalar(field: FieldDescriptor, depth: int) -> st.SearchStrategy[Any]:
    if field.type == F.TYPE_STRING:
        return text
    if field.type == F.TYPE_BYTES:
        return st.binary(max_size=32)
    if field.type in _INTS:
        low, high = _INTS[field.type]
        return st.one_of(st.sampled_from([low, high, 0, -1 if low < 0 else 1]), st.integers(low, high))
    if field.type in (F.TYPE_FLOAT, F.TYPE_DOUBLE):
        return st.floats(allow_nan=True, allow_infinity=True, width=32 if field.type == F.TYPE_FLOAT else 64)
    if field.type == F.TYPE_BOOL:
        return st.booleans()
    if field.type == F.TYPE_ENUM:
        return st.integers(-3, 40)  # proto3 enums are open: unknown numbers arrive as numbers
    assert field.message_type is not None
    return message_of(field.message_type, depth + 1)


def _is_map(field: FieldDescriptor) -> bool:
    return field.message_type is not None and field.message_type.GetOptions().map_entry


def _field_strategy(field: FieldDescriptor, depth: int) -> st.SearchStrategy[Any]:
    if _is_map(field):
        assert field.message_type is not None
        key_f, value_f = field.message_type.fields_by_name["key"], field.message_type.fields_by_name["value"]
        return st.dictionaries(_scalar(key_f, depth), _scalar(value_f, depth), max_size=3)
    if field.is_repeated:
        return st.lists(_scalar(field, depth), max_size=3)
    return _scalar(field, depth)


def _assign(msg: Any, field: FieldDescriptor, value: Any) -> None:
    target = getattr(msg, field.name)
    if _is_map(field):
        assert field.message_type is not None
        for k, v in value.items():
            if field.message_type.fields_by_name["value"].message_type is not None:
                target[k].CopyFrom(v)
            else:
                target[k] = v
    elif field.is_repeated:
        target.extend(value)
    elif field.message_type is not None:
        target.CopyFrom(value)
    else:
        setattr(msg, field.name, value)


def message_of(descriptor: Descriptor, depth: int = 0) -> st.SearchStrategy[Any]:
    """Messages of this type with a random subset of fields set."""
    cls = GetMessageClass(descriptor)
    if depth > 3 or not descriptor.fields:
        return st.just(cls())
    fields = {f.name: _field_strategy(f, depth) for f in descriptor.fields}

    def build(names: set[str], data: st.DataObject) -> Any:
        msg = cls()
        for name in sorted(names):
            try:
                _assign(msg, descriptor.fields_by_name[name], data.draw(fields[name]))
            except (ValueError, TypeError):
                continue  # a value this runtime's protobuf refuses to hold (e.g. a lone surrogate)
        return msg

    return st.builds(build, st.sets(st.sampled_from(sorted(fields)), max_size=len(fields)), st.data())


def _methods() -> list[tuple[str, str, Descriptor, bool]]:
    out = []
    for module in (pb, ppb, jpb, cpb, apb, kpb, dpb, gr, gpb, rpb):
        for service in module.DESCRIPTOR.services_by_name.values():
            for method in service.methods:
                out.append(
                    (f"/{service.full_name}/{method.name}", method.name, method.input_type, method.server_streaming)
                )
    return out


METHODS = _methods()


def test_every_method_is_generated() -> None:
    """A service added is fuzzed too: the list above names every method that has a rule."""
    assert {m[0] for m in METHODS} == {f"/memoryd.v1.{method}" for method in METHOD_RULES}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with fuzz_target(Path(tmp_path_factory.mktemp("fuzzf")) / "data") as server:
        yield server


@pytest.mark.parametrize(("path", "name", "descriptor", "streaming"), METHODS, ids=[m[1] for m in METHODS])
def test_generated_requests_are_answered_precisely(
    daemon: LiveServer, path: str, name: str, descriptor: Descriptor, streaming: bool
) -> None:
    identity = {"request_serializer": lambda b: b, "response_deserializer": lambda b: b}

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(request=message_of(descriptor))
    def check(request: Any) -> None:
        body = request.SerializeToString()
        before = snapshot(daemon._settings.storage.uri, "fuzz")
        received = 0
        with grpc.insecure_channel(f"127.0.0.1:{daemon.port}") as channel:
            try:
                if streaming:
                    for _ in channel.unary_stream(path, **identity)(body, metadata=T, timeout=10):
                        received += 1
                else:
                    channel.unary_unary(path, **identity)(body, metadata=T, timeout=10)
                code = grpc.StatusCode.OK
            except grpc.RpcError as err:
                code = err.code()
                if code == grpc.StatusCode.INVALID_ARGUMENT:  # the field, for a program as well as a person
                    field = from_rpc_error(err).field
                    assert field and (err.details() or "").startswith(f"{field}: "), (name, request, err.details())
        waiting = code == grpc.StatusCode.DEADLINE_EXCEEDED and name in STREAMING_WAITS and received
        assert code not in BAD or waiting, (name, request, code)
        if code != grpc.StatusCode.OK and not waiting:
            assert snapshot(daemon._settings.storage.uri, "fuzz") == before, (name, request)

    check()
