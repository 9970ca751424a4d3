import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Role(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ROLE_UNSPECIFIED: _ClassVar[Role]
    ROLE_USER: _ClassVar[Role]
    ROLE_ASSISTANT: _ClassVar[Role]
    ROLE_SYSTEM: _ClassVar[Role]
    ROLE_TOOL: _ClassVar[Role]

class Strategy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STRATEGY_UNSPECIFIED: _ClassVar[Strategy]
    STRATEGY_BUFFER_WINDOW: _ClassVar[Strategy]
    STRATEGY_SUMMARY_BUFFER: _ClassVar[Strategy]
    STRATEGY_ACCUMULATE: _ClassVar[Strategy]

class StorageScope(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STORAGE_SCOPE_UNSPECIFIED: _ClassVar[StorageScope]
    STORAGE_SCOPE_ALL: _ClassVar[StorageScope]
    STORAGE_SCOPE_SESSION: _ClassVar[StorageScope]
    STORAGE_SCOPE_CONVERSATIONAL: _ClassVar[StorageScope]
    STORAGE_SCOPE_SUMMARIES_ONLY: _ClassVar[StorageScope]
ROLE_UNSPECIFIED: Role
ROLE_USER: Role
ROLE_ASSISTANT: Role
ROLE_SYSTEM: Role
ROLE_TOOL: Role
STRATEGY_UNSPECIFIED: Strategy
STRATEGY_BUFFER_WINDOW: Strategy
STRATEGY_SUMMARY_BUFFER: Strategy
STRATEGY_ACCUMULATE: Strategy
STORAGE_SCOPE_UNSPECIFIED: StorageScope
STORAGE_SCOPE_ALL: StorageScope
STORAGE_SCOPE_SESSION: StorageScope
STORAGE_SCOPE_CONVERSATIONAL: StorageScope
STORAGE_SCOPE_SUMMARIES_ONLY: StorageScope

class MessageInput(_message.Message):
    __slots__ = ("message_id", "role", "content", "tool_name", "tool_call_id", "created_at")
    MESSAGE_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    TOOL_NAME_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALL_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    message_id: str
    role: Role
    content: str
    tool_name: str
    tool_call_id: str
    created_at: _timestamp_pb2.Timestamp
    def __init__(self, message_id: _Optional[str] = ..., role: _Optional[_Union[Role, str]] = ..., content: _Optional[str] = ..., tool_name: _Optional[str] = ..., tool_call_id: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ConversationOptions(_message.Message):
    __slots__ = ("strategy", "window_messages", "budget_tokens", "storage_scope", "auto_recall")
    STRATEGY_FIELD_NUMBER: _ClassVar[int]
    WINDOW_MESSAGES_FIELD_NUMBER: _ClassVar[int]
    BUDGET_TOKENS_FIELD_NUMBER: _ClassVar[int]
    STORAGE_SCOPE_FIELD_NUMBER: _ClassVar[int]
    AUTO_RECALL_FIELD_NUMBER: _ClassVar[int]
    strategy: Strategy
    window_messages: int
    budget_tokens: int
    storage_scope: StorageScope
    auto_recall: bool
    def __init__(self, strategy: _Optional[_Union[Strategy, str]] = ..., window_messages: _Optional[int] = ..., budget_tokens: _Optional[int] = ..., storage_scope: _Optional[_Union[StorageScope, str]] = ..., auto_recall: _Optional[bool] = ...) -> None: ...

class AppendMessagesRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "conversation_id", "messages", "context_window_tokens", "options")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_WINDOW_TOKENS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    conversation_id: str
    messages: _containers.RepeatedCompositeFieldContainer[MessageInput]
    context_window_tokens: int
    options: ConversationOptions
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., conversation_id: _Optional[str] = ..., messages: _Optional[_Iterable[_Union[MessageInput, _Mapping]]] = ..., context_window_tokens: _Optional[int] = ..., options: _Optional[_Union[ConversationOptions, _Mapping]] = ...) -> None: ...

class AppendMessagesResponse(_message.Message):
    __slots__ = ("seqs", "duplicates", "compaction_job_id")
    SEQS_FIELD_NUMBER: _ClassVar[int]
    DUPLICATES_FIELD_NUMBER: _ClassVar[int]
    COMPACTION_JOB_ID_FIELD_NUMBER: _ClassVar[int]
    seqs: _containers.RepeatedScalarFieldContainer[int]
    duplicates: int
    compaction_job_id: str
    def __init__(self, seqs: _Optional[_Iterable[int]] = ..., duplicates: _Optional[int] = ..., compaction_job_id: _Optional[str] = ...) -> None: ...

class GetContextRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "conversation_id", "context_window_tokens")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_WINDOW_TOKENS_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    conversation_id: str
    context_window_tokens: int
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., conversation_id: _Optional[str] = ..., context_window_tokens: _Optional[int] = ...) -> None: ...

