"""RecallService: hybrid search over the visible archive, no model call."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from memoryd.core.calibration import EmbedderCalibration, calibration_for
from memoryd.core.embed_roles import EmbedRole
from memoryd.core.errors import InvalidRequest, Unavailable
from memoryd.core.models import (
    Actor,
    ArmHit,
    FullTextTier,
    MemoryRecord,
    RankingMode,
    RecallArms,
    RecallHit,
    RecallQuery,
)
from memoryd.core.ports import Clock, Embedder, MemoryStore
from memoryd.core.provenance import ServedItem
from memoryd.core.query_terms import full_text_query, statement_form
from memoryd.core.ranking import (
    AgentRecall,
    FullTextMode,
    Fused,
    FusionWeights,
    RecallTuning,
    VectorQuery,
    attach,
    composite,
    coverage_order,
    evidence,
    filled,
    fuse,
    scored_parts,
)
from memoryd.core.recall_trace import MAX_EXPLAINED, RecallTrace, TraceSettings, account_for, ranked_candidates
from memoryd.core.scores import full_text_evidence, relevance
from memoryd.core.validation import Limits, check_actor, check_filter, check_memory_id, check_range, visible
from memoryd.core.vectors import normalised
from memoryd.services.provenance import Provenance
from memoryd.services.reads_in_flight import ReadsInFlight
from memoryd.services.reembed import QuerySpace, SpaceRouter
from memoryd.services.retrievals import RetrievalLog


class RecallService:
    """Runs the recall pipeline: two arms concurrently, weighted RRF, optional composite."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        clock: Clock,
        retrievals: RetrievalLog,
        limits: Limits,
        tuning: RecallTuning,
        defaults: Callable[[Actor], Awaitable[AgentRecall]] | None = None,
        *,
        spaces: SpaceRouter | None = None,
        reads: ReadsInFlight | None = None,
        provenance: Provenance | None = None,
    ) -> None:
        self._provenance = provenance
        """The served log (GetContext's auto-recall logs what it kept itself)."""
        self._reads = reads or ReadsInFlight(0.0)
        """Counts this service's Recalls (writes of the local model wait for a pause in them)."""
        self._spaces = spaces
        """A tenant switched to a re-embed's space is searched there (its own embedder, scale and floor)."""
        self._defaults = defaults or _shipped_defaults
        self._store = store
        self._embedder = embedder
        self._clock = clock
        self._retrievals = retrievals
        self._limits = limits
        self._tuning = tuning
        self._scale = calibration_for(embedder.model_name)
        self._floor = self._scale.similarity_floor if tuning.similarity_floor is None else tuning.similarity_floor

    async def recall(self, query: RecallQuery) -> list[RecallHit]:
        """The best ``limit`` visible memories for the query text, best first."""
        return (await self.answer(query)).hits

    async def answer(self, query: RecallQuery) -> RecallAnswer:
        """The hits and, when an arm could not run, why the answer is degraded.

        The product's rule: search needs the embedder, but an unreachable embedder must not empty
        Recall. The full-text arm then answers alone and the answer says so; only a vector-only
        request fails (UNAVAILABLE).
        """
        with self._reads.reading():
            return await self._answer(query)

    async def _answer(self, query: RecallQuery) -> RecallAnswer:
        query, weights, floor = await self._with_defaults(query)
        self._validate(query)
        space = await self._space(query.actor)
        if space.space:  # a floor belongs to an embedder's scale: the agents' floors are the store model's
            floor = space.floor
        if query.min_salience:  # a store condition in every ranking mode, inside both arms
            query = replace(query, filter=replace(query.filter, min_salience=query.min_salience))
        depth = max(self._tuning.min_depth, self._tuning.depth_per_limit * query.limit)
        # The full-text arm needs no vector: it runs while the query is embedded (a model's milliseconds
        # on its own thread; at 1M rows a tier's ~16 ms).
        text_arm = asyncio.ensure_future(
            self._full_text_arm(query, depth) if query.arms is not RecallArms.VECTOR else _nothing()
        )
        try:
            vector, degraded = await self._vector_or_why(query, space)
        except BaseException:
            text_arm.cancel()
            text_arm.add_done_callback(_retrieved)
            raise
        vector_hits, text_hits = await asyncio.gather(
            self._vector_arm(query, vector, depth, floor, space.space) if vector is not None else _nothing(),
            text_arm,
        )
        fused = fuse(vector_hits, text_hits, weights)
        nearest: list[ArmHit] = []
        if len(fused) < query.limit and vector is not None:
            # Fewer candidates than asked: fill with the nearest memories under the floor, after the rest.
            more = query.limit + len(fused)
            nearest = await self._store.nearest(query.actor, vector, query.filter, more, -1.0, space.space)
            fused = filled(fused, nearest, query.limit)
        terms = full_text_query(query.text).terms
        if query.ranking is RankingMode.SALIENCE_DECAY:  # needs every candidate's salience and feedback
            records = await self._store.get_many(query.actor, [f.memory_id for f in fused])
            hits = composite(attach(fused, records, terms, space.scale), self._clock.now(), query.min_score or 0.0)
        elif query.arms is RecallArms.BOTH and self._tuning.coverage_rerank:  # every candidate ranked by its words
            texts = {h.memory_id: h.content for h in (*vector_hits, *text_hits, *nearest) if h.content is not None}
            hits = await self._coverage_ranked(query, fused, texts, terms, space.scale)
        else:
            winners = fused[: query.limit]
            records = await self._store.get_many(query.actor, [f.memory_id for f in winners], with_retrievals=False)
            hits = attach(winners, records, terms, space.scale)
        if query.ranking is RankingMode.RELEVANCE:
            hits = [h for h in hits if h.score >= (query.min_score or 0.0)]
        hits = hits[: query.limit]
        if not query.internal:
            self._retrievals.note(query.actor.tenant_id, (h.memory.memory_id for h in hits), injected=query.injected)
        if self._provenance is not None and not query.injected and not query.internal:
            self._provenance.served(query.actor, [(h.memory.memory_id, h.score) for h in hits], ServedItem.MEMORY)
        if query.explain is None:
            return RecallAnswer(hits, degraded)
        arms = _Arms(vector_hits, text_hits, nearest, fused, vector, space.space)
        settings = TraceSettings(
            query.limit,
            query.min_score or 0.0,
            floor,
            depth,
            weights.vector_weight,
            weights.full_text_weight,
            query.arms is RecallArms.BOTH and self._tuning.coverage_rerank,
        )
        return RecallAnswer(hits, degraded, await self._trace(query, arms, hits, terms, space.scale, settings))

    async def _trace(
        self,
        query: RecallQuery,
        arms: _Arms,
        hits: Sequence[RecallHit],
        terms: Sequence[str],
        scale: EmbedderCalibration,
        settings: TraceSettings,
    ) -> RecallTrace:
        """The answer's trace (``core.recall_trace``): its candidates, then the ids the caller asked about."""
        texts = {h.memory_id: h.content for h in (*arms.vector, *arms.full_text, *arms.nearest) if h.content}
        wanted = [f.memory_id for f in arms.fused if f.memory_id not in texts]
        asked = list(dict.fromkeys(query.explain or ()))
        records = await self._store.get_many(query.actor, [*wanted, *asked], with_retrievals=False)
        texts |= {memory_id: records[memory_id].content for memory_id in wanted if memory_id in records}
        coverage = (self._tuning.coverage_floor, self._tuning.vector_coverage) if settings.coverage_rerank else None
        candidates = ranked_candidates(
            arms.fused,
            texts,
            terms,
            scale,
            coverage=coverage,
            hits=[h.memory.memory_id for h in hits],
            min_score=settings.min_score,
        )
        listed = {c.memory_id for c in candidates}
        missing = [m for m in asked if m in records and m not in listed]
        vectors = await self._store.vectors_of(query.actor, missing, arms.space) if arms.query_vector else {}
        missed = {
            m: (
                _cosine(arms.query_vector, vectors[m]) if arms.query_vector and m in vectors else None,
                full_text_evidence(terms, records[m].content),
            )
            for m in missing
        }
        explained = tuple(
            (m, account_for(m, candidates, records.get(m), query.filter, settings, missed.get(m, (None, 0.0))))
            for m in asked
        )
        return RecallTrace(settings, len(arms.vector), len(arms.full_text), candidates, explained)

    async def _coverage_ranked(
        self,
        query: RecallQuery,
        fused: Sequence[Fused],
        texts: Mapping[str, str],
        terms: Sequence[str],
        scale: EmbedderCalibration,
    ) -> list[RecallHit]:
        """The candidates in coverage order; only the first ``limit`` records at or above ``min_score`` are read.

        The arms give each candidate's text: at 100k rows reading 40 scattered records cost 15 ms, 10 of
        them 7 ms. A candidate without one (a store whose arms give none) has its record read first. A
        row deleted or hidden since its arm found it drops out; the next candidates are read in its place.
        """
        known: dict[str, MemoryRecord] = {}
        if missing := [f.memory_id for f in fused if f.memory_id not in texts]:
            known = await self._store.get_many(query.actor, missing, with_retrievals=False)
            texts = {**texts, **{memory_id: record.content for memory_id, record in known.items()}}
        scored = [(f, *evidence(f, texts[f.memory_id], terms, scale)) for f in fused if f.memory_id in texts]
        floor = query.min_score or 0.0
        wanted = [
            s
            for s in coverage_order(scored, self._tuning.coverage_floor, self._tuning.vector_coverage)
            if relevance(s[1], s[2]) >= floor
        ]
        hits: list[RecallHit] = []
        while wanted and len(hits) < query.limit:
            batch, wanted = wanted[: query.limit - len(hits)], wanted[query.limit - len(hits) :]
            if unread := [f.memory_id for f, _, _ in batch if f.memory_id not in known]:
                known |= await self._store.get_many(query.actor, unread, with_retrievals=False)
            hits += [
                RecallHit(known[f.memory_id], relevance(v, t), scored_parts(f, v, t))
                for f, v, t in batch
                if f.memory_id in known
            ]
        return hits

    async def vector_arm(self, query: RecallQuery) -> list[ArmHit]:
        """The vector arm alone (benchmarks compare arms)."""
        self._validate(query)
        space = await self._space(query.actor)
        vector = await self._query_vector(query, space)
        return await self._vector_arm(query, vector, query.limit, space.floor, space.space)

    async def full_text_arm(self, query: RecallQuery) -> list[ArmHit]:
        """The full-text arm alone (benchmarks compare arms)."""
        self._validate(query)
        return await self._full_text_arm(query, query.limit)

    async def _with_defaults(self, query: RecallQuery) -> tuple[RecallQuery, FusionWeights, float]:
        """The query with the agent's limit and min_score where the caller left them unset; its weights and floor."""
        check_actor(query.actor)
        agent = await self._defaults(query.actor)
        query = replace(
            query,
            limit=query.limit or agent.limit,
            min_score=query.min_score if query.min_score is not None else agent.min_score,
        )
        floor = self._floor if agent.similarity_floor is None else agent.similarity_floor
        return query, agent.weights or self._tuning.weights, floor

    def _validate(self, query: RecallQuery) -> None:
        check_actor(query.actor)
        if query.explain is not None:
            if len(query.explain) > MAX_EXPLAINED:
                count = len(query.explain)
                raise InvalidRequest("explain_ids", f"names {count} memories; the limit is {MAX_EXPLAINED}")
            for memory_id in query.explain:
                check_memory_id(memory_id, "explain_ids")
        if not visible(query.text):  # a zero-width space alone searched for everything
            raise InvalidRequest("query", "must not be empty")
        if len(query.text) > self._limits.max_query_chars:
            raise InvalidRequest("query", f"is {len(query.text)} chars; the limit is {self._limits.max_query_chars}")
        check_range(query.limit, "limit", 1, self._limits.max_recall_limit)
        check_filter(query.filter, self._limits)
        for name, value in (("min_score", query.min_score or 0.0), ("min_salience", query.min_salience)):
            if not 0.0 <= value <= 1.0:  # NaN fails too
                raise InvalidRequest(name, f"must be in [0, 1], got {value!r}")

    async def _vector_arm(
        self, query: RecallQuery, vector: list[float], depth: int, floor: float, space: str
    ) -> list[ArmHit]:
        """The arm's candidates above the floor."""
        if query.filter.narrows:  # the filter must not starve the candidate pool
            depth *= self._tuning.filtered_depth_factor
        return await self._store.nearest(query.actor, vector, query.filter, depth, floor, space)

    async def _space(self, actor: Actor) -> QuerySpace:
        """Where the tenant's vectors are searched: the store's model unless switched by a re-embed."""
        if self._spaces is None:
            return QuerySpace("", self._embedder, self._scale, self._floor)
        return await self._spaces.query_space(actor.tenant_id)

    async def _vector_or_why(self, query: RecallQuery, space: QuerySpace) -> tuple[list[float] | None, str]:
        """The query's vector (None for a full-text query), or None and why the full-text arm answers alone."""
        if query.arms is RecallArms.FULL_TEXT:
            return None, ""
        try:
            return await self._query_vector(query, space), ""
        except Unavailable as exc:
            if query.arms is RecallArms.VECTOR:
                raise
            return None, f"the embedder is unavailable ({exc}): the full-text arm answered alone"

    async def _query_vector(self, query: RecallQuery, space: QuerySpace) -> list[float]:
        """The caller's vector (in the tenant's space), or the query embedded there."""
        if query.embedding:
            return normalised(query.embedding, space.embedder.dimension, "query_embedding")
        text = statement_form(query.text) if self._tuning.vector_query is VectorQuery.STATEMENT else query.text
        (vector,) = await space.embedder.embed([text], EmbedRole.QUERY)
        return vector

    async def _full_text_arm(self, query: RecallQuery, depth: int) -> list[ArmHit]:
        """Tiers, each filling the places the previous left: all words, any word, word prefixes.

        Prefix matches come last because on LoCoMo mixing them into BM25 ranking cost 0.027
        R@10 (a prefix such as 'car' also matches 'career'); as a last tier they still find
        'espresso' for 'espres' when nothing matches whole words.
        """
        terms = full_text_query(query.text)
        if not terms.terms:
            return []
        words = replace(terms, prefix_terms=())
        every_word = self._tuning.full_text_mode is not FullTextMode.OR and len(terms.terms) > 1
        asked = [*([FullTextTier(words, True)] if every_word else []), FullTextTier(words, False)]
        if self._tuning.prefix_matching and terms.prefix_terms:
            asked.append(FullTextTier(terms, False))
        return await self._store.full_text_tiers(query.actor, asked, query.filter, depth)


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors (both stored unit-length; normalised here all the same)."""
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = (sum(x * x for x in a) * sum(y * y for y in b)) ** 0.5
    return dot / norm if norm else 0.0


async def _nothing() -> list[ArmHit]:
    return []


def _retrieved(arm: asyncio.Future[list[ArmHit]]) -> None:
    """An arm given up (the other failed): its own error, if any, is read so the loop does not report it."""
    if not arm.cancelled():
        arm.exception()


@dataclass(frozen=True, slots=True)
class RecallAnswer:
    """Recall's hits, why they came from one arm only ("" when both ran as asked), and its trace if asked."""

    hits: list[RecallHit]
    degraded: str = ""
    trace: RecallTrace | None = None


@dataclass(frozen=True, slots=True)
class _Arms:
    """What a Recall's arms found, and their fusion (the trace is made from them)."""

    vector: Sequence[ArmHit]
    full_text: Sequence[ArmHit]
    nearest: Sequence[ArmHit]
    fused: Sequence[Fused]
    query_vector: Sequence[float] | None
    space: str


async def _shipped_defaults(actor: Actor) -> AgentRecall:
    """The daemon's own values when no settings service is wired (benchmarks, tests)."""
    return AgentRecall()
