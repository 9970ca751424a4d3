import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from memoryd.rpc._gen.memoryd.v1 import memory_pb2 as _memory_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class EntityType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ENTITY_TYPE_UNSPECIFIED: _ClassVar[EntityType]
    ENTITY_TYPE_PERSON: _ClassVar[EntityType]
    ENTITY_TYPE_ORGANIZATION: _ClassVar[EntityType]
    ENTITY_TYPE_PLACE: _ClassVar[EntityType]
    ENTITY_TYPE_TOPIC: _ClassVar[EntityType]
    ENTITY_TYPE_PRODUCT: _ClassVar[EntityType]
    ENTITY_TYPE_EVENT: _ClassVar[EntityType]
    ENTITY_TYPE_OTHER: _ClassVar[EntityType]

class FactStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FACT_STATUS_UNSPECIFIED: _ClassVar[FactStatus]
    FACT_STATUS_ACTIVE: _ClassVar[FactStatus]
    FACT_STATUS_INVALIDATED: _ClassVar[FactStatus]
    FACT_STATUS_PENDING: _ClassVar[FactStatus]
    FACT_STATUS_ARCHIVED: _ClassVar[FactStatus]
ENTITY_TYPE_UNSPECIFIED: EntityType
ENTITY_TYPE_PERSON: EntityType
ENTITY_TYPE_ORGANIZATION: EntityType
ENTITY_TYPE_PLACE: EntityType
ENTITY_TYPE_TOPIC: EntityType
ENTITY_TYPE_PRODUCT: EntityType
ENTITY_TYPE_EVENT: EntityType
ENTITY_TYPE_OTHER: EntityType
FACT_STATUS_UNSPECIFIED: FactStatus
FACT_STATUS_ACTIVE: FactStatus
FACT_STATUS_INVALIDATED: FactStatus
FACT_STATUS_PENDING: FactStatus
FACT_STATUS_ARCHIVED: FactStatus

class GetEntityRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "entity_id")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    entity_id: str
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., entity_id: _Optional[str] = ...) -> None: ...

class GetEntityResponse(_message.Message):
    __slots__ = ("entity", "annotated_by")
    ENTITY_FIELD_NUMBER: _ClassVar[int]
    ANNOTATED_BY_FIELD_NUMBER: _ClassVar[int]
    entity: GraphEntity
    annotated_by: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, entity: _Optional[_Union[GraphEntity, _Mapping]] = ..., annotated_by: _Optional[_Iterable[str]] = ...) -> None: ...

class ListEpisodesRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "page_size", "page_token")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    page_size: int
    page_token: str
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class GraphEpisode(_message.Message):
    __slots__ = ("id", "kind", "scope", "agent_id", "end_user_id", "source", "created_at", "facts", "entities", "model", "tokens_in", "tokens_out", "digest")
    ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    FACTS_FIELD_NUMBER: _ClassVar[int]
    ENTITIES_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    TOKENS_IN_FIELD_NUMBER: _ClassVar[int]
    TOKENS_OUT_FIELD_NUMBER: _ClassVar[int]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    id: str
    kind: str
    scope: _memory_pb2.Scope
    agent_id: str
    end_user_id: str
    source: str
    created_at: _timestamp_pb2.Timestamp
    facts: int
    entities: int
    model: str
    tokens_in: int
    tokens_out: int
    digest: str
    def __init__(self, id: _Optional[str] = ..., kind: _Optional[str] = ..., scope: _Optional[_Union[_memory_pb2.Scope, str]] = ..., agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., source: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., facts: _Optional[int] = ..., entities: _Optional[int] = ..., model: _Optional[str] = ..., tokens_in: _Optional[int] = ..., tokens_out: _Optional[int] = ..., digest: _Optional[str] = ...) -> None: ...

