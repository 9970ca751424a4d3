"""Pure converters between protobuf messages and core values. Proto types stop here."""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TypeVar

import numpy as np
from google.protobuf.message import Message
from google.protobuf.timestamp_pb2 import Timestamp

from memoryd.core.errors import InvalidRequest
from memoryd.core.feedback import NO_FEEDBACK, FeedbackSummary, Signal
from memoryd.core.models import (
    MemoryDraft,
    MemoryFilter,
    MemoryPatch,
    MemoryRecord,
    MemoryStatus,
    MemoryType,
    RankingMode,
    RecallArms,
    RecallHit,
    Scope,
    ScoreParts,
    TagMode,
)
from memoryd.core.provenance import HistoryEvent, HistoryKind
from memoryd.core.validation import check_epoch
from memoryd.rpc._gen.memoryd.v1 import memory_pb2 as pb

E = TypeVar("E")

SCOPE_PB = {
    Scope.PRIVATE: pb.SCOPE_PRIVATE,
    Scope.SHARED: pb.SCOPE_SHARED,
    Scope.TENANT: pb.SCOPE_TENANT,
    Scope.END_USER: pb.SCOPE_END_USER,
}
SCOPES: dict[int, Scope] = {v: k for k, v in SCOPE_PB.items()}
STATUS_PB = {
    MemoryStatus.ACTIVE: pb.MEMORY_STATUS_ACTIVE,
    MemoryStatus.ARCHIVED: pb.MEMORY_STATUS_ARCHIVED,
    MemoryStatus.SUPERSEDED: pb.MEMORY_STATUS_SUPERSEDED,
}
STATUSES: dict[int, MemoryStatus] = {v: k for k, v in STATUS_PB.items()}
TYPE_PB = {MemoryType.EPISODIC: pb.MEMORY_TYPE_EPISODIC, MemoryType.SEMANTIC: pb.MEMORY_TYPE_SEMANTIC}
TYPES: dict[int, MemoryType] = {v: k for k, v in TYPE_PB.items()}
TAG_MODES: dict[int, TagMode] = {
    pb.TAG_MODE_UNSPECIFIED: TagMode.ANY,
    pb.TAG_MODE_ANY: TagMode.ANY,
    pb.TAG_MODE_ALL: TagMode.ALL,
}
ARMS: dict[int, RecallArms] = {
    pb.RECALL_ARMS_UNSPECIFIED: RecallArms.BOTH,
    pb.RECALL_ARMS_BOTH: RecallArms.BOTH,
    pb.RECALL_ARMS_VECTOR: RecallArms.VECTOR,
    pb.RECALL_ARMS_FULL_TEXT: RecallArms.FULL_TEXT,
}
RANKINGS: dict[int, RankingMode] = {
    pb.RANKING_MODE_UNSPECIFIED: RankingMode.RELEVANCE,
    pb.RANKING_MODE_RELEVANCE: RankingMode.RELEVANCE,
    pb.RANKING_MODE_SALIENCE_DECAY: RankingMode.SALIENCE_DECAY,
}


def enum_value(table: Mapping[int, E], value: int, field: str, default: E | None = None) -> E | None:
    """Map a proto enum number; 0 gives ``default``; unknown numbers are rejected by name."""
    if value == 0 and default is not None:
        return default
    if value == 0:
        return None
    if value not in table:
        raise InvalidRequest(field, f"unknown enum value {value}")
    return table[value]


def to_datetime(ts: Timestamp, field: str) -> datetime:
    """Timestamp to an aware UTC datetime; INVALID_ARGUMENT naming ``field`` outside the accepted range."""
    check_epoch(ts.seconds, ts.nanos, field)
    return ts.ToDatetime(tzinfo=UTC)


def to_timestamp(value: datetime) -> Timestamp:
    """Aware datetime (naive: UTC) to Timestamp (``set_timestamp``)."""
    out = Timestamp()
    set_timestamp(out, value)
    return out


