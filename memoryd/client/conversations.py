"""The working memory's calls for both clients: turns in, the context out, compactions and their events.

Each request is built once here; ``Conversations`` waits on the blocking client, ``AsyncConversations``
on the asyncio one. Every call goes through its client's ``call`` (metadata, deadline, retries on
UNAVAILABLE only; Compact and EndSession name their job by the conversation's last message, so a
retry queues nothing twice). ``watch`` streams a conversation's compaction events until ``timeout``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any, cast

import grpc

from memoryd.client.fields import build
from memoryd.client.namespaces import AsyncCaller, Caller, watch_ended
from memoryd.client.paging import async_pages, pages
from memoryd.rpc.client import ConversationServiceStub, cpb

Message = tuple[str, str, str] | Mapping[str, Any]
"""A turn to append: ``(message_id, role, content)``, or a mapping of ``MessageInput``'s fields (a model's
message with its ``message_id``; ``tool_call_id`` and ``tool_name`` for a tool's reply)."""


def _fields(index: int, message: Message) -> Mapping[str, Any]:
    """One turn as MessageInput's fields; a pair or a string is refused naming its index."""
    if isinstance(message, Mapping):
        return message
    if isinstance(message, Sequence) and not isinstance(message, str) and len(message) == 3:
        message_id, role, content = message
        return {"message_id": message_id, "role": role, "content": content}
    # an OpenAI-style (role, content) pair, unpacked as three, said "not enough values to unpack"
    raise TypeError(f"messages[{index}]: (message_id, role, content) is wanted, not {message!r:.80}")


def _append(
    agent_id: str,
    conversation_id: str,
    messages: Sequence[Message],
    end_user_id: str,
    context_window_tokens: int,
    options: Mapping[str, object] | None,
) -> cpb.AppendMessagesRequest:
    if isinstance(messages, str | Mapping):
        raise TypeError("messages: a list of messages is wanted, not one")
    fields = {
        "agent_id": agent_id,
        "end_user_id": end_user_id,
        "conversation_id": conversation_id,
        "context_window_tokens": context_window_tokens,
        "messages": [_fields(i, message) for i, message in enumerate(messages)],  # roles by name, checked
        "options": options or {},
    }
    return build(cpb.AppendMessagesRequest, fields)


def _context(
    agent_id: str, conversation_id: str, context_window_tokens: int, end_user_id: str
) -> cpb.GetContextRequest:
    return cpb.GetContextRequest(
        agent_id=agent_id,
        end_user_id=end_user_id,
        conversation_id=conversation_id,
        context_window_tokens=context_window_tokens,
    )


def _listing(
    agent_id: str, end_user_id: str, all_contacts: bool, page_size: int, token: str
) -> cpb.ListConversationsRequest:
    return cpb.ListConversationsRequest(
        agent_id=agent_id, end_user_id=end_user_id, all_contacts=all_contacts, page_size=page_size, page_token=token
    )


def _watching(agent_id: str, conversation_id: str, end_user_id: str, from_start: bool) -> cpb.WatchConversationRequest:
    return cpb.WatchConversationRequest(
        agent_id=agent_id, end_user_id=end_user_id, conversation_id=conversation_id, from_start=from_start
    )


