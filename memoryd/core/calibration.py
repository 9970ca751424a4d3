"""Per-embedder calibrated values: each embedder scores similarity on its own scale.

The dedup distance is measured with ``memoryd bench dedup`` on the shipped fixture of
restatement and near-miss pairs (``memoryd/commands/bench/data/dedup_pairs.json``); the recall values
with ``memoryd bench calibrate`` on questions and their evidence (gold pairs) against random
turns of the same conversations (random pairs). A configured value overrides the table.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class EmbedderCalibration:
    """What memoryd uses of one embedding model's similarity scale."""

    dedup_distance: float
    """Cosine distance within which stored memories are candidates for insert-time dedup.

    Candidates only: a merge also needs the texts to be restatements (``core.restatement``), so this
    is a recall bound for the candidate search, set to admit every restatement of the fixture."""
    similarity_floor: float
    """Vector candidates below this cosine are left out of the fusion: a spam filter set at the 2nd
    percentile of gold pairs, so it drops almost no pair that answers a question."""
    noise_similarity: float
    """Vector evidence 0 (``core.scores``): the 75th percentile of random pairs."""
    strong_similarity: float
    """Vector evidence 1: the 90th percentile of gold pairs."""
    review_duplicate: float = 0.95
    """The review's near-duplicates: at least this similar (``core.review.ReviewLimits``)."""
    review_contradiction: float = 0.70
    """The review's contradiction candidates: at least this similar (the lexical rule decides)."""
    review_newer: float = 0.90
    """The review's stale rule: a newer memory at least this similar replaces an old one."""
    entity_duplicate: float = 0.80
    """Graph entity names at least this similar are possible duplicates, suggested for a person to merge
    (and the candidates a name with the same words resolves to): the 99.9th percentile of unrelated names."""


E5_REVIEW = (0.985, 0.88, 0.98)
"""e5's review thresholds (duplicate, contradiction candidates, newer): on the planted archive (``memoryd bench
audit``) MiniLM's 0.95 / 0.70 / 0.90 gave e5 39 % / 61 % / 44 % precision, since e5 scores unrelated sentences of
one shape 0.95 ("Dmitri" / "Jonas is allergic to peanuts"); these give 100 % / 74 % / 92 % (recall 89 / 93 / 100 %)."""

CALIBRATED = {
    # Restatements the rule merges scored cosine >= 0.938 (the worst: a trailing "!"); 0.10 keeps margin.
    # Recall values: 2,360 gold and 6,144 random pairs (docs/benchmarks.md, "The similarity scale").
    # Entity names (`memoryd bench names`: 1,653 pairs of unrelated names in seven languages): p99.9 0.687.
    "all-MiniLM-L6-v2-int8": EmbedderCalibration(
        dedup_distance=0.10,
        similarity_floor=0.17,
        noise_similarity=0.34,
        strong_similarity=0.63,
        entity_duplicate=0.69,
    ),
    # e5's scale is narrow (random pairs from 0.71): the same percentiles of LoCoMo's pairs. Restatements the
    # rule merges lie within 0.027; 0.05 keeps margin. On the multilingual set (Spanish, German, Chinese) the
    # floor keeps every gold pair (their p1: 0.794 / 0.783 / 0.847); Chinese pairs score ~0.06 higher.
    "multilingual-e5-small-q4": EmbedderCalibration(
        dedup_distance=0.05,
        similarity_floor=0.77,
        noise_similarity=0.80,
        strong_similarity=0.87,
        review_duplicate=E5_REVIEW[0],
        review_contradiction=E5_REVIEW[1],
        review_newer=E5_REVIEW[2],
        entity_duplicate=0.91,  # `memoryd bench names`: unrelated p99.9 0.906 (at 0.80, 83 % of them were suggested)
    ),
}
UNCALIBRATED = EmbedderCalibration(
    dedup_distance=0.20, similarity_floor=0.0, noise_similarity=0.25, strong_similarity=0.65
)
"""A model nobody measured: a wider dedup candidate search (the restatement rule still decides), no floor
(a floor on the wrong scale silently empties the vector arm; none only lets weak candidates into the
fusion), and a middle-of-the-road evidence scale. ``memoryd bench calibrate --config`` measures a model."""


def calibration_for(model_name: str) -> EmbedderCalibration:
    """The calibrated values of ``model_name``, or the uncalibrated defaults."""
    return CALIBRATED.get(model_name, UNCALIBRATED)