def set_timestamp(out: Timestamp, value: datetime) -> None:
    """Write an aware datetime (naive: UTC) into a Timestamp field in place.

    Computed from the difference to the epoch: exact to the microsecond like ``FromDatetime``, which
    goes through a time tuple and cost a tenth of encoding a Recall's hits (three times a hit).
    """
    delta = (value if value.tzinfo is not None else value.replace(tzinfo=UTC)) - _EPOCH
    out.seconds = delta.days * 86_400 + delta.seconds
    out.nanos = delta.microseconds * 1000


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def draft(msg: pb.MemoryInput, field: str) -> MemoryDraft:
    """A MemoryInput as a MemoryDraft (values are validated by the service)."""
    return MemoryDraft(
        content=msg.content,
        scope=enum_value(SCOPES, msg.scope, f"{field}.scope", Scope.PRIVATE) or Scope.PRIVATE,
        memory_type=enum_value(TYPES, msg.memory_type, f"{field}.memory_type", MemoryType.EPISODIC)
        or MemoryType.EPISODIC,
        category=msg.category,
        subject=msg.subject,
        tags=tuple(msg.tags),
        salience=msg.salience if msg.HasField("salience") else None,
        decay_factor=msg.decay_factor if msg.HasField("decay_factor") else None,
        source_context=msg.source_context,
        source_id=msg.source_id,
        occurred_at=to_datetime(msg.occurred_at, f"{field}.occurred_at") if msg.HasField("occurred_at") else None,
        embedding=_floats(msg.embedding) if msg.embedding else None,
        collection=msg.collection,
        pinned=msg.pinned,
    )


def memory_filter(msg: pb.RecallFilter, field: str = "filter") -> MemoryFilter:
    """A RecallFilter as a MemoryFilter."""
    scopes = frozenset(
        enum_value(SCOPES, s, f"{field}.scopes[{i}]", Scope.PRIVATE) or Scope.PRIVATE
        for i, s in enumerate(msg.scopes)
        if s != pb.SCOPE_UNSPECIFIED
    )
    statuses = frozenset(
        enum_value(STATUSES, s, f"{field}.statuses[{i}]", MemoryStatus.ACTIVE) or MemoryStatus.ACTIVE
        for i, s in enumerate(msg.statuses)
    )
    return MemoryFilter(
        subject=msg.subject,
        category=msg.category,
        since=to_datetime(msg.since, f"{field}.since") if msg.HasField("since") else None,
        memory_type=enum_value(TYPES, msg.memory_type, f"{field}.memory_type"),
        tags=tuple(msg.tags),
        tag_mode=enum_value(TAG_MODES, msg.tag_mode, f"{field}.tag_mode", TagMode.ANY) or TagMode.ANY,
        scopes=scopes,
        statuses=statuses or frozenset({MemoryStatus.ACTIVE}),
        source_id=msg.source_id,
        collection=msg.collection,
        pinned_only=msg.pinned_only,
    )


def patch(msg: pb.UpdateMemoryRequest) -> MemoryPatch:
    """The set fields of an UpdateMemoryRequest."""
    scope = None
    if msg.HasField("scope"):
        scope = enum_value(SCOPES, msg.scope, "scope")
        if scope is None:
            raise InvalidRequest("scope", "SCOPE_UNSPECIFIED cannot be set; leave the field unset instead")
    return MemoryPatch(
        content=msg.content if msg.HasField("content") else None,
        category=msg.category if msg.HasField("category") else None,
        subject=msg.subject if msg.HasField("subject") else None,
        scope=scope,
        tags=tuple(msg.tags.values) if msg.HasField("tags") else None,
        salience=msg.salience if msg.HasField("salience") else None,
        collection=msg.collection if msg.HasField("collection") else None,
        pinned=msg.pinned if msg.HasField("pinned") else None,
    )


def memory(record: MemoryRecord) -> pb.Memory:
    """A MemoryRecord as a Memory message."""
    out = pb.Memory()
    set_memory(out, record)
    return out


_SAME_NAMED_MEMORY_FIELDS = (
    *("agent_id", "end_user_id", "content", "category", "subject", "salience", "decay_factor"),
    *("source_context", "source_id", "collection", "content_hash", "embedding_model"),
    *("retrieval_count", "superseded_by", "injection_count", "embedding_pending", "pinned"),
)
"""A MemoryRecord's fields that a Memory message holds under the same name, as they are."""


