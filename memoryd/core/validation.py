"""Input validation: every rule names the field it protects."""

from __future__ import annotations

import ipaddress
import math
import re
import unicodedata
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Literal

from memoryd.core.agent_config import COLLECTION_PATTERN
from memoryd.core.errors import InvalidRequest
from memoryd.core.keys import KEY_ID_HEX
from memoryd.core.models import Actor, MemoryDraft, MemoryFilter, MemoryPatch, MemoryRecord, Scope

_ID = re.compile(r"[A-Za-z0-9._:@-]{1,128}")
_TENANT = re.compile(r"[A-Za-z0-9._-]{1,64}")
_MEMORY_ID = re.compile(r"[0-9a-f]{32}")
_ROW_ID = re.compile(r"[A-Za-z0-9._:@-]{1,160}")
"""A row an audit event names: an id, or one with its kind before it (``conversation:<id>``, ``subject:…``)."""
_COLLECTION = re.compile(COLLECTION_PATTERN)

EARLIEST_TIME = datetime(1900, 1, 1, tzinfo=UTC)
"""The earliest timestamp a request may carry (occurred_at, since, created_at)."""
LATEST_TIME = datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)
"""The latest timestamp a request may carry (occurred_at is further held to now + 1 day)."""
MAX_REVISION = 2**53
"""Revisions and other counters a client sends back are at most this (JSON-safe integers)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Size limits; ``max_content_bytes`` is configurable, the rest are contract."""

    max_content_bytes: int = 16 * 1024
    max_tags: int = 32
    max_tag_chars: int = 64
    max_category_chars: int = 128
    max_subject_chars: int = 256
    max_source_context_chars: int = 1024
    max_query_chars: int = 4096
    max_batch_items: int = 1000
    max_recall_limit: int = 100
    max_page_size: int = 500


def check_tenant(tenant_id: str) -> str:
    """The tenant id from metadata, or InvalidRequest naming ``x-tenant-id``."""
    if not _TENANT.fullmatch(tenant_id):
        raise InvalidRequest("x-tenant-id", "must be 1-64 chars of [A-Za-z0-9._-]")
    return tenant_id


def check_actor(actor: Actor) -> Actor:
    """Validate the agent and contact ids (they end up in filters: keep them plain)."""
    check_tenant(actor.tenant_id)
    check_agent_id(actor.agent_id)
    if actor.end_user_id and not _ID.fullmatch(actor.end_user_id):
        raise InvalidRequest("end_user_id", "must be 1-128 chars of [A-Za-z0-9._:@-]")
    return actor


def check_agent_id(agent_id: str, field: str = "agent_id") -> str:
    """An agent id: 1-128 chars of [A-Za-z0-9._:@-]."""
    if not _ID.fullmatch(agent_id):
        raise InvalidRequest(field, "required, 1-128 chars of [A-Za-z0-9._:@-]")
    return agent_id


def check_request_id(request_id: str) -> str:
    """A caller's idempotency key: 1-128 chars of [A-Za-z0-9._:@-]."""
    if not _ID.fullmatch(request_id):
        raise InvalidRequest("request_id", "must be 1-128 chars of [A-Za-z0-9._:@-]")
    return request_id


def check_memory_id(memory_id: str, field: str = "memory_id") -> str:
    """A server-issued memory id (32 lowercase hex chars)."""
    return check_issued_id(memory_id, field, "a memory id")


def check_issued_id(value: str, field: str, what: str) -> str:
    """An id memoryd issued (memories, graph entities, facts, merge suggestions: 32 lowercase hex chars).

    An empty or malformed id is the caller's mistake (INVALID_ARGUMENT naming the field), not a row
    that went missing (NOT_FOUND).
    """
    if not _MEMORY_ID.fullmatch(value):
        raise InvalidRequest(field, f"must be {what} (32 lowercase hex chars)")
    return value


FilterId = Literal["name", "item", "key", "row"]

_FILTER_IDS: dict[FilterId, tuple[re.Pattern[str], str]] = {
    "name": (_ID, "must be 1-128 chars of [A-Za-z0-9._:@-]"),
    "item": (_MEMORY_ID, "must be a memory or fact id (32 lowercase hex chars)"),
    "key": (re.compile(f"[0-9a-f]{{{KEY_ID_HEX}}}"), f"must be a key id ({KEY_ID_HEX} lowercase hex chars)"),
    "row": (_ROW_ID, "must be 1-160 chars of [A-Za-z0-9._:@-], as the events name rows"),
}
"""The ids a listing may be narrowed to, by kind: a value of another shape could match no row."""


