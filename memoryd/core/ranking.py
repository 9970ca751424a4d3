"""Pure scoring: weighted reciprocal rank fusion and the opt-in salience/decay composite."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum

from memoryd.core.models import ArmHit, MemoryRecord, RecallHit, ScoreParts


@dataclass(frozen=True, slots=True)
class FusionWeights:
    """RRF parameters: ``score = sum(weight / (k + rank))`` with 1-based ranks. The defaults are memoryd's."""

    k: int = 60
    vector_weight: float = 1.0
    full_text_weight: float = 1.25
    """Above the vector arm's 1.0: the embedded MiniLM arm is the weaker one on conversational memory
    (LoCoMo: 1.25 vs 1.0 R@10 +0.019, MRR +0.024; 0.5 loses to full text alone; docs/benchmarks.md)."""


class FullTextMode(StrEnum):
    """How the full-text arm combines the query's terms."""

    AND_THEN_OR = "and_then_or"
    """Hits with every term first, then any term."""
    OR = "or"
    """Any term, plain BM25 order."""


class VectorQuery(StrEnum):
    """What the vector arm embeds."""

    AS_IS = "as_is"
    """The query text as given."""
    STATEMENT = "statement"
    """Its statement form: questions lose their interrogative lead (``query_terms``)."""


@dataclass(frozen=True, slots=True)
class RecallTuning:
    """Recall parameters; the defaults here are the shipped defaults (settings start from them)."""

    weights: FusionWeights = field(default_factory=FusionWeights)
    similarity_floor: float = 0.5
    """Vector hits below this cosine similarity are dropped: a spam filter, not a relevance gate."""
    min_depth: int = 20
    depth_per_limit: int = 2
    """Candidates per arm = max(min_depth, depth_per_limit × limit)."""
    filtered_depth_factor: int = 3
    """With a filter present the vector arm fetches this many times more candidates."""
    full_text_mode: FullTextMode = FullTextMode.AND_THEN_OR
    prefix_matching: bool = True
    """Query terms also match as word prefixes."""
    vector_query: VectorQuery = VectorQuery.AS_IS


@dataclass(frozen=True, slots=True)
class Fused:
    """A fused candidate before its record is attached."""

    memory_id: str
    occurred_at: datetime
    score: float
    parts: ScoreParts


def fuse(vector: Sequence[ArmHit], full_text: Sequence[ArmHit], weights: FusionWeights) -> list[Fused]:
    """Fuse two ranked arms into one list, best first.

    Relevance is the only signal; equal scores go to the more recent memory
    (occurred_at, then id, both descending), so the order is deterministic.
    retrieval_count and salience are deliberately not used: feeding them back
    into ranking made a few memories win every query.
    """
    when: dict[str, datetime] = {}
    parts: dict[str, ScoreParts] = {}
    for rank, hit in enumerate(vector, start=1):
        if hit.memory_id in parts:  # an arm lists a memory once; keep its best rank
            continue
        when[hit.memory_id] = hit.occurred_at
        parts[hit.memory_id] = ScoreParts(
            vector_rank=rank,
            vector_similarity=hit.score,
            vector_contribution=weights.vector_weight / (weights.k + rank),
        )
    for rank, hit in enumerate(full_text, start=1):
        current = parts.get(hit.memory_id, ScoreParts())
        if current.full_text_rank:
            continue
        when.setdefault(hit.memory_id, hit.occurred_at)
        parts[hit.memory_id] = replace(
            current,
            full_text_rank=rank,
            full_text_score=hit.score,
            full_text_contribution=weights.full_text_weight / (weights.k + rank),
        )
    fused = [Fused(m, when[m], p.vector_contribution + p.full_text_contribution, p) for m, p in parts.items()]
    fused.sort(key=lambda f: (f.score, f.occurred_at, f.memory_id), reverse=True)
    return fused


def filled(fused: Sequence[Fused], below_floor: Sequence[ArmHit], limit: int) -> list[Fused]:
    """The fused list, then — while it is shorter than ``limit`` — the nearest memories under the floor.

    The floor keeps weak vector candidates out of the fusion; it must not leave a caller with fewer
    hits than asked when more memories are visible. Fill-ins come after every fused candidate, in
    similarity order, with a fused score of 0 (their vector rank and similarity stay in the parts:
    ranked without the floor).
    """
    out = list(fused)
    seen = {f.memory_id for f in fused}
    for rank, hit in enumerate(below_floor, start=1):
        if len(out) >= limit:
            break
        if hit.memory_id not in seen:
            seen.add(hit.memory_id)
            parts = ScoreParts(vector_rank=rank, vector_similarity=hit.score)
            out.append(Fused(hit.memory_id, hit.occurred_at, 0.0, parts))
    return out


def attach(fused: Sequence[Fused], records: Mapping[str, MemoryRecord]) -> list[RecallHit]:
    """Hits for the fused candidates whose records were found (a row deleted meanwhile drops out)."""
    return [RecallHit(records[f.memory_id], f.score, f.parts) for f in fused if f.memory_id in records]


def composite(hits: Sequence[RecallHit], now: datetime, min_score: float = 0.0) -> list[RecallHit]:
    """Re-rank fused hits by ``0.70·relevance + 0.20·salience·e^(−decay·age) + 0.10·recency``.

    Relevance is the fused score divided by the best fused score (so in [0, 1]);
    recency is ``e^(−age_days / 30)``; age counts from occurred_at.
    """
    if not hits:
        return []
    top = max(h.score for h in hits) or 1.0
    out: list[RecallHit] = []
    for hit in hits:
        age_days = max(0.0, (now - hit.memory.occurred_at).total_seconds() / 86400.0)
        decayed = hit.memory.salience * math.exp(-hit.memory.decay_factor * age_days)
        score = 0.70 * (hit.score / top) + 0.20 * decayed + 0.10 * math.exp(-age_days / 30.0)
        if score < min_score:
            continue
        out.append(RecallHit(hit.memory, score, replace(hit.parts, composite=score)))
    out.sort(key=lambda h: (h.score, h.memory.occurred_at, h.memory.memory_id), reverse=True)
    return out
