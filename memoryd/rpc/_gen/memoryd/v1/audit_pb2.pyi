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

class FindingKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FINDING_KIND_UNSPECIFIED: _ClassVar[FindingKind]
    FINDING_KIND_DUPLICATE: _ClassVar[FindingKind]
    FINDING_KIND_CONTRADICTION: _ClassVar[FindingKind]
    FINDING_KIND_STALE: _ClassVar[FindingKind]
    FINDING_KIND_CLUTTER: _ClassVar[FindingKind]
    FINDING_KIND_DISPUTED: _ClassVar[FindingKind]

class FindingAction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FINDING_ACTION_UNSPECIFIED: _ClassVar[FindingAction]
    FINDING_ACTION_MERGE: _ClassVar[FindingAction]
    FINDING_ACTION_UPDATE: _ClassVar[FindingAction]
    FINDING_ACTION_ARCHIVE: _ClassVar[FindingAction]
    FINDING_ACTION_KEEP: _ClassVar[FindingAction]

class FindingStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FINDING_STATUS_UNSPECIFIED: _ClassVar[FindingStatus]
    FINDING_STATUS_PROPOSED: _ClassVar[FindingStatus]
    FINDING_STATUS_APPLIED: _ClassVar[FindingStatus]
    FINDING_STATUS_REJECTED: _ClassVar[FindingStatus]

