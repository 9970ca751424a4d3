"""CallsInFlight on a real gRPC server: memoryd's unary calls count while they run; streams and health do not."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from memoryd.rpc._gen.memoryd.v1 import conversation_pb2 as cpb
from memoryd.rpc._gen.memoryd.v1 import conversation_pb2_grpc as cpb_grpc
from memoryd.rpc._gen.memoryd.v1 import memory_pb2 as pb
from memoryd.rpc._gen.memoryd.v1 import memory_pb2_grpc as pb_grpc
from memoryd.rpc.calls_in_flight import CallsInFlight


class _Memory(pb_grpc.MemoryServiceServicer):
    def __init__(self) -> None:
        self.entered, self.release = asyncio.Event(), asyncio.Event()

    async def Recall(self, request: pb.RecallRequest, context: Any) -> pb.RecallResponse:
        self.entered.set()
        await self.release.wait()
        return pb.RecallResponse()


class _Conversations(cpb_grpc.ConversationServiceServicer):
    def __init__(self) -> None:
        self.watching, self.release = asyncio.Event(), asyncio.Event()

    async def WatchConversation(
        self, request: cpb.WatchConversationRequest, context: Any
    ) -> AsyncIterator[cpb.WatchConversationResponse]:
        self.watching.set()
        await self.release.wait()
        yield cpb.WatchConversationResponse()


async def test_a_unary_call_counts_until_answered_a_watch_and_a_health_check_never() -> None:
    calls, memory, conversations = CallsInFlight(), _Memory(), _Conversations()
    server = grpc.aio.server(interceptors=[calls])
    pb_grpc.add_MemoryServiceServicer_to_server(memory, server)
    cpb_grpc.add_ConversationServiceServicer_to_server(conversations, server)
    health_servicer = health.aio.HealthServicer()  # type: ignore[attr-defined]
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            assert calls.quiet()
            watch = channel.unary_stream(
                "/memoryd.v1.ConversationService/WatchConversation",
                request_serializer=cpb.WatchConversationRequest.SerializeToString,
                response_deserializer=cpb.WatchConversationResponse.FromString,
            )(cpb.WatchConversationRequest())
            await asyncio.wait_for(conversations.watching.wait(), 5)
            await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest())
            assert calls.quiet()  # an open watch waits for news: the daemon may poll meanwhile

            recall = asyncio.ensure_future(pb_grpc.MemoryServiceStub(channel).Recall(pb.RecallRequest()))
            await asyncio.wait_for(memory.entered.wait(), 5)
            assert not calls.quiet()
            memory.release.set()
            await asyncio.wait_for(recall, 5)
            assert calls.quiet()

            conversations.release.set()
            assert [reply async for reply in watch] == [cpb.WatchConversationResponse()]
            assert calls.quiet()
    finally:
        await server.stop(0)


async def test_a_call_that_fails_is_no_longer_counted() -> None:
    class _Failing(pb_grpc.MemoryServiceServicer):
        async def Recall(self, request: pb.RecallRequest, context: Any) -> pb.RecallResponse:
            raise RuntimeError("boom")

    calls = CallsInFlight()
    server = grpc.aio.server(interceptors=[calls])
    pb_grpc.add_MemoryServiceServicer_to_server(_Failing(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            try:
                await pb_grpc.MemoryServiceStub(channel).Recall(pb.RecallRequest())
            except grpc.aio.AioRpcError as exc:
                assert exc.code() is grpc.StatusCode.UNKNOWN
            else:
                raise AssertionError("the call should have failed")
            assert calls.quiet()
    finally:
        await server.stop(0)
