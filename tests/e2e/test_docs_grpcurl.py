"""The docs' grpcurl calls, made as grpcurl makes them: types from server reflection, the body as JSON.

grpcurl is a Go binary the suite does not install; what it does with a command is small enough to do
here: read the method's types through reflection, parse ``-d`` as proto3 JSON (an unknown field name
is an error, as there), send ``-H`` as metadata.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import grpc
from google.protobuf import json_format, message_factory
from google.protobuf.descriptor_pool import DescriptorPool
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

from tests.conftest import LiveServer

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
COMMAND = re.compile(r"grpcurl (-[^`\n]+)")


def _commands() -> list[tuple[str, list[str]]]:
    found = []
    for doc in DOCS:
        text = doc.read_text().replace("\\\n", " ")  # a shell line continued
        found += [(doc.name, shlex.split(m.group(1))) for m in COMMAND.finditer(text)]
    return found


def _grpcurl(channel: grpc.Channel, pool: DescriptorPool, args: list[str]) -> dict[str, object]:
    """One grpcurl command's call: ``-plaintext``, ``-H 'name: value'``, ``-d JSON``, target, method."""
    headers, body, rest = [], "{}", []
    it = iter(args)
    for arg in it:
        if arg == "-H":
            name, _, value = next(it).partition(":")
            headers.append((name.strip().lower(), value.strip()))
        elif arg == "-d":
            body = next(it)
        elif arg != "-plaintext":
            rest.append(arg)
    _, method_path = rest
    service, method = method_path.rsplit("/", 1)
    found = pool.FindServiceByName(service).FindMethodByName(method)
    request_type = message_factory.GetMessageClass(found.input_type)
    reply_type = message_factory.GetMessageClass(found.output_type)
    call = channel.unary_unary(
        f"/{service}/{method}",
        request_serializer=request_type.SerializeToString,
        response_deserializer=reply_type.FromString,
    )
    reply = call(json_format.Parse(body, request_type()), metadata=tuple(headers), timeout=30)
    return json_format.MessageToDict(reply)


def test_every_grpcurl_call_in_the_docs_is_answered(live_server: LiveServer) -> None:
    commands = _commands()
    assert len(commands) >= 3, commands
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as channel:
        pool = DescriptorPool(ProtoReflectionDescriptorDatabase(channel))
        replies = {}
        for doc, args in commands:
            assert "127.0.0.1:50051" in args, (doc, args)  # where `make run` listens
            replies[args[-1]] = _grpcurl(channel, pool, args)
    stored = replies["memoryd.v1.MemoryService/Memorize"]["memory"]
    assert isinstance(stored, dict) and stored["content"] == "Caroline prefers espresso"
    hits = replies["memoryd.v1.MemoryService/Recall"]["hits"]
    assert isinstance(hits, list) and hits[0]["memory"]["id"] == stored["id"]
    assert "profile" in replies["memoryd.v1.ProfileService/GetProfile"]
