"""GraphService: assert facts (resolving entities, invalidating what they contradict), search, curate.

Resolution uses no model: the normalised name or an alias in the same scope first, then the
nearest entity of that scope by name embedding whose name has the same words
(``core.graph.may_name_one_entity``), else a new entity; the near names it was not resolved to
(from the embedder's calibrated ``entity_duplicate`` similarity) come back as possible duplicates
for a person.
``core.graph.decide`` says what an assertion does; every write of one assertion is one commit.
Searching is ``graph_search``'s.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from memoryd.core.errors import AlreadyExists, InvalidRequest, NotFound, PreconditionFailed
from memoryd.core.event_log import Operation
from memoryd.core.graph import (
    MAX_NAME_CHARS,
    MAX_SENTENCE_CHARS,
    Action,
    Decision,
    Entity,
    EntityType,
    Episode,
    Fact,
    FactCursor,
    FactStatus,
    GraphScope,
    MergeSuggestion,
    competes,
    confirmed,
    decide,
    entity_id,
    fact_id,
    may_name_one_entity,
    normalised_name,
    normalised_predicate,
    suggestion_id,
    valid_predicate,
    with_ends_moved,
)
from memoryd.core.models import Actor, Scope
from memoryd.core.paging import cursor_parts, cursor_token, offset_page
from memoryd.core.ports import Clock, Embedder, GraphStore, TokenCounter
from memoryd.core.validation import (
    check_actor,
    check_issued_id,
    check_range,
    check_request_id,
    check_tenant,
    check_text,
    visible,
)
from memoryd.core.visibility import sees
from memoryd.services.entity_curation import MAX_PAGE, EntityCuration, open_to
from memoryd.services.event_log import EventLog
from memoryd.services.graph_search import GraphSearch
from memoryd.services.pii_floor import PiiFloor

"""The most facts, entities, episodes or suggestions one page holds."""


@dataclass(frozen=True, slots=True)
class Assertion:
    """One fact to assert, as a caller or an extraction states it."""

    subject: str
    predicate: str
    object: str
    sentence: str
    subject_type: EntityType = EntityType.OTHER
    object_type: EntityType = EntityType.OTHER
    valid_from: datetime | None = None
    confidence: float = 1.0
    """A person's assertion 1; an extraction's the model's judgement (``core.graph.EXTRACTED_CONFIDENCE``)."""


@dataclass(frozen=True, slots=True)
class Asserted:
    """What an assertion did."""

    fact: Fact
    action: Action
    invalidated: tuple[str, ...]
    possible_duplicates: tuple[tuple[str, str], ...]


