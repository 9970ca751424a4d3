import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class FeedbackSignal(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FEEDBACK_SIGNAL_UNSPECIFIED: _ClassVar[FeedbackSignal]
    FEEDBACK_SIGNAL_USEFUL: _ClassVar[FeedbackSignal]
    FEEDBACK_SIGNAL_NOT_USEFUL: _ClassVar[FeedbackSignal]
    FEEDBACK_SIGNAL_WRONG: _ClassVar[FeedbackSignal]
    FEEDBACK_SIGNAL_EXPLICIT_POSITIVE: _ClassVar[FeedbackSignal]
    FEEDBACK_SIGNAL_EXPLICIT_NEGATIVE: _ClassVar[FeedbackSignal]
    FEEDBACK_SIGNAL_CORRECTION: _ClassVar[FeedbackSignal]
    FEEDBACK_SIGNAL_USED: _ClassVar[FeedbackSignal]
    FEEDBACK_SIGNAL_UNUSED: _ClassVar[FeedbackSignal]

class Scope(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SCOPE_UNSPECIFIED: _ClassVar[Scope]
    SCOPE_PRIVATE: _ClassVar[Scope]
    SCOPE_SHARED: _ClassVar[Scope]
    SCOPE_TENANT: _ClassVar[Scope]
    SCOPE_END_USER: _ClassVar[Scope]

class MemoryType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MEMORY_TYPE_UNSPECIFIED: _ClassVar[MemoryType]
    MEMORY_TYPE_EPISODIC: _ClassVar[MemoryType]
    MEMORY_TYPE_SEMANTIC: _ClassVar[MemoryType]

class MemoryStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MEMORY_STATUS_UNSPECIFIED: _ClassVar[MemoryStatus]
    MEMORY_STATUS_ACTIVE: _ClassVar[MemoryStatus]
    MEMORY_STATUS_ARCHIVED: _ClassVar[MemoryStatus]
    MEMORY_STATUS_SUPERSEDED: _ClassVar[MemoryStatus]

class TagMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TAG_MODE_UNSPECIFIED: _ClassVar[TagMode]
    TAG_MODE_ANY: _ClassVar[TagMode]
    TAG_MODE_ALL: _ClassVar[TagMode]

class RankingMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RANKING_MODE_UNSPECIFIED: _ClassVar[RankingMode]
    RANKING_MODE_RELEVANCE: _ClassVar[RankingMode]
    RANKING_MODE_SALIENCE_DECAY: _ClassVar[RankingMode]

class RecallArms(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RECALL_ARMS_UNSPECIFIED: _ClassVar[RecallArms]
    RECALL_ARMS_BOTH: _ClassVar[RecallArms]
    RECALL_ARMS_VECTOR: _ClassVar[RecallArms]
    RECALL_ARMS_FULL_TEXT: _ClassVar[RecallArms]
FEEDBACK_SIGNAL_UNSPECIFIED: FeedbackSignal
FEEDBACK_SIGNAL_USEFUL: FeedbackSignal
FEEDBACK_SIGNAL_NOT_USEFUL: FeedbackSignal
FEEDBACK_SIGNAL_WRONG: FeedbackSignal
FEEDBACK_SIGNAL_EXPLICIT_POSITIVE: FeedbackSignal
FEEDBACK_SIGNAL_EXPLICIT_NEGATIVE: FeedbackSignal
FEEDBACK_SIGNAL_CORRECTION: FeedbackSignal
FEEDBACK_SIGNAL_USED: FeedbackSignal
FEEDBACK_SIGNAL_UNUSED: FeedbackSignal
SCOPE_UNSPECIFIED: Scope
SCOPE_PRIVATE: Scope
SCOPE_SHARED: Scope
SCOPE_TENANT: Scope
SCOPE_END_USER: Scope
MEMORY_TYPE_UNSPECIFIED: MemoryType
MEMORY_TYPE_EPISODIC: MemoryType
MEMORY_TYPE_SEMANTIC: MemoryType
MEMORY_STATUS_UNSPECIFIED: MemoryStatus
MEMORY_STATUS_ACTIVE: MemoryStatus
MEMORY_STATUS_ARCHIVED: MemoryStatus
MEMORY_STATUS_SUPERSEDED: MemoryStatus
TAG_MODE_UNSPECIFIED: TagMode
TAG_MODE_ANY: TagMode
TAG_MODE_ALL: TagMode
RANKING_MODE_UNSPECIFIED: RankingMode
RANKING_MODE_RELEVANCE: RankingMode
RANKING_MODE_SALIENCE_DECAY: RankingMode
RECALL_ARMS_UNSPECIFIED: RecallArms
RECALL_ARMS_BOTH: RecallArms
RECALL_ARMS_VECTOR: RecallArms
RECALL_ARMS_FULL_TEXT: RecallArms

class FeedbackSummary(_message.Message):
    __slots__ = ("useful", "not_useful", "wrong", "explicit_positive", "explicit_negative", "corrections", "used", "unused", "salience_shift", "last_feedback_at")
    USEFUL_FIELD_NUMBER: _ClassVar[int]
    NOT_USEFUL_FIELD_NUMBER: _ClassVar[int]
    WRONG_FIELD_NUMBER: _ClassVar[int]
    EXPLICIT_POSITIVE_FIELD_NUMBER: _ClassVar[int]
    EXPLICIT_NEGATIVE_FIELD_NUMBER: _ClassVar[int]
    CORRECTIONS_FIELD_NUMBER: _ClassVar[int]
    USED_FIELD_NUMBER: _ClassVar[int]
    UNUSED_FIELD_NUMBER: _ClassVar[int]
    SALIENCE_SHIFT_FIELD_NUMBER: _ClassVar[int]
    LAST_FEEDBACK_AT_FIELD_NUMBER: _ClassVar[int]
    useful: int
    not_useful: int
    wrong: int
    explicit_positive: int
    explicit_negative: int
    corrections: int
    used: int
    unused: int
    salience_shift: float
    last_feedback_at: _timestamp_pb2.Timestamp
    def __init__(self, useful: _Optional[int] = ..., not_useful: _Optional[int] = ..., wrong: _Optional[int] = ..., explicit_positive: _Optional[int] = ..., explicit_negative: _Optional[int] = ..., corrections: _Optional[int] = ..., used: _Optional[int] = ..., unused: _Optional[int] = ..., salience_shift: _Optional[float] = ..., last_feedback_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class FeedbackRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "memory_id", "signal", "correction", "request_id")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    MEMORY_ID_FIELD_NUMBER: _ClassVar[int]
    SIGNAL_FIELD_NUMBER: _ClassVar[int]
    CORRECTION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    memory_id: str
    signal: FeedbackSignal
    correction: str
    request_id: str
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., memory_id: _Optional[str] = ..., signal: _Optional[_Union[FeedbackSignal, str]] = ..., correction: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class FeedbackResponse(_message.Message):
    __slots__ = ("memory", "correction")
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    CORRECTION_FIELD_NUMBER: _ClassVar[int]
    memory: Memory
    correction: Memory
    def __init__(self, memory: _Optional[_Union[Memory, _Mapping]] = ..., correction: _Optional[_Union[Memory, _Mapping]] = ...) -> None: ...

class UsedResult(_message.Message):
    __slots__ = ("id", "used")
    ID_FIELD_NUMBER: _ClassVar[int]
    USED_FIELD_NUMBER: _ClassVar[int]
    id: str
    used: bool
    def __init__(self, id: _Optional[str] = ..., used: _Optional[bool] = ...) -> None: ...

class AutoFeedbackRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "results", "request_id")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    results: _containers.RepeatedCompositeFieldContainer[UsedResult]
    request_id: str
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., results: _Optional[_Iterable[_Union[UsedResult, _Mapping]]] = ..., request_id: _Optional[str] = ...) -> None: ...

class AutoFeedbackResponse(_message.Message):
    __slots__ = ("recorded",)
    RECORDED_FIELD_NUMBER: _ClassVar[int]
    recorded: int
    def __init__(self, recorded: _Optional[int] = ...) -> None: ...

class Memory(_message.Message):
    __slots__ = ("id", "agent_id", "end_user_id", "scope", "content", "memory_type", "category", "subject", "tags", "salience", "decay_factor", "source_context", "source_id", "content_hash", "embedding_model", "created_at", "updated_at", "occurred_at", "retrieval_count", "last_retrieved_at", "status", "superseded_by", "injection_count", "feedback", "embedding_pending", "collection", "pinned")
    ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    MEMORY_TYPE_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    TAGS_FIELD_NUMBER: _ClassVar[int]
    SALIENCE_FIELD_NUMBER: _ClassVar[int]
    DECAY_FACTOR_FIELD_NUMBER: _ClassVar[int]
    SOURCE_CONTEXT_FIELD_NUMBER: _ClassVar[int]
    SOURCE_ID_FIELD_NUMBER: _ClassVar[int]
    CONTENT_HASH_FIELD_NUMBER: _ClassVar[int]
    EMBEDDING_MODEL_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    OCCURRED_AT_FIELD_NUMBER: _ClassVar[int]
    RETRIEVAL_COUNT_FIELD_NUMBER: _ClassVar[int]
    LAST_RETRIEVED_AT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SUPERSEDED_BY_FIELD_NUMBER: _ClassVar[int]
    INJECTION_COUNT_FIELD_NUMBER: _ClassVar[int]
    FEEDBACK_FIELD_NUMBER: _ClassVar[int]
    EMBEDDING_PENDING_FIELD_NUMBER: _ClassVar[int]
    COLLECTION_FIELD_NUMBER: _ClassVar[int]
    PINNED_FIELD_NUMBER: _ClassVar[int]
    id: str
    agent_id: str
    end_user_id: str
    scope: Scope
    content: str
    memory_type: MemoryType
    category: str
    subject: str
    tags: _containers.RepeatedScalarFieldContainer[str]
    salience: float
    decay_factor: float
    source_context: str
    source_id: str
    content_hash: str
    embedding_model: str
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    occurred_at: _timestamp_pb2.Timestamp
    retrieval_count: int
    last_retrieved_at: _timestamp_pb2.Timestamp
    status: MemoryStatus
    superseded_by: str
    injection_count: int
    feedback: FeedbackSummary
    embedding_pending: bool
    collection: str
    pinned: bool
    def __init__(self, id: _Optional[str] = ..., agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., scope: _Optional[_Union[Scope, str]] = ..., content: _Optional[str] = ..., memory_type: _Optional[_Union[MemoryType, str]] = ..., category: _Optional[str] = ..., subject: _Optional[str] = ..., tags: _Optional[_Iterable[str]] = ..., salience: _Optional[float] = ..., decay_factor: _Optional[float] = ..., source_context: _Optional[str] = ..., source_id: _Optional[str] = ..., content_hash: _Optional[str] = ..., embedding_model: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., occurred_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., retrieval_count: _Optional[int] = ..., last_retrieved_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., status: _Optional[_Union[MemoryStatus, str]] = ..., superseded_by: _Optional[str] = ..., injection_count: _Optional[int] = ..., feedback: _Optional[_Union[FeedbackSummary, _Mapping]] = ..., embedding_pending: _Optional[bool] = ..., collection: _Optional[str] = ..., pinned: _Optional[bool] = ...) -> None: ...

class MemoryInput(_message.Message):
    __slots__ = ("content", "scope", "memory_type", "category", "subject", "tags", "salience", "decay_factor", "source_context", "source_id", "occurred_at", "embedding", "collection", "pinned")
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    MEMORY_TYPE_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    TAGS_FIELD_NUMBER: _ClassVar[int]
    SALIENCE_FIELD_NUMBER: _ClassVar[int]
    DECAY_FACTOR_FIELD_NUMBER: _ClassVar[int]
    SOURCE_CONTEXT_FIELD_NUMBER: _ClassVar[int]
    SOURCE_ID_FIELD_NUMBER: _ClassVar[int]
    OCCURRED_AT_FIELD_NUMBER: _ClassVar[int]
    EMBEDDING_FIELD_NUMBER: _ClassVar[int]
    COLLECTION_FIELD_NUMBER: _ClassVar[int]
    PINNED_FIELD_NUMBER: _ClassVar[int]
    content: str
    scope: Scope
    memory_type: MemoryType
    category: str
    subject: str
    tags: _containers.RepeatedScalarFieldContainer[str]
    salience: float
    decay_factor: float
    source_context: str
    source_id: str
    occurred_at: _timestamp_pb2.Timestamp
    embedding: _containers.RepeatedScalarFieldContainer[float]
    collection: str
    pinned: bool
    def __init__(self, content: _Optional[str] = ..., scope: _Optional[_Union[Scope, str]] = ..., memory_type: _Optional[_Union[MemoryType, str]] = ..., category: _Optional[str] = ..., subject: _Optional[str] = ..., tags: _Optional[_Iterable[str]] = ..., salience: _Optional[float] = ..., decay_factor: _Optional[float] = ..., source_context: _Optional[str] = ..., source_id: _Optional[str] = ..., occurred_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., embedding: _Optional[_Iterable[float]] = ..., collection: _Optional[str] = ..., pinned: _Optional[bool] = ...) -> None: ...

class MemorizeRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "memory", "request_id")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    memory: MemoryInput
    request_id: str
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., memory: _Optional[_Union[MemoryInput, _Mapping]] = ..., request_id: _Optional[str] = ...) -> None: ...

