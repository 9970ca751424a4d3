"""Bad input for every RPC: a precise status naming the field, and stored data unchanged."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import grpc
import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.rpc.client import MemoryServiceStub, pb
from tests.conftest import LiveServer, make_settings, tenant
from tests.e2e.helpers import snapshot

T = tenant("acme")


def enum_number(n: int) -> Any:
    """An enum number the proto does not define (typed as the enum so a request can carry it)."""
    return n


OK = pb.MemoryInput(content="a valid memory")
MISSING = "0" * 32
C = grpc.StatusCode


@dataclass
class World:
    stub: MemoryServiceStub
    uri: str
    ids: dict[str, str]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    server = LiveServer(make_settings(tmp_path_factory.mktemp("bad-input") / "data"), OnnxMiniLMEmbedder(threads=2))
    server.start()
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub = MemoryServiceStub(channel)
        yield World(stub, server._settings.storage.uri, _seed(stub))
    server.stop()


@pytest.fixture
def seeded(stub: MemoryServiceStub) -> dict[str, str]:
    return _seed(stub)


def _seed(stub: MemoryServiceStub) -> dict[str, str]:
    mine = stub.Memorize(
        pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="Sam likes tea")), metadata=T
    ).memory.id
    theirs = stub.Memorize(
        pb.MemorizeRequest(
            agent_id="a2", memory=pb.MemoryInput(content="Deploys freeze on Fridays", scope=pb.SCOPE_SHARED)
        ),
        metadata=T,
    ).memory.id
    private2 = stub.Memorize(
        pb.MemorizeRequest(agent_id="a2", memory=pb.MemoryInput(content="a2 secret plan")), metadata=T
    ).memory.id
    return {"mine": mine, "theirs": theirs, "private2": private2}


def _cases(ids: dict[str, str]) -> list[tuple[str, Callable[[MemoryServiceStub], Any], C, str]]:
    m = ids["mine"]
    return [
        (
            "memorize empty",
            lambda s: s.Memorize(pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput()), metadata=T),
            C.INVALID_ARGUMENT,
            "memory.content",
        ),
        (
            "memorize invisible",  # a zero-width space and a BOM: stored, a memory nobody can read
            lambda s: s.Memorize(
                pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="\u200b\ufeff")), metadata=T
            ),
            C.INVALID_ARGUMENT,
            "memory.content",
        ),
        (
            "memorize invisible tag",
            lambda s: s.Memorize(
                pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="x", tags=["ok", "\u200d"])), metadata=T
            ),
            C.INVALID_ARGUMENT,
            "memory.tags[1]",
        ),
        (
            "memorize too big",
            lambda s: s.Memorize(
                pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="x" * 16385)), metadata=T
            ),
            C.INVALID_ARGUMENT,
            "memory.content",
        ),
        (
            "memorize no agent",
            lambda s: s.Memorize(pb.MemorizeRequest(memory=OK), metadata=T),
            C.INVALID_ARGUMENT,
            "agent_id",
        ),
        (
            "memorize bad agent",
            lambda s: s.Memorize(pb.MemorizeRequest(agent_id="a b'", memory=OK), metadata=T),
            C.INVALID_ARGUMENT,
            "agent_id",
        ),
        (
            "memorize salience",
            lambda s: s.Memorize(
                pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="x", salience=-0.1)), metadata=T
            ),
            C.INVALID_ARGUMENT,
            "memory.salience",
        ),
        (
            "memorize enum",
            lambda s: s.Memorize(
                pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="x", scope=enum_number(42))), metadata=T
            ),
            C.INVALID_ARGUMENT,
            "memory.scope",
        ),
        (
            "memorize type enum",
            lambda s: s.Memorize(
                pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="x", memory_type=enum_number(9))),
                metadata=T,
            ),
            C.INVALID_ARGUMENT,
            "memory.memory_type",
        ),
        (
            "memorize tags",
            lambda s: s.Memorize(
                pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="x", tags=[str(i) for i in range(33)])),
                metadata=T,
            ),
            C.INVALID_ARGUMENT,
            "memory.tags",
        ),
        (
            "memorize end_user scope",
            lambda s: s.Memorize(
                pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="x", scope=pb.SCOPE_END_USER)),
                metadata=T,
            ),
            C.INVALID_ARGUMENT,
            "end_user_id",
        ),
        (
            "memorize embedding dims",
            lambda s: s.Memorize(
                pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="x", embedding=[0.1, 0.2])), metadata=T
            ),
            C.INVALID_ARGUMENT,
            "memory.embedding",
        ),
        (
            "memorize no tenant",
            lambda s: s.Memorize(pb.MemorizeRequest(agent_id="a1", memory=OK)),
            C.UNAUTHENTICATED,
            "x-tenant-id",
        ),
        (
            "memorize bad tenant",
            lambda s: s.Memorize(pb.MemorizeRequest(agent_id="a1", memory=OK), metadata=tenant("../etc")),
            C.INVALID_ARGUMENT,
            "x-tenant-id",
        ),
        (
            "batch empty",
            lambda s: s.MemorizeBatch(pb.MemorizeBatchRequest(agent_id="a1"), metadata=T),
            C.INVALID_ARGUMENT,
            "items",
        ),
        (
            "batch too many",
            lambda s: s.MemorizeBatch(pb.MemorizeBatchRequest(agent_id="a1", items=[OK] * 1001), metadata=T),
            C.INVALID_ARGUMENT,
            "items",
        ),
        (
            "batch one bad item",
            lambda s: s.MemorizeBatch(
                pb.MemorizeBatchRequest(
                    agent_id="a1", items=[OK, pb.MemoryInput(content="fine"), pb.MemoryInput(content=" ")]
                ),
                metadata=T,
            ),
            C.INVALID_ARGUMENT,
            "items[2].content",
        ),
        (
            "recall empty",
            lambda s: s.Recall(pb.RecallRequest(agent_id="a1", query="  "), metadata=T),
            C.INVALID_ARGUMENT,
            "query",
        ),
        (
            "recall of unseen characters",  # a zero-width space alone ranked the whole archive
            lambda s: s.Recall(pb.RecallRequest(agent_id="a1", query="\u200b\u2060"), metadata=T),
            C.INVALID_ARGUMENT,
            "query",
        ),
        (
            "recall limit",
            lambda s: s.Recall(pb.RecallRequest(agent_id="a1", query="tea", limit=101), metadata=T),
            C.INVALID_ARGUMENT,
            "limit",
        ),
        (
            "recall negative limit",
            lambda s: s.Recall(pb.RecallRequest(agent_id="a1", query="tea", limit=-1), metadata=T),
            C.INVALID_ARGUMENT,
            "limit",
        ),
        (
            "recall long",
            lambda s: s.Recall(pb.RecallRequest(agent_id="a1", query="q" * 4097), metadata=T),
            C.INVALID_ARGUMENT,
            "query",
        ),
        (
            "recall filter enum",
            lambda s: s.Recall(
                pb.RecallRequest(agent_id="a1", query="tea", filter=pb.RecallFilter(tag_mode=enum_number(7))),
                metadata=T,
            ),
            C.INVALID_ARGUMENT,
            "filter.tag_mode",
        ),
        (
            "list status enum",
            lambda s: s.ListMemories(
                pb.ListMemoriesRequest(
                    agent_id="a1", filter=pb.RecallFilter(statuses=[pb.MEMORY_STATUS_ARCHIVED, enum_number(9)])
                ),
                metadata=T,
            ),
            C.INVALID_ARGUMENT,
            "filter.statuses[1]",
        ),
        (
            "restore unknown",
            lambda s: s.RestoreMemory(pb.RestoreMemoryRequest(agent_id="a1", memory_id="f" * 32), metadata=T),
            C.NOT_FOUND,
            "not found",
        ),
        (
            "recall ranking",
            lambda s: s.Recall(pb.RecallRequest(agent_id="a1", query="tea", ranking=enum_number(5)), metadata=T),
            C.INVALID_ARGUMENT,
            "ranking",
        ),
        (
            "recall min_score",
            lambda s: s.Recall(pb.RecallRequest(agent_id="a1", query="tea", min_score=2), metadata=T),
            C.INVALID_ARGUMENT,
            "min_score",
        ),
        (
            "recall arms enum",
            lambda s: s.Recall(pb.RecallRequest(agent_id="a1", query="tea", arms=enum_number(9)), metadata=T),
            C.INVALID_ARGUMENT,
            "arms",
        ),
        (
            "recall query_embedding dims",
            lambda s: s.Recall(pb.RecallRequest(agent_id="a1", query="tea", query_embedding=[0.5, 0.5]), metadata=T),
            C.INVALID_ARGUMENT,
            "query_embedding",
        ),
        (
            "recall no tenant",
            lambda s: s.Recall(pb.RecallRequest(agent_id="a1", query="tea")),
            C.UNAUTHENTICATED,
            "x-tenant-id",
        ),
        (
            "get malformed id",
            lambda s: s.GetMemory(pb.GetMemoryRequest(agent_id="a1", memory_id="x' OR 1=1"), metadata=T),
            C.INVALID_ARGUMENT,
            "memory_id",
        ),
        (
            "get unknown",
            lambda s: s.GetMemory(pb.GetMemoryRequest(agent_id="a1", memory_id=MISSING), metadata=T),
            C.NOT_FOUND,
            MISSING,
        ),
        (
            "get other agent's private",
            lambda s: s.GetMemory(pb.GetMemoryRequest(agent_id="a1", memory_id=ids["private2"]), metadata=T),
            C.NOT_FOUND,
            ids["private2"],
        ),
        (
            "get other tenant",
            lambda s: s.GetMemory(pb.GetMemoryRequest(agent_id="a1", memory_id=m), metadata=tenant("other")),
            C.NOT_FOUND,
            m,
        ),
        (
            "update nothing",
            lambda s: s.UpdateMemory(pb.UpdateMemoryRequest(agent_id="a1", memory_id=m), metadata=T),
            C.INVALID_ARGUMENT,
            "update",
        ),
        (
            "update empty content",
            lambda s: s.UpdateMemory(pb.UpdateMemoryRequest(agent_id="a1", memory_id=m, content=""), metadata=T),
            C.INVALID_ARGUMENT,
            "content",
        ),
        (
            "update salience",
            lambda s: s.UpdateMemory(pb.UpdateMemoryRequest(agent_id="a1", memory_id=m, salience=3), metadata=T),
            C.INVALID_ARGUMENT,
            "salience",
        ),
        (
            "update unspecified scope",
            lambda s: s.UpdateMemory(
                pb.UpdateMemoryRequest(agent_id="a1", memory_id=m, scope=pb.SCOPE_UNSPECIFIED), metadata=T
            ),
            C.INVALID_ARGUMENT,
            "scope",
        ),
        (
            "update tags",
            lambda s: s.UpdateMemory(
                pb.UpdateMemoryRequest(agent_id="a1", memory_id=m, tags=pb.TagList(values=[""])), metadata=T
            ),
            C.INVALID_ARGUMENT,
            "tags[0]",
        ),
        (
            "update unknown",
            lambda s: s.UpdateMemory(pb.UpdateMemoryRequest(agent_id="a1", memory_id=MISSING, subject="x"), metadata=T),
            C.NOT_FOUND,
            MISSING,
        ),
        (
            "update someone else's shared",
            lambda s: s.UpdateMemory(
                pb.UpdateMemoryRequest(agent_id="a1", memory_id=ids["theirs"], subject="x"), metadata=T
            ),
            C.PERMISSION_DENIED,
            ids["theirs"],
        ),
        (
            "forget malformed",
            lambda s: s.Forget(pb.ForgetRequest(agent_id="a1", memory_id=""), metadata=T),
            C.INVALID_ARGUMENT,
            "memory_id",
        ),
        (
            "forget unknown",
            lambda s: s.Forget(pb.ForgetRequest(agent_id="a1", memory_id=MISSING), metadata=T),
            C.NOT_FOUND,
            MISSING,
        ),
        (
            "forget other agent's private",
            lambda s: s.Forget(pb.ForgetRequest(agent_id="a1", memory_id=ids["private2"]), metadata=T),
            C.NOT_FOUND,
            ids["private2"],
        ),
        (
            "forget someone else's shared",
            lambda s: s.Forget(pb.ForgetRequest(agent_id="a1", memory_id=ids["theirs"]), metadata=T),
            C.PERMISSION_DENIED,
            ids["theirs"],
        ),
        (
            "list page size",
            lambda s: s.ListMemories(pb.ListMemoriesRequest(agent_id="a1", page_size=501), metadata=T),
            C.INVALID_ARGUMENT,
            "page_size",
        ),
        (
            "list garbled token",
            lambda s: s.ListMemories(pb.ListMemoriesRequest(agent_id="a1", page_token="not-a-token!"), metadata=T),
            C.INVALID_ARGUMENT,
            "page_token",
        ),
        (
            "list no agent",
            lambda s: s.ListMemories(pb.ListMemoriesRequest(), metadata=T),
            C.INVALID_ARGUMENT,
            "agent_id",
        ),
    ]


CASE_NAMES = [name for name, *_ in _cases({"mine": "m", "theirs": "t", "private2": "p"})]


@pytest.mark.parametrize("name", CASE_NAMES)
def test_every_rpc_rejects_bad_input_and_changes_nothing(world: World, name: str) -> None:
    before = snapshot(world.uri, "acme")
    assert len(before) == 3
    _, call, code, needle = next(case for case in _cases(world.ids) if case[0] == name)
    with pytest.raises(grpc.RpcError) as err:
        call(world.stub)
    assert err.value.code() == code, err.value.details()
    assert needle in (err.value.details() or ""), err.value.details()
    assert snapshot(world.uri, "acme") == before
    assert snapshot(world.uri, "other") == []


def test_page_token_of_another_filter_is_rejected(stub: MemoryServiceStub, seeded: dict[str, str]) -> None:
    stub.MemorizeBatch(
        pb.MemorizeBatchRequest(
            agent_id="a1",
            skip_deduplication=True,
            items=[pb.MemoryInput(content=f"item {i}", category="c") for i in range(3)],
        ),
        metadata=T,
    )
    page = stub.ListMemories(pb.ListMemoriesRequest(agent_id="a1", page_size=1), metadata=T)
    with pytest.raises(grpc.RpcError) as err:
        stub.ListMemories(
            pb.ListMemoriesRequest(
                agent_id="a1", page_size=1, page_token=page.next_page_token, filter=pb.RecallFilter(category="c")
            ),
            metadata=T,
        )
    assert err.value.code() == C.INVALID_ARGUMENT and "page_token" in (err.value.details() or "")
