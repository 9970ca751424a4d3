"""Proto converters that must be exact: timestamps both ways, across the accepted range."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone

from google.protobuf.timestamp_pb2 import Timestamp

from memoryd.core.feedback import FeedbackSummary, Signal
from memoryd.core.models import MemoryStatus, RecallHit, ScoreParts
from memoryd.rpc import convert
from memoryd.rpc.client import pb
from memoryd.rpc.convert import set_hit, to_datetime, to_timestamp
from tests.fakes import memory_record


def _reference(value: datetime) -> Timestamp:
    ts = Timestamp()
    ts.FromDatetime(value)
    return ts


def test_to_timestamp_equals_protobufs_own_conversion_to_the_microsecond() -> None:
    rng = random.Random(4)
    edges = [
        datetime(1900, 1, 1, tzinfo=UTC),
        datetime(1969, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC),  # before the epoch: negative seconds
        datetime(1970, 1, 1, tzinfo=UTC),
        datetime(9999, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC),
        datetime(2026, 12, 1, 8, 30, 0, 123_456, tzinfo=timezone(timedelta(hours=-5))),  # another zone
        datetime(2026, 12, 1, 8, 30, 0, 654_321),  # naive: UTC
    ]
    start = datetime(1900, 1, 1, tzinfo=UTC)
    spread = [start + timedelta(microseconds=rng.randrange(8_100 * 365 * 86_400 * 10**6)) for _ in range(2000)]
    for value in edges + spread:
        got, expected = to_timestamp(value), _reference(value)
        assert (got.seconds, got.nanos) == (expected.seconds, expected.nanos), value


def test_a_recall_hit_written_in_place_carries_every_field_of_its_record() -> None:
    # Replies write memories into their own fields (no message built apart and copied): every field lands.
    at = datetime(2026, 3, 4, 5, 6, 7, 890_123, tzinfo=UTC)
    record = replace(
        memory_record("0" * 31 + "1", "espresso in Lisbon", tenant_id="t", agent_id="a", tags=("food", "travel")),
        end_user_id="u",
        category="food",
        subject="caroline",
        source_context="chat-1",
        source_id="f" * 32,
        collection="notes",
        retrieval_count=3,
        injection_count=2,
        last_retrieved_at=at,
        occurred_at=datetime(2025, 1, 2, 3, 4, 5, 6),  # naive: UTC
        status=MemoryStatus.ARCHIVED,
        superseded_by="e" * 32,
        feedback=FeedbackSummary({Signal.USEFUL: 2}, 0.1, at),
    )
    parts = ScoreParts(1, 0.5, 0.1, 2, 3.0, 0.2, 0.0, 0.3, 0.4, 0.5)
    reply = pb.RecallResponse()
    set_hit(reply.hits.add(), RecallHit(record, 0.7, parts))
    (hit,) = pb.RecallResponse.FromString(reply.SerializeToString()).hits
    m = hit.memory
    assert (m.id, m.agent_id, m.end_user_id, m.content, m.category, m.subject) == (
        record.memory_id,
        "a",
        "u",
        "espresso in Lisbon",
        "food",
        "caroline",
    )
    assert list(m.tags) == ["food", "travel"] and (m.source_context, m.source_id, m.collection) == (
        "chat-1",
        "f" * 32,
        "notes",
    )
    assert (m.salience, m.decay_factor, m.content_hash, m.embedding_model) == (
        record.salience,
        record.decay_factor,
        record.content_hash,
        record.embedding_model,
    )
    assert (m.retrieval_count, m.injection_count, m.superseded_by, m.embedding_pending) == (3, 2, "e" * 32, False)
    assert m.status == pb.MEMORY_STATUS_ARCHIVED and m.scope == pb.SCOPE_PRIVATE
    assert m.memory_type == convert.TYPE_PB[record.memory_type]
    assert [to_datetime(t, "t") for t in (m.created_at, m.updated_at, m.last_retrieved_at)] == [
        record.created_at,
        record.updated_at,
        at,
    ]
    assert to_datetime(m.occurred_at, "t") == datetime(2025, 1, 2, 3, 4, 5, 6, tzinfo=UTC)
    assert m.feedback.useful == 2 and m.feedback.salience_shift == 0.1 and m.feedback.HasField("last_feedback_at")
    assert hit.score == 0.7 and (hit.parts.vector_rank, hit.parts.full_text_score, hit.parts.full_text_evidence) == (
        1,
        3.0,
        0.5,
    )
    assert hit.memory == convert.memory(record)  # the reply's writer and the message builder agree