class ContextMessage(_message.Message):
    __slots__ = ("kind", "role", "content", "token_count", "seq", "tool_name", "at")
    KIND_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_COUNT_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    TOOL_NAME_FIELD_NUMBER: _ClassVar[int]
    AT_FIELD_NUMBER: _ClassVar[int]
    kind: str
    role: Role
    content: str
    token_count: int
    seq: int
    tool_name: str
    at: _timestamp_pb2.Timestamp
    def __init__(self, kind: _Optional[str] = ..., role: _Optional[_Union[Role, str]] = ..., content: _Optional[str] = ..., token_count: _Optional[int] = ..., seq: _Optional[int] = ..., tool_name: _Optional[str] = ..., at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class GetContextResponse(_message.Message):
    __slots__ = ("messages", "total_tokens", "profile_tokens", "summary_tokens", "message_tokens", "memory_tokens", "strategy", "left_out_messages", "encoding", "degraded_reason")
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    TOTAL_TOKENS_FIELD_NUMBER: _ClassVar[int]
    PROFILE_TOKENS_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_TOKENS_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_TOKENS_FIELD_NUMBER: _ClassVar[int]
    MEMORY_TOKENS_FIELD_NUMBER: _ClassVar[int]
    STRATEGY_FIELD_NUMBER: _ClassVar[int]
    LEFT_OUT_MESSAGES_FIELD_NUMBER: _ClassVar[int]
    ENCODING_FIELD_NUMBER: _ClassVar[int]
    DEGRADED_REASON_FIELD_NUMBER: _ClassVar[int]
    messages: _containers.RepeatedCompositeFieldContainer[ContextMessage]
    total_tokens: int
    profile_tokens: int
    summary_tokens: int
    message_tokens: int
    memory_tokens: int
    strategy: Strategy
    left_out_messages: int
    encoding: str
    degraded_reason: str
    def __init__(self, messages: _Optional[_Iterable[_Union[ContextMessage, _Mapping]]] = ..., total_tokens: _Optional[int] = ..., profile_tokens: _Optional[int] = ..., summary_tokens: _Optional[int] = ..., message_tokens: _Optional[int] = ..., memory_tokens: _Optional[int] = ..., strategy: _Optional[_Union[Strategy, str]] = ..., left_out_messages: _Optional[int] = ..., encoding: _Optional[str] = ..., degraded_reason: _Optional[str] = ...) -> None: ...

class CompactRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "conversation_id")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    conversation_id: str
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., conversation_id: _Optional[str] = ...) -> None: ...

class CompactResponse(_message.Message):
    __slots__ = ("job_id",)
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    job_id: str
    def __init__(self, job_id: _Optional[str] = ...) -> None: ...

class EndSessionRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "conversation_id")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    conversation_id: str
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., conversation_id: _Optional[str] = ...) -> None: ...

class EndSessionResponse(_message.Message):
    __slots__ = ("job_id",)
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    job_id: str
    def __init__(self, job_id: _Optional[str] = ...) -> None: ...

class ListConversationsRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "all_contacts", "page_size", "page_token")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    ALL_CONTACTS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    all_contacts: bool
    page_size: int
    page_token: str
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., all_contacts: _Optional[bool] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ConversationSummary(_message.Message):
    __slots__ = ("conversation_id", "agent_id", "end_user_id", "messages", "compacted_through", "summaries", "context_window", "created_at", "updated_at")
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    COMPACTED_THROUGH_FIELD_NUMBER: _ClassVar[int]
    SUMMARIES_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_WINDOW_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    conversation_id: str
    agent_id: str
    end_user_id: str
    messages: int
    compacted_through: int
    summaries: int
    context_window: int
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, conversation_id: _Optional[str] = ..., agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., messages: _Optional[int] = ..., compacted_through: _Optional[int] = ..., summaries: _Optional[int] = ..., context_window: _Optional[int] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListConversationsResponse(_message.Message):
    __slots__ = ("conversations", "next_page_token")
    CONVERSATIONS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    conversations: _containers.RepeatedCompositeFieldContainer[ConversationSummary]
    next_page_token: str
    def __init__(self, conversations: _Optional[_Iterable[_Union[ConversationSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class WatchConversationRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "conversation_id", "from_start")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_START_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    conversation_id: str
    from_start: bool
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., conversation_id: _Optional[str] = ..., from_start: _Optional[bool] = ...) -> None: ...

class ConversationEvent(_message.Message):
    __slots__ = ("kind", "job_id", "message", "path", "summarized_messages", "tokens_in", "tokens_out", "at")
    KIND_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    SUMMARIZED_MESSAGES_FIELD_NUMBER: _ClassVar[int]
    TOKENS_IN_FIELD_NUMBER: _ClassVar[int]
    TOKENS_OUT_FIELD_NUMBER: _ClassVar[int]
    AT_FIELD_NUMBER: _ClassVar[int]
    kind: str
    job_id: str
    message: str
    path: str
    summarized_messages: int
    tokens_in: int
    tokens_out: int
    at: _timestamp_pb2.Timestamp
    def __init__(self, kind: _Optional[str] = ..., job_id: _Optional[str] = ..., message: _Optional[str] = ..., path: _Optional[str] = ..., summarized_messages: _Optional[int] = ..., tokens_in: _Optional[int] = ..., tokens_out: _Optional[int] = ..., at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class WatchConversationResponse(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: ConversationEvent
    def __init__(self, event: _Optional[_Union[ConversationEvent, _Mapping]] = ...) -> None: ...
