import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ExportTenantRequest(_message.Message):
    __slots__ = ("include_embeddings",)
    INCLUDE_EMBEDDINGS_FIELD_NUMBER: _ClassVar[int]
    include_embeddings: bool
    def __init__(self, include_embeddings: _Optional[bool] = ...) -> None: ...

class ExportEndUserRequest(_message.Message):
    __slots__ = ("end_user_id", "include_embeddings")
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_EMBEDDINGS_FIELD_NUMBER: _ClassVar[int]
    end_user_id: str
    include_embeddings: bool
    def __init__(self, end_user_id: _Optional[str] = ..., include_embeddings: _Optional[bool] = ...) -> None: ...

class ExportTenantResponse(_message.Message):
    __slots__ = ("line",)
    LINE_FIELD_NUMBER: _ClassVar[int]
    line: str
    def __init__(self, line: _Optional[str] = ...) -> None: ...

class ExportEndUserResponse(_message.Message):
    __slots__ = ("line",)
    LINE_FIELD_NUMBER: _ClassVar[int]
    line: str
    def __init__(self, line: _Optional[str] = ...) -> None: ...

class EraseEndUserRequest(_message.Message):
    __slots__ = ("end_user_id",)
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    end_user_id: str
    def __init__(self, end_user_id: _Optional[str] = ...) -> None: ...

class ErasureReceipt(_message.Message):
    __slots__ = ("subject", "at", "counts", "memory_ids", "conversations", "versions_purged", "persistence_rewritten", "seconds")
    class CountsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    AT_FIELD_NUMBER: _ClassVar[int]
    COUNTS_FIELD_NUMBER: _ClassVar[int]
    MEMORY_IDS_FIELD_NUMBER: _ClassVar[int]
    CONVERSATIONS_FIELD_NUMBER: _ClassVar[int]
    VERSIONS_PURGED_FIELD_NUMBER: _ClassVar[int]
    PERSISTENCE_REWRITTEN_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    subject: str
    at: _timestamp_pb2.Timestamp
    counts: _containers.ScalarMap[str, int]
    memory_ids: _containers.RepeatedScalarFieldContainer[str]
    conversations: _containers.RepeatedScalarFieldContainer[str]
    versions_purged: int
    persistence_rewritten: bool
    seconds: float
    def __init__(self, subject: _Optional[str] = ..., at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., counts: _Optional[_Mapping[str, int]] = ..., memory_ids: _Optional[_Iterable[str]] = ..., conversations: _Optional[_Iterable[str]] = ..., versions_purged: _Optional[int] = ..., persistence_rewritten: _Optional[bool] = ..., seconds: _Optional[float] = ...) -> None: ...

class EraseEndUserResponse(_message.Message):
    __slots__ = ("receipt",)
    RECEIPT_FIELD_NUMBER: _ClassVar[int]
    receipt: ErasureReceipt
    def __init__(self, receipt: _Optional[_Union[ErasureReceipt, _Mapping]] = ...) -> None: ...