class MemorizeResponse(_message.Message):
    __slots__ = ("memory", "deduplicated")
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    DEDUPLICATED_FIELD_NUMBER: _ClassVar[int]
    memory: Memory
    deduplicated: bool
    def __init__(self, memory: _Optional[_Union[Memory, _Mapping]] = ..., deduplicated: _Optional[bool] = ...) -> None: ...

class MemorizeBatchRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "items", "skip_deduplication", "request_id")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    SKIP_DEDUPLICATION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    items: _containers.RepeatedCompositeFieldContainer[MemoryInput]
    skip_deduplication: bool
    request_id: str
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., items: _Optional[_Iterable[_Union[MemoryInput, _Mapping]]] = ..., skip_deduplication: _Optional[bool] = ..., request_id: _Optional[str] = ...) -> None: ...

class MemorizeBatchResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[MemorizeResponse]
    def __init__(self, results: _Optional[_Iterable[_Union[MemorizeResponse, _Mapping]]] = ...) -> None: ...

class RecallFilter(_message.Message):
    __slots__ = ("subject", "category", "since", "memory_type", "tags", "tag_mode", "scopes", "statuses", "source_id", "collection", "pinned_only")
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    SINCE_FIELD_NUMBER: _ClassVar[int]
    MEMORY_TYPE_FIELD_NUMBER: _ClassVar[int]
    TAGS_FIELD_NUMBER: _ClassVar[int]
    TAG_MODE_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    SOURCE_ID_FIELD_NUMBER: _ClassVar[int]
    COLLECTION_FIELD_NUMBER: _ClassVar[int]
    PINNED_ONLY_FIELD_NUMBER: _ClassVar[int]
    subject: str
    category: str
    since: _timestamp_pb2.Timestamp
    memory_type: MemoryType
    tags: _containers.RepeatedScalarFieldContainer[str]
    tag_mode: TagMode
    scopes: _containers.RepeatedScalarFieldContainer[Scope]
    statuses: _containers.RepeatedScalarFieldContainer[MemoryStatus]
    source_id: str
    collection: str
    pinned_only: bool
    def __init__(self, subject: _Optional[str] = ..., category: _Optional[str] = ..., since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., memory_type: _Optional[_Union[MemoryType, str]] = ..., tags: _Optional[_Iterable[str]] = ..., tag_mode: _Optional[_Union[TagMode, str]] = ..., scopes: _Optional[_Iterable[_Union[Scope, str]]] = ..., statuses: _Optional[_Iterable[_Union[MemoryStatus, str]]] = ..., source_id: _Optional[str] = ..., collection: _Optional[str] = ..., pinned_only: _Optional[bool] = ...) -> None: ...

class RecallRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "query", "limit", "filter", "ranking", "min_score", "min_salience", "query_embedding", "arms", "explain", "explain_ids")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    MIN_SCORE_FIELD_NUMBER: _ClassVar[int]
    MIN_SALIENCE_FIELD_NUMBER: _ClassVar[int]
    QUERY_EMBEDDING_FIELD_NUMBER: _ClassVar[int]
    ARMS_FIELD_NUMBER: _ClassVar[int]
    EXPLAIN_FIELD_NUMBER: _ClassVar[int]
    EXPLAIN_IDS_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    query: str
    limit: int
    filter: RecallFilter
    ranking: RankingMode
    min_score: float
    min_salience: float
    query_embedding: _containers.RepeatedScalarFieldContainer[float]
    arms: RecallArms
    explain: bool
    explain_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., query: _Optional[str] = ..., limit: _Optional[int] = ..., filter: _Optional[_Union[RecallFilter, _Mapping]] = ..., ranking: _Optional[_Union[RankingMode, str]] = ..., min_score: _Optional[float] = ..., min_salience: _Optional[float] = ..., query_embedding: _Optional[_Iterable[float]] = ..., arms: _Optional[_Union[RecallArms, str]] = ..., explain: _Optional[bool] = ..., explain_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class ScoreParts(_message.Message):
    __slots__ = ("vector_rank", "vector_similarity", "vector_contribution", "full_text_rank", "full_text_score", "full_text_contribution", "composite", "fused", "vector_evidence", "full_text_evidence")
    VECTOR_RANK_FIELD_NUMBER: _ClassVar[int]
    VECTOR_SIMILARITY_FIELD_NUMBER: _ClassVar[int]
    VECTOR_CONTRIBUTION_FIELD_NUMBER: _ClassVar[int]
    FULL_TEXT_RANK_FIELD_NUMBER: _ClassVar[int]
    FULL_TEXT_SCORE_FIELD_NUMBER: _ClassVar[int]
    FULL_TEXT_CONTRIBUTION_FIELD_NUMBER: _ClassVar[int]
    COMPOSITE_FIELD_NUMBER: _ClassVar[int]
    FUSED_FIELD_NUMBER: _ClassVar[int]
    VECTOR_EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    FULL_TEXT_EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    vector_rank: int
    vector_similarity: float
    vector_contribution: float
    full_text_rank: int
    full_text_score: float
    full_text_contribution: float
    composite: float
    fused: float
    vector_evidence: float
    full_text_evidence: float
    def __init__(self, vector_rank: _Optional[int] = ..., vector_similarity: _Optional[float] = ..., vector_contribution: _Optional[float] = ..., full_text_rank: _Optional[int] = ..., full_text_score: _Optional[float] = ..., full_text_contribution: _Optional[float] = ..., composite: _Optional[float] = ..., fused: _Optional[float] = ..., vector_evidence: _Optional[float] = ..., full_text_evidence: _Optional[float] = ...) -> None: ...