class FindingSource(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FINDING_SOURCE_UNSPECIFIED: _ClassVar[FindingSource]
    FINDING_SOURCE_RULES: _ClassVar[FindingSource]
    FINDING_SOURCE_MODEL: _ClassVar[FindingSource]
FINDING_KIND_UNSPECIFIED: FindingKind
FINDING_KIND_DUPLICATE: FindingKind
FINDING_KIND_CONTRADICTION: FindingKind
FINDING_KIND_STALE: FindingKind
FINDING_KIND_CLUTTER: FindingKind
FINDING_KIND_DISPUTED: FindingKind
FINDING_ACTION_UNSPECIFIED: FindingAction
FINDING_ACTION_MERGE: FindingAction
FINDING_ACTION_UPDATE: FindingAction
FINDING_ACTION_ARCHIVE: FindingAction
FINDING_ACTION_KEEP: FindingAction
FINDING_STATUS_UNSPECIFIED: FindingStatus
FINDING_STATUS_PROPOSED: FindingStatus
FINDING_STATUS_APPLIED: FindingStatus
FINDING_STATUS_REJECTED: FindingStatus
FINDING_SOURCE_UNSPECIFIED: FindingSource
FINDING_SOURCE_RULES: FindingSource
FINDING_SOURCE_MODEL: FindingSource

class GetModelUsageRequest(_message.Message):
    __slots__ = ("days",)
    DAYS_FIELD_NUMBER: _ClassVar[int]
    days: int
    def __init__(self, days: _Optional[int] = ...) -> None: ...

class ModelUsageDay(_message.Message):
    __slots__ = ("day", "model", "calls", "failed_calls", "tokens_in", "tokens_out")
    DAY_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    CALLS_FIELD_NUMBER: _ClassVar[int]
    FAILED_CALLS_FIELD_NUMBER: _ClassVar[int]
    TOKENS_IN_FIELD_NUMBER: _ClassVar[int]
    TOKENS_OUT_FIELD_NUMBER: _ClassVar[int]
    day: str
    model: str
    calls: int
    failed_calls: int
    tokens_in: int
    tokens_out: int
    def __init__(self, day: _Optional[str] = ..., model: _Optional[str] = ..., calls: _Optional[int] = ..., failed_calls: _Optional[int] = ..., tokens_in: _Optional[int] = ..., tokens_out: _Optional[int] = ...) -> None: ...

class GetModelUsageResponse(_message.Message):
    __slots__ = ("days",)
    DAYS_FIELD_NUMBER: _ClassVar[int]
    days: _containers.RepeatedCompositeFieldContainer[ModelUsageDay]
    def __init__(self, days: _Optional[_Iterable[_Union[ModelUsageDay, _Mapping]]] = ...) -> None: ...

class Finding(_message.Message):
    __slots__ = ("finding_id", "kind", "memory_ids", "reason", "action", "source", "survivor_id", "text", "certain", "status", "outcome")
    FINDING_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    MEMORY_IDS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    SURVIVOR_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    CERTAIN_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    finding_id: str
    kind: FindingKind
    memory_ids: _containers.RepeatedScalarFieldContainer[str]
    reason: str
    action: FindingAction
    source: FindingSource
    survivor_id: str
    text: str
    certain: bool
    status: FindingStatus
    outcome: str
    def __init__(self, finding_id: _Optional[str] = ..., kind: _Optional[_Union[FindingKind, str]] = ..., memory_ids: _Optional[_Iterable[str]] = ..., reason: _Optional[str] = ..., action: _Optional[_Union[FindingAction, str]] = ..., source: _Optional[_Union[FindingSource, str]] = ..., survivor_id: _Optional[str] = ..., text: _Optional[str] = ..., certain: _Optional[bool] = ..., status: _Optional[_Union[FindingStatus, str]] = ..., outcome: _Optional[str] = ...) -> None: ...

class Review(_message.Message):
    __slots__ = ("review_id", "agent_id", "archive_version", "memories_reviewed", "counts", "model", "model_calls", "tokens_in", "tokens_out", "created_at", "finished_at")
    class CountsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    REVIEW_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    ARCHIVE_VERSION_FIELD_NUMBER: _ClassVar[int]
    MEMORIES_REVIEWED_FIELD_NUMBER: _ClassVar[int]
    COUNTS_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    MODEL_CALLS_FIELD_NUMBER: _ClassVar[int]
    TOKENS_IN_FIELD_NUMBER: _ClassVar[int]
    TOKENS_OUT_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AT_FIELD_NUMBER: _ClassVar[int]
    review_id: str
    agent_id: str
    archive_version: str
    memories_reviewed: int
    counts: _containers.ScalarMap[str, int]
    model: str
    model_calls: int
    tokens_in: int
    tokens_out: int
    created_at: _timestamp_pb2.Timestamp
    finished_at: _timestamp_pb2.Timestamp
    def __init__(self, review_id: _Optional[str] = ..., agent_id: _Optional[str] = ..., archive_version: _Optional[str] = ..., memories_reviewed: _Optional[int] = ..., counts: _Optional[_Mapping[str, int]] = ..., model: _Optional[str] = ..., model_calls: _Optional[int] = ..., tokens_in: _Optional[int] = ..., tokens_out: _Optional[int] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., finished_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ReviewMemoriesRequest(_message.Message):
    __slots__ = ("agent_id",)
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    def __init__(self, agent_id: _Optional[str] = ...) -> None: ...

class ReviewMemoriesResponse(_message.Message):
    __slots__ = ("job_id",)
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    job_id: str
    def __init__(self, job_id: _Optional[str] = ...) -> None: ...

class GetReviewRequest(_message.Message):
    __slots__ = ("agent_id", "review_id")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    REVIEW_ID_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    review_id: str
    def __init__(self, agent_id: _Optional[str] = ..., review_id: _Optional[str] = ...) -> None: ...

class GetReviewResponse(_message.Message):
    __slots__ = ("review", "findings", "memories")
    REVIEW_FIELD_NUMBER: _ClassVar[int]
    FINDINGS_FIELD_NUMBER: _ClassVar[int]
    MEMORIES_FIELD_NUMBER: _ClassVar[int]
    review: Review
    findings: _containers.RepeatedCompositeFieldContainer[Finding]
    memories: _containers.RepeatedCompositeFieldContainer[_memory_pb2.Memory]
    def __init__(self, review: _Optional[_Union[Review, _Mapping]] = ..., findings: _Optional[_Iterable[_Union[Finding, _Mapping]]] = ..., memories: _Optional[_Iterable[_Union[_memory_pb2.Memory, _Mapping]]] = ...) -> None: ...

class ListReviewsRequest(_message.Message):
    __slots__ = ("agent_id", "page_size")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    page_size: int
    def __init__(self, agent_id: _Optional[str] = ..., page_size: _Optional[int] = ...) -> None: ...

class ListReviewsResponse(_message.Message):
    __slots__ = ("reviews",)
    REVIEWS_FIELD_NUMBER: _ClassVar[int]
    reviews: _containers.RepeatedCompositeFieldContainer[Review]
    def __init__(self, reviews: _Optional[_Iterable[_Union[Review, _Mapping]]] = ...) -> None: ...

class ApplyFindingsRequest(_message.Message):
    __slots__ = ("agent_id", "review_id", "finding_ids")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    REVIEW_ID_FIELD_NUMBER: _ClassVar[int]
    FINDING_IDS_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    review_id: str
    finding_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, agent_id: _Optional[str] = ..., review_id: _Optional[str] = ..., finding_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class RejectFindingsRequest(_message.Message):
    __slots__ = ("agent_id", "review_id", "finding_ids", "reason")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    REVIEW_ID_FIELD_NUMBER: _ClassVar[int]
    FINDING_IDS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    review_id: str
    finding_ids: _containers.RepeatedScalarFieldContainer[str]
    reason: str
    def __init__(self, agent_id: _Optional[str] = ..., review_id: _Optional[str] = ..., finding_ids: _Optional[_Iterable[str]] = ..., reason: _Optional[str] = ...) -> None: ...

class RejectFindingsResponse(_message.Message):
    __slots__ = ("findings",)
    FINDINGS_FIELD_NUMBER: _ClassVar[int]
    findings: _containers.RepeatedCompositeFieldContainer[Finding]
    def __init__(self, findings: _Optional[_Iterable[_Union[Finding, _Mapping]]] = ...) -> None: ...

class ApplyFindingsResponse(_message.Message):
    __slots__ = ("findings",)
    FINDINGS_FIELD_NUMBER: _ClassVar[int]
    findings: _containers.RepeatedCompositeFieldContainer[Finding]
    def __init__(self, findings: _Optional[_Iterable[_Union[Finding, _Mapping]]] = ...) -> None: ...

class GetUsageReportRequest(_message.Message):
    __slots__ = ("agent_id", "since")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    SINCE_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    since: _timestamp_pb2.Timestamp
    def __init__(self, agent_id: _Optional[str] = ..., since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListUsageReportsRequest(_message.Message):
    __slots__ = ("page_size",)
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    def __init__(self, page_size: _Optional[int] = ...) -> None: ...

class KeptUsageReport(_message.Message):
    __slots__ = ("report_id", "report")
    REPORT_ID_FIELD_NUMBER: _ClassVar[int]
    REPORT_FIELD_NUMBER: _ClassVar[int]
    report_id: str
    report: UsageReport
    def __init__(self, report_id: _Optional[str] = ..., report: _Optional[_Union[UsageReport, _Mapping]] = ...) -> None: ...

class ListUsageReportsResponse(_message.Message):
    __slots__ = ("reports",)
    REPORTS_FIELD_NUMBER: _ClassVar[int]
    reports: _containers.RepeatedCompositeFieldContainer[KeptUsageReport]
    def __init__(self, reports: _Optional[_Iterable[_Union[KeptUsageReport, _Mapping]]] = ...) -> None: ...

class LorenzPoint(_message.Message):
    __slots__ = ("memories_share", "retrievals_share")
    MEMORIES_SHARE_FIELD_NUMBER: _ClassVar[int]
    RETRIEVALS_SHARE_FIELD_NUMBER: _ClassVar[int]
    memories_share: float
    retrievals_share: float
    def __init__(self, memories_share: _Optional[float] = ..., retrievals_share: _Optional[float] = ...) -> None: ...

class Bucket(_message.Message):
    __slots__ = ("label", "count")
    LABEL_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    label: str
    count: int
    def __init__(self, label: _Optional[str] = ..., count: _Optional[int] = ...) -> None: ...

class DayCount(_message.Message):
    __slots__ = ("day", "created")
    DAY_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    day: str
    created: int
    def __init__(self, day: _Optional[str] = ..., created: _Optional[int] = ...) -> None: ...

class AgentUsage(_message.Message):
    __slots__ = ("agent_id", "memories", "retrievals", "never_retrieved_share")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    MEMORIES_FIELD_NUMBER: _ClassVar[int]
    RETRIEVALS_FIELD_NUMBER: _ClassVar[int]
    NEVER_RETRIEVED_SHARE_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    memories: int
    retrievals: int
    never_retrieved_share: float
    def __init__(self, agent_id: _Optional[str] = ..., memories: _Optional[int] = ..., retrievals: _Optional[int] = ..., never_retrieved_share: _Optional[float] = ...) -> None: ...

class UsageReport(_message.Message):
    __slots__ = ("memories", "by_scope", "by_type", "by_status", "growth", "never_retrieved_share", "retrievals", "injections", "top1pct_share", "top10_share", "gini", "age_days", "salience", "duplicate_share", "agents", "concentration_alarm", "alarms", "computed_at", "seconds", "lorenz", "feedback", "by_collection")
    class ByScopeEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class ByTypeEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class ByStatusEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class FeedbackEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class ByCollectionEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    MEMORIES_FIELD_NUMBER: _ClassVar[int]
    BY_SCOPE_FIELD_NUMBER: _ClassVar[int]
    BY_TYPE_FIELD_NUMBER: _ClassVar[int]
    BY_STATUS_FIELD_NUMBER: _ClassVar[int]
    GROWTH_FIELD_NUMBER: _ClassVar[int]
    NEVER_RETRIEVED_SHARE_FIELD_NUMBER: _ClassVar[int]
    RETRIEVALS_FIELD_NUMBER: _ClassVar[int]
    INJECTIONS_FIELD_NUMBER: _ClassVar[int]
    TOP1PCT_SHARE_FIELD_NUMBER: _ClassVar[int]
    TOP10_SHARE_FIELD_NUMBER: _ClassVar[int]
    GINI_FIELD_NUMBER: _ClassVar[int]
    AGE_DAYS_FIELD_NUMBER: _ClassVar[int]
    SALIENCE_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_SHARE_FIELD_NUMBER: _ClassVar[int]
    AGENTS_FIELD_NUMBER: _ClassVar[int]
    CONCENTRATION_ALARM_FIELD_NUMBER: _ClassVar[int]
    ALARMS_FIELD_NUMBER: _ClassVar[int]
    COMPUTED_AT_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    LORENZ_FIELD_NUMBER: _ClassVar[int]
    FEEDBACK_FIELD_NUMBER: _ClassVar[int]
    BY_COLLECTION_FIELD_NUMBER: _ClassVar[int]
    memories: int
    by_scope: _containers.ScalarMap[str, int]
    by_type: _containers.ScalarMap[str, int]
    by_status: _containers.ScalarMap[str, int]
    growth: _containers.RepeatedCompositeFieldContainer[DayCount]
    never_retrieved_share: float
    retrievals: int
    injections: int
    top1pct_share: float
    top10_share: float
    gini: float
    age_days: _containers.RepeatedCompositeFieldContainer[Bucket]
    salience: _containers.RepeatedCompositeFieldContainer[Bucket]
    duplicate_share: float
    agents: _containers.RepeatedCompositeFieldContainer[AgentUsage]
    concentration_alarm: bool
    alarms: _containers.RepeatedScalarFieldContainer[str]
    computed_at: _timestamp_pb2.Timestamp
    seconds: float
    lorenz: _containers.RepeatedCompositeFieldContainer[LorenzPoint]
    feedback: _containers.ScalarMap[str, int]
    by_collection: _containers.ScalarMap[str, int]
    def __init__(self, memories: _Optional[int] = ..., by_scope: _Optional[_Mapping[str, int]] = ..., by_type: _Optional[_Mapping[str, int]] = ..., by_status: _Optional[_Mapping[str, int]] = ..., growth: _Optional[_Iterable[_Union[DayCount, _Mapping]]] = ..., never_retrieved_share: _Optional[float] = ..., retrievals: _Optional[int] = ..., injections: _Optional[int] = ..., top1pct_share: _Optional[float] = ..., top10_share: _Optional[float] = ..., gini: _Optional[float] = ..., age_days: _Optional[_Iterable[_Union[Bucket, _Mapping]]] = ..., salience: _Optional[_Iterable[_Union[Bucket, _Mapping]]] = ..., duplicate_share: _Optional[float] = ..., agents: _Optional[_Iterable[_Union[AgentUsage, _Mapping]]] = ..., concentration_alarm: _Optional[bool] = ..., alarms: _Optional[_Iterable[str]] = ..., computed_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., seconds: _Optional[float] = ..., lorenz: _Optional[_Iterable[_Union[LorenzPoint, _Mapping]]] = ..., feedback: _Optional[_Mapping[str, int]] = ..., by_collection: _Optional[_Mapping[str, int]] = ...) -> None: ...

class GetUsageReportResponse(_message.Message):
    __slots__ = ("report",)
    REPORT_FIELD_NUMBER: _ClassVar[int]
    report: UsageReport
    def __init__(self, report: _Optional[_Union[UsageReport, _Mapping]] = ...) -> None: ...

class AuditEvent(_message.Message):
    __slots__ = ("event_id", "at", "operation", "key_id", "role", "agent_id", "ids", "scopes", "counts")
    class CountsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    AT_FIELD_NUMBER: _ClassVar[int]
    OPERATION_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    IDS_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    COUNTS_FIELD_NUMBER: _ClassVar[int]
    event_id: str
    at: _timestamp_pb2.Timestamp
    operation: str
    key_id: str
    role: str
    agent_id: str
    ids: _containers.RepeatedScalarFieldContainer[str]
    scopes: _containers.RepeatedScalarFieldContainer[str]
    counts: _containers.ScalarMap[str, int]
    def __init__(self, event_id: _Optional[str] = ..., at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., operation: _Optional[str] = ..., key_id: _Optional[str] = ..., role: _Optional[str] = ..., agent_id: _Optional[str] = ..., ids: _Optional[_Iterable[str]] = ..., scopes: _Optional[_Iterable[str]] = ..., counts: _Optional[_Mapping[str, int]] = ...) -> None: ...

class ListAuditEventsRequest(_message.Message):
    __slots__ = ("since", "until", "operation", "page_size", "page_token", "key_id", "row_id")
    SINCE_FIELD_NUMBER: _ClassVar[int]
    UNTIL_FIELD_NUMBER: _ClassVar[int]
    OPERATION_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    ROW_ID_FIELD_NUMBER: _ClassVar[int]
    since: _timestamp_pb2.Timestamp
    until: _timestamp_pb2.Timestamp
    operation: str
    page_size: int
    page_token: str
    key_id: str
    row_id: str
    def __init__(self, since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., until: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., operation: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., key_id: _Optional[str] = ..., row_id: _Optional[str] = ...) -> None: ...

class Serving(_message.Message):
    __slots__ = ("serving_id", "at", "item_id", "item_kind", "agent_id", "end_user_id", "key_id", "role", "via", "conversation_id", "rank", "score")
    SERVING_ID_FIELD_NUMBER: _ClassVar[int]
    AT_FIELD_NUMBER: _ClassVar[int]
    ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    ITEM_KIND_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    VIA_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    serving_id: str
    at: _timestamp_pb2.Timestamp
    item_id: str
    item_kind: str
    agent_id: str
    end_user_id: str
    key_id: str
    role: str
    via: str
    conversation_id: str
    rank: int
    score: float
    def __init__(self, serving_id: _Optional[str] = ..., at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., item_id: _Optional[str] = ..., item_kind: _Optional[str] = ..., agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., key_id: _Optional[str] = ..., role: _Optional[str] = ..., via: _Optional[str] = ..., conversation_id: _Optional[str] = ..., rank: _Optional[int] = ..., score: _Optional[float] = ...) -> None: ...

class ListServingsRequest(_message.Message):
    __slots__ = ("item_id", "agent_id", "end_user_id", "conversation_id", "since", "until", "page_size", "page_token")
    ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    END_USER_ID_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    SINCE_FIELD_NUMBER: _ClassVar[int]
    UNTIL_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    item_id: str
    agent_id: str
    end_user_id: str
    conversation_id: str
    since: _timestamp_pb2.Timestamp
    until: _timestamp_pb2.Timestamp
    page_size: int
    page_token: str
    def __init__(self, item_id: _Optional[str] = ..., agent_id: _Optional[str] = ..., end_user_id: _Optional[str] = ..., conversation_id: _Optional[str] = ..., since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., until: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListServingsResponse(_message.Message):
    __slots__ = ("servings", "next_page_token")
    SERVINGS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    servings: _containers.RepeatedCompositeFieldContainer[Serving]
    next_page_token: str
    def __init__(self, servings: _Optional[_Iterable[_Union[Serving, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ListAuditEventsResponse(_message.Message):
    __slots__ = ("events", "next_page_token")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[AuditEvent]
    next_page_token: str
    def __init__(self, events: _Optional[_Iterable[_Union[AuditEvent, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...