def check_filter_id(value: str, field: str, kind: FilterId = "name") -> str:
    """An id a listing is narrowed to (empty: not narrowed), of its kind's shape (``_FILTER_IDS``).

    ``name``: an agent's, a contact's or a conversation's; ``item``: a memory's or a graph fact's;
    ``key``: an API key's; ``row``: a row an audit event names.
    """
    shape, problem = _FILTER_IDS[kind]
    if value and not shape.fullmatch(value):
        raise InvalidRequest(field, problem)
    return value


def visible(text: str) -> bool:
    """Whether ``text`` holds a character that shows: not only spaces and format marks (U+200B, a BOM)."""
    return any(not ch.isspace() and unicodedata.category(ch) not in _UNSEEN for ch in text)


_UNSEEN = frozenset({"Cc", "Cf"})
"""Control and format characters: zero-width spaces and joiners, BOMs, direction marks."""


def check_content(content: str, limits: Limits, field: str = "content") -> str:
    """Non-empty, valid UTF-8 text within the size limit."""
    if not visible(content):  # a zero-width space alone was stored: a memory nobody can read
        raise InvalidRequest(field, "must not be empty")
    try:
        size = len(content.encode("utf-8"))
    except UnicodeEncodeError as exc:  # lone surrogates cannot be stored
        raise InvalidRequest(field, "must be valid UTF-8") from exc
    if "\x00" in content:
        raise InvalidRequest(field, "must not contain NUL characters")
    if size > limits.max_content_bytes:
        raise InvalidRequest(field, f"is {size} bytes; the limit is {limits.max_content_bytes}")
    return content


