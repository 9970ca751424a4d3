"""Embedding roles: a search query and a stored text are embedded apart by asymmetric models. Pure.

Symmetric models (the embedded MiniLM) embed both alike. Asymmetric ones were trained with a mark
per role, and a text embedded with the wrong one (or none) loses recall silently: e5 wants
``query: `` / ``passage: ``, bge an instruction before queries only, nomic ``search_query: `` /
``search_document: ``; some OpenAI-compatible servers take the role as a request field instead
(``input_type``). Only a search query is a query: writes, deduplication, reviews' neighbours, graph
names and sentences and re-embedding compare stored texts with stored texts, so they embed documents.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class EmbedRole(StrEnum):
    """What a text is to the embedder."""

    QUERY = "query"
    """A search query: Recall's, SearchGraph's."""
    DOCUMENT = "document"
    """A text that is stored and compared with stored texts."""


@dataclass(frozen=True, slots=True)
class RoleMarking:
    """How a model marks each role: a prefix on the text and/or fields of the embedding request."""

    query_prefix: str = ""
    document_prefix: str = ""
    query_fields: dict[str, str] = field(default_factory=dict)
    document_fields: dict[str, str] = field(default_factory=dict)

    def prefix(self, role: EmbedRole) -> str:
        """The prefix put before a text of this role."""
        return self.query_prefix if role is EmbedRole.QUERY else self.document_prefix

    def fields(self, role: EmbedRole) -> dict[str, str]:
        """The request fields sent with texts of this role."""
        return self.query_fields if role is EmbedRole.QUERY else self.document_fields

    @property
    def marks(self) -> bool:
        """Whether either role is marked at all (a symmetric model: no)."""
        return bool(self.query_prefix or self.document_prefix or self.query_fields or self.document_fields)


PRESETS: dict[str, RoleMarking] = {
    "none": RoleMarking(),
    "e5": RoleMarking("query: ", "passage: "),
    "bge": RoleMarking("Represent this sentence for searching relevant passages: ", ""),
    "nomic": RoleMarking("search_query: ", "search_document: "),
    "input_type": RoleMarking(query_fields={"input_type": "query"}, document_fields={"input_type": "passage"}),
}
"""Known markings by name; ``input_type`` is the request field of servers that take the role that way."""


def preset_for(model_name: str) -> str:
    """The preset a model's name suggests ("none" when it names no known family)."""
    name = model_name.lower()
    for family in ("e5", "bge", "nomic"):
        if family in name.replace("-", " ").replace("_", " ").replace("/", " ").split() or f"{family}-" in name:
            return family
    return "none"


def marking(
    preset: str, model_name: str, query_prefix: str | None = None, document_prefix: str | None = None
) -> RoleMarking:
    """The marking of ``preset`` ("auto": the model name's), with explicit prefixes overriding it.

    ValueError for a preset that is not known.
    """
    name = preset_for(model_name) if preset == "auto" else preset
    if name not in PRESETS:
        raise ValueError(f"unknown embedding role preset {preset!r} (known: auto, {', '.join(PRESETS)})")
    base = PRESETS[name]
    return RoleMarking(
        base.query_prefix if query_prefix is None else query_prefix,
        base.document_prefix if document_prefix is None else document_prefix,
        dict(base.query_fields),
        dict(base.document_fields),
    )
