"""A Recall's trace: every candidate of both arms, how it was scored and ordered, and what became of it.

Asked for with ``RecallQuery.explain`` (operators: the console's recall debugger); a Recall that does
not ask builds none of this. The trace is made after the answer from what the pipeline already holds
(the arms' candidates, the fusion), so the ranking it shows is the ranking that was served.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from memoryd.core.calibration import EmbedderCalibration
from memoryd.core.models import MemoryFilter, MemoryRecord
from memoryd.core.ranking import Fused, coverage_order, evidence
from memoryd.core.scores import relevance
from memoryd.core.visibility import matches_filter

MAX_EXPLAINED = 20
"""Memory ids one Recall may ask to have accounted for."""

HIT = "hit"
BELOW_THE_CUT = "below the cut"
UNDER_MIN_SCORE = "under min_score"
FILLED_BELOW_THE_CUT = "a fill-in from under the similarity floor, below the cut"
DROPPED = "dropped: deleted or hidden since its arm found it"


@dataclass(frozen=True, slots=True)
class TraceCandidate:
    """One fused candidate: each arm's rank (0: absent) and raw score, the fusion, the evidence, the end."""

    memory_id: str
    position: int
    """1-based place in the final order (after the coverage rerank when it ran)."""
    vector_rank: int
    vector_similarity: float
    full_text_rank: int
    full_text_score: float
    fused: float
    """The weighted RRF sum (0: a fill-in from under the similarity floor)."""
    vector_evidence: float
    full_text_evidence: float
    score: float
    """The final 0-1 relevance (what a hit's ``score`` is and ``min_score`` is compared with)."""
    outcome: str
    content: str


@dataclass(frozen=True, slots=True)
class TraceSettings:
    """The values the Recall ran with (the agent's settings where the request left them unset)."""

    limit: int
    min_score: float
    similarity_floor: float
    depth: int
    """Candidates asked of each arm."""
    vector_weight: float
    full_text_weight: float
    coverage_rerank: bool


@dataclass(frozen=True, slots=True)
class RecallTrace:
    """How one Recall's answer was made."""

    settings: TraceSettings
    vector_candidates: int
    full_text_candidates: int
    candidates: tuple[TraceCandidate, ...]
    explained: tuple[tuple[str, str], ...]
    """(memory id, what became of it) for each id the request asked about, in its order."""


def ranked_candidates(
    fused: Sequence[Fused],
    texts: Mapping[str, str],
    terms: Sequence[str],
    scale: EmbedderCalibration,
    *,
    coverage: tuple[float, float] | None,
    hits: Sequence[str],
    min_score: float,
) -> tuple[TraceCandidate, ...]:
    """Every fused candidate in the order served, with its evidence and outcome.

    ``coverage``: the rerank's (floor, vector share) when it ran, else None (fused order). ``hits``:
    the ids served. A candidate without a text (deleted or hidden since) is listed last as dropped.
    """
    scored = [(f, *evidence(f, texts[f.memory_id], terms, scale)) for f in fused if f.memory_id in texts]
    ordered = coverage_order(scored, *coverage) if coverage is not None else scored
    served = set(hits)
    out = []
    for position, (f, vector, full_text) in enumerate(ordered, start=1):
        score = relevance(vector, full_text)
        if f.memory_id in served:
            outcome = HIT
        elif score < min_score:
            outcome = UNDER_MIN_SCORE
        else:
            outcome = FILLED_BELOW_THE_CUT if f.score <= 0 else BELOW_THE_CUT
        out.append(_candidate(f, position, vector, full_text, score, outcome, texts[f.memory_id]))
    out += [_candidate(f, 0, 0.0, 0.0, 0.0, DROPPED, "") for f in fused if f.memory_id not in texts]
    return tuple(out)


def _candidate(
    f: Fused, position: int, vector: float, full_text: float, score: float, outcome: str, content: str
) -> TraceCandidate:
    return TraceCandidate(
        f.memory_id,
        position,
        f.vector_rank,
        f.vector_similarity,
        f.full_text_rank,
        f.full_text_score,
        f.score,
        vector,
        full_text,
        score,
        outcome,
        content,
    )


def account_for(
    memory_id: str,
    candidates: Sequence[TraceCandidate],
    record: MemoryRecord | None,
    flt: MemoryFilter,
    settings: TraceSettings,
    missed: tuple[float | None, float] = (None, 0.0),
) -> str:
    """What became of one memory the caller expected: its outcome as a candidate, or why it was none.

    ``record``: the memory as the caller may read it (None: not visible to the caller, or no such id).
    ``missed``: for a visible memory no arm returned, its cosine similarity to the query (None: no
    vector arm ran, or it has no vector yet) and the share of the query's words it holds.
    """
    for c in candidates:
        if c.memory_id == memory_id:
            place = f" (place {c.position}, score {c.score:.3f})" if c.position else ""
            return c.outcome + place
    if record is None:
        return "not visible to this agent and contact (another agent's private memory, another contact's, no such id)"
    if not matches_filter(record, flt):
        return f"filtered out: the request's filter leaves out a {record.status.value} {record.scope.value} memory"
    similarity, words = missed
    if similarity is None:
        vector = "the vector arm did not look (no query vector, or the memory's is pending)"
    elif similarity < settings.similarity_floor:
        vector = f"its similarity {similarity:.3f} is under the floor {settings.similarity_floor:.2f}"
    else:
        vector = f"its similarity {similarity:.3f} did not place it among the {settings.depth} nearest"
    full_text = (
        "it holds none of the query's words"
        if not words
        else f"it holds {words:.0%} of the query's words, not enough for the {settings.depth} best full-text hits"
    )
    return f"not a candidate: {vector}; {full_text}"