class RecallHit(_message.Message):
    __slots__ = ("memory", "score", "parts")
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    PARTS_FIELD_NUMBER: _ClassVar[int]
    memory: Memory
    score: float
    parts: ScoreParts
    def __init__(self, memory: _Optional[_Union[Memory, _Mapping]] = ..., score: _Optional[float] = ..., parts: _Optional[_Union[ScoreParts, _Mapping]] = ...) -> None: ...

class RecallResponse(_message.Message):
    __slots__ = ("hits", "degraded", "degraded_reason", "trace")
    HITS_FIELD_NUMBER: _ClassVar[int]
    DEGRADED_FIELD_NUMBER: _ClassVar[int]
    DEGRADED_REASON_FIELD_NUMBER: _ClassVar[int]
    TRACE_FIELD_NUMBER: _ClassVar[int]
    hits: _containers.RepeatedCompositeFieldContainer[RecallHit]
    degraded: bool
    degraded_reason: str
    trace: RecallTrace
    def __init__(self, hits: _Optional[_Iterable[_Union[RecallHit, _Mapping]]] = ..., degraded: _Optional[bool] = ..., degraded_reason: _Optional[str] = ..., trace: _Optional[_Union[RecallTrace, _Mapping]] = ...) -> None: ...

class RecallTrace(_message.Message):
    __slots__ = ("limit", "min_score", "similarity_floor", "depth", "vector_weight", "full_text_weight", "coverage_rerank", "vector_candidates", "full_text_candidates", "candidates", "explained")
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    MIN_SCORE_FIELD_NUMBER: _ClassVar[int]
    SIMILARITY_FLOOR_FIELD_NUMBER: _ClassVar[int]
    DEPTH_FIELD_NUMBER: _ClassVar[int]
    VECTOR_WEIGHT_FIELD_NUMBER: _ClassVar[int]
    FULL_TEXT_WEIGHT_FIELD_NUMBER: _ClassVar[int]
    COVERAGE_RERANK_FIELD_NUMBER: _ClassVar[int]
    VECTOR_CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    FULL_TEXT_CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    EXPLAINED_FIELD_NUMBER: _ClassVar[int]
    limit: int
    min_score: float
    similarity_floor: float
    depth: int
    vector_weight: float
    full_text_weight: float
    coverage_rerank: bool
    vector_candidates: int
    full_text_candidates: int
    candidates: _containers.RepeatedCompositeFieldContainer[TraceCandidate]
    explained: _containers.RepeatedCompositeFieldContainer[ExplainedMemory]
    def __init__(self, limit: _Optional[int] = ..., min_score: _Optional[float] = ..., similarity_floor: _Optional[float] = ..., depth: _Optional[int] = ..., vector_weight: _Optional[float] = ..., full_text_weight: _Optional[float] = ..., coverage_rerank: _Optional[bool] = ..., vector_candidates: _Optional[int] = ..., full_text_candidates: _Optional[int] = ..., candidates: _Optional[_Iterable[_Union[TraceCandidate, _Mapping]]] = ..., explained: _Optional[_Iterable[_Union[ExplainedMemory, _Mapping]]] = ...) -> None: ...

