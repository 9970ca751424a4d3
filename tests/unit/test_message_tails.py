"""MessageTails: a tail answers only at the version it was read at or carried to, within its bounds."""

from __future__ import annotations

from datetime import UTC, datetime

from memoryd.adapters.lance.message_tails import MessageTails
from memoryd.core.conversation import Message, Role

AT = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)


def _messages(first: int, last: int) -> list[Message]:
    return [Message(seq, f"m{seq}", Role.USER, f"text {seq}", AT, 2) for seq in range(first, last + 1)]


def test_a_tail_answers_at_its_version_and_from_its_start_only() -> None:
    tails = MessageTails()
    tails.put("t1", 5, "c1", 2, _messages(3, 6))
    assert [m.seq for m in tails.get("t1", 5, "c1", 4) or []] == [5, 6]
    assert tails.get("t1", 5, "c1", 1) is None  # before the seq it was read after: not covered
    assert tails.get("t1", 6, "c1", 2) is None and tails.get("t1", 5, "c2", 2) is None
    assert tails.get("t2", 5, "c1", 2) is None  # another tenant
    tails.put("t1", 4, "c2", 0, _messages(1, 2))  # an older read finishing late is not kept
    assert tails.get("t1", 4, "c2", 0) is None and tails.get("t1", 5, "c1", 2) is not None


def test_own_appends_carry_every_tail_of_the_tenant_only_from_the_version_before() -> None:
    tails = MessageTails()
    tails.put("t1", 5, "c1", 0, _messages(1, 3))
    tails.put("t1", 5, "c2", 0, _messages(1, 1))
    tails.added("t1", 6, {"c1": _messages(4, 5)})
    assert [m.seq for m in tails.get("t1", 6, "c1", 0) or []] == [1, 2, 3, 4, 5]
    assert [m.seq for m in tails.get("t1", 6, "c2", 0) or []] == [1]  # carried unchanged
    tails.added("t1", 8, {"c1": _messages(6, 6)})  # version 7 was someone else's: not carried
    assert tails.get("t1", 8, "c1", 0) is None and tails.get("t1", 6, "c1", 0) is not None
    assert tails.held == 6
    tails.drop("t1")
    assert tails.get("t1", 6, "c1", 0) is None and tails.held == 0


def test_the_messages_kept_stay_within_the_total_least_recently_read_first() -> None:
    tails = MessageTails(total=10)
    tails.put("t1", 1, "c1", 0, _messages(1, 4))
    tails.put("t2", 1, "c1", 0, _messages(1, 4))
    assert tails.get("t1", 1, "c1", 0) is not None  # t1 read again: t2 is now the least recent
    tails.put("t3", 1, "c1", 0, _messages(1, 4))
    assert tails.held <= 10 and tails.get("t2", 1, "c1", 0) is None
    assert tails.get("t1", 1, "c1", 0) is not None and tails.get("t3", 1, "c1", 0) is not None
    tails.added("t3", 2, {"c1": _messages(5, 9)})
    assert tails.held <= 10 and tails.get("t3", 2, "c1", 0) is not None