class GraphService:
    """The memory graph's use cases."""

    def __init__(
        self,
        store: GraphStore,
        embedder: Embedder,
        counter: TokenCounter,
        clock: Clock,
        trail: EventLog,
        pii: PiiFloor,
        duplicate_similarity: float,
    ) -> None:
        self._store = store
        self._duplicate_similarity = duplicate_similarity
        """Near names from this cosine on are candidates: resolved when of the same words, else suggested."""
        self._embedder = embedder
        self._counter = counter
        self._clock = clock
        self._trail = trail
        self._pii = pii
        self.search = GraphSearch(store, embedder, counter, clock).search
        """SearchGraph: hybrid seeds, a k-hop expansion, the validity filter, a blended rerank, the prompt block."""
        curation = EntityCuration(store, embedder, clock, trail, pii)
        self.rename_entity, self.merge_entities = curation.rename_entity, curation.merge_entities
        self.unmerge_entity = curation.unmerge_entity
        self.list_suggestions, self.dismiss_suggestion = curation.list_suggestions, curation.dismiss_suggestion
        """A person's edits of entities and the merge suggestions they decide (``entity_curation``)."""

    # -- asserting ------------------------------------------------------------

    async def assert_human(self, by: Actor, where: GraphScope, claim: Assertion, request_id: str = "") -> Asserted:
        """A person's assertion: its own human episode, the tenant's PII policy on its words.

        ``request_id``: the episode's id derives from it (and the caller), so a retry finds the fact
        that episode already stands for and counts no second mention (``assert_fact``).
        """
        check_tenant(by.tenant_id)
        if request_id:
            check_request_id(request_id)
        where = _check_scope(where)
        claim = self._checked(by.tenant_id, claim, derived=False)
        now = self._clock.now()
        who = by.key_id or by.agent_id or "operator"
        once = ("request", who, request_id) if request_id else (claim.sentence, now.isoformat())
        episode_id = _id("human", by.tenant_id, where.key, *once)
        earlier = await self._store.episode(by.tenant_id, episode_id) if request_id else None
        if earlier is not None and earlier.digest != claim.sentence[:600]:
            raise AlreadyExists(
                f"request_id {request_id!r} was used for another assertion; use a new request_id for a new one"
            )
        episode = Episode(
            episode_id,
            "human",
            where,
            by.key_id or by.agent_id or "operator",
            now,
            facts=1,
            digest=claim.sentence[:600],
        )
        done = await self.assert_fact(by.tenant_id, where, claim, episode.episode_id, FactStatus.ACTIVE)
        await self._store.put_episode(by.tenant_id, episode)  # after the fact: a refused assertion leaves none
        ids = (done.fact.fact_id, *done.invalidated)
        await self._trail.write(by.tenant_id, Operation.GRAPH_ASSERT, by, ids, (where.scope.value,))
        return done

    async def store_episode(self, tenant_id: str, episode: Episode) -> None:
        """Keep an extraction's episode (idempotent by id)."""
        await self._store.put_episode(tenant_id, episode)

    async def assert_fact(
        self,
        tenant_id: str,
        where: GraphScope,
        claim: Assertion,
        source: str,
        status: FactStatus,
        *,
        judged: Sequence[str] = (),
    ) -> Asserted:
        """Resolve the entities, decide against the subject's facts, write the outcome in one commit.

        ``judged``: facts a model judged incompatible with this one; those of the same subject and
        scope that hold and are older are invalidated too (others are ignored: never on a guess).
        """
        near: list[tuple[Entity, str, float]] = []
        subject = await self._resolve(tenant_id, where, claim.subject, claim.subject_type, near)
        obj = await self._resolve(tenant_id, where, claim.object, claim.object_type, near)
        dupes = [(entity.entity_id, similar) for entity, similar, _ in near]
        await self._suggest(tenant_id, where, near, claim.sentence)
        now = self._clock.now()
        new = Fact(
            fact_id(where, subject.entity_id, claim.predicate, obj.entity_id, claim.valid_from, claim.sentence),
            subject.entity_id,
            claim.predicate,
            obj.entity_id,
            claim.sentence,
            where,
            claim.valid_from,
            None,
            now,
            status,
            sources=(source,) if source else (),
            confidence=claim.confidence,
        )
        stored = await self._store.facts_of(tenant_id, where, subject.entity_id)
        if source and (again := next((f for f in stored if f.fact_id == new.fact_id and source in f.sources), None)):
            # this episode asserted this very fact already (a retried request, a re-run extraction): nothing
            # twice. Only this fact: one extraction asserts several facts of one subject under one episode.
            return Asserted(again, Action.RESTATE, (), tuple(dupes))
        known = [f for f in stored if f.status is not FactStatus.PENDING]
        if status is FactStatus.PENDING:  # waits for approval: nothing is invalidated yet
            already = next((f for f in stored if f.fact_id == new.fact_id), None)
            if already is not None:
                return Asserted(already, Action.RESTATE, (), tuple(dupes))
            [waiting] = await self._write(tenant_id, [new], fresh={new.fact_id})
            return Asserted(waiting, Action.ADD, (), tuple(dupes))
        decision = _with_judged(decide(new, known), known, set(judged))
        written, invalidated = _outcome(decision, now)
        fresh = {new.fact_id} if decision.action is not Action.RESTATE else set()
        stored_facts = await self._write(tenant_id, written, fresh=fresh)
        return Asserted(stored_facts[0], decision.action, invalidated, tuple(dupes))

    async def _write(self, tenant_id: str, facts: Sequence[Fact], fresh: set[str]) -> list[Fact]:
        """Upsert the facts; only new ones are embedded (an update keeps the stored vector). The facts as stored.

        Their entities were resolved before the write. A merge that committed meanwhile moved the facts
        it found and folded its source away, so a fact written on that source would sit where no listing
        shows it: such facts follow the merge (the merge, for its part, looks again once it has folded).
        """
        kept = await self._store.fact_vectors(tenant_id, [f.fact_id for f in facts if f.fact_id not in fresh])
        needed = [f for f in facts if f.fact_id not in kept]
        vectors = await self._embedder.embed([f.sentence for f in needed]) if needed else []
        by_id = kept | {f.fact_id: list(v) for f, v in zip(needed, vectors, strict=True)}
        await self._store.put_facts(tenant_id, [(f, by_id[f.fact_id]) for f in facts])
        ends = await self._store.entities(tenant_id, list({e for f in facts for e in (f.subject_id, f.object_id)}))
        folded = {i: (await self._followed(tenant_id, e)).entity_id for i, e in ends.items() if e.merged_into}
        if not folded:
            return list(facts)
        stored = [with_ends_moved(f, folded) for f in facts]
        moved = [f for f, was in zip(stored, facts, strict=True) if f != was]
        await self._store.put_facts(tenant_id, [(f, by_id[f.fact_id]) for f in moved])
        return stored

    async def _resolve(
        self,
        tenant_id: str,
        where: GraphScope,
        name: str,
        kind: EntityType,
        close_names: list[tuple[Entity, str, float]],
    ) -> Entity:
        named = await self._store.entities_named(tenant_id, where, [name])
        if named:
            return await self._in_use(tenant_id, await self._followed(tenant_id, min(named, key=lambda e: e.entity_id)))
        birth_id = entity_id(where, name)
        born = (await self._store.entities(tenant_id, [birth_id])).get(birth_id)
        if born is not None:  # made under this name, renamed since: its row is never overwritten by a new one
            return await self._in_use(tenant_id, await self._followed(tenant_id, born))
        vector = (await self._embedder.embed([name]))[0]
        near = await self._store.nearest_entities(tenant_id, where, vector, 3)
        close = [h for h in near if h.score >= self._duplicate_similarity]
        known = await self._store.entities(tenant_id, [h.memory_id for h in close]) if close else {}
        for hit in close:  # the nearest first
            found = known.get(hit.memory_id)
            if found is not None and may_name_one_entity(name, found.name):
                return await self._in_use(tenant_id, await self._followed(tenant_id, found))
        entity = Entity(birth_id, name, kind, where, (), self._clock.now())
        await self._store.put_entities(tenant_id, [(entity, vector)])
        close_names.extend((entity, h.memory_id, h.score) for h in close)
        return entity

    async def _suggest(
        self, tenant_id: str, where: GraphScope, near: Sequence[tuple[Entity, str, float]], sentence: str
    ) -> None:
        """Keep the possible duplicates found for a person to merge or dismiss (``ListMergeSuggestions``)."""
        if not near:
            return
        known = await self._store.entities(tenant_id, [similar for _, similar, _ in near])
        now = self._clock.now()
        kept = [
            MergeSuggestion(
                suggestion_id(entity.entity_id, similar),
                entity.entity_id,
                similar,
                round(score, 4),
                where,
                now,
                f"{entity.name!r} is {score:.2f} like {known[similar].name!r} (asserted in: {sentence[:200]})",
            )
            for entity, similar, score in near
            if similar in known
        ]
        await self._store.add_suggestions(tenant_id, kept)

    async def _in_use(self, tenant_id: str, entity: Entity) -> Entity:
        """The entity, no longer archived: a fact names it again."""
        if entity.archived_at is None:
            return entity
        kept = (await self._store.entity_vectors(tenant_id, [entity.entity_id])).get(entity.entity_id)
        vector = kept or (await self._embedder.embed([entity.name]))[0]
        entity = replace(entity, archived_at=None)
        await self._store.put_entities(tenant_id, [(entity, vector)])
        return entity

    async def _followed(self, tenant_id: str, entity: Entity) -> Entity:
        """The entity a merge folded this one into (merges chain at most a few times)."""
        for _ in range(8):
            if not entity.merged_into:
                return entity
            nxt = (await self._store.entities(tenant_id, [entity.merged_into])).get(entity.merged_into)
            if nxt is None:
                return entity
            entity = nxt
        return entity

    def _checked(self, tenant_id: str, claim: Assertion, *, derived: bool) -> Assertion:
        for field, value, limit in (
            ("subject", claim.subject, MAX_NAME_CHARS),
            ("object", claim.object, MAX_NAME_CHARS),
            ("fact", claim.sentence, MAX_SENTENCE_CHARS),
        ):
            if not visible(value) or not normalised_name(value):
                raise InvalidRequest(field, "must not be empty")
            if len(value) > limit:
                raise InvalidRequest(field, f"is {len(value)} chars; the limit is {limit}")
        predicate = normalised_predicate(claim.predicate)
        if not valid_predicate(predicate):
            raise InvalidRequest("predicate", "must be a word or phrase of letters and digits, e.g. billing_contact")

        def clean(text: str, field: str) -> str:
            return self._pii.derived(text) if derived else self._pii.direct(tenant_id, text, field)

        return replace(
            claim,
            subject=clean(claim.subject.strip(), "subject"),
            object=clean(claim.object.strip(), "object"),
            sentence=clean(claim.sentence.strip(), "fact"),
            predicate=predicate,
        )

    def checked_extraction(self, tenant_id: str, claim: Assertion) -> Assertion:
        """An extracted assertion, validated and always redacted (memoryd's derived text)."""
        return self._checked(tenant_id, claim, derived=True)

    # -- curating -------------------------------------------------------------

    async def visible_entity_ids(self, actor: Actor, entity_ids: Sequence[str]) -> set[str]:
        """Those of the ids that name an entity the actor sees and no merge folded away (memories' links)."""
        found = await self._store.entities(actor.tenant_id, list(entity_ids)) if entity_ids else {}
        return {i for i, e in found.items() if open_to(actor, e)}

    async def visible_entity(self, actor: Actor, entity_id_: str) -> Entity:
        """An entity the actor sees (NOT_FOUND otherwise, as a fact)."""
        check_actor(actor)
        check_issued_id(entity_id_, "entity_id", "an entity id")
        if not await self.visible_entity_ids(actor, [entity_id_]):
            raise NotFound(f"entity_id: entity {entity_id_!r} not found")
        return (await self._store.entities(actor.tenant_id, [entity_id_]))[entity_id_]

    async def visible_fact(self, actor: Actor, fact_id_: str) -> Fact:
        """A fact the actor sees (NOT_FOUND otherwise: another scope's ids are not probeable)."""
        check_actor(actor)
        check_issued_id(fact_id_, "fact_id", "a fact id")
        fact = (await self._store.facts(actor.tenant_id, [fact_id_])).get(fact_id_)
        if fact is None or not sees(actor, fact.where.scope, fact.where.agent_id, fact.where.end_user_id):
            raise NotFound(f"fact_id: fact {fact_id_!r} not found")
        return fact

    async def list_facts(
        self, actor: Actor, status: FactStatus | None, entity_id: str, size: int, page_token: str
    ) -> tuple[list[Fact], str]:
        """A page of the facts the actor sees (pending first, then the newest), and the next page's token."""
        check_actor(actor)
        check_range(size, "page_size", 1, MAX_PAGE)
        check_text(entity_id, "entity_id", 128)
        found = await self._store.facts_page(actor, status, entity_id, FactCursor.from_token(page_token), size + 1)
        return found[:size], FactCursor.of(found[size - 1]).token() if len(found) > size else ""

    async def list_entities(
        self, actor: Actor, size: int, page_token: str, *, merged: bool = False
    ) -> tuple[list[Entity], str]:
        """A page of the entities the actor sees that no merge folded away (``merged``: that one did), by name."""
        check_actor(actor)
        check_range(size, "page_size", 1, MAX_PAGE)
        parts = cursor_parts(page_token, (str, str))
        after = None if parts is None else (str(parts[0]), str(parts[1]))
        found = await self._store.entities_page(actor, after, size + 1, merged=merged)
        if len(found) <= size:
            return found, ""
        last = found[size - 1]  # the store orders by the normalised name it wrote with the entity
        return found[:size], cursor_token(normalised_name(last.name), last.entity_id)

    async def names(self, tenant_id: str, facts: Sequence[Fact]) -> dict[str, str]:
        """The names of the facts' entities, by id."""
        ids = sorted({e for f in facts for e in (f.subject_id, f.object_id)})
        return {i: e.name for i, e in (await self._store.entities(tenant_id, ids)).items()}

    async def _curated(self, by: Actor, fact_id_: str) -> Fact:
        """Any fact of the tenant: curation is the administrators' (the RPC layer admits admins only)."""
        check_tenant(by.tenant_id)
        check_issued_id(fact_id_, "fact_id", "a fact id")
        fact = (await self._store.facts(by.tenant_id, [fact_id_])).get(fact_id_)
        if fact is None:
            raise NotFound(f"fact_id: fact {fact_id_!r} not found")
        return fact

    async def explain(self, actor: Actor, fact_id_: str) -> tuple[Fact, list[Fact], Fact | None]:
        """The fact, what it superseded, and what superseded it."""
        fact = await self.visible_fact(actor, fact_id_)
        family = await self._store.facts_of(actor.tenant_id, fact.where, fact.subject_id)
        superseded = sorted((f for f in family if f.invalidated_by == fact.fact_id), key=Fact.order)
        by = next((f for f in family if f.fact_id == fact.invalidated_by), None)
        return fact, superseded, by

    async def update_fact(
        self,
        by: Actor,
        fact_id_: str,
        *,
        valid_to: datetime | None = None,
        status: FactStatus | None = None,
        pinned: bool | None = None,
    ) -> Fact:
        """End a fact (``valid_to``), approve or invalidate it (``status``), pin it; history is kept."""
        fact = await self._curated(by, fact_id_)
        now = self._clock.now()
        if status is FactStatus.PENDING:
            raise InvalidRequest("status", "a fact cannot be set back to pending")
        if status is FactStatus.ACTIVE and fact.status is FactStatus.PENDING:
            fact = replace(fact, status=FactStatus.ACTIVE, created_at=now)
            stored = await self._store.facts_of(by.tenant_id, fact.where, fact.subject_id)
            decision = decide(
                fact, [f for f in stored if f.status is not FactStatus.PENDING and f.fact_id != fact.fact_id]
            )
            written, _ = _outcome(decision, now)
            await self._write(by.tenant_id, written, fresh=set())
            fact = written[0]
        elif status is FactStatus.INVALIDATED and fact.status is not FactStatus.INVALIDATED:
            fact = replace(
                fact, status=FactStatus.INVALIDATED, invalidated_at=now, valid_to=valid_to or fact.valid_to or now
            )
            await self._write(by.tenant_id, [fact], fresh=set())
        elif status is FactStatus.ACTIVE and fact.status is FactStatus.ARCHIVED:  # restored by hand
            fact = replace(fact, status=FactStatus.ACTIVE, last_seen_at=now)
            await self._write(by.tenant_id, [fact], fresh=set())
        elif status is FactStatus.ARCHIVED:
            raise InvalidRequest("status", "only the decay pass archives a fact; invalidate it to end it")
        elif status is FactStatus.ACTIVE and fact.status is FactStatus.INVALIDATED:
            fact = await self._restored(by.tenant_id, fact, now)
        if valid_to is not None and status is not FactStatus.INVALIDATED:
            if fact.valid_from is not None and valid_to <= fact.valid_from:
                raise InvalidRequest("valid_to", "must be after the fact's valid_from")
            fact = replace(fact, valid_to=valid_to)
            await self._write(by.tenant_id, [fact], fresh=set())
        if pinned is not None and pinned != fact.pinned:
            fact = replace(fact, pinned=pinned)
            await self._write(by.tenant_id, [fact], fresh=set())
        await self._trail.write(by.tenant_id, Operation.GRAPH_UPDATE, by, (fact.fact_id,), (fact.where.scope.value,))
        return fact

    async def _restored(self, tenant_id: str, fact: Fact, now: datetime) -> Fact:
        """An invalidated fact current again (a model's or a person's invalidation undone), its end cleared.

        Refused while a fact that cannot hold beside it does (FACT_SUPERSEDED naming it): end that one first.
        """
        stored = await self._store.facts_of(tenant_id, fact.where, fact.subject_id)
        rival = next(
            (f for f in stored if f.status is FactStatus.ACTIVE and f.fact_id != fact.fact_id and competes(fact, f)),
            None,
        )
        if rival is not None:
            raise PreconditionFailed(
                f"FACT_SUPERSEDED: fact {rival.fact_id} holds now ({rival.sentence!r}); invalidate it first"
            )
        fact = replace(
            fact, status=FactStatus.ACTIVE, valid_to=None, invalidated_at=None, invalidated_by="", last_seen_at=now
        )
        [restored] = await self._write(tenant_id, [fact], fresh=set())
        return restored

    async def forget_fact(self, by: Actor, fact_id_: str) -> str:
        """The administrator's compliance delete of one fact."""
        fact = await self._curated(by, fact_id_)
        await self._store.delete_facts(by.tenant_id, [fact.fact_id])
        await self._trail.write(by.tenant_id, Operation.GRAPH_FORGET, by, (fact.fact_id,), (fact.where.scope.value,))
        return fact.fact_id

    async def list_episodes(self, actor: Actor, size: int, page_token: str) -> tuple[list[Episode], str]:
        """A page of the episodes (extractions, assertions) the actor sees, the newest first."""
        check_actor(actor)
        check_range(size, "page_size", 1, MAX_PAGE)
        return offset_page(await self._store.listed_episodes(actor), size, page_token)