class TraceCandidate(_message.Message):
    __slots__ = ("memory_id", "position", "vector_rank", "vector_similarity", "full_text_rank", "full_text_score", "fused", "vector_evidence", "full_text_evidence", "score", "outcome", "content")
    MEMORY_ID_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    VECTOR_RANK_FIELD_NUMBER: _ClassVar[int]
    VECTOR_SIMILARITY_FIELD_NUMBER: _ClassVar[int]
    FULL_TEXT_RANK_FIELD_NUMBER: _ClassVar[int]
    FULL_TEXT_SCORE_FIELD_NUMBER: _ClassVar[int]
    FUSED_FIELD_NUMBER: _ClassVar[int]
    VECTOR_EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    FULL_TEXT_EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    memory_id: str
    position: int
    vector_rank: int
    vector_similarity: float
    full_text_rank: int
    full_text_score: float
    fused: float
    vector_evidence: float
    full_text_evidence: float
    score: float
    outcome: str
    content: str
    def __init__(self, memory_id: _Optional[str] = ..., position: _Optional[int] = ..., vector_rank: _Optional[int] = ..., vector_similarity: _Optional[float] = ..., full_text_rank: _Optional[int] = ..., full_text_score: _Optional[float] = ..., fused: _Optional[float] = ..., vector_evidence: _Optional[float] = ..., full_text_evidence: _Optional[float] = ..., score: _Optional[float] = ..., outcome: _Optional[str] = ..., content: _Optional[str] = ...) -> None: ...

