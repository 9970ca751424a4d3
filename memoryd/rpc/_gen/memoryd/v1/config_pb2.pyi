from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ConfigLevel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CONFIG_LEVEL_UNSPECIFIED: _ClassVar[ConfigLevel]
    CONFIG_LEVEL_DEFAULT: _ClassVar[ConfigLevel]
    CONFIG_LEVEL_TENANT: _ClassVar[ConfigLevel]
    CONFIG_LEVEL_DAEMON_AGENT: _ClassVar[ConfigLevel]
    CONFIG_LEVEL_AGENT: _ClassVar[ConfigLevel]
CONFIG_LEVEL_UNSPECIFIED: ConfigLevel
CONFIG_LEVEL_DEFAULT: ConfigLevel
CONFIG_LEVEL_TENANT: ConfigLevel
CONFIG_LEVEL_DAEMON_AGENT: ConfigLevel
CONFIG_LEVEL_AGENT: ConfigLevel

class ConfigValue(_message.Message):
    __slots__ = ("bool_value", "int_value", "double_value", "string_value")
    BOOL_VALUE_FIELD_NUMBER: _ClassVar[int]
    INT_VALUE_FIELD_NUMBER: _ClassVar[int]
    DOUBLE_VALUE_FIELD_NUMBER: _ClassVar[int]
    STRING_VALUE_FIELD_NUMBER: _ClassVar[int]
    bool_value: bool
    int_value: int
    double_value: float
    string_value: str
    def __init__(self, bool_value: _Optional[bool] = ..., int_value: _Optional[int] = ..., double_value: _Optional[float] = ..., string_value: _Optional[str] = ...) -> None: ...

class SetTenantConfigRequest(_message.Message):
    __slots__ = ("values", "unset", "expected_version")
    class ValuesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: ConfigValue
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[ConfigValue, _Mapping]] = ...) -> None: ...
    VALUES_FIELD_NUMBER: _ClassVar[int]
    UNSET_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    values: _containers.MessageMap[str, ConfigValue]
    unset: _containers.RepeatedScalarFieldContainer[str]
    expected_version: int
    def __init__(self, values: _Optional[_Mapping[str, ConfigValue]] = ..., unset: _Optional[_Iterable[str]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class SetAgentConfigRequest(_message.Message):
    __slots__ = ("agent_id", "values", "unset", "expected_version")
    class ValuesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: ConfigValue
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[ConfigValue, _Mapping]] = ...) -> None: ...
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    UNSET_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    values: _containers.MessageMap[str, ConfigValue]
    unset: _containers.RepeatedScalarFieldContainer[str]
    expected_version: int
    def __init__(self, agent_id: _Optional[str] = ..., values: _Optional[_Mapping[str, ConfigValue]] = ..., unset: _Optional[_Iterable[str]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class StoredConfig(_message.Message):
    __slots__ = ("agent_id", "values", "version")
    class ValuesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: ConfigValue
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[ConfigValue, _Mapping]] = ...) -> None: ...
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    values: _containers.MessageMap[str, ConfigValue]
    version: int
    def __init__(self, agent_id: _Optional[str] = ..., values: _Optional[_Mapping[str, ConfigValue]] = ..., version: _Optional[int] = ...) -> None: ...

class SetTenantConfigResponse(_message.Message):
    __slots__ = ("config",)
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    config: StoredConfig
    def __init__(self, config: _Optional[_Union[StoredConfig, _Mapping]] = ...) -> None: ...

class SetAgentConfigResponse(_message.Message):
    __slots__ = ("config",)
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    config: StoredConfig
    def __init__(self, config: _Optional[_Union[StoredConfig, _Mapping]] = ...) -> None: ...

class GetEffectiveConfigRequest(_message.Message):
    __slots__ = ("agent_id",)
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    def __init__(self, agent_id: _Optional[str] = ...) -> None: ...

class EffectiveSetting(_message.Message):
    __slots__ = ("key", "value", "level", "capped", "tighten_only", "description")
    KEY_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    CAPPED_FIELD_NUMBER: _ClassVar[int]
    TIGHTEN_ONLY_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    key: str
    value: ConfigValue
    level: ConfigLevel
    capped: bool
    tighten_only: bool
    description: str
    def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[ConfigValue, _Mapping]] = ..., level: _Optional[_Union[ConfigLevel, str]] = ..., capped: _Optional[bool] = ..., tighten_only: _Optional[bool] = ..., description: _Optional[str] = ...) -> None: ...

class GetEffectiveConfigResponse(_message.Message):
    __slots__ = ("settings", "tenant_version", "agent_version")
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    TENANT_VERSION_FIELD_NUMBER: _ClassVar[int]
    AGENT_VERSION_FIELD_NUMBER: _ClassVar[int]
    settings: _containers.RepeatedCompositeFieldContainer[EffectiveSetting]
    tenant_version: int
    agent_version: int
    def __init__(self, settings: _Optional[_Iterable[_Union[EffectiveSetting, _Mapping]]] = ..., tenant_version: _Optional[int] = ..., agent_version: _Optional[int] = ...) -> None: ...