def set_memory(out: pb.Memory, record: MemoryRecord) -> None:
    """Write a MemoryRecord into an empty Memory field in place.

    A reply's memories are written where they stay: a message built apart is copied again into its
    parent (a Recall's ten hits: 0.21 ms built apart and copied, 0.09 ms in place).
    """
    out.id = record.memory_id
    for name in _SAME_NAMED_MEMORY_FIELDS:
        setattr(out, name, getattr(record, name))
    out.scope = SCOPE_PB[record.scope]
    out.memory_type = TYPE_PB[record.memory_type]
    out.status = STATUS_PB[record.status]
    out.tags.extend(record.tags)
    set_timestamp(out.created_at, record.created_at)
    set_timestamp(out.updated_at, record.updated_at)
    set_timestamp(out.occurred_at, record.occurred_at)
    if record.last_retrieved_at is not None:
        set_timestamp(out.last_retrieved_at, record.last_retrieved_at)
    if record.feedback is not NO_FEEDBACK:
        out.feedback.CopyFrom(feedback_summary(record.feedback))


def feedback_summary(summary: FeedbackSummary) -> pb.FeedbackSummary:
    """A memory's feedback counts as a message."""
    out = pb.FeedbackSummary(salience_shift=summary.salience_shift)
    for signal, n in summary.counts.items():
        setattr(out, FEEDBACK_FIELDS[signal], n)
    if summary.last_at is not None:
        out.last_feedback_at.CopyFrom(to_timestamp(summary.last_at))
    return out


FEEDBACK_FIELDS = {s: "corrections" if s is Signal.CORRECTION else s.value for s in Signal}
"""FeedbackSummary's field for each signal's count."""
SIGNALS: dict[int, Signal] = {
    pb.FEEDBACK_SIGNAL_USEFUL: Signal.USEFUL,
    pb.FEEDBACK_SIGNAL_NOT_USEFUL: Signal.NOT_USEFUL,
    pb.FEEDBACK_SIGNAL_WRONG: Signal.WRONG,
    pb.FEEDBACK_SIGNAL_EXPLICIT_POSITIVE: Signal.EXPLICIT_POSITIVE,
    pb.FEEDBACK_SIGNAL_EXPLICIT_NEGATIVE: Signal.EXPLICIT_NEGATIVE,
    pb.FEEDBACK_SIGNAL_CORRECTION: Signal.CORRECTION,
    pb.FEEDBACK_SIGNAL_USED: Signal.USED,
    pb.FEEDBACK_SIGNAL_UNUSED: Signal.UNUSED,
}


def set_hit(out: pb.RecallHit, h: RecallHit) -> None:
    """Write a RecallHit into an empty RecallHit field in place (``set_memory``)."""
    set_memory(out.memory, h.memory)
    out.score = h.score
    for name in _SCORE_PARTS:
        setattr(out.parts, name, getattr(h.parts, name))


_SCORE_PARTS = tuple(ScoreParts.__dataclass_fields__)
"""ScoreParts and the message's parts share every field name."""


def _fingerprint(flt: Message) -> str:
    return hashlib.sha256(flt.SerializeToString(deterministic=True)).hexdigest()[:16]


def encode_page_token(after_id: str, flt: pb.RecallFilter) -> str:
    """Opaque token: the cursor plus a fingerprint of the filter it belongs to."""
    if not after_id:
        return ""
    raw = json.dumps({"a": after_id, "f": _fingerprint(flt)}).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_page_token(token: str, flt: pb.RecallFilter) -> str:
    """The cursor of a token; INVALID_ARGUMENT if it is garbled or was issued for another filter."""
    if not token:
        return ""
    try:
        data = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
        after_id, fingerprint = data["a"], data["f"]
    except (ValueError, KeyError, TypeError, binascii.Error) as exc:
        raise InvalidRequest("page_token", "is not a token this server issued") from exc
    if not isinstance(after_id, str) or fingerprint != _fingerprint(flt):
        raise InvalidRequest("page_token", "was issued for a different filter")
    return after_id


def _floats(values: Sequence[float]) -> tuple[float, ...]:
    """A repeated float field as a tuple.

    numpy reads the field as one buffer: a MemorizeBatch of 1,000 vectors in 16 ms, against 27 element by element.
    """
    return tuple(np.asarray(values, dtype=np.float64).tolist())


def history_event(e: HistoryEvent) -> pb.MemoryHistoryEvent:
    """One event of a memory's history."""
    return pb.MemoryHistoryEvent(
        event_id=e.event_id,
        at=e.at,
        kind=e.kind.value,
        key_id=e.key_id,
        role=e.role,
        agent_id=e.agent_id,
        via=e.via,
        request_id=e.request_id,
        detail=e.detail,
        end_user_id=e.end_user_id if e.kind is HistoryKind.SERVED else "",
    )
