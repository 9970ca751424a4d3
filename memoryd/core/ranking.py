"""Pure scoring: weighted reciprocal rank fusion and the opt-in salience/decay composite."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import NamedTuple

from memoryd.core.calibration import EmbedderCalibration
from memoryd.core.feedback import shifted_salience
from memoryd.core.models import ArmHit, MemoryRecord, RecallHit, ScoreParts
from memoryd.core.scores import full_text_evidence, relevance, vector_evidence


@dataclass(frozen=True, slots=True)
class FusionWeights:
    """RRF parameters: ``score = sum(weight / (k + rank))`` with 1-based ranks. The defaults are memoryd's."""

    k: int = 5
    """Small: with two arms of a few dozen candidates, K 60 makes rank 1 worth barely more than rank 20
    (61 vs 80), a vote count; K 5 lets each arm's top places count (6 vs 25). LoCoMo, with the coverage
    rerank: K 5 vs 60 R@10 +0.002 / MRR +0.032 (batch), +0.015 / +0.039 (single); docs/benchmarks.md."""
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
class AgentRecall:
    """What one agent's settings make of Recall: defaults for unset request fields, its fusion weights and floor."""

    limit: int = 10
    min_score: float = 0.0
    weights: FusionWeights | None = None
    """None: the daemon's."""
    similarity_floor: float | None = None
    """None: the daemon's (the embedder's calibrated floor unless configured)."""


@dataclass(frozen=True, slots=True)
class RecallTuning:
    """Recall parameters; the defaults here are the shipped defaults (settings start from them)."""

    weights: FusionWeights = field(default_factory=FusionWeights)
    similarity_floor: float | None = None
    """Vector hits below this cosine similarity stay out of the fusion: a spam filter, not a relevance gate.
    None: the embedder's calibrated floor (``core.calibration``)."""
    min_depth: int = 20
    depth_per_limit: int = 2
    """Candidates per arm = max(min_depth, depth_per_limit × limit)."""
    filtered_depth_factor: int = 3
    """With a filter present the vector arm fetches this many times more candidates."""
    full_text_mode: FullTextMode = FullTextMode.AND_THEN_OR
    prefix_matching: bool = True
    """Query terms also match as word prefixes."""
    vector_query: VectorQuery = VectorQuery.AS_IS
    coverage_rerank: bool = True
    """Relevance ranking orders the fused candidates by ``fused × (coverage_floor + coverage)``, coverage
    being the larger of the share of the query's terms a memory contains and ``vector_coverage`` × its
    vector evidence (``core.scores``): the coordination factor of classic lexical scoring, applied to the
    fusion so that a memory both arms like but that holds one of five query words does not outrank one
    that holds all five."""
    coverage_floor: float = 0.25
    """What a memory with no coverage keeps of its fused score: it stays in the ranking, at a fifth of
    the weight of a memory holding every query word."""
    vector_coverage: float = 0.5
    """A strong embedding match counts as half the query's words, so a paraphrase the embedder
    recognises is not buried under memories that merely repeat a query word (LoCoMo questions whose
    evidence holds at most a fifth of their words: R@10 0.401 → 0.455 on the batch protocol)."""


class Fused(NamedTuple):
    """A fused candidate before its record is attached: its RRF score and each arm's rank and score.

    A tuple, not a frozen dataclass: a Recall fuses some 70 candidates, and building a frozen class
    and its ``ScoreParts`` for each cost 3-4 µs, a tenth of a small-set Recall; the parts are built for
    the hits only (``scored_parts``).
    """

    memory_id: str
    occurred_at: datetime
    score: float
    """The RRF sum the relevance ranking orders by (0: a fill-in from under the similarity floor)."""
    vector_rank: int = 0
    vector_similarity: float = 0.0
    vector_contribution: float = 0.0
    full_text_rank: int = 0
    full_text_score: float = 0.0
    full_text_contribution: float = 0.0


def fuse(vector: Sequence[ArmHit], full_text: Sequence[ArmHit], weights: FusionWeights) -> list[Fused]:
    """Fuse two ranked arms into one list, best first.

    Relevance is the only signal; equal scores go to the more recent memory
    (occurred_at, then id, both descending), so the order is deterministic.
    retrieval_count and salience are deliberately not used: feeding them back
    into ranking made a few memories win every query.
    """
    # Each arm's (rank, score) per memory, the best rank kept; the parts are built once at the end
    # (dataclasses.replace per candidate was a tenth of a small-set Recall).
    when: dict[str, datetime] = {}
    by_vector: dict[str, tuple[int, float]] = {}
    by_text: dict[str, tuple[int, float]] = {}
    for arm, hits in ((by_vector, vector), (by_text, full_text)):
        for rank, hit in enumerate(hits, start=1):
            if hit.memory_id not in arm:  # an arm lists a memory once; keep its best rank
                arm[hit.memory_id] = (rank, hit.score)
                when.setdefault(hit.memory_id, hit.occurred_at)
    fused = []
    for m, at in when.items():
        v_rank, v_score = by_vector.get(m, (0, 0.0))
        t_rank, t_score = by_text.get(m, (0, 0.0))
        v_part = weights.vector_weight / (weights.k + v_rank) if v_rank else 0.0
        t_part = weights.full_text_weight / (weights.k + t_rank) if t_rank else 0.0
        fused.append(Fused(m, at, v_part + t_part, v_rank, v_score, v_part, t_rank, t_score, t_part))
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
            out.append(Fused(hit.memory_id, hit.occurred_at, 0.0, vector_rank=rank, vector_similarity=hit.score))
    return out