class ExplainedMemory(_message.Message):
    __slots__ = ("memory_id", "outcome")
    MEMORY_ID_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    memory_id: str
    outcome: str
    def __init__(self, memory_id: _Optional[str] = ..., outcome: _Optional[str] = ...) -> None: ...

class GetMemoryRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "memory_id")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    MEMORY_ID_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    memory_id: str
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., memory_id: _Optional[str] = ...) -> None: ...

class GetMemoryHistoryRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "memory_id")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    MEMORY_ID_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    memory_id: str
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., memory_id: _Optional[str] = ...) -> None: ...

class MemoryHistoryEvent(_message.Message):
    __slots__ = ("event_id", "at", "kind", "key_id", "role", "agent_id", "via", "request_id", "detail", "end_user_id")
    class DetailEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    AT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    VIA_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    event_id: str
    at: _timestamp_pb2.Timestamp
    kind: str
    key_id: str
    role: str
    agent_id: str
    via: str
    request_id: str
    detail: _containers.ScalarMap[str, str]
    end_user_id: str
    def __init__(self, event_id: _Optional[str] = ..., at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., kind: _Optional[str] = ..., key_id: _Optional[str] = ..., role: _Optional[str] = ..., agent_id: _Optional[str] = ..., via: _Optional[str] = ..., request_id: _Optional[str] = ..., detail: _Optional[_Mapping[str, str]] = ..., end_user_id: _Optional[str] = ...) -> None: ...

