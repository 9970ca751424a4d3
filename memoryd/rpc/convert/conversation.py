"""Converters of the conversation service's messages (``conversation_servicer``: decode → call → encode)."""

from __future__ import annotations

from memoryd.core.conversation import (
    Conversation,
    ConversationEvent,
    MessageInput,
    Options,
    Role,
    StorageScope,
    Strategy,
)
from memoryd.rpc import convert
from memoryd.rpc._gen.memoryd.v1 import conversation_pb2 as cpb

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


def inputs(request: cpb.AppendMessagesRequest) -> list[MessageInput]:
    """The appended messages as core values (roles checked, naming the message)."""
    out = []
    for i, m in enumerate(request.messages):
        role = convert.enum_value(ROLES, m.role, f"messages[{i}].role")
        created = convert.to_datetime(m.created_at, f"messages[{i}].created_at") if m.HasField("created_at") else None
        out.append(MessageInput(m.message_id, role, m.content, created, m.tool_name, m.tool_call_id))
    return out


def options(o: cpb.ConversationOptions) -> Options:
    """Per-conversation policy overrides as core values (only the fields set)."""
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


def event(e: ConversationEvent) -> cpb.ConversationEvent:
    """A conversation event on the wire."""
    return cpb.ConversationEvent(
        kind=e.kind,
        job_id=e.job_id,
        message=e.message,
        path=e.path,
        summarized_messages=e.summarized_messages,
        tokens_in=e.tokens_in,
        tokens_out=e.tokens_out,
        at=e.at,
    )


def summary(c: Conversation) -> cpb.ConversationSummary:
    """A conversation's state, without its messages."""
    return cpb.ConversationSummary(
        conversation_id=c.conversation_id,
        agent_id=c.agent_id,
        end_user_id=c.end_user_id,
        messages=c.next_seq - 1,
        compacted_through=c.compacted_through,
        summaries=len(c.summary_ids),
        context_window=c.context_window,
        created_at=c.created_at,
        updated_at=c.updated_at,
    )