def attach(
    fused: Sequence[Fused], records: Mapping[str, MemoryRecord], terms: Sequence[str], scale: EmbedderCalibration
) -> list[RecallHit]:
    """Hits for the fused candidates whose records were found, in fused order, scored by readable relevance.

    A row deleted meanwhile drops out; the score is ``core.scores``'s relevance of the hit's evidence.
    """
    hits = []
    for f in fused:
        record = records.get(f.memory_id)
        if record is None:
            continue
        parts = with_evidence(f, record.content, terms, scale)
        hits.append(RecallHit(record, relevance(parts.vector_evidence, parts.full_text_evidence), parts))
    return hits


Scored = tuple[Fused, float, float]
"""A fused candidate with its vector and full-text evidence (``evidence``)."""


def evidence(f: Fused, content: str, terms: Sequence[str], scale: EmbedderCalibration) -> tuple[float, float]:
    """The candidate's vector and full-text evidence on the readable 0-1 scale (``core.scores``)."""
    return vector_evidence(f.vector_similarity, scale) if f.vector_rank else 0.0, full_text_evidence(terms, content)


def with_evidence(f: Fused, content: str, terms: Sequence[str], scale: EmbedderCalibration) -> ScoreParts:
    """The candidate's parts with both arms' evidence on the readable 0-1 scale (``core.scores``)."""
    return scored_parts(f, *evidence(f, content, terms, scale))


def scored_parts(f: Fused, vector: float, full_text: float) -> ScoreParts:
    """The candidate's parts with this evidence.

    Built for the hits only: a frozen class of ten fields costs ~2 µs to build, and a Recall ranks
    some 80 candidates.
    """
    return ScoreParts(
        f.vector_rank,
        f.vector_similarity,
        f.vector_contribution,
        f.full_text_rank,
        f.full_text_score,
        f.full_text_contribution,
        0.0,
        f.score,
        vector,
        full_text,
    )


def coverage_order(scored: Sequence[Scored], floor: float, vector_share: float) -> list[Scored]:
    """Candidates ordered by ``fused × (floor + max(full_text_evidence, vector_share × vector_evidence))``.

    ``scored``: each fused candidate with its evidence (``evidence``); no record is needed, so Recall
    reads the winners' records only. Ties go to the more recent memory, then the higher id. Fill-ins
    from under the similarity floor (fused score 0) stay after the rest, in similarity order.
    """
    ranked = sorted(
        (s for s in scored if s[0].score > 0),
        key=lambda s: (s[0].score * (floor + max(s[2], vector_share * s[1])), s[0].occurred_at, s[0].memory_id),
        reverse=True,
    )
    return ranked + [s for s in scored if s[0].score <= 0]


def composite(hits: Sequence[RecallHit], now: datetime, min_score: float = 0.0) -> list[RecallHit]:
    """Re-rank hits by ``0.70·relevance + 0.20·salience·e^(−decay·age) + 0.10·recency``.

    Relevance is the hit's readable score (in [0, 1], ``attach``); salience includes the feedback
    shift (``core.feedback``); recency is ``e^(−age_days / 30)``; age counts from occurred_at.
    """
    out: list[RecallHit] = []
    for hit in hits:
        age_days = max(0.0, (now - hit.memory.occurred_at).total_seconds() / 86400.0)
        salience = shifted_salience(hit.memory.salience, hit.memory.feedback)
        decayed = salience * math.exp(-hit.memory.decay_factor * age_days)
        score = 0.70 * hit.score + 0.20 * decayed + 0.10 * math.exp(-age_days / 30.0)
        if score < min_score:
            continue
        out.append(RecallHit(hit.memory, score, replace(hit.parts, composite=score)))
    out.sort(key=lambda h: (h.score, h.memory.occurred_at, h.memory.memory_id), reverse=True)
    return out


def merge_tiers(tiers: Iterable[Sequence[ArmHit]], limit: int) -> list[ArmHit]:
    """The tiers' hits in tier order, each tier's in its own order, an id placed once, up to ``limit``."""
    out: list[ArmHit] = []
    seen: set[str] = set()
    for tier in tiers:
        for hit in tier:
            if len(out) == limit:
                return out
            if hit.memory_id not in seen:
                seen.add(hit.memory_id)
                out.append(hit)
    return out