class GetMemoryHistoryResponse(_message.Message):
    __slots__ = ("events", "servings_total")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    SERVINGS_TOTAL_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[MemoryHistoryEvent]
    servings_total: int
    def __init__(self, events: _Optional[_Iterable[_Union[MemoryHistoryEvent, _Mapping]]] = ..., servings_total: _Optional[int] = ...) -> None: ...

class GetMemoryResponse(_message.Message):
    __slots__ = ("memory", "annotated_by")
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    ANNOTATED_BY_FIELD_NUMBER: _ClassVar[int]
    memory: Memory
    annotated_by: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, memory: _Optional[_Union[Memory, _Mapping]] = ..., annotated_by: _Optional[_Iterable[str]] = ...) -> None: ...

class TagList(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, values: _Optional[_Iterable[str]] = ...) -> None: ...

class UpdateMemoryRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "memory_id", "content", "category", "subject", "scope", "tags", "salience", "collection", "pinned")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    MEMORY_ID_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    TAGS_FIELD_NUMBER: _ClassVar[int]
    SALIENCE_FIELD_NUMBER: _ClassVar[int]
    COLLECTION_FIELD_NUMBER: _ClassVar[int]
    PINNED_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    memory_id: str
    content: str
    category: str
    subject: str
    scope: Scope
    tags: TagList
    salience: float
    collection: str
    pinned: bool
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., memory_id: _Optional[str] = ..., content: _Optional[str] = ..., category: _Optional[str] = ..., subject: _Optional[str] = ..., scope: _Optional[_Union[Scope, str]] = ..., tags: _Optional[_Union[TagList, _Mapping]] = ..., salience: _Optional[float] = ..., collection: _Optional[str] = ..., pinned: _Optional[bool] = ...) -> None: ...

class UpdateMemoryResponse(_message.Message):
    __slots__ = ("memory",)
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    memory: Memory
    def __init__(self, memory: _Optional[_Union[Memory, _Mapping]] = ...) -> None: ...

class ForgetRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "memory_id")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    MEMORY_ID_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    memory_id: str
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., memory_id: _Optional[str] = ...) -> None: ...

class ForgetResponse(_message.Message):
    __slots__ = ("memory_id",)
    MEMORY_ID_FIELD_NUMBER: _ClassVar[int]
    memory_id: str
    def __init__(self, memory_id: _Optional[str] = ...) -> None: ...

class ListMemoriesRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "filter", "page_size", "page_token")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    filter: RecallFilter
    page_size: int
    page_token: str
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., filter: _Optional[_Union[RecallFilter, _Mapping]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListMemoriesResponse(_message.Message):
    __slots__ = ("memories", "next_page_token")
    MEMORIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    memories: _containers.RepeatedCompositeFieldContainer[Memory]
    next_page_token: str
    def __init__(self, memories: _Optional[_Iterable[_Union[Memory, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class RestoreMemoryRequest(_message.Message):
    __slots__ = ("agent_id", "end_user_id", "memory_id")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    MEMORY_ID_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    end_user_id: str
    memory_id: str
    def __init__(self, agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., memory_id: _Optional[str] = ...) -> None: ...

class RestoreMemoryResponse(_message.Message):
    __slots__ = ("memory",)
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    memory: Memory
    def __init__(self, memory: _Optional[_Union[Memory, _Mapping]] = ...) -> None: ...
