"""The domain vocabulary: frozen value types shared by services and adapters."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import NamedTuple

from memoryd.core.feedback import NO_FEEDBACK, FeedbackSummary
from memoryd.core.keys import Role

Vector = Sequence[float]
"""An embedding, L2-normalised, of the store's dimension."""


class MemoryStatus(StrEnum):
    """A row's lifecycle state. Only Forget deletes; every other change keeps the row, restorable."""

    ACTIVE = "active"
    """Searchable: Recall, ListMemories and deduplication see it."""
    ARCHIVED = "archived"
    """Hidden from Recall and default listing (a review archived it); readable by id, restorable."""
    SUPERSEDED = "superseded"
    """Merged into or corrected by ``superseded_by``; hidden like archived, readable, restorable."""


ALL_STATUSES = frozenset(MemoryStatus)


class Scope(StrEnum):
    """Who can see a memory (see ``core.visibility``)."""

    PRIVATE = "private"
    SHARED = "shared"
    TENANT = "tenant"
    END_USER = "end_user"


class MemoryType(StrEnum):
    """The two memory kinds; each has its own salience and decay defaults."""

    EPISODIC = "episodic"
    SEMANTIC = "semantic"


class TagMode(StrEnum):
    """How a tag filter combines its tags."""

    ANY = "any"
    ALL = "all"


class RecallArms(StrEnum):
    """Which retrieval arms a Recall runs."""

    BOTH = "both"
    VECTOR = "vector"
    FULL_TEXT = "full_text"


class RankingMode(StrEnum):
    """Recall ordering: plain relevance (default) or the salience/decay composite."""

    RELEVANCE = "relevance"
    SALIENCE_DECAY = "salience_decay"


PENDING_MODEL = ""
"""``embedding_model`` of a memory stored while the embedder was unreachable: its vector is zeros
(no vector search sees it), full text finds it, and ``EmbeddingBackfill`` embeds it later."""

DEFAULT_SALIENCE = {MemoryType.EPISODIC: 0.3, MemoryType.SEMANTIC: 0.5}
DEFAULT_DECAY = {MemoryType.EPISODIC: 0.02, MemoryType.SEMANTIC: 0.005}


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is asking: the tenant (from call metadata), the agent, the contact served."""

    tenant_id: str
    agent_id: str
    end_user_id: str = ""
    """Empty when the request serves no particular contact."""
    role: Role = Role.ADMIN
    """What the caller's key may do. memoryd's own work (jobs, commands) acts with full rights
    within the tenant; ``rpc.identity`` sets the verified caller's role on every request."""
    key_id: str = ""
    """The caller's API key (for the audit log); empty for memoryd's own work and protected mode."""
    via: str = ""
    """The RPC (``MemoryService/Recall``) or job (``job:compact``) acting: a memory's history and
    the served log say it; empty for memoryd's own work outside a job."""


@dataclass(frozen=True, slots=True)
class MemoryRecord:
    """One archive row, without its vector."""

    memory_id: str
    tenant_id: str
    agent_id: str
    """The author agent."""
    end_user_id: str
    scope: Scope
    content: str
    memory_type: MemoryType
    category: str
    subject: str
    tags: tuple[str, ...]
    salience: float
    decay_factor: float
    source_context: str
    source_id: str
    content_hash: str
    embedding_model: str
    created_at: datetime
    updated_at: datetime
    occurred_at: datetime
    retrieval_count: int = 0
    """Times Recall returned it."""
    last_retrieved_at: datetime | None = None
    injection_count: int = 0
    """Times GetContext's auto-recall injected it (counted apart: nobody asked for it)."""
    status: MemoryStatus = MemoryStatus.ACTIVE
    superseded_by: str = ""
    """The memory that replaced this one (status SUPERSEDED); "" otherwise."""
    request_key: str = ""
    """``{agent}/{request_id}/{item}`` of the Memorize call that created it (idempotent retries); "" if none."""
    feedback: FeedbackSummary = NO_FEEDBACK
    """Signals from Feedback and AutoFeedback (read with the retrieval statistics)."""
    collection: str = ""
    """The named collection it was filed in (a purpose, e.g. "support_tickets"); "" for none."""
    pinned: bool = False
    """Kept whatever its age: retention never deletes it, reviews never propose it stale or clutter."""

    @property
    def embedding_pending(self) -> bool:
        """Stored during an embedder outage; its vector is not computed yet."""
        return self.embedding_model == PENDING_MODEL


