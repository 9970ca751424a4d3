"""GraphService: assert facts (resolving entities, invalidating what they contradict), search, curate.

Resolution uses no model: the normalised name or an alias in the same scope first, then the
nearest entity of that scope by name embedding above ``MERGE_SIMILARITY``, else a new entity;
names between ``DUPLICATE_SIMILARITY`` and it come back as possible duplicates for a human.
``core.graph.decide`` says what an assertion does; every write of one assertion is one commit.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from memoryd.core.errors import InvalidRequest, NotFound, PreconditionFailed
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
    FactStatus,
    GraphAnswer,
    GraphHit,
    GraphScope,
    block_header,
    decide,
    entity_id,
    fact_id,
    fact_line,
    may_name_one_entity,
    normalised_name,
    normalised_predicate,
    valid_predicate,
)
from memoryd.core.models import Actor, Scope
from memoryd.core.paging import offset_page
from memoryd.core.ports import Clock, Embedder, GraphStore, TokenCounter
from memoryd.core.query_terms import full_text_query
from memoryd.core.validation import check_actor, check_range, check_request_id, check_tenant, check_text
from memoryd.core.visibility import sees
from memoryd.services.event_log import EventLog
from memoryd.services.pii_floor import PiiFloor

MERGE_SIMILARITY = 0.92
"""An unseen name this close to an entity's name (cosine, same scope) is that entity."""
DUPLICATE_SIMILARITY = 0.80
"""Closer than this but not merged: listed as a possible duplicate."""
SEED_DEPTH = 20
HOP_DECAY = 0.5
MAX_HOPS = 3


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
    ) -> None:
        self._store = store
        self._embedder = embedder
        self._counter = counter
        self._clock = clock
        self._trail = trail
        self._pii = pii

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
        episode = Episode(
            _id("human", by.tenant_id, where.key, *once),
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
        dupes: list[tuple[str, str]] = []
        subject = await self._resolve(tenant_id, where, claim.subject, claim.subject_type, dupes)
        obj = await self._resolve(tenant_id, where, claim.object, claim.object_type, dupes)
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
        )
        stored = await self._store.facts_of(tenant_id, where, subject.entity_id)
        if source and (again := next((f for f in stored if source in f.sources), None)) is not None:
            # this episode was asserted already (a retried request, a re-run extraction): nothing twice
            return Asserted(again, Action.RESTATE, (), tuple(dupes))
        known = [f for f in stored if f.status is not FactStatus.PENDING]
        if status is FactStatus.PENDING:  # waits for approval: nothing is invalidated yet
            already = next((f for f in stored if f.fact_id == new.fact_id), None)
            if already is not None:
                return Asserted(already, Action.RESTATE, (), tuple(dupes))
            await self._write(tenant_id, [new], fresh={new.fact_id})
            return Asserted(new, Action.ADD, (), tuple(dupes))
        decision = _with_judged(decide(new, known), known, set(judged))
        written, invalidated = _outcome(decision, now)
        await self._write(tenant_id, written, fresh={new.fact_id} if decision.action is not Action.RESTATE else set())
        return Asserted(written[0], decision.action, invalidated, tuple(dupes))

    async def _write(self, tenant_id: str, facts: Sequence[Fact], fresh: set[str]) -> None:
        """Upsert the facts; only new ones are embedded (an update keeps the stored vector)."""
        kept = await self._store.fact_vectors(tenant_id, [f.fact_id for f in facts if f.fact_id not in fresh])
        needed = [f for f in facts if f.fact_id not in kept]
        vectors = await self._embedder.embed([f.sentence for f in needed]) if needed else []
        fresh_vectors = {f.fact_id: list(v) for f, v in zip(needed, vectors, strict=True)}
        await self._store.put_facts(tenant_id, [(f, kept.get(f.fact_id) or fresh_vectors[f.fact_id]) for f in facts])

    async def _resolve(
        self, tenant_id: str, where: GraphScope, name: str, kind: EntityType, dupes: list[tuple[str, str]]
    ) -> Entity:
        named = await self._store.entities_named(tenant_id, where, [name])
        if named:
            return await self._followed(tenant_id, min(named, key=lambda e: e.entity_id))
        vector = (await self._embedder.embed([name]))[0]
        near = await self._store.nearest_entities(tenant_id, where, vector, 3)
        close = [h for h in near if h.score >= DUPLICATE_SIMILARITY]
        if close and close[0].score >= MERGE_SIMILARITY:
            found = (await self._store.entities(tenant_id, [close[0].memory_id])).get(close[0].memory_id)
            if found is not None and may_name_one_entity(name, found.name):
                return await self._followed(tenant_id, found)
        entity = Entity(entity_id(where, name), name, kind, where, (), self._clock.now())
        await self._store.put_entities(tenant_id, [(entity, vector)])
        dupes.extend((entity.entity_id, h.memory_id) for h in close)
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
            if not value.strip() or not normalised_name(value):
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

    # -- searching ------------------------------------------------------------

    async def search(
        self,
        actor: Actor,
        query: str,
        *,
        as_of: datetime | None = None,
        max_hops: int = 2,
        budget_tokens: int = 600,
        limit: int = 20,
    ) -> GraphAnswer:
        """Hybrid seeds, a k-hop expansion, the validity filter, a blended rerank, and the prompt block."""
        check_actor(actor)
        if not query.strip():
            raise InvalidRequest("query", "must not be empty")
        if len(query) > 4096:
            raise InvalidRequest("query", f"is {len(query)} chars; the limit is 4096")
        check_range(max_hops, "max_hops", 0, MAX_HOPS)
        check_range(budget_tokens, "budget_tokens", 20, 8000)
        check_range(limit, "limit", 1, 100)
        when = as_of or self._clock.now()
        words = list(full_text_query(query).terms)
        # The name seeds need no vector: they run while the query is embedded.
        embedded, named = await asyncio.gather(
            self._embedder.embed([query]),  # Unavailable: search needs the embedder
            self._store.entity_seeds(actor, words, SEED_DEPTH),
        )
        by_vector, by_text = await self._store.fact_seeds(actor, embedded[0], words, SEED_DEPTH)
        scores = _fused([f.fact_id for f, _ in by_vector], [f.fact_id for f, _ in by_text])
        seeds = {f.fact_id: f for f, _ in [*by_vector, *by_text]}
        found: dict[str, tuple[Fact, int, float]] = {
            i: (f, 0, scores[i])
            for i, f in seeds.items()
            if sees(actor, f.where.scope, f.where.agent_id, f.where.end_user_id)
        }
        entity_score: dict[str, float] = {}
        for fact, _, score in found.values():
            for e in (fact.subject_id, fact.object_id):
                entity_score[e] = max(entity_score.get(e, 0.0), score)
        for e in named:
            entity_score[e] = max(entity_score.get(e, 0.0), 1.0)
        frontier = set(entity_score)
        for hop in range(1, max_hops + 1):
            if not frontier:
                break
            reached = await self._store.visible_facts_touching(actor, sorted(frontier), 200)
            nxt: set[str] = set()
            for fact in reached:
                if fact.fact_id in found:
                    continue
                base = max(entity_score.get(fact.subject_id, 0.0), entity_score.get(fact.object_id, 0.0))
                score = base * HOP_DECAY**hop
                found[fact.fact_id] = (fact, hop, score)
                for e in (fact.subject_id, fact.object_id):
                    if e not in entity_score:
                        entity_score[e] = score
                        nxt.add(e)
            frontier = nxt
        valid = [(f, hop, s + _bonus(f)) for f, hop, s in found.values() if f.valid_at(when)]
        valid.sort(key=lambda x: (-x[2], x[1], x[0].fact_id))
        valid = valid[:limit]
        names = await self._store.entities(
            actor.tenant_id, sorted({e for f, _, _ in valid for e in (f.subject_id, f.object_id)})
        )
        hits = tuple(
            GraphHit(
                f,
                names[f.subject_id].name if f.subject_id in names else "",
                names[f.object_id].name if f.object_id in names else "",
                hop,
                round(s, 6),
            )
            for f, hop, s in valid
        )
        block, tokens = self._block(hits, when, budget_tokens)
        return GraphAnswer(hits, block, tokens, when)

    def _block(self, hits: Sequence[GraphHit], when: datetime, budget: int) -> tuple[str, int]:
        """The header and as many dated lines, best first, as fit in ``budget`` tokens (counted like profiles)."""
        if not hits:
            return "", 0
        lines = [block_header(when)]
        tokens = self._counter.count(lines[0])
        if tokens > budget:
            return "", 0
        for hit in hits:
            candidate = "\n".join([*lines, fact_line(hit.fact, when)])
            count = self._counter.count(candidate)
            if count > budget:
                break
            lines.append(fact_line(hit.fact, when))
            tokens = count
        if len(lines) == 1:
            return "", 0
        return "\n".join(lines), tokens

    # -- curating -------------------------------------------------------------

    async def visible_fact(self, actor: Actor, fact_id_: str) -> Fact:
        """A fact the actor sees (NOT_FOUND otherwise: another scope's ids are not probeable)."""
        check_actor(actor)
        fact = (await self._store.facts(actor.tenant_id, [fact_id_])).get(fact_id_)
        if fact is None or not sees(actor, fact.where.scope, fact.where.agent_id, fact.where.end_user_id):
            raise NotFound(f"fact {fact_id_!r} not found")
        return fact

    async def list_facts(
        self, actor: Actor, status: FactStatus | None, entity_id: str, size: int, page_token: str
    ) -> tuple[list[Fact], str]:
        """A page of the facts the actor sees (pending first, then the newest), and the next page's token."""
        check_actor(actor)
        check_text(entity_id, "entity_id", 128)
        return offset_page(await self._store.listed_facts(actor, status, entity_id), size, page_token)

    async def list_entities(self, actor: Actor, size: int, page_token: str) -> tuple[list[Entity], str]:
        """A page of the entities the actor sees that no merge folded away, by name, and the next token."""
        check_actor(actor)
        return offset_page(await self._store.listed_entities(actor), size, page_token)

    async def names(self, tenant_id: str, facts: Sequence[Fact]) -> dict[str, str]:
        """The names of the facts' entities, by id."""
        ids = sorted({e for f in facts for e in (f.subject_id, f.object_id)})
        return {i: e.name for i, e in (await self._store.entities(tenant_id, ids)).items()}

    async def _curated(self, by: Actor, fact_id_: str) -> Fact:
        """Any fact of the tenant: curation is the administrators' (the RPC layer admits admins only)."""
        check_tenant(by.tenant_id)
        fact = (await self._store.facts(by.tenant_id, [fact_id_])).get(fact_id_)
        if fact is None:
            raise NotFound(f"fact {fact_id_!r} not found")
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
        elif status is FactStatus.ACTIVE and fact.status is FactStatus.INVALIDATED:
            raise PreconditionFailed(f"fact {fact_id_!r} was invalidated; assert it again to make it current")
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

    async def forget_fact(self, by: Actor, fact_id_: str) -> str:
        """The administrator's compliance delete of one fact."""
        fact = await self._curated(by, fact_id_)
        await self._store.delete_facts(by.tenant_id, [fact.fact_id])
        await self._trail.write(by.tenant_id, Operation.GRAPH_FORGET, by, (fact.fact_id,), (fact.where.scope.value,))
        return fact.fact_id

    async def rename_entity(self, by: Actor, entity_id_: str, name: str) -> Entity:
        """Give an entity a new name; the old one stays an alias.

        A name another active entity of the scope holds is refused (ENTITY_NAME_TAKEN): merge the two instead.
        """
        check_tenant(by.tenant_id)
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
        aliases = tuple(dict.fromkeys([*entity.aliases, entity.name]))
        renamed = replace(
            entity, name=name, aliases=tuple(a for a in aliases if normalised_name(a) != normalised_name(name))
        )
        vector = (await self._embedder.embed([name]))[0]
        await self._store.put_entities(by.tenant_id, [(renamed, vector)])
        await self._trail.write(by.tenant_id, Operation.GRAPH_UPDATE, by, (entity_id_,), (entity.where.scope.value,))
        return renamed

    async def merge_entities(self, by: Actor, source_id: str, target_id: str) -> Entity:
        """Fold ``source`` into ``target``: its facts move, its name becomes an alias; scopes must match."""
        check_tenant(by.tenant_id)
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
        if source.merged_into:
            raise PreconditionFailed(f"source_entity_id: already merged into {source.merged_into}")
        aliases = tuple(dict.fromkeys([*target.aliases, source.name, *source.aliases]))
        vectors = await self._store.entity_vectors(by.tenant_id, [source_id, target_id])
        merged = replace(target, aliases=aliases)
        await self._store.put_entities(
            by.tenant_id,
            [(merged, vectors[target_id]), (replace(source, merged_into=target_id), vectors[source_id])],
        )
        moved = [
            replace(
                f,
                subject_id=target_id if f.subject_id == source_id else f.subject_id,
                object_id=target_id if f.object_id == source_id else f.object_id,
            )
            for f in await self._store.facts_touching(by.tenant_id, [source_id])
        ]
        await self._write(by.tenant_id, moved, fresh=set())
        await self._trail.write(
            by.tenant_id, Operation.GRAPH_MERGE, by, (source_id, target_id), (target.where.scope.value,)
        )
        return merged


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
        return [replace(old, mention_count=old.mention_count + 1, sources=sources)], ()
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


def _fused(by_vector: Sequence[str], by_text: Sequence[str], k: int = 5) -> dict[str, float]:
    """Reciprocal-rank fusion of the two seed arms (ids, best first), scaled so the best seed scores 1."""
    raw: dict[str, float] = {}
    for ids in (by_vector, by_text):
        for rank, fact_id_ in enumerate(ids, start=1):
            raw[fact_id_] = raw.get(fact_id_, 0.0) + 1.0 / (k + rank)
    top = max(raw.values(), default=1.0)
    return {i: v / top for i, v in raw.items()}


def _bonus(fact: Fact) -> float:
    """A small lift for facts asserted more than once, and for pinned ones."""
    return 0.05 * min(fact.mention_count - 1, 4) / 4 + (0.1 if fact.pinned else 0.0)


def _id(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]
