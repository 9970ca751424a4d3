"""EntityCuration: a person's edits of the graph's entities: rename, merge and its undo, suggestions.

A merge moves the source's facts to the target and keeps on the source what it moved
(``core.graph.MergeRecord``), so that a wrong merge (a suggested "Jane Smith" / "John Smith" pair
accepted by mistake) is undone by moving exactly those facts back. Facts written since the merge
stay where they were written; merges undo in the reverse order they were made.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from memoryd.core.errors import InvalidRequest, NotFound, PreconditionFailed
from memoryd.core.event_log import Operation
from memoryd.core.graph import (
    MAX_NAME_CHARS,
    Entity,
    Fact,
    MergeRecord,
    MergeSuggestion,
    SuggestionStatus,
    normalised_name,
    suggestion_id,
)
from memoryd.core.models import Actor
from memoryd.core.paging import offset_page
from memoryd.core.ports import Clock, Embedder, GraphStore
from memoryd.core.validation import check_actor, check_issued_id, check_range, check_tenant
from memoryd.core.vectors import cosine
from memoryd.core.visibility import sees
from memoryd.services.event_log import EventLog
from memoryd.services.pii_floor import PiiFloor

MAX_PAGE = 200


@dataclass(frozen=True, slots=True)
class Unmerged:
    """What UnmergeEntity changed."""

    entity: Entity
    """The entity the merge had folded away, in use again."""
    target: Entity
    """The entity it had been folded into, without its names."""
    facts_moved: int


class EntityCuration:
    """Rename, merge, unmerge; the merge suggestions a person decides."""

    def __init__(self, store: GraphStore, embedder: Embedder, clock: Clock, trail: EventLog, pii: PiiFloor) -> None:
        self._store = store
        self._embedder = embedder
        self._clock = clock
        self._trail = trail
        self._pii = pii

    async def rename_entity(self, by: Actor, entity_id_: str, name: str) -> Entity:
        """Give an entity a new name; the old one stays an alias.

        A name another active entity of the scope holds is refused (ENTITY_NAME_TAKEN): merge the two instead.
        """
        check_tenant(by.tenant_id)
        check_issued_id(entity_id_, "entity_id", "an entity id")
        entity = (await self._store.entities(by.tenant_id, [entity_id_])).get(entity_id_)
        if entity is None or entity.merged_into:
            raise NotFound(f"entity_id: entity {entity_id_!r} not found")
        name = name.strip()
        if not normalised_name(name) or len(name) > MAX_NAME_CHARS:
            raise InvalidRequest("name", f"must hold a word and at most {MAX_NAME_CHARS} chars")
        name = self._pii.direct(by.tenant_id, name, "name")
        taken = [
            e for e in await self._store.entities_named(by.tenant_id, entity.where, [name]) if e.entity_id != entity_id_
        ]
        if any(not e.merged_into for e in taken):
            raise PreconditionFailed(
                f"ENTITY_NAME_TAKEN: another {entity.where.scope.value}-scoped entity is named {name!r}; merge instead"
            )
        vector = (await self._embedder.embed([name]))[0]
        # The row as it is now, not as read before the embedding call: aliases a merge added meanwhile stay,
        # and a row erased or merged away meanwhile is not written back.
        now = (await self._store.entities(by.tenant_id, [entity_id_])).get(entity_id_)
        if now is None or now.merged_into:
            raise NotFound(f"entity_id: entity {entity_id_!r} not found")
        entity = now
        aliases = tuple(dict.fromkeys([*entity.aliases, entity.name]))
        renamed = replace(
            entity, name=name, aliases=tuple(a for a in aliases if normalised_name(a) != normalised_name(name))
        )
        await self._store.put_entities(by.tenant_id, [(renamed, vector)])
        await self._trail.write(by.tenant_id, Operation.GRAPH_UPDATE, by, (entity_id_,), (entity.where.scope.value,))
        return renamed

    async def merge_entities(self, by: Actor, source_id: str, target_id: str) -> Entity:
        """Fold ``source`` into ``target``: its facts move, its name becomes an alias; scopes must match.

        The source keeps what moved (its ``merge_record``) for ``unmerge_entity``. The entities are
        written first, the facts after: the same merge again (a client's retry) moves what is left.
        """
        check_tenant(by.tenant_id)
        check_issued_id(source_id, "source_entity_id", "an entity id")
        check_issued_id(target_id, "target_entity_id", "an entity id")
        found = await self._store.entities(by.tenant_id, [source_id, target_id])
        source, target = found.get(source_id), found.get(target_id)
        for name, entity in (("source_entity_id", source), ("target_entity_id", target)):
            if entity is None:
                raise NotFound(f"{name}: entity not found")
        assert source is not None and target is not None  # checked above
        if source_id == target_id:
            raise InvalidRequest("target_entity_id", "is the source entity")
        if source.where != target.where:
            raise PreconditionFailed(
                f"SCOPE_MISMATCH: the source is {source.where.scope.value}-scoped and the target "
                f"{target.where.scope.value}-scoped; only entities of one scope merge"
            )
        if source.merged_into == target_id and source.merge_record is not None:  # a retry, or a merge cut short
            record = source.merge_record
            stored = await self._store.facts(by.tenant_id, [*record.subject_of, *record.object_of])
            await self._rewrite(by.tenant_id, _moved(list(stored.values()), source_id, target_id, record))
            return target
        _foldable(source, target)
        touching = await self._store.facts_touching(by.tenant_id, [source_id])
        vectors = await self._store.entity_vectors(by.tenant_id, [source_id, target_id])
        now = await self._store.entities(by.tenant_id, [source_id, target_id])  # as they are now: a rename or
        if source_id not in now or target_id not in now:  # alias made meanwhile stays; an erased row stays gone
            raise NotFound("source_entity_id, target_entity_id: an entity was erased meanwhile")
        source, target = now[source_id], now[target_id]
        _foldable(source, target)  # a merge made meanwhile stays as it was made
        held = {normalised_name(a) for a in (target.name, *target.aliases)}
        added = tuple(dict.fromkeys(a for a in (source.name, *source.aliases) if normalised_name(a) not in held))
        record = MergeRecord(
            tuple(f.fact_id for f in touching if f.subject_id == source_id),
            tuple(f.fact_id for f in touching if f.object_id == source_id),
            added,
        )
        merged = replace(target, aliases=(*target.aliases, *added))
        folded = replace(source, merged_into=target_id, merge_record=record)
        await self._store.put_entities(by.tenant_id, [(merged, vectors[target_id]), (folded, vectors[source_id])])
        now_stored = await self._store.facts(by.tenant_id, [f.fact_id for f in touching])  # as they are now: a
        # status another writer changed since the listing is kept, not written back as it was
        await self._rewrite(by.tenant_id, _moved(list(now_stored.values()), source_id, target_id, record))
        late = await self._store.facts_touching(by.tenant_id, [source_id])
        if late:  # asserted on the source while it was being folded: they follow, and an undo takes them back
            record = MergeRecord(
                tuple(dict.fromkeys([*record.subject_of, *(f.fact_id for f in late if f.subject_id == source_id)])),
                tuple(dict.fromkeys([*record.object_of, *(f.fact_id for f in late if f.object_id == source_id)])),
                record.aliases,
            )
            await self._store.put_entities(by.tenant_id, [(replace(folded, merge_record=record), vectors[source_id])])
            await self._rewrite(by.tenant_id, _moved(late, source_id, target_id, record))
        await self._store.drop_suggestions(by.tenant_id, [source_id])  # decided: the pair is one entity now
        await self._trail.write(
            by.tenant_id, Operation.GRAPH_MERGE, by, (source_id, target_id), (target.where.scope.value,)
        )
        return merged

    async def unmerge_entity(self, by: Actor, entity_id_: str) -> Unmerged:
        """Undo the merge that folded this entity away: the facts it moved and its names come back to it.

        The facts go back first, the entities after (one commit), so an undo cut short is finished by
        calling it again. The pair is then kept as a dismissed suggestion: a person judged it two entities.
        """
        check_tenant(by.tenant_id)
        check_issued_id(entity_id_, "entity_id", "an entity id")
        source = (await self._store.entities(by.tenant_id, [entity_id_])).get(entity_id_)
        if source is None:
            raise NotFound(f"entity_id: entity {entity_id_!r} not found")
        record, target_id = source.merge_record, source.merged_into
        if not target_id:
            raise PreconditionFailed(f"entity_id: {source.name!r} is not merged into another entity")
        target = (await self._store.entities(by.tenant_id, [target_id])).get(target_id)
        if record is None:
            raise PreconditionFailed("entity_id: merged before merges were recorded; it cannot be undone")
        if target is None:
            raise NotFound(f"entity_id: the entity it was merged into ({target_id}) is gone")
        if target.merged_into:
            raise PreconditionFailed(
                f"TARGET_MERGED: {target.name!r} was merged into {target.merged_into} since; unmerge that first"
            )
        if normalised_name(target.name) == normalised_name(source.name):
            raise PreconditionFailed(f"ENTITY_NAME_TAKEN: the target is named {target.name!r} now; rename it first")
        stored = await self._store.facts(by.tenant_id, [*record.subject_of, *record.object_of])
        back = _moved(list(stored.values()), target_id, entity_id_, record)
        await self._rewrite(by.tenant_id, back)
        gone = {normalised_name(a) for a in record.aliases}
        kept = replace(target, aliases=tuple(a for a in target.aliases if normalised_name(a) not in gone))
        restored = replace(source, merged_into="", merge_record=None)
        vectors = await self._store.entity_vectors(by.tenant_id, [entity_id_, target_id])
        await self._store.put_entities(by.tenant_id, [(kept, vectors[target_id]), (restored, vectors[entity_id_])])
        judged = MergeSuggestion(
            suggestion_id(entity_id_, target_id),
            entity_id_,
            target_id,
            round(cosine(vectors[entity_id_], vectors[target_id]), 4),
            source.where,
            self._clock.now(),
            f"{source.name!r} was merged into {target.name!r}, then the merge was undone",
            SuggestionStatus.DISMISSED,
        )
        await self._store.set_suggestion(by.tenant_id, judged)
        await self._trail.write(
            by.tenant_id,
            Operation.GRAPH_MERGE,
            by,
            (entity_id_, target_id),
            (source.where.scope.value,),
            {"undone": 1, "facts": len(back)},
        )
        return Unmerged(restored, kept, len(back))

    async def _rewrite(self, tenant_id: str, facts: Sequence[Fact]) -> None:
        """Upsert stored facts with the vectors they have (only their entities change here)."""
        if not facts:
            return
        vectors = await self._store.fact_vectors(tenant_id, [f.fact_id for f in facts])
        await self._store.put_facts(tenant_id, [(f, vectors[f.fact_id]) for f in facts])

    async def list_suggestions(
        self, actor: Actor, size: int, page_token: str
    ) -> tuple[list[tuple[MergeSuggestion, Entity, Entity]], str]:
        """Open merge suggestions whose two entities the actor sees (neither merged away), the newest first."""
        check_actor(actor)
        check_range(size, "page_size", 1, MAX_PAGE)
        found = await self._store.suggestions(actor.tenant_id, SuggestionStatus.OPEN)
        named = await self._store.entities(
            actor.tenant_id, [e for s in found for e in (s.entity_id, s.similar_entity_id)]
        )
        shown = []
        for s in found:
            a, b = named.get(s.entity_id), named.get(s.similar_entity_id)
            if a is not None and b is not None and open_to(actor, a) and open_to(actor, b):
                shown.append((s, a, b))
        return offset_page(shown, size, page_token)

    async def dismiss_suggestion(self, by: Actor, suggestion_id_: str) -> MergeSuggestion:
        """A person judged the pair two entities: the suggestion is kept dismissed (not suggested again)."""
        check_tenant(by.tenant_id)
        check_issued_id(suggestion_id_, "suggestion_id", "a merge suggestion id")
        found = next(
            (s for s in await self._store.suggestions(by.tenant_id, None) if s.suggestion_id == suggestion_id_), None
        )
        if found is None:
            raise NotFound(f"suggestion_id: merge suggestion {suggestion_id_!r} not found")
        dismissed = replace(found, status=SuggestionStatus.DISMISSED)
        await self._store.set_suggestion(by.tenant_id, dismissed)
        ids = (found.entity_id, found.similar_entity_id)
        await self._trail.write(
            by.tenant_id, Operation.GRAPH_UPDATE, by, ids, (found.where.scope.value,), {"dismissed": 1}
        )
        return dismissed


def open_to(actor: Actor, entity: Entity) -> bool:
    """Whether the actor sees the entity and no merge folded it away."""
    where = entity.where
    return not entity.merged_into and sees(actor, where.scope, where.agent_id, where.end_user_id)


def _moved(facts: Sequence[Fact], from_id: str, to_id: str, record: MergeRecord) -> list[Fact]:
    """The facts whose ends the merge record names moved from one entity to the other (those changed)."""
    subjects, objects = set(record.subject_of), set(record.object_of)
    moved = [
        replace(
            f,
            subject_id=to_id if f.fact_id in subjects and f.subject_id == from_id else f.subject_id,
            object_id=to_id if f.fact_id in objects and f.object_id == from_id else f.object_id,
        )
        for f in facts
    ]
    return [m for m, f in zip(moved, facts, strict=True) if m != f]


def _foldable(source: Entity, target: Entity) -> None:
    """PreconditionFailed unless ``source`` may be folded into ``target``: neither is folded already."""
    if source.merged_into:
        raise PreconditionFailed(f"source_entity_id: already merged into {source.merged_into}")
    if target.merged_into:  # facts moved onto a folded entity would leave every listing
        raise PreconditionFailed(f"target_entity_id: merged into {target.merged_into}; merge into that one")
