"""The JSON Schemas of the model answers memoryd asks for. Pure data.

A server that honours ``response_format`` with a JSON schema (or tool parameters) constrains its
output to these; every answer is validated again by ``core.model_output`` whatever the server did,
so a schema here may be looser than the validation (it leaves out lengths and ranges some servers
reject) but never stricter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class AnswerSchema:
    """A named JSON Schema for one kind of answer (the name goes to the server with it)."""

    name: str
    schema: dict[str, Any] = field(hash=False)


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


_TEXT: dict[str, Any] = {"type": "string"}
_TEXTS: dict[str, Any] = {"type": "array", "items": _TEXT}

SUMMARY = AnswerSchema("summary", _object({"summary": _TEXT, "compressed": _TEXT}, ["summary"]))
PROFILE = AnswerSchema("profile", _object({"profile": _TEXT, "demoted": _TEXTS}, ["profile"]))
MAINTENANCE = AnswerSchema(
    "maintenance",
    _object(
        {
            "memories": {
                "type": "array",
                "items": _object(
                    {
                        "content": _TEXT,
                        "memory_type": {"type": "string", "enum": ["episodic", "semantic"]},
                        "subject": _TEXT,
                        "salience": {"type": "number"},
                        "supersedes": _TEXT,
                        "restates": _TEXT,
                    },
                    ["content"],
                ),
            },
            "profile": _TEXT,
            "demoted": _TEXTS,
        },
        ["memories"],
    ),
)
REVIEW = AnswerSchema(
    "review",
    _object(
        {
            "verdicts": {
                "type": "array",
                "items": _object(
                    {
                        "finding_id": _TEXT,
                        "confirm": {"type": "boolean"},
                        "action": {"type": "string", "enum": ["merge", "update", "archive", "keep"]},
                        "survivor_id": _TEXT,
                        "memory_id": _TEXT,
                        "text": _TEXT,
                    },
                    ["finding_id", "confirm", "action"],
                ),
            }
        },
        ["verdicts"],
    ),
)
GRAPH = AnswerSchema(
    "graph_facts",
    _object(
        {
            "facts": {
                "type": "array",
                "items": _object(
                    {
                        "subject": _TEXT,
                        "subject_type": _TEXT,
                        "predicate": _TEXT,
                        "object": _TEXT,
                        "object_type": _TEXT,
                        "fact": _TEXT,
                        "valid_from": _TEXT,
                        "confidence": {"type": "number"},
                        "invalidates": _TEXTS,
                    },
                    ["subject", "predicate", "object", "fact"],
                ),
            }
        },
        ["facts"],
    ),
)
