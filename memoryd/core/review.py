"""Memory audits as values: findings, verdicts, reviews and the review policy. Pure.

A review looks over one agent's visible archive and proposes findings; nothing changes until
findings are applied, and applying never deletes (``services.review``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum


class FindingKind(StrEnum):
    """What a finding is about."""

    DUPLICATE = "duplicate"
    """Memories that say the same thing (identical texts, or near-identical with no fact changed)."""
    CONTRADICTION = "contradiction"
    """Similar memories (or about the same subject) whose texts differ in a number, a date, a name or a negation."""
    STALE = "stale"
    """Old and never used, or replaced by a newer similar memory."""
    CLUTTER = "clutter"
    """Near-empty, greeting-only, tool noise, a fragment with no fact."""
    DISPUTED = "disputed"
    """Callers reported it wrong (Feedback) and no correction replaced it."""


class FindingSource(StrEnum):
    """Who proposed the finding's action."""

    RULES = "rules"
    MODEL = "model"


class Action(StrEnum):
    """What applying a finding does. None of them deletes."""

    MERGE = "merge"
    """The others become SUPERSEDED by the survivor (or all by a new memory holding the merged text)."""
    UPDATE = "update"
    """A new memory holds the corrected text; the old one becomes SUPERSEDED by it."""
    ARCHIVE = "archive"
    """ARCHIVED: out of Recall, readable by id, restorable."""
    KEEP = "keep"
    """Nothing changes."""


class FindingStatus(StrEnum):
    """Where a finding is in its life."""

    PROPOSED = "proposed"
    APPLIED = "applied"
    REJECTED = "rejected"
    """The model or a person (RejectFindings) judged the candidate wrong; applying it changes nothing."""


class ApplyPolicy(StrEnum):
    """Which findings a review applies on its own (``audits.apply``)."""

    NONE = "none"
    RULES = "rules"
    """Findings whose action the rules proposed with certainty (exact duplicates, clutter, stale)."""
    ALL = "all"
    """Every confirmed finding, the model's included."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One proposal of a review."""

    finding_id: str
    review_id: str
    kind: FindingKind
    memory_ids: tuple[str, ...]
    reason: str
    action: Action
    """The proposed action (the rules', or the model's once it judged)."""
    source: FindingSource = FindingSource.RULES
    survivor_id: str = ""
    """merge: the memory that stays."""
    text: str = ""
    """merge: the merged text (optional); update: the corrected text."""
    certain: bool = False
    """The rules alone may apply it (``ApplyPolicy.RULES``)."""
    status: FindingStatus = FindingStatus.PROPOSED
    judged: bool = False
    """A model has given its verdict (re-runs skip it)."""
    outcome: str = ""
    """What applying did, or why it could not."""
    content_hashes: tuple[str, ...] = ()
    """The texts' hashes as reviewed, one per memory id: a memory rewritten since is not touched by applying."""


@dataclass(frozen=True, slots=True)
class Review:
    """One review of an agent's archive (its id is the job key)."""

    review_id: str
    agent_id: str
    archive_version: str
    memories_reviewed: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    """Findings per kind."""
    model: str = ""
    model_calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    created_at: datetime | None = None
    finished_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class ReviewLimits:
    """The rules' thresholds and the model's budget per review (documented in the README)."""

    duplicate_similarity: float = 0.95
    """Near-duplicates: tighter than insert-time dedup (which also needs a restatement)."""
    contradiction_similarity: float = 0.70
    """Contradiction candidates: pairs at least this similar (or with the same subject) are checked by the
    lexical rule (``restatement.conflicting_markers``), which decides; the similarity only proposes pairs.
    A swapped name or city moves the embedded MiniLM's cosine to about 0.75 (``memoryd bench audit``:
    at 0.80 a quarter of the planted contradictions were never looked at)."""
    newer_similarity: float = 0.90
    """Stale: a newer memory at least this similar, differing in no fact marker, replaces an old one."""
    neighbours: int = 8
    """Nearest neighbours looked at per memory."""
    stale_days: float = 180.0
    """Stale: older than this, never retrieved or injected, and faded (salience x decay below ``faded``)."""
    faded: float = 0.05
    max_model_calls: int = 10
    """Model calls per review at most; candidates beyond the budget keep their rule action."""
    findings_per_call: int = 20
    max_prompt_tokens: int = 6000
    """One call's prompt at most (findings are cut short to fit)."""


def finding_id(review_id: str, kind: FindingKind, memory_ids: tuple[str, ...]) -> str:
    """Deterministic: the same review finding the same problem gives the same id (re-runs converge)."""
    raw = "|".join([review_id, kind.value, *sorted(memory_ids)])
    return hashlib.sha256(raw.encode()).hexdigest()[:32]


def review_key(tenant_id: str, agent_id: str, archive_version: str) -> str:
    """The review job of an agent's archive as it is now: an unchanged archive gives the same job."""
    return f"review:{tenant_id}:{agent_id}:{archive_version}"
