"""What the reads would make of an export's rows: each parsed as its table's reads parse it.

An import writes rows as they come once they fit the table's schema, but a row that fits the
schema can still be one no read can parse: a graph fact of a status the enums do not hold made
every SearchGraph and ListFacts of its tenant an INTERNAL error, a conversation item of an unknown
role every GetContext of its conversation. The import refuses such a row before its first write.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from memoryd.adapters.lance.conversations import ITEM_KINDS, conversation_of
from memoryd.adapters.lance.event_log import event_of
from memoryd.adapters.lance.graph_rows import entity_of, episode_of, fact_of
from memoryd.adapters.lance.graph_suggestions import suggestion_of
from memoryd.adapters.lance.profiles import profile_of
from memoryd.adapters.lance.provenance import history_event_of, serving_of
from memoryd.adapters.lance.reviews import finding_of, review_of
from memoryd.adapters.lance.rows import to_record
from memoryd.core.agent_config import StoredConfig, changed
from memoryd.core.errors import InvalidRequest
from memoryd.core.usage import report_from_dict
from memoryd.core.validation import check_stored

Row = dict[str, Any]


def _memory(row: Row) -> object:
    """As the reads parse it, and as the writes make it: an id the API can address, a contact for end_user."""
    return check_stored(to_record({**row, "tenant_id": ""}))


def _item(row: Row) -> object:
    """A message, summary, event or blob, each as its reads parse it."""
    parse = ITEM_KINDS.get(row["kind"])
    if parse is None:
        raise ValueError(f"kind: {row['kind']!r} is not one of {', '.join(ITEM_KINDS)}")
    return parse(row)


def _settings(row: Row) -> object:
    """Its values as SetTenantConfig / SetAgentConfig would have checked them (key "": the tenant's)."""
    values = json.loads(row["values"])
    if not isinstance(values, dict):
        raise ValueError(f"values: an object is wanted, got {type(values).__name__}")
    return changed(StoredConfig({}, 0, ""), values, (), tenant_level=row["key"] == "")


PARSERS: dict[str, Callable[[Row], object]] = {
    "memory": _memory,
    "profile": profile_of,
    "profile_revision": profile_of,
    "conversation": conversation_of,
    "conversation_item": _item,
    "review": review_of,
    "finding": finding_of,
    "usage_report": lambda row: report_from_dict(json.loads(row["report"])),
    "audit_event": lambda row: event_of("", row),
    "settings": _settings,
    "graph_entity": entity_of,
    "graph_fact": fact_of,
    "graph_episode": episode_of,
    "graph_merge_suggestion": suggestion_of,
    "memory_history": history_event_of,
    "serving": serving_of,
}
"""The kinds whose rows a read parses into values, and how (the others are counters and failure notes)."""


def unreadable(kind_name: str, rows: Sequence[Row]) -> tuple[int, str] | None:
    """The first of ``rows`` (full rows, as a read returns them) that its reads could not parse, and why."""
    parse = PARSERS.get(kind_name)
    if parse is None:
        return None
    for i, row in enumerate(rows):
        try:
            parse(row)
        except InvalidRequest as exc:
            return i, str(exc)
        except (ValueError, KeyError, TypeError) as exc:  # an enum's unknown value, a missing key, a wrong type
            return i, f"{type(exc).__name__}: {exc}"
    return None