@dataclass(frozen=True, slots=True)
class MemoryDraft:
    """A validated memory to write; unset optional fields take type defaults."""

    content: str
    scope: Scope = Scope.PRIVATE
    memory_type: MemoryType = MemoryType.EPISODIC
    category: str = ""
    subject: str = ""
    tags: tuple[str, ...] = ()
    salience: float | None = None
    decay_factor: float | None = None
    source_context: str = ""
    source_id: str = ""
    occurred_at: datetime | None = None
    embedding: tuple[float, ...] | None = None
    """A caller-supplied vector (bulk import); None means the server embeds."""
    collection: str = ""
    pinned: bool = False


@dataclass(frozen=True, slots=True)
class MemoryPatch:
    """Fields to change on an existing memory; None means unchanged."""

    content: str | None = None
    category: str | None = None
    subject: str | None = None
    scope: Scope | None = None
    tags: tuple[str, ...] | None = None
    salience: float | None = None
    collection: str | None = None
    pinned: bool | None = None


@dataclass(frozen=True, slots=True)
class MemoryFilter:
    """Conditions applied inside every store query (both Recall arms, List)."""

    subject: str = ""
    category: str = ""
    since: datetime | None = None
    memory_type: MemoryType | None = None
    tags: tuple[str, ...] = ()
    tag_mode: TagMode = TagMode.ANY
    scopes: frozenset[Scope] = frozenset()
    """Empty means every visible scope; otherwise restrict to these (still within visibility)."""
    min_salience: float = 0.0
    """Only memories whose salience is at least this (0: no condition)."""
    statuses: frozenset[MemoryStatus] = frozenset({MemoryStatus.ACTIVE})
    """Which lifecycle states match; active only unless asked (reads by id see every state)."""
    source_id: str = ""
    """Only memories annotating this memory id ("" means any)."""
    collection: str = ""
    """Only memories of this named collection ("" means any)."""
    pinned_only: bool = False
    """Only pinned memories."""

    @property
    def narrows(self) -> bool:
        """Whether any condition beyond visibility is present (widens the vector arm)."""
        return bool(self.scopes or self.source_id) or self.narrows_beyond_scope

    @property
    def narrows_beyond_scope(self) -> bool:
        """Whether a condition beyond visibility, scope, status and source is present.

        Those four are columns a store can keep in memory; the others need each row's record.
        """
        return bool(
            self.subject
            or self.category
            or self.since
            or self.memory_type
            or self.tags
            or self.min_salience
            or self.collection
            or self.pinned_only
        )


@dataclass(frozen=True, slots=True)
class RecallQuery:
    """A validated Recall request."""

    actor: Actor
    text: str
    limit: int = 10
    """0: the agent's ``recall.limit`` setting."""
    filter: MemoryFilter = field(default_factory=MemoryFilter)
    ranking: RankingMode = RankingMode.RELEVANCE
    min_score: float | None = 0.0
    """None: the agent's ``recall.min_score`` setting."""
    min_salience: float = 0.0
    embedding: tuple[float, ...] | None = None
    """A caller-supplied query vector; None means the server embeds ``text``."""
    arms: RecallArms = RecallArms.BOTH
    injected: bool = False
    """GetContext's auto-recall: its hits are counted as injections, not retrievals."""
    internal: bool = False
    """memoryd's own lookup (a compaction's maintenance candidates): neither a retrieval nor a serving."""
    explain: tuple[str, ...] | None = None
    """None: no trace (the default, nothing extra done); else a trace accounting for these memory ids too."""