class Conversations:
    """AppendMessages, GetContext, Compact, EndSession, ListConversations, WatchConversation."""

    def __init__(self, client: Caller) -> None:
        self._client = client

    def _stub(self) -> ConversationServiceStub:
        return ConversationServiceStub(self._client.channel)

    def append(
        self,
        agent_id: str,
        conversation_id: str,
        messages: Sequence[Message],
        *,
        end_user_id: str = "",
        context_window_tokens: int = 0,
        options: Mapping[str, object] | None = None,
    ) -> cpb.AppendMessagesResponse:
        """Append turns: ``(message_id, role, content)`` or a mapping of MessageInput's fields; idempotent per id.

        Roles: user, assistant, system, tool.

        ``options`` overrides the agent's policy for this conversation from now on (``ConversationOptions``:
        ``strategy``, ``window_messages``, ``budget_tokens``, ``storage_scope``, ``auto_recall``; enums
        by short name, e.g. ``{"strategy": "buffer_window", "window_messages": 4}``).
        """
        request = _append(agent_id, conversation_id, messages, end_user_id, context_window_tokens, options)
        return cast(cpb.AppendMessagesResponse, self._client.call(self._stub().AppendMessages, request))

    def context(
        self, agent_id: str, conversation_id: str, context_window_tokens: int, *, end_user_id: str = ""
    ) -> cpb.GetContextResponse:
        """What to send the model now: profile, dated summaries, kept messages, recalled memories, within the window."""
        request = _context(agent_id, conversation_id, context_window_tokens, end_user_id)
        return cast(cpb.GetContextResponse, self._client.call(self._stub().GetContext, request))

    def compact(self, agent_id: str, conversation_id: str, *, end_user_id: str = "") -> str:
        """Summarise what the keep-window leaves now, whatever the threshold; the job's id (``jobs``)."""
        request = cpb.CompactRequest(agent_id=agent_id, end_user_id=end_user_id, conversation_id=conversation_id)
        return str(self._client.call(self._stub().Compact, request).job_id)

    def end_session(self, agent_id: str, conversation_id: str, *, end_user_id: str = "") -> str:
        """The session is over: summarise the whole tail and file it into the archive; the job's id."""
        request = cpb.EndSessionRequest(agent_id=agent_id, end_user_id=end_user_id, conversation_id=conversation_id)
        return str(self._client.call(self._stub().EndSession, request).job_id)

    def list(
        self, agent_id: str, *, end_user_id: str = "", all_contacts: bool = False, page_size: int = 50
    ) -> Iterator[cpb.ConversationSummary]:
        """The agent's conversations (with the contact, or every contact's), the most recently updated first."""
        return pages(
            lambda token: self._client.call(
                self._stub().ListConversations, _listing(agent_id, end_user_id, all_contacts, page_size, token)
            ),
            "conversations",
        )

    def watch(
        self,
        agent_id: str,
        conversation_id: str,
        *,
        end_user_id: str = "",
        from_start: bool = False,
        timeout: float | None = None,
    ) -> Iterator[cpb.ConversationEvent]:
        """The conversation's compaction events (``from_start``: the stored ones first), live, until ``timeout``."""
        request = _watching(agent_id, conversation_id, end_user_id, from_start)
        stream = self._stub().WatchConversation(request, metadata=self._client.metadata, timeout=timeout)
        try:
            for reply in stream:
                yield reply.event
        except grpc.RpcError as err:
            watch_ended(err)
        finally:
            stream.cancel()


class AsyncConversations:
    """The same calls for ``AsyncMemoryClient`` (see ``Conversations``)."""

    def __init__(self, client: AsyncCaller) -> None:
        self._client = client

    def _stub(self) -> ConversationServiceStub:
        return ConversationServiceStub(self._client.channel)

    async def append(
        self,
        agent_id: str,
        conversation_id: str,
        messages: Sequence[Message],
        *,
        end_user_id: str = "",
        context_window_tokens: int = 0,
        options: Mapping[str, object] | None = None,
    ) -> cpb.AppendMessagesResponse:
        """Append ``(message_id, role, content)`` turns; idempotent per id; ``options`` as ``Conversations``."""
        request = _append(agent_id, conversation_id, messages, end_user_id, context_window_tokens, options)
        return cast(cpb.AppendMessagesResponse, await self._client.call(self._stub().AppendMessages, request))

    async def context(
        self, agent_id: str, conversation_id: str, context_window_tokens: int, *, end_user_id: str = ""
    ) -> cpb.GetContextResponse:
        """What to send the model now, within the window."""
        request = _context(agent_id, conversation_id, context_window_tokens, end_user_id)
        return cast(cpb.GetContextResponse, await self._client.call(self._stub().GetContext, request))

    async def compact(self, agent_id: str, conversation_id: str, *, end_user_id: str = "") -> str:
        """Compact now; the job's id."""
        request = cpb.CompactRequest(agent_id=agent_id, end_user_id=end_user_id, conversation_id=conversation_id)
        return str((await self._client.call(self._stub().Compact, request)).job_id)

    async def end_session(self, agent_id: str, conversation_id: str, *, end_user_id: str = "") -> str:
        """The session is over: summarise and file it; the job's id."""
        request = cpb.EndSessionRequest(agent_id=agent_id, end_user_id=end_user_id, conversation_id=conversation_id)
        return str((await self._client.call(self._stub().EndSession, request)).job_id)

    def list(
        self, agent_id: str, *, end_user_id: str = "", all_contacts: bool = False, page_size: int = 50
    ) -> AsyncIterator[cpb.ConversationSummary]:
        """The agent's conversations, the most recently updated first."""
        return async_pages(
            lambda token: self._client.call(
                self._stub().ListConversations, _listing(agent_id, end_user_id, all_contacts, page_size, token)
            ),
            "conversations",
        )

    async def watch(
        self,
        agent_id: str,
        conversation_id: str,
        *,
        end_user_id: str = "",
        from_start: bool = False,
        timeout: float | None = None,
    ) -> AsyncIterator[cpb.ConversationEvent]:
        """The conversation's compaction events, live, until ``timeout``."""
        request = _watching(agent_id, conversation_id, end_user_id, from_start)
        stream = self._stub().WatchConversation(request, metadata=self._client.metadata, timeout=timeout)
        try:
            async for reply in stream:
                yield reply.event
        except grpc.RpcError as err:
            watch_ended(err)
        finally:
            stream.cancel()
