"""Converters between protobuf messages and core values, one module per service. Proto types stop here.

A servicer method reads decode → one service call → encode; the decoding and encoding live in these
modules. ``memory`` also holds what every service shares (timestamps, page tokens, memories);
its names are re-exported here.
"""

from memoryd.rpc.convert.memory import (
    ARMS,
    FEEDBACK_FIELDS,
    RANKINGS,
    SCOPE_PB,
    SCOPES,
    SIGNALS,
    STATUS_PB,
    STATUSES,
    TAG_MODES,
    TYPE_PB,
    TYPES,
    decode_page_token,
    draft,
    encode_page_token,
    enum_value,
    feedback_summary,
    history_event,
    memory,
    memory_filter,
    patch,
    set_hit,
    set_memory,
    set_timestamp,
    to_datetime,
    to_timestamp,
)

__all__ = [
    "ARMS",
    "FEEDBACK_FIELDS",
    "RANKINGS",
    "SCOPES",
    "SCOPE_PB",
    "SIGNALS",
    "STATUSES",
    "STATUS_PB",
    "TAG_MODES",
    "TYPES",
    "TYPE_PB",
    "decode_page_token",
    "draft",
    "encode_page_token",
    "enum_value",
    "feedback_summary",
    "history_event",
    "memory",
    "memory_filter",
    "patch",
    "set_hit",
    "set_memory",
    "set_timestamp",
    "to_datetime",
    "to_timestamp",
]
