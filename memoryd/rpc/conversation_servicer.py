"""ConversationService over gRPC: decode, one service call, encode."""

from __future__ import annotations

from collections.abc import AsyncIterator

from memoryd.app import App
from memoryd.core.conversation import PartKind
from memoryd.core.errors import InvalidRequest
from memoryd.rpc._gen.memoryd.v1 import conversation_pb2 as cpb
from memoryd.rpc._gen.memoryd.v1 import conversation_pb2_grpc as cpb_grpc
from memoryd.rpc.convert import conversation as wire
from memoryd.rpc.identity import Ctx, actor
from memoryd.rpc.open_streams import OpenStreams
from memoryd.rpc.status import translated, translated_stream
from memoryd.services.conversation import ConversationService


class ConversationServicer(cpb_grpc.ConversationServiceServicer):
    """Thin shell over ``ConversationService``."""

    def __init__(self, app: App, streams: OpenStreams) -> None:
        self._app = app
        self._streams = streams

    def _svc(self) -> ConversationService:
        return self._app.working.conversations

    @translated
    async def AppendMessages(self, request: cpb.AppendMessagesRequest, context: Ctx) -> cpb.AppendMessagesResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        if request.context_window_tokens < 0:
            raise InvalidRequest("context_window_tokens", "must be positive")
        result = await self._svc().append(
            who,
            request.conversation_id,
            wire.inputs(request),
            request.context_window_tokens,
            wire.options(request.options),
        )
        return cpb.AppendMessagesResponse(
            seqs=list(result.seqs),
            duplicates=result.duplicates,
            compaction_job_id=result.compaction.key if result.compaction else "",
        )

    @translated
    async def GetContext(self, request: cpb.GetContextRequest, context: Ctx) -> cpb.GetContextResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        ctx = await self._svc().context(who, request.conversation_id, request.context_window_tokens)
        self._app.metrics.context_assembled(ctx.tokens(), ctx.window, ctx.left_out, ctx.recalled, ctx.graph_facts)
        messages = [
            cpb.ContextMessage(
                kind=p.kind,
                role=wire.ROLES_PB[p.role],
                content=p.content,
                token_count=p.token_count,
                seq=p.seq,
                tool_name=p.tool_name,
                at=p.at,
            )
            for p in ctx.parts
        ]
        return cpb.GetContextResponse(
            messages=messages,
            total_tokens=ctx.tokens(),
            profile_tokens=ctx.tokens(PartKind.PROFILE),
            summary_tokens=ctx.tokens(PartKind.SUMMARY),
            message_tokens=ctx.tokens(PartKind.MESSAGE),
            memory_tokens=ctx.tokens(PartKind.MEMORY),
            strategy=wire.STRATEGIES_PB[ctx.strategy],
            left_out_messages=ctx.left_out,
            encoding=self._app.working.profile.encoding,
            degraded_reason=ctx.degraded,
        )

    @translated
    async def Compact(self, request: cpb.CompactRequest, context: Ctx) -> cpb.CompactResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        job = await self._svc().compact(who, request.conversation_id)
        return cpb.CompactResponse(job_id=job.key)

    @translated
    async def EndSession(self, request: cpb.EndSessionRequest, context: Ctx) -> cpb.EndSessionResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        job = await self._svc().end_session(who, request.conversation_id)
        return cpb.EndSessionResponse(job_id=job.key)

    @translated
    async def ListConversations(
        self, request: cpb.ListConversationsRequest, context: Ctx
    ) -> cpb.ListConversationsResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        found, token = await self._svc().listed(who, request.all_contacts, request.page_size or 50, request.page_token)
        return cpb.ListConversationsResponse(conversations=[wire.summary(c) for c in found], next_page_token=token)

    @translated_stream
    async def WatchConversation(
        self, request: cpb.WatchConversationRequest, context: Ctx
    ) -> AsyncIterator[cpb.WatchConversationResponse]:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        with self._streams.held():
            await context.send_initial_metadata(())  # the watch is live: the caller may act and miss nothing
            async for event in self._svc().watch(who, request.conversation_id, request.from_start):
                yield cpb.WatchConversationResponse(event=wire.event(event))
