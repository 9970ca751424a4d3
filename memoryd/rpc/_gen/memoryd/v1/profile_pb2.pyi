import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Profile(_message.Message):
    __slots__ = ("agent_id", "document", "token_count", "budget_tokens", "revision", "prompt_block", "updated_at", "encoding", "source")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    DOCUMENT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_COUNT_FIELD_NUMBER: _ClassVar[int]
    BUDGET_TOKENS_FIELD_NUMBER: _ClassVar[int]
    REVISION_FIELD_NUMBER: _ClassVar[int]
    PROMPT_BLOCK_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    ENCODING_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    document: str
    token_count: int
    budget_tokens: int
    revision: int
    prompt_block: str
    updated_at: _timestamp_pb2.Timestamp
    encoding: str
    source: str
    def __init__(self, agent_id: _Optional[str] = ..., document: _Optional[str] = ..., token_count: _Optional[int] = ..., budget_tokens: _Optional[int] = ..., revision: _Optional[int] = ..., prompt_block: _Optional[str] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., encoding: _Optional[str] = ..., source: _Optional[str] = ...) -> None: ...

class GetProfileRequest(_message.Message):
    __slots__ = ("agent_id",)
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    def __init__(self, agent_id: _Optional[str] = ...) -> None: ...

class GetProfileResponse(_message.Message):
    __slots__ = ("profile",)
    PROFILE_FIELD_NUMBER: _ClassVar[int]
    profile: Profile
    def __init__(self, profile: _Optional[_Union[Profile, _Mapping]] = ...) -> None: ...

class AppendLine(_message.Message):
    __slots__ = ("section", "line", "pinned")
    SECTION_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    PINNED_FIELD_NUMBER: _ClassVar[int]
    section: str
    line: str
    pinned: bool
    def __init__(self, section: _Optional[str] = ..., line: _Optional[str] = ..., pinned: _Optional[bool] = ...) -> None: ...

class ReplaceSection(_message.Message):
    __slots__ = ("section", "content", "pinned")
    SECTION_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    PINNED_FIELD_NUMBER: _ClassVar[int]
    section: str
    content: str
    pinned: bool
    def __init__(self, section: _Optional[str] = ..., content: _Optional[str] = ..., pinned: _Optional[bool] = ...) -> None: ...

class RemoveLine(_message.Message):
    __slots__ = ("section", "line", "pinned")
    SECTION_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    PINNED_FIELD_NUMBER: _ClassVar[int]
    section: str
    line: str
    pinned: bool
    def __init__(self, section: _Optional[str] = ..., line: _Optional[str] = ..., pinned: _Optional[bool] = ...) -> None: ...

class SetBudget(_message.Message):
    __slots__ = ("budget_tokens",)
    BUDGET_TOKENS_FIELD_NUMBER: _ClassVar[int]
    budget_tokens: int
    def __init__(self, budget_tokens: _Optional[int] = ...) -> None: ...

class RestoreRevision(_message.Message):
    __slots__ = ("revision",)
    REVISION_FIELD_NUMBER: _ClassVar[int]
    revision: int
    def __init__(self, revision: _Optional[int] = ...) -> None: ...

class EditProfileRequest(_message.Message):
    __slots__ = ("agent_id", "expected_revision", "append", "replace_section", "remove_line", "set_budget", "restore_revision")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_REVISION_FIELD_NUMBER: _ClassVar[int]
    APPEND_FIELD_NUMBER: _ClassVar[int]
    REPLACE_SECTION_FIELD_NUMBER: _ClassVar[int]
    REMOVE_LINE_FIELD_NUMBER: _ClassVar[int]
    SET_BUDGET_FIELD_NUMBER: _ClassVar[int]
    RESTORE_REVISION_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    expected_revision: int
    append: AppendLine
    replace_section: ReplaceSection
    remove_line: RemoveLine
    set_budget: SetBudget
    restore_revision: RestoreRevision
    def __init__(self, agent_id: _Optional[str] = ..., expected_revision: _Optional[int] = ..., append: _Optional[_Union[AppendLine, _Mapping]] = ..., replace_section: _Optional[_Union[ReplaceSection, _Mapping]] = ..., remove_line: _Optional[_Union[RemoveLine, _Mapping]] = ..., set_budget: _Optional[_Union[SetBudget, _Mapping]] = ..., restore_revision: _Optional[_Union[RestoreRevision, _Mapping]] = ...) -> None: ...

class EditProfileResponse(_message.Message):
    __slots__ = ("profile",)
    PROFILE_FIELD_NUMBER: _ClassVar[int]
    profile: Profile
    def __init__(self, profile: _Optional[_Union[Profile, _Mapping]] = ...) -> None: ...

class ListProfileRevisionsRequest(_message.Message):
    __slots__ = ("agent_id", "page_size", "page_token")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    page_size: int
    page_token: str
    def __init__(self, agent_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListProfileRevisionsResponse(_message.Message):
    __slots__ = ("revisions", "next_page_token")
    REVISIONS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    revisions: _containers.RepeatedCompositeFieldContainer[Profile]
    next_page_token: str
    def __init__(self, revisions: _Optional[_Iterable[_Union[Profile, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetProfileRevisionRequest(_message.Message):
    __slots__ = ("agent_id", "revision")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    REVISION_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    revision: int
    def __init__(self, agent_id: _Optional[str] = ..., revision: _Optional[int] = ...) -> None: ...

class GetProfileRevisionResponse(_message.Message):
    __slots__ = ("profile",)
    PROFILE_FIELD_NUMBER: _ClassVar[int]
    profile: Profile
    def __init__(self, profile: _Optional[_Union[Profile, _Mapping]] = ...) -> None: ...

class RegenerateProfileRequest(_message.Message):
    __slots__ = ("agent_id",)
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    def __init__(self, agent_id: _Optional[str] = ...) -> None: ...

class RegenerateProfileResponse(_message.Message):
    __slots__ = ("job_id",)
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    job_id: str
    def __init__(self, job_id: _Optional[str] = ...) -> None: ...