def _with_judged(decision: Decision, known: Sequence[Fact], judged: set[str]) -> Decision:
    """The decision, also ending the same-subject facts a model judged incompatible (when the new one is current)."""
    if not judged or decision.action not in (Action.ADD, Action.SUPERSEDE):
        return decision
    new = decision.fact
    extra = tuple(
        f
        for f in known
        if f.fact_id in judged
        and f.status is FactStatus.ACTIVE
        and (new.valid_from is None or f.valid_from is None or f.valid_from <= new.valid_from)
        and f not in decision.invalidate
    )
    if not extra:
        return decision
    return replace(
        decision, action=Action.SUPERSEDE, invalidate=tuple(sorted((*decision.invalidate, *extra), key=Fact.order))
    )


def _check_scope(where: GraphScope) -> GraphScope:
    if where.scope is Scope.END_USER and not where.end_user_id:
        raise InvalidRequest("end_user_id", "is required for an end_user-scoped fact")
    if where.scope is Scope.PRIVATE and not where.agent_id:
        raise InvalidRequest("agent_id", "is required for a private (agent-scoped) fact")
    if where.scope in (Scope.TENANT, Scope.SHARED) and where.end_user_id:
        raise InvalidRequest("end_user_id", f"must be empty for a {where.scope.value}-scoped fact")
    return where


