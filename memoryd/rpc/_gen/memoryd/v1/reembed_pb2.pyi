from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ReembedRequest(_message.Message):
    __slots__ = ("model",)
    MODEL_FIELD_NUMBER: _ClassVar[int]
    model: str
    def __init__(self, model: _Optional[str] = ...) -> None: ...

class ReembedResponse(_message.Message):
    __slots__ = ("job_id",)
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    job_id: str
    def __init__(self, job_id: _Optional[str] = ...) -> None: ...

class ReembedStatus(_message.Message):
    __slots__ = ("model", "memories", "missing", "recall_model")
    MODEL_FIELD_NUMBER: _ClassVar[int]
    MEMORIES_FIELD_NUMBER: _ClassVar[int]
    MISSING_FIELD_NUMBER: _ClassVar[int]
    RECALL_MODEL_FIELD_NUMBER: _ClassVar[int]
    model: str
    memories: int
    missing: int
    recall_model: str
    def __init__(self, model: _Optional[str] = ..., memories: _Optional[int] = ..., missing: _Optional[int] = ..., recall_model: _Optional[str] = ...) -> None: ...

class GetReembedStatusRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetReembedStatusResponse(_message.Message):
    __slots__ = ("status",)
    STATUS_FIELD_NUMBER: _ClassVar[int]
    status: ReembedStatus
    def __init__(self, status: _Optional[_Union[ReembedStatus, _Mapping]] = ...) -> None: ...

class SwitchRecallModelRequest(_message.Message):
    __slots__ = ("back",)
    BACK_FIELD_NUMBER: _ClassVar[int]
    back: bool
    def __init__(self, back: _Optional[bool] = ...) -> None: ...

class SwitchRecallModelResponse(_message.Message):
    __slots__ = ("status",)
    STATUS_FIELD_NUMBER: _ClassVar[int]
    status: ReembedStatus
    def __init__(self, status: _Optional[_Union[ReembedStatus, _Mapping]] = ...) -> None: ...
