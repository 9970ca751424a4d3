"""GraphSearch: SearchGraph's hybrid seeds, k-hop expansion, validity filter, rerank and prompt block.

No model is called: the fact seeds come from the sentence vectors and the full-text index, the
entity seeds from names, and the expansion walks facts touching the entities found, each hop
worth half the last.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime

from memoryd.core.embed_roles import EmbedRole
from memoryd.core.errors import InvalidRequest
from memoryd.core.graph import Fact, GraphAnswer, GraphHit, block_header, fact_line
from memoryd.core.models import Actor
from memoryd.core.ports import Clock, Embedder, GraphStore, TokenCounter
from memoryd.core.query_terms import full_text_query
from memoryd.core.validation import check_actor, check_range, visible
from memoryd.core.visibility import sees

SEED_DEPTH = 20
HOP_DECAY = 0.5
MAX_HOPS = 3


class GraphSearch:
    """Searches the memory graph as one actor sees it."""

    def __init__(self, store: GraphStore, embedder: Embedder, counter: TokenCounter, clock: Clock) -> None:
        self._store = store
        self._embedder = embedder
        self._counter = counter
        self._clock = clock

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
        if not visible(query):
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
            self._embedder.embed([query], EmbedRole.QUERY),  # Unavailable: search needs the embedder
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
