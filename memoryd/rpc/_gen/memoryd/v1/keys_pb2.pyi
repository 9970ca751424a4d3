import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class KeyRole(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KEY_ROLE_UNSPECIFIED: _ClassVar[KeyRole]
    KEY_ROLE_AGENT: _ClassVar[KeyRole]
    KEY_ROLE_OPERATOR: _ClassVar[KeyRole]
    KEY_ROLE_ADMIN: _ClassVar[KeyRole]
    KEY_ROLE_SYSTEM: _ClassVar[KeyRole]

class KeyScope(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KEY_SCOPE_UNSPECIFIED: _ClassVar[KeyScope]
    KEY_SCOPE_ALL: _ClassVar[KeyScope]
    KEY_SCOPE_READ_ONLY: _ClassVar[KeyScope]
    KEY_SCOPE_NON_DESTRUCTIVE: _ClassVar[KeyScope]
KEY_ROLE_UNSPECIFIED: KeyRole
KEY_ROLE_AGENT: KeyRole
KEY_ROLE_OPERATOR: KeyRole
KEY_ROLE_ADMIN: KeyRole
KEY_ROLE_SYSTEM: KeyRole
KEY_SCOPE_UNSPECIFIED: KeyScope
KEY_SCOPE_ALL: KeyScope
KEY_SCOPE_READ_ONLY: KeyScope
KEY_SCOPE_NON_DESTRUCTIVE: KeyScope

class ApiKey(_message.Message):
    __slots__ = ("key_id", "tenant_id", "role", "agent_id", "name", "created_at", "last_used_at", "revoked_at", "scope")
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    TENANT_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    LAST_USED_AT_FIELD_NUMBER: _ClassVar[int]
    REVOKED_AT_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    key_id: str
    tenant_id: str
    role: KeyRole
    agent_id: str
    name: str
    created_at: _timestamp_pb2.Timestamp
    last_used_at: _timestamp_pb2.Timestamp
    revoked_at: _timestamp_pb2.Timestamp
    scope: KeyScope
    def __init__(self, key_id: _Optional[str] = ..., tenant_id: _Optional[str] = ..., role: _Optional[_Union[KeyRole, str]] = ..., agent_id: _Optional[str] = ..., name: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., last_used_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., revoked_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., scope: _Optional[_Union[KeyScope, str]] = ...) -> None: ...

class CreateKeyRequest(_message.Message):
    __slots__ = ("role", "agent_id", "name", "scope")
    ROLE_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    role: KeyRole
    agent_id: str
    name: str
    scope: KeyScope
    def __init__(self, role: _Optional[_Union[KeyRole, str]] = ..., agent_id: _Optional[str] = ..., name: _Optional[str] = ..., scope: _Optional[_Union[KeyScope, str]] = ...) -> None: ...

class CreateKeyResponse(_message.Message):
    __slots__ = ("key", "token")
    KEY_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    key: ApiKey
    token: str
    def __init__(self, key: _Optional[_Union[ApiKey, _Mapping]] = ..., token: _Optional[str] = ...) -> None: ...

class ListKeysRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListKeysResponse(_message.Message):
    __slots__ = ("keys",)
    KEYS_FIELD_NUMBER: _ClassVar[int]
    keys: _containers.RepeatedCompositeFieldContainer[ApiKey]
    def __init__(self, keys: _Optional[_Iterable[_Union[ApiKey, _Mapping]]] = ...) -> None: ...

class RevokeKeyRequest(_message.Message):
    __slots__ = ("key_id",)
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    key_id: str
    def __init__(self, key_id: _Optional[str] = ...) -> None: ...

class RevokeKeyResponse(_message.Message):
    __slots__ = ("key",)
    KEY_FIELD_NUMBER: _ClassVar[int]
    key: ApiKey
    def __init__(self, key: _Optional[_Union[ApiKey, _Mapping]] = ...) -> None: ...

class WhoAmIRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class WhoAmIResponse(_message.Message):
    __slots__ = ("tenant_id", "role", "key_id", "agent_id", "protected_mode", "scope")
    TENANT_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    PROTECTED_MODE_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    tenant_id: str
    role: KeyRole
    key_id: str
    agent_id: str
    protected_mode: bool
    scope: KeyScope
    def __init__(self, tenant_id: _Optional[str] = ..., role: _Optional[_Union[KeyRole, str]] = ..., key_id: _Optional[str] = ..., agent_id: _Optional[str] = ..., protected_mode: _Optional[bool] = ..., scope: _Optional[_Union[KeyScope, str]] = ...) -> None: ...
