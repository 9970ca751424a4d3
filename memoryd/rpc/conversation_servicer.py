"""ConversationService over gRPC: decode, one service call, encode."""

from __future__ import annotations

from collections.abc import AsyncIterator

from memoryd.app import App
from memoryd.core.conversation import ConversationEvent, MessageInput, Options, PartKind, Role, StorageScope, Strategy
from memoryd.core.errors import InvalidRequest
from memoryd.rpc import convert
from memoryd.rpc._gen.memoryd.v1 import conversation_pb2 as cpb
from memoryd.rpc._gen.memoryd.v1 import conversation_pb2_grpc as cpb_grpc
from memoryd.rpc.identity import Ctx, actor
from memoryd.rpc.status import translated, translated_stream
from memoryd.services.conversation import ConversationService

ROLES: dict[int, Role] = {
    cpb.ROLE_USER: Role.USER,
    cpb.ROLE_ASSISTANT: Role.ASSISTANT,
    cpb.ROLE_SYSTEM: Role.SYSTEM,
    cpb.ROLE_TOOL: Role.TOOL,
}
ROLES_PB = {
    Role.USER: cpb.ROLE_USER,
    Role.ASSISTANT: cpb.ROLE_ASSISTANT,
    Role.SYSTEM: cpb.ROLE_SYSTEM,
    Role.TOOL: cpb.ROLE_TOOL,
}
STRATEGIES: dict[int, Strategy] = {
    cpb.STRATEGY_BUFFER_WINDOW: Strategy.BUFFER_WINDOW,
    cpb.STRATEGY_SUMMARY_BUFFER: Strategy.SUMMARY_BUFFER,
    cpb.STRATEGY_ACCUMULATE: Strategy.ACCUMULATE,
}
STRATEGIES_PB = {
    Strategy.BUFFER_WINDOW: cpb.STRATEGY_BUFFER_WINDOW,
    Strategy.SUMMARY_BUFFER: cpb.STRATEGY_SUMMARY_BUFFER,
    Strategy.ACCUMULATE: cpb.STRATEGY_ACCUMULATE,
}
SCOPES: dict[int, StorageScope] = {
    cpb.STORAGE_SCOPE_ALL: StorageScope.ALL,
    cpb.STORAGE_SCOPE_SESSION: StorageScope.SESSION,
    cpb.STORAGE_SCOPE_CONVERSATIONAL: StorageScope.CONVERSATIONAL,
    cpb.STORAGE_SCOPE_SUMMARIES_ONLY: StorageScope.SUMMARIES_ONLY,
}


def _inputs(request: cpb.AppendMessagesRequest) -> list[MessageInput]:
    out = []
    for i, m in enumerate(request.messages):
        role = convert.enum_value(ROLES, m.role, f"messages[{i}].role")
        created = convert.to_datetime(m.created_at, f"messages[{i}].created_at") if m.HasField("created_at") else None
        out.append(MessageInput(m.message_id, role, m.content, created, m.tool_name, m.tool_call_id))
    return out


def _options(o: cpb.ConversationOptions) -> Options:
    out: Options = {}
    if o.strategy:
        strategy = convert.enum_value(STRATEGIES, o.strategy, "options.strategy")
        if strategy is not None:
            out["strategy"] = strategy.value
    if o.storage_scope:
        scope = convert.enum_value(SCOPES, o.storage_scope, "options.storage_scope")
        if scope is not None:
            out["storage_scope"] = scope.value
    if o.HasField("window_messages"):
        out["window_messages"] = o.window_messages
    if o.HasField("budget_tokens"):
        out["budget_tokens"] = o.budget_tokens
    if o.HasField("auto_recall"):
        out["auto_recall"] = o.auto_recall
    return out


def _event(e: ConversationEvent) -> cpb.ConversationEvent:
    out = cpb.ConversationEvent(
        kind=e.kind,
        job_id=e.job_id,
        message=e.message,
        path=e.path,
        summarized_messages=e.summarized_messages,
        tokens_in=e.tokens_in,
        tokens_out=e.tokens_out,
    )
    out.at.CopyFrom(convert.to_timestamp(e.at))
    return out


class ConversationServicer(cpb_grpc.ConversationServiceServicer):
    """Thin shell over ``ConversationService``."""

    def __init__(self, app: App) -> None:
        self._app = app

    def _svc(self) -> ConversationService:
        return self._app.conversations

    @translated
    async def AppendMessages(self, request: cpb.AppendMessagesRequest, context: Ctx) -> cpb.AppendMessagesResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        if request.context_window_tokens < 0:
            raise InvalidRequest("context_window_tokens", "must be positive")
        result = await self._svc().append(
            who, request.conversation_id, _inputs(request), request.context_window_tokens, _options(request.options)
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
        messages = []
        for p in ctx.parts:
            m = cpb.ContextMessage(
                kind=p.kind,
                role=ROLES_PB[p.role],
                content=p.content,
                token_count=p.token_count,
                seq=p.seq,
                tool_name=p.tool_name,
            )
            if p.at is not None:
                m.at.CopyFrom(convert.to_timestamp(p.at))
            messages.append(m)
        return cpb.GetContextResponse(
            messages=messages,
            total_tokens=ctx.tokens(),
            profile_tokens=ctx.tokens(PartKind.PROFILE),
            summary_tokens=ctx.tokens(PartKind.SUMMARY),
            message_tokens=ctx.tokens(PartKind.MESSAGE),
            memory_tokens=ctx.tokens(PartKind.MEMORY),
            strategy=STRATEGIES_PB[ctx.strategy],
            left_out_messages=ctx.left_out,
            encoding=self._app.profile.encoding,
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

    @translated_stream
    async def WatchConversation(
        self, request: cpb.WatchConversationRequest, context: Ctx
    ) -> AsyncIterator[cpb.WatchConversationResponse]:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        async for event in self._svc().watch(who, request.conversation_id, request.from_start):
            yield cpb.WatchConversationResponse(event=_event(event))