def check_text(value: str, field: str, max_chars: int) -> str:
    """An optional short text field."""
    if len(value) > max_chars:
        raise InvalidRequest(field, f"is {len(value)} chars; the limit is {max_chars}")
    if "\x00" in value:
        raise InvalidRequest(field, "must not contain NUL characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidRequest(field, "must be valid UTF-8") from exc
    return value


def check_tags(tags: tuple[str, ...], limits: Limits, field: str = "tags") -> tuple[str, ...]:
    """At most ``max_tags`` distinct non-empty tags; duplicates dropped, order kept."""
    if len(tags) > limits.max_tags:
        raise InvalidRequest(field, f"has {len(tags)} tags; the limit is {limits.max_tags}")
    for i, tag in enumerate(tags):
        if not visible(tag):
            raise InvalidRequest(f"{field}[{i}]", "must not be empty")
        check_text(tag, f"{field}[{i}]", limits.max_tag_chars)
    return tuple(dict.fromkeys(tags))


def check_unit(value: float | None, field: str) -> float | None:
    """A number in [0, 1], or None."""
    if value is None:
        return None
    if math.isnan(value) or not 0.0 <= value <= 1.0:
        raise InvalidRequest(field, f"must be in [0, 1], got {value!r}")
    return value


def check_draft(draft: MemoryDraft, actor: Actor, limits: Limits, now: datetime, field: str = "memory") -> MemoryDraft:
    """Validate a memory to write; ``field`` prefixes every field name."""
    check_content(draft.content, limits, f"{field}.content")
    check_text(draft.category, f"{field}.category", limits.max_category_chars)
    check_text(draft.subject, f"{field}.subject", limits.max_subject_chars)
    check_text(draft.source_context, f"{field}.source_context", limits.max_source_context_chars)
    if draft.source_id:  # a link to a memory (Memorize checks the caller can see it)
        check_memory_id(draft.source_id, f"{field}.source_id")
    check_collection(draft.collection, f"{field}.collection")
    tags = check_tags(draft.tags, limits, f"{field}.tags")
    check_unit(draft.salience, f"{field}.salience")
    check_unit(draft.decay_factor, f"{field}.decay_factor")
    if draft.scope is Scope.END_USER and not actor.end_user_id:
        raise InvalidRequest("end_user_id", "is required to write a SCOPE_END_USER memory")
    if draft.occurred_at is not None and draft.occurred_at > now + timedelta(days=1):
        raise InvalidRequest(f"{field}.occurred_at", "is more than a day in the future")
    # A NaN or an infinity carries through a sum (finite float32 values cannot overflow one).
    if draft.embedding is not None and not math.isfinite(sum(draft.embedding)):
        raise InvalidRequest(f"{field}.embedding", "must hold finite numbers")
    return draft if tags == draft.tags else replace(draft, tags=tags)


def check_stored(record: MemoryRecord) -> MemoryRecord:
    """A memory written as it is (an import): one the API can address, list and serve as the writes make them.

    A row the writes could not have made is reachable by no call: an id of another shape can be
    listed but never read, updated or forgotten; an end_user memory without its contact is seen by no one.
    """
    check_memory_id(record.memory_id, "id")
    check_agent_id(record.agent_id)
    if record.end_user_id:
        check_agent_id(record.end_user_id, "end_user_id")
    if record.scope is Scope.END_USER and not record.end_user_id:
        raise InvalidRequest("end_user_id", "is required for an end_user memory")
    if record.superseded_by:
        check_memory_id(record.superseded_by, "superseded_by")
    if record.source_id:
        check_memory_id(record.source_id, "source_id")
    check_collection(record.collection, "collection")
    return record


def check_patch(patch: MemoryPatch, actor: Actor, limits: Limits) -> MemoryPatch:
    """Validate an update; at least one field must be set."""
    if patch == MemoryPatch():
        raise InvalidRequest(
            "update", "sets no field: give content, category, subject, scope, tags, salience, collection or pinned"
        )
    if patch.content is not None:
        check_content(patch.content, limits)
    if patch.category is not None:
        check_text(patch.category, "category", limits.max_category_chars)
    if patch.subject is not None:
        check_text(patch.subject, "subject", limits.max_subject_chars)
    check_unit(patch.salience, "salience")
    if patch.collection is not None:
        check_collection(patch.collection, "collection")
    if patch.scope is Scope.END_USER and not actor.end_user_id:
        raise InvalidRequest("end_user_id", "is required to move a memory to SCOPE_END_USER")
    if patch.tags is not None:
        tags = check_tags(patch.tags, limits)
        if tags != patch.tags:
            return replace(patch, tags=tags)
    return patch


def check_filter(flt: MemoryFilter, limits: Limits, field: str = "filter") -> MemoryFilter:
    """Validate filter values (they are escaped by the store, but bounded here)."""
    check_text(flt.subject, f"{field}.subject", limits.max_subject_chars)
    check_text(flt.category, f"{field}.category", limits.max_category_chars)
    check_tags(flt.tags, limits, f"{field}.tags")
    if flt.source_id:
        check_memory_id(flt.source_id, f"{field}.source_id")
    check_collection(flt.collection, f"{field}.collection")
    return flt


def check_collection(name: str, field: str) -> str:
    """A collection name: empty (none), or 1-64 chars of [A-Za-z0-9._-]."""
    if name and not _COLLECTION.fullmatch(name):
        raise InvalidRequest(field, "must be 1-64 chars of [A-Za-z0-9._-]")
    return name


def check_epoch(seconds: int, nanos: int, field: str) -> None:
    """A wire timestamp (seconds and nanos since the epoch) within [EARLIEST_TIME, LATEST_TIME]."""
    if not 0 <= nanos <= 999_999_999:
        raise InvalidRequest(field, f"nanos must be in [0, 999999999], got {nanos}")
    if not EARLIEST_TIME.timestamp() <= seconds <= LATEST_TIME.timestamp():
        raise InvalidRequest(field, f"must be between {EARLIEST_TIME:%Y-%m-%d} and {LATEST_TIME:%Y-%m-%d} (UTC)")


def check_range(value: int, field: str, low: int, high: int) -> int:
    """An integer within [low, high]."""
    if not low <= value <= high:
        raise InvalidRequest(field, f"must be in [{low}, {high}], got {value}")
    return value


def host_port(value: str, *, any_port: bool = False) -> tuple[str, int] | None:
    """``HOST:PORT`` as (host, port), the brackets of an IPv6 host dropped; None when it is not one.

    The port is ASCII digits ("²" and "٣" are digits to ``str.isdigit``), 1-65535 (0 too with
    ``any_port``: the system picks one).
    """
    host, _, port = value.rpartition(":")
    if not host or not (port.isascii() and port.isdigit()) or not (0 if any_port else 1) <= int(port) < 1 << 16:
        return None
    return host.strip("[]"), int(port)


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (a listener there may trust its callers: protected mode)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