class ListEpisodesResponse(_message.Message):
    __slots__ = ("episodes", "next_page_token")
    EPISODES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    episodes: _containers.RepeatedCompositeFieldContainer[GraphEpisode]
    next_page_token: str
    def __init__(self, episodes: _Optional[_Iterable[_Union[GraphEpisode, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ListMergeSuggestionsRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "page_size", "page_token")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    page_size: int
    page_token: str
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class MergeSuggestion(_message.Message):
    __slots__ = ("suggestion_id", "entity", "similar_entity", "similarity", "evidence", "created_at")
    SUGGESTION_ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_FIELD_NUMBER: _ClassVar[int]
    SIMILAR_ENTITY_FIELD_NUMBER: _ClassVar[int]
    SIMILARITY_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    suggestion_id: str
    entity: GraphEntity
    similar_entity: GraphEntity
    similarity: float
    evidence: str
    created_at: _timestamp_pb2.Timestamp
    def __init__(self, suggestion_id: _Optional[str] = ..., entity: _Optional[_Union[GraphEntity, _Mapping]] = ..., similar_entity: _Optional[_Union[GraphEntity, _Mapping]] = ..., similarity: _Optional[float] = ..., evidence: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListMergeSuggestionsResponse(_message.Message):
    __slots__ = ("suggestions", "next_page_token")
    SUGGESTIONS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    suggestions: _containers.RepeatedCompositeFieldContainer[MergeSuggestion]
    next_page_token: str
    def __init__(self, suggestions: _Optional[_Iterable[_Union[MergeSuggestion, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class DismissMergeSuggestionRequest(_message.Message):
    __slots__ = ("suggestion_id",)
    SUGGESTION_ID_FIELD_NUMBER: _ClassVar[int]
    suggestion_id: str
    def __init__(self, suggestion_id: _Optional[str] = ...) -> None: ...

class DismissMergeSuggestionResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListFactsRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "status", "entity_id", "page_size", "page_token")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    status: FactStatus
    entity_id: str
    page_size: int
    page_token: str
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., status: _Optional[_Union[FactStatus, str]] = ..., entity_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListFactsResponse(_message.Message):
    __slots__ = ("facts", "next_page_token")
    FACTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    facts: _containers.RepeatedCompositeFieldContainer[GraphFact]
    next_page_token: str
    def __init__(self, facts: _Optional[_Iterable[_Union[GraphFact, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ListEntitiesRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "page_size", "page_token", "merged")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    MERGED_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    page_size: int
    page_token: str
    merged: bool
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., merged: _Optional[bool] = ...) -> None: ...

class ListEntitiesResponse(_message.Message):
    __slots__ = ("entities", "next_page_token")
    ENTITIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    entities: _containers.RepeatedCompositeFieldContainer[GraphEntity]
    next_page_token: str
    def __init__(self, entities: _Optional[_Iterable[_Union[GraphEntity, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GraphFact(_message.Message):
    __slots__ = ("id", "subject", "subject_id", "predicate", "object", "object_id", "fact", "scope", "agent_id", "end_user_id", "valid_from", "valid_to", "created_at", "invalidated_at", "status", "invalidated_by", "mention_count", "sources", "pinned", "hop", "score", "confidence", "last_seen_at")
    ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_ID_FIELD_NUMBER: _ClassVar[int]
    PREDICATE_FIELD_NUMBER: _ClassVar[int]
    OBJECT_FIELD_NUMBER: _ClassVar[int]
    OBJECT_ID_FIELD_NUMBER: _ClassVar[int]
    FACT_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    VALID_FROM_FIELD_NUMBER: _ClassVar[int]
    VALID_TO_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    INVALIDATED_AT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    INVALIDATED_BY_FIELD_NUMBER: _ClassVar[int]
    MENTION_COUNT_FIELD_NUMBER: _ClassVar[int]
    SOURCES_FIELD_NUMBER: _ClassVar[int]
    PINNED_FIELD_NUMBER: _ClassVar[int]
    HOP_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    LAST_SEEN_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    subject: str
    subject_id: str
    predicate: str
    object: str
    object_id: str
    fact: str
    scope: _memory_pb2.Scope
    agent_id: str
    end_user_id: str
    valid_from: _timestamp_pb2.Timestamp
    valid_to: _timestamp_pb2.Timestamp
    created_at: _timestamp_pb2.Timestamp
    invalidated_at: _timestamp_pb2.Timestamp
    status: FactStatus
    invalidated_by: str
    mention_count: int
    sources: _containers.RepeatedScalarFieldContainer[str]
    pinned: bool
    hop: int
    score: float
    confidence: float
    last_seen_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., subject: _Optional[str] = ..., subject_id: _Optional[str] = ..., predicate: _Optional[str] = ..., object: _Optional[str] = ..., object_id: _Optional[str] = ..., fact: _Optional[str] = ..., scope: _Optional[_Union[_memory_pb2.Scope, str]] = ..., agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., valid_from: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., valid_to: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., invalidated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., status: _Optional[_Union[FactStatus, str]] = ..., invalidated_by: _Optional[str] = ..., mention_count: _Optional[int] = ..., sources: _Optional[_Iterable[str]] = ..., pinned: _Optional[bool] = ..., hop: _Optional[int] = ..., score: _Optional[float] = ..., confidence: _Optional[float] = ..., last_seen_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class SearchGraphRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "query", "as_of", "max_hops", "budget_tokens", "limit")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    MAX_HOPS_FIELD_NUMBER: _ClassVar[int]
    BUDGET_TOKENS_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    query: str
    as_of: _timestamp_pb2.Timestamp
    max_hops: int
    budget_tokens: int
    limit: int
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., query: _Optional[str] = ..., as_of: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., max_hops: _Optional[int] = ..., budget_tokens: _Optional[int] = ..., limit: _Optional[int] = ...) -> None: ...

class SearchGraphResponse(_message.Message):
    __slots__ = ("facts", "block", "tokens", "as_of")
    FACTS_FIELD_NUMBER: _ClassVar[int]
    BLOCK_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    facts: _containers.RepeatedCompositeFieldContainer[GraphFact]
    block: str
    tokens: int
    as_of: _timestamp_pb2.Timestamp
    def __init__(self, facts: _Optional[_Iterable[_Union[GraphFact, _Mapping]]] = ..., block: _Optional[str] = ..., tokens: _Optional[int] = ..., as_of: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ExplainFactRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "fact_id")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    FACT_ID_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    fact_id: str
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., fact_id: _Optional[str] = ...) -> None: ...

class ExplainFactResponse(_message.Message):
    __slots__ = ("fact", "superseded", "superseded_by")
    FACT_FIELD_NUMBER: _ClassVar[int]
    SUPERSEDED_FIELD_NUMBER: _ClassVar[int]
    SUPERSEDED_BY_FIELD_NUMBER: _ClassVar[int]
    fact: GraphFact
    superseded: _containers.RepeatedCompositeFieldContainer[GraphFact]
    superseded_by: GraphFact
    def __init__(self, fact: _Optional[_Union[GraphFact, _Mapping]] = ..., superseded: _Optional[_Iterable[_Union[GraphFact, _Mapping]]] = ..., superseded_by: _Optional[_Union[GraphFact, _Mapping]] = ...) -> None: ...

class AssertFactRequest(_message.Message):
    __slots__ = ("subject", "subject_type", "predicate", "object", "object_type", "fact", "valid_from", "scope", "agent_id", "end_user_id", "request_id")
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_TYPE_FIELD_NUMBER: _ClassVar[int]
    PREDICATE_FIELD_NUMBER: _ClassVar[int]
    OBJECT_FIELD_NUMBER: _ClassVar[int]
    OBJECT_TYPE_FIELD_NUMBER: _ClassVar[int]
    FACT_FIELD_NUMBER: _ClassVar[int]
    VALID_FROM_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    subject: str
    subject_type: EntityType
    predicate: str
    object: str
    object_type: EntityType
    fact: str
    valid_from: _timestamp_pb2.Timestamp
    scope: _memory_pb2.Scope
    agent_id: str
    end_user_id: str
    request_id: str
    def __init__(self, subject: _Optional[str] = ..., subject_type: _Optional[_Union[EntityType, str]] = ..., predicate: _Optional[str] = ..., object: _Optional[str] = ..., object_type: _Optional[_Union[EntityType, str]] = ..., fact: _Optional[str] = ..., valid_from: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., scope: _Optional[_Union[_memory_pb2.Scope, str]] = ..., agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class EntityPair(_message.Message):
    __slots__ = ("entity_id", "similar_entity_id")
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    SIMILAR_ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    entity_id: str
    similar_entity_id: str
    def __init__(self, entity_id: _Optional[str] = ..., similar_entity_id: _Optional[str] = ...) -> None: ...

class AssertFactResponse(_message.Message):
    __slots__ = ("fact", "action", "invalidated_fact_ids", "possible_duplicates")
    FACT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    INVALIDATED_FACT_IDS_FIELD_NUMBER: _ClassVar[int]
    POSSIBLE_DUPLICATES_FIELD_NUMBER: _ClassVar[int]
    fact: GraphFact
    action: str
    invalidated_fact_ids: _containers.RepeatedScalarFieldContainer[str]
    possible_duplicates: _containers.RepeatedCompositeFieldContainer[EntityPair]
    def __init__(self, fact: _Optional[_Union[GraphFact, _Mapping]] = ..., action: _Optional[str] = ..., invalidated_fact_ids: _Optional[_Iterable[str]] = ..., possible_duplicates: _Optional[_Iterable[_Union[EntityPair, _Mapping]]] = ...) -> None: ...

class UpdateFactRequest(_message.Message):
    __slots__ = ("fact_id", "valid_to", "status", "pinned")
    FACT_ID_FIELD_NUMBER: _ClassVar[int]
    VALID_TO_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PINNED_FIELD_NUMBER: _ClassVar[int]
    fact_id: str
    valid_to: _timestamp_pb2.Timestamp
    status: FactStatus
    pinned: bool
    def __init__(self, fact_id: _Optional[str] = ..., valid_to: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., status: _Optional[_Union[FactStatus, str]] = ..., pinned: _Optional[bool] = ...) -> None: ...

class UpdateFactResponse(_message.Message):
    __slots__ = ("fact",)
    FACT_FIELD_NUMBER: _ClassVar[int]
    fact: GraphFact
    def __init__(self, fact: _Optional[_Union[GraphFact, _Mapping]] = ...) -> None: ...

class MergeEntitiesRequest(_message.Message):
    __slots__ = ("source_entity_id", "target_entity_id")
    SOURCE_ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    source_entity_id: str
    target_entity_id: str
    def __init__(self, source_entity_id: _Optional[str] = ..., target_entity_id: _Optional[str] = ...) -> None: ...

class GraphEntity(_message.Message):
    __slots__ = ("id", "name", "entity_type", "aliases", "scope", "agent_id", "end_user_id", "merged_into")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ENTITY_TYPE_FIELD_NUMBER: _ClassVar[int]
    ALIASES_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    MERGED_INTO_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    entity_type: EntityType
    aliases: _containers.RepeatedScalarFieldContainer[str]
    scope: _memory_pb2.Scope
    agent_id: str
    end_user_id: str
    merged_into: str
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., entity_type: _Optional[_Union[EntityType, str]] = ..., aliases: _Optional[_Iterable[str]] = ..., scope: _Optional[_Union[_memory_pb2.Scope, str]] = ..., agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., merged_into: _Optional[str] = ...) -> None: ...

class MergeEntitiesResponse(_message.Message):
    __slots__ = ("entity",)
    ENTITY_FIELD_NUMBER: _ClassVar[int]
    entity: GraphEntity
    def __init__(self, entity: _Optional[_Union[GraphEntity, _Mapping]] = ...) -> None: ...

class UnmergeEntityRequest(_message.Message):
    __slots__ = ("entity_id",)
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    entity_id: str
    def __init__(self, entity_id: _Optional[str] = ...) -> None: ...

class UnmergeEntityResponse(_message.Message):
    __slots__ = ("entity", "target", "facts_moved")
    ENTITY_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    FACTS_MOVED_FIELD_NUMBER: _ClassVar[int]
    entity: GraphEntity
    target: GraphEntity
    facts_moved: int
    def __init__(self, entity: _Optional[_Union[GraphEntity, _Mapping]] = ..., target: _Optional[_Union[GraphEntity, _Mapping]] = ..., facts_moved: _Optional[int] = ...) -> None: ...

class RenameEntityRequest(_message.Message):
    __slots__ = ("entity_id", "name")
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    entity_id: str
    name: str
    def __init__(self, entity_id: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class RenameEntityResponse(_message.Message):
    __slots__ = ("entity",)
    ENTITY_FIELD_NUMBER: _ClassVar[int]
    entity: GraphEntity
    def __init__(self, entity: _Optional[_Union[GraphEntity, _Mapping]] = ...) -> None: ...

class ForgetFactRequest(_message.Message):
    __slots__ = ("fact_id",)
    FACT_ID_FIELD_NUMBER: _ClassVar[int]
    fact_id: str
    def __init__(self, fact_id: _Optional[str] = ...) -> None: ...

class ForgetFactResponse(_message.Message):
    __slots__ = ("fact_id",)
    FACT_ID_FIELD_NUMBER: _ClassVar[int]
    fact_id: str
    def __init__(self, fact_id: _Optional[str] = ...) -> None: ...