class ArmHit(NamedTuple):
    """One candidate from one arm: an id, the arm's raw score, the time used to break ties, and its text.

    Arms return no records: Recall ranks the candidates by their text, then fetches the winners' records
    only (reading every column of 40 scattered rows cost 15 ms at 100k rows, of 10 rows 7 ms). A tuple,
    not a frozen dataclass: a Recall's arms make some 80, and a frozen class cost four times as much to
    build (~1.5 µs each).
    """

    memory_id: str
    score: float
    """Cosine similarity (vector arm) or BM25 (full-text arm)."""
    occurred_at: datetime
    content: str | None = None
    """The memory's text, when the store read it with the hit (None: Recall fetches every candidate's record)."""


@dataclass(frozen=True, slots=True)
class ScoreParts:
    """How a fused score was made; ranks are 1-based, 0 = absent from that arm."""

    vector_rank: int = 0
    vector_similarity: float = 0.0
    vector_contribution: float = 0.0
    full_text_rank: int = 0
    full_text_score: float = 0.0
    full_text_contribution: float = 0.0
    composite: float = 0.0
    fused: float = 0.0
    """The RRF sum the relevance ranking orders by."""
    vector_evidence: float = 0.0
    """The similarity on the embedder's calibrated 0-1 scale (``core.scores``); 0 when the vector arm missed it."""
    full_text_evidence: float = 0.0
    """The share of the query's terms the memory contains."""


@dataclass(frozen=True, slots=True)
class RecallHit:
    """One Recall result."""

    memory: MemoryRecord
    score: float
    parts: ScoreParts


@dataclass(frozen=True, slots=True)
class MemorizeResult:
    """The stored row, or the existing row a near-duplicate was merged into."""

    memory: MemoryRecord
    deduplicated: bool


@dataclass(frozen=True, slots=True)
class ListQuery:
    """A validated ListMemories request; ``after_id`` is the decoded cursor."""

    actor: Actor
    filter: MemoryFilter = field(default_factory=MemoryFilter)
    page_size: int = 50
    after_id: str = ""


@dataclass(frozen=True, slots=True)
class MemoryPage:
    """One page of memories, oldest first; ``next_after_id`` empty on the last page."""

    memories: tuple[MemoryRecord, ...]
    next_after_id: str


@dataclass(frozen=True, slots=True)
class FullTextQuery:
    """A user query turned into plain terms (never query syntax)."""

    terms: tuple[str, ...]
    """Lowercased words, stop words removed, deduplicated, in query order."""
    prefix_terms: tuple[str, ...]
    """The subset long enough to also match as word prefixes."""


@dataclass(frozen=True, slots=True)
class FullTextTier:
    """One tier of the full-text arm: a query and whether a row must hold every term or any."""

    query: FullTextQuery
    require_all: bool


@dataclass(frozen=True, slots=True)
class Profile:
    """One revision of an agent's profile (revision 0: never written, empty)."""

    agent_id: str
    document: str
    token_count: int
    budget_tokens: int
    revision: int
    updated_at: datetime | None
    source: str = ""
    """What wrote it: "edit", "rewrite:<origin>"."""


class EditKind(StrEnum):
    """The manual profile edits (no model involved)."""

    APPEND = "append"
    REPLACE_SECTION = "replace_section"
    REMOVE_LINE = "remove_line"
    SET_BUDGET = "set_budget"
    RESTORE_REVISION = "restore_revision"


@dataclass(frozen=True, slots=True)
class ProfileEdit:
    """One manual edit; exactly one kind is set by the caller."""

    kind: EditKind | None
    """None: the request named no edit."""
    section: str = ""
    text: str = ""
    """The line (append, remove_line) or the body (replace_section)."""
    pinned: bool = False
    budget_tokens: int = 0
    revision: int = 0
    """restore_revision: the revision whose document becomes current again."""


@dataclass(frozen=True, slots=True)
class RewriteResult:
    """What an automatic rewrite did."""

    applied: bool
    profile: Profile
    reason: str = ""
    """Why it was not applied (malformed generation), empty when applied."""
    filed_memories: int = 0
    dropped_sections: tuple[str, ...] = ()
    attempts: int = 1
