"""Converters of the graph service's messages (``graph_servicer``: decode → call → encode)."""

from __future__ import annotations

from collections.abc import Mapping

from memoryd.core.errors import InvalidRequest
from memoryd.core.graph import Entity, EntityType, Episode, Fact, FactStatus, MergeSuggestion
from memoryd.rpc import convert
from memoryd.rpc._gen.memoryd.v1 import graph_pb2 as gr

TYPES = {
    gr.ENTITY_TYPE_PERSON: EntityType.PERSON,
    gr.ENTITY_TYPE_ORGANIZATION: EntityType.ORGANIZATION,
    gr.ENTITY_TYPE_PLACE: EntityType.PLACE,
    gr.ENTITY_TYPE_TOPIC: EntityType.TOPIC,
    gr.ENTITY_TYPE_PRODUCT: EntityType.PRODUCT,
    gr.ENTITY_TYPE_EVENT: EntityType.EVENT,
    gr.ENTITY_TYPE_OTHER: EntityType.OTHER,
    gr.ENTITY_TYPE_UNSPECIFIED: EntityType.OTHER,
}
TYPES_PB = {v: k for k, v in TYPES.items() if k != gr.ENTITY_TYPE_UNSPECIFIED}
STATUS_PB = {
    FactStatus.ACTIVE: gr.FACT_STATUS_ACTIVE,
    FactStatus.INVALIDATED: gr.FACT_STATUS_INVALIDATED,
    FactStatus.PENDING: gr.FACT_STATUS_PENDING,
    FactStatus.ARCHIVED: gr.FACT_STATUS_ARCHIVED,
}
STATUSES = {v: k for k, v in STATUS_PB.items()}


def entity_type(value: int, field: str) -> EntityType:
    """An entity type from the wire (INVALID_ARGUMENT naming ``field`` for an unknown one)."""
    found: EntityType | None = TYPES.get(value)  # type: ignore[call-overload]  # a wire enum is an int
    if found is None:
        raise InvalidRequest(field, f"unknown entity type {value}")
    return found


def graph_fact(fact: Fact, names: Mapping[str, str], hop: int = 0, score: float = 0.0) -> gr.GraphFact:
    """A Fact as a message."""
    return gr.GraphFact(
        id=fact.fact_id,
        subject=names.get(fact.subject_id, ""),
        subject_id=fact.subject_id,
        predicate=fact.predicate,
        object=names.get(fact.object_id, ""),
        object_id=fact.object_id,
        fact=fact.sentence,
        scope=convert.SCOPE_PB[fact.where.scope],
        agent_id=fact.where.agent_id,
        end_user_id=fact.where.end_user_id,
        status=STATUS_PB[fact.status],
        invalidated_by=fact.invalidated_by,
        mention_count=fact.mention_count,
        sources=list(fact.sources),
        pinned=fact.pinned,
        hop=hop,
        score=score,
        created_at=fact.created_at,
        valid_from=fact.valid_from,
        valid_to=fact.valid_to,
        invalidated_at=fact.invalidated_at,
        confidence=fact.confidence,
        last_seen_at=fact.last_seen_at,
    )


def entity(entity: Entity) -> gr.GraphEntity:
    """An entity on the wire."""
    return gr.GraphEntity(
        id=entity.entity_id,
        name=entity.name,
        entity_type=TYPES_PB[entity.entity_type],
        aliases=list(entity.aliases),
        scope=convert.SCOPE_PB[entity.where.scope],
        agent_id=entity.where.agent_id,
        end_user_id=entity.where.end_user_id,
        merged_into=entity.merged_into,
    )


def episode(e: Episode) -> gr.GraphEpisode:
    """An episode on the wire."""
    return gr.GraphEpisode(
        id=e.episode_id,
        kind=e.kind,
        scope=convert.SCOPE_PB[e.where.scope],
        agent_id=e.where.agent_id,
        end_user_id=e.where.end_user_id,
        source=e.source,
        created_at=e.created_at,
        facts=e.facts,
        entities=e.entities,
        model=e.model,
        tokens_in=e.tokens_in,
        tokens_out=e.tokens_out,
        digest=e.digest,
    )


def suggestion(s: MergeSuggestion, a: Entity, b: Entity) -> gr.MergeSuggestion:
    """A merge suggestion with its two entities."""
    return gr.MergeSuggestion(
        suggestion_id=s.suggestion_id,
        entity=entity(a),
        similar_entity=entity(b),
        similarity=s.similarity,
        evidence=s.evidence,
        created_at=s.created_at,
    )