def _outcome(decision: Decision, now: datetime) -> tuple[list[Fact], tuple[str, ...]]:
    """The rows one decision writes (the asserted or restated fact first) and the ids it invalidated."""
    new = decision.fact
    if decision.action is Action.RESTATE and decision.restated is not None:
        old = decision.restated
        if new.sources and set(new.sources) <= set(old.sources):
            return [old], ()  # the same episode again (a re-run job): counted once
        sources = tuple(dict.fromkeys([*old.sources, *new.sources]))
        status = FactStatus.ACTIVE if old.status is FactStatus.ARCHIVED else old.status  # stated again: back
        confidence = confirmed(old.confidence, new.confidence)
        again = replace(old, mention_count=old.mention_count + 1, sources=sources, status=status, last_seen_at=now)
        return [replace(again, confidence=confidence)], ()
    rows: list[Fact] = []
    if decision.action is Action.SUPERSEDED and decision.by is not None:
        ended = decision.by.valid_from or now
        rows.append(
            replace(
                new,
                status=FactStatus.INVALIDATED,
                valid_to=ended,
                invalidated_at=now,
                invalidated_by=decision.by.fact_id,
            )
        )
    else:
        rows.append(new)
    ended_at = new.valid_from or now
    for old in decision.invalidate:
        rows.append(
            replace(
                old, status=FactStatus.INVALIDATED, valid_to=ended_at, invalidated_at=now, invalidated_by=new.fact_id
            )
        )
    for old in decision.repoint:
        rows.append(replace(old, valid_to=ended_at, invalidated_by=new.fact_id))
    return rows, tuple(f.fact_id for f in decision.invalidate)


def _id(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]
