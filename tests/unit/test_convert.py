"""Proto converters that must be exact: timestamps both ways, across the accepted range."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone

from google.protobuf.timestamp_pb2 import Timestamp

from memoryd.rpc.convert import to_timestamp


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
