"""The client's requests from keyword arguments: what protobuf would store wrongly or refuse cryptically."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memoryd.client import MemoryClient, gr, pb
from memoryd.client.archive_requests import feedback_request, memorize_request
from memoryd.client.fields import build


def test_one_string_for_a_list_is_refused_not_stored_letter_by_letter() -> None:
    with pytest.raises(TypeError, match=r"tags: a list is wanted, not one string: tags=\['prefs'\]"):
        build(pb.MemoryInput, {"content": "x", "tags": "prefs"})
    with pytest.raises(TypeError, match=r"filter\.tags: a list"):
        build(pb.RecallRequest, {"query": "x", "filter": {"tags": "prefs"}})
    with pytest.raises(TypeError, match="tags: a list is wanted, not a string"):
        build(pb.UpdateMemoryRequest, {"memory_id": "m", "tags": "prefs"})


def test_enums_take_their_short_names_in_any_case() -> None:
    assert build(pb.MemoryInput, {"scope": "shared"}).scope == pb.SCOPE_SHARED
    assert build(pb.MemoryInput, {"scope": "End-User", "memory_type": "SEMANTIC"}).scope == pb.SCOPE_END_USER
    assert build(pb.MemoryInput, {"scope": "SCOPE_TENANT"}).scope == pb.SCOPE_TENANT
    assert build(pb.MemoryInput, {"scope": pb.SCOPE_PRIVATE}).scope == pb.SCOPE_PRIVATE
    assert list(build(pb.RecallRequest, {"filter": {"scopes": ["shared", "tenant"]}}).filter.scopes) == [
        pb.SCOPE_SHARED,
        pb.SCOPE_TENANT,
    ]
    assert build(gr.UpdateFactRequest, {"status": "invalidated"}).status == gr.FACT_STATUS_INVALIDATED


def test_an_unknown_enum_name_lists_the_choices() -> None:
    with pytest.raises(ValueError, match=r"memory_type: 'fact' is not one of episodic, semantic$"):
        build(pb.MemoryInput, {"memory_type": "fact"})
    with pytest.raises(ValueError, match=r"scope: 'unspecified' is not one of private, shared, tenant, end_user$"):
        build(pb.MemoryInput, {"scope": "unspecified"})  # the proto's default is no choice to spell out


def test_an_unknown_field_names_the_message_and_its_fields() -> None:
    with pytest.raises(TypeError, match="MemoryInput has no field 'colour'; its fields: category, collection"):
        build(pb.MemoryInput, {"colour": "red"})
    with pytest.raises(TypeError, match=r"RecallFilter has no field 'filter\.tag'; did you mean 'tags'\? its fields"):
        build(pb.RecallRequest, {"filter": {"tag": ["x"]}})


def test_a_mistyped_keyword_of_the_call_is_named() -> None:
    """``memorize(..., end_user="u1")`` listed MemoryInput's fields, none of which was the one meant."""
    with pytest.raises(TypeError, match=r"no field 'end_user'; did you mean 'end_user_id' \(a keyword of the call\)\?"):
        memorize_request("a1", "Ida likes tea", "", "", {"end_user": "u1"})


def test_each_item_of_a_list_of_messages_is_checked_with_its_index() -> None:
    batch = build(
        pb.MemorizeBatchRequest, {"items": [{"content": "a", "scope": "shared"}, pb.MemoryInput(content="b")]}
    )
    assert [(i.content, i.scope) for i in batch.items] == [("a", pb.SCOPE_SHARED), ("b", pb.SCOPE_UNSPECIFIED)]
    with pytest.raises(TypeError, match=r"items\[1\]\.tags: a list is wanted"):
        build(pb.MemorizeBatchRequest, {"items": [{"content": "a"}, {"content": "b", "tags": "x"}]})


def test_a_wrapper_of_one_list_takes_the_list() -> None:
    assert list(build(pb.UpdateMemoryRequest, {"tags": ["a", "b"]}).tags.values) == ["a", "b"]
    assert build(pb.UpdateMemoryRequest, {"tags": []}).HasField("tags")  # an empty list clears them
    assert list(build(pb.UpdateMemoryRequest, {"tags": pb.TagList(values=["c"])}).tags.values) == ["c"]


def test_what_protobuf_already_takes_passes_through() -> None:
    when = datetime(2024, 5, 3, tzinfo=UTC)
    item = build(pb.MemoryInput, {"content": "x", "occurred_at": when, "salience": 0.5, "tags": ("a",)})
    assert (item.occurred_at.ToDatetime(tzinfo=UTC), item.salience, list(item.tags)) == (when, 0.5, ["a"])


def test_a_turn_is_a_triple_or_a_mapping_and_anything_else_is_named_before_a_call() -> None:
    with MemoryClient("127.0.0.1:9", tenant="acme") as memory:  # nothing listens: every check is before a call
        talk = memory.conversations
        with pytest.raises(TypeError, match=r"messages\[1\]: \(message_id, role, content\) is wanted, not \('user'"):
            talk.append("a1", "c1", [("m1", "user", "hi"), ("user", "my locker is 1042")])  # type: ignore[list-item]
        with pytest.raises(TypeError, match=r"MessageInput has no field 'messages\[0\].name'; its fields: content"):
            talk.append("a1", "c1", [{"message_id": "m1", "role": "user", "content": "hi", "name": "ida"}])
        with pytest.raises(ValueError, match=r"messages\[0\].role: 'robot' is not one of user, assistant"):
            talk.append("a1", "c1", [{"message_id": "m1", "role": "robot", "content": "hi"}])
        with pytest.raises(TypeError, match="messages: a list of messages is wanted, not one"):
            talk.append("a1", "c1", {"message_id": "m1", "role": "user", "content": "hi"})  # type: ignore[arg-type]
        with pytest.raises(TypeError, match=r"messages\[0\]: \(message_id, role, content\) is wanted, not 'hi'"):
            talk.append("a1", "c1", ["hi"])  # type: ignore[list-item]


def test_a_feedback_signal_takes_its_short_name_and_a_wrong_one_lists_the_choices() -> None:
    assert feedback_request("a1", "m1", "not_useful", "", "", "r1").signal == pb.FEEDBACK_SIGNAL_NOT_USEFUL
    assert feedback_request("a1", "m1", pb.FEEDBACK_SIGNAL_WRONG, "", "", "r1").signal == pb.FEEDBACK_SIGNAL_WRONG
    with pytest.raises(ValueError, match=r"signal: 'helpful' is not one of useful, not_useful, wrong"):
        feedback_request("a1", "m1", "helpful", "", "", "r1")
