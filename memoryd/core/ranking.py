"""Pure scoring: weighted reciprocal rank fusion and the opt-in salience/decay composite."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from memoryd.core.models import ArmHit, MemoryRecord, RecallHit, ScoreParts


@dataclass(frozen=True, slots=True)
class FusionWeights:
    """RRF parameters: ``score = sum(weight / (k + rank))`` with 1-based ranks."""

    k: int = 60
    vector_weight: float = 1.0
    full_text_weight: float = 1.0


def fuse(vector: Sequence[ArmHit], full_text: Sequence[ArmHit], weights: FusionWeights) -> list[RecallHit]:
    """Fuse two ranked arms into one list, best first.

    Relevance is the only signal; equal scores go to the more recent memory
    (occurred_at, then id, both descending), so the order is deterministic.
    retrieval_count and salience are deliberately not used: feeding them back
    into ranking made a few memories win every query.
    """
    records: dict[str, MemoryRecord] = {}
    parts: dict[str, ScoreParts] = {}
    for rank, hit in enumerate(vector, start=1):
        mid = hit.record.memory_id
        if mid in parts:  # an arm lists a memory once; keep its best rank
            continue
        records[mid] = hit.record
        parts[mid] = ScoreParts(vector_rank=rank, vector_similarity=hit.score,
                                vector_contribution=weights.vector_weight / (weights.k + rank))
    for rank, hit in enumerate(full_text, start=1):
        mid = hit.record.memory_id
        current = parts.get(mid, ScoreParts())
        if current.full_text_rank:
            continue
        records.setdefault(mid, hit.record)
        parts[mid] = replace(current, full_text_rank=rank, full_text_score=hit.score,
                             full_text_contribution=weights.full_text_weight / (weights.k + rank))
    hits = [RecallHit(records[m], p.vector_contribution + p.full_text_contribution, p) for m, p in parts.items()]
    hits.sort(key=lambda h: (h.score, h.memory.occurred_at, h.memory.memory_id), reverse=True)
    return hits


def composite(hits: Sequence[RecallHit], now: datetime, min_score: float = 0.0,
              min_salience: float = 0.0) -> list[RecallHit]:
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
        if score < min_score or hit.memory.salience < min_salience:
            continue
        out.append(RecallHit(hit.memory, score, replace(hit.parts, composite=score)))
    out.sort(key=lambda h: (h.score, h.memory.occurred_at, h.memory.memory_id), reverse=True)
    return out
