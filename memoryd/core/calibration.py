"""Per-embedder calibrated values: each embedder scores similarity on its own scale.

Measured with ``memoryd bench dedup`` on the shipped fixture of restatement and near-miss
pairs (``memoryd/bench/data/dedup_pairs.json``); a configured value overrides the table.
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


CALIBRATED = {
    # Restatements the rule merges scored cosine >= 0.938 (the worst: a trailing "!"); 0.10 keeps margin.
    "all-MiniLM-L6-v2-int8": EmbedderCalibration(dedup_distance=0.10),
}
UNCALIBRATED = EmbedderCalibration(dedup_distance=0.20)
"""A model nobody measured: a wider candidate search (the restatement rule still decides)."""


def calibration_for(model_name: str) -> EmbedderCalibration:
    """The calibrated values of ``model_name``, or the uncalibrated defaults."""
    return CALIBRATED.get(model_name, UNCALIBRATED)
