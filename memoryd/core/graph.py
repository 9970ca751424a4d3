"""The memory graph as values: entities, dated facts, episodes, and the rules that keep facts honest. Pure.

A fact is an edge subject —predicate→ object with one plain sentence, a world-time window
(``valid_from`` / ``valid_to``: when it was true) and a system-time one (``created_at`` /
``invalidated_at``: when memoryd learned and superseded it). Nothing automatic deletes a fact:

- the same triple restated in equivalent words (``core.restatement``) at the same date bumps
  ``mention_count``;
- the same triple with another date or detail is a temporal update: the later one supersedes;
- for a single-valued predicate, the same subject and predicate with another object is a
  contradiction: the later ``valid_from`` wins, the earlier fact is invalidated (``valid_to`` =
  the later ``valid_from``, ``invalidated_by`` = the later fact);
- anything else (another predicate, or a multi-valued one such as ``likes``) coexists: memoryd
  never invalidates on a guess.

"Later" is by ``valid_from`` (then the sentence, for a total order), so replaying the same
assertions in any order ends in the same current set.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from memoryd.core.models import Scope
from memoryd.core.paging import cursor_parts, cursor_token
from memoryd.core.restatement import is_restatement, statement_key


class EntityType(StrEnum):
    """What an entity is."""

    PERSON = "person"
    ORGANIZATION = "organization"
    PLACE = "place"
    TOPIC = "topic"
    PRODUCT = "product"
    EVENT = "event"
    OTHER = "other"


class FactStatus(StrEnum):
    """Where a fact stands."""

    ACTIVE = "active"
    INVALIDATED = "invalidated"
    PENDING = "pending"
    """Extracted under ``graph.write_approval``: invisible to search until approved."""
    ARCHIVED = "archived"
    """Set aside by the decay pass (low confidence, not heard of for long): not searched, kept, and
    active again when asserted again or restored by hand."""


EXTRACTED_CONFIDENCE = 0.6
"""A fact an extraction states once, when the model gives no confidence of its own."""


def confirmed(confidence: float, again: float) -> float:
    """The confidence of a fact stated once more with ``again``: each statement is independent evidence."""
    return 1.0 - (1.0 - confidence) * (1.0 - again)


MULTI_VALUED = frozenset(
    {"likes", "dislikes", "knows", "has", "owns", "visited", "works_with", "friend_of", "member_of", "speaks"}
)
"""Predicates a subject holds with many objects at once: another object never contradicts."""

MAX_NAME_CHARS, MAX_SENTENCE_CHARS, MAX_DIGEST_CHARS = 200, 1000, 600
_PREDICATE = re.compile(r"[a-z][a-z0-9_]{0,63}")
_ARTICLES = frozenset({"the", "a", "an"})


def normalised_name(name: str) -> str:
    """How names are compared: case, Latin accents, punctuation and spacing set aside ("Acme, Inc." = "acme inc").

    Only a mark on a Latin letter goes ("Café" = "Cafe"); every other letter stays, whatever its script.
    Dropping what did not fold to ASCII named "Hotel Москва" and "Hotel Берлин" alike ("hotel"), so both
    were one entity and one's facts ended the other's; a kana's voicing mark is a letter of its own.
    """
    kept: list[str] = []
    for ch in unicodedata.normalize("NFKD", name):
        if not (unicodedata.combining(ch) and kept and kept[-1].isascii()):
            kept.append(ch)
    folded = unicodedata.normalize("NFC", "".join(kept)).casefold()
    return " ".join(re.sub(r"[^\w]+", " ", folded).split())


def may_name_one_entity(a: str, b: str) -> bool:
    """Whether two names that embed alike may be one entity without a person saying so.

    Only when they hold the same words, in any order and with articles aside ("Smith, John" /
    "John Smith", "The Acme Corp" / "Acme Corp"). A word, a letter or a number makes another
    name however alike the two embed: multilingual-e5 puts "John Smith" / "Jane Smith" at cosine
    0.93, "Mr. Brown" / "Mrs. Brown" at 0.96, "Berlin office" / "Munich office" at 0.93 ("Room
    101" / "Room 102", "Keeper2" / "Keeper23" likewise). Resolving one into the other would file
    one person's facts under another's name and let them end the other's; such pairs are kept
    apart and suggested for a person to merge.
    """
    return _words(a) == _words(b)


def _words(name: str) -> list[str]:
    return sorted(w for w in normalised_name(name).split() if w not in _ARTICLES)


def normalised_predicate(predicate: str) -> str:
    """``"Billing contact"`` → ``billing_contact`` ("" when nothing is left)."""
    return "_".join(re.sub(r"[^a-z0-9]+", " ", predicate.casefold()).split())


def valid_predicate(predicate: str) -> bool:
    """A normalised predicate: a lowercase word of letters, digits and underscores."""
    return bool(_PREDICATE.fullmatch(predicate))


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class GraphScope:
    """Whose a graph row is: the archive's scopes (``core.visibility`` decides who sees it)."""

    scope: Scope
    agent_id: str = ""
    end_user_id: str = ""

    @property
    def key(self) -> str:
        """The scope as a string, part of every deterministic id."""
        return f"{self.scope.value}/{self.agent_id}/{self.end_user_id}"


def entity_id(where: GraphScope, name: str) -> str:
    """One entity per normalised name in one scope: the same name resolves to the same row in any order."""
    return _digest("entity", where.key, normalised_name(name))


def fact_id(
    where: GraphScope, subject_id: str, predicate: str, object_id: str, valid_from: datetime | None, sentence: str
) -> str:
    """One fact per triple, date and statement in one scope: the same assertion is the same row in any order."""
    when = valid_from.isoformat() if valid_from else ""
    return _digest("fact", where.key, subject_id, predicate, object_id, when, " ".join(statement_key(sentence)))


@dataclass(frozen=True, slots=True)
class FactCursor:
    """Where a page of ListFacts ended: pending facts come first, then the rest, each newest first."""

    pending: bool
    created_at: datetime
    fact_id: str

    @classmethod
    def of(cls, fact: Fact) -> FactCursor:
        """The cursor just past ``fact``."""
        return cls(fact.status is FactStatus.PENDING, fact.created_at, fact.fact_id)

    def token(self) -> str:
        """The opaque page token."""
        return cursor_token(self.pending, (self.created_at - _EPOCH) // _MICROSECOND, self.fact_id)

    @classmethod
    def from_token(cls, token: str) -> FactCursor | None:
        """The cursor in a page token (None: the first page); InvalidRequest for one not issued here."""
        parts = cursor_parts(token, (bool, int, str))
        if parts is None:
            return None
        return cls(bool(parts[0]), _EPOCH + int(parts[1]) * _MICROSECOND, str(parts[2]))


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


@dataclass(frozen=True, slots=True)
class MergeRecord:
    """What one merge changed, kept on the entity it folded away so that a person can undo it."""

    subject_of: tuple[str, ...] = ()
    """The facts whose subject the merge moved to the target."""
    object_of: tuple[str, ...] = ()
    """The facts whose object the merge moved to the target."""
    aliases: tuple[str, ...] = ()
    """The names the merge added to the target's aliases."""


@dataclass(frozen=True, slots=True)
class Entity:
    """A typed node."""

    entity_id: str
    name: str
    entity_type: EntityType
    where: GraphScope
    aliases: tuple[str, ...] = ()
    created_at: datetime | None = None
    merged_into: str = ""
    """Set when a merge folded this entity into another (its facts moved there)."""
    archived_at: datetime | None = None
    """Set by the decay pass when no fact in force named it any more: out of listings and search until
    a fact names it again."""
    merge_record: MergeRecord | None = None
    """Set with ``merged_into``: what to move back to undo the merge (None also for merges made before
    merges were recorded)."""


@dataclass(frozen=True, slots=True)
class Fact:
    """A dated edge with provenance."""

    fact_id: str
    subject_id: str
    predicate: str
    object_id: str
    sentence: str
    where: GraphScope
    valid_from: datetime | None
    valid_to: datetime | None
    created_at: datetime
    status: FactStatus = FactStatus.ACTIVE
    invalidated_at: datetime | None = None
    invalidated_by: str = ""
    mention_count: int = 1
    sources: tuple[str, ...] = ()
    """The episodes (and through them the conversation or human) that asserted it."""
    pinned: bool = False
    confidence: float = 1.0
    """How sure memoryd is of it, 0-1: a person's assertion 1; an extraction's the model's judgement
    (``EXTRACTED_CONFIDENCE`` without one), raised by every further statement (``confirmed``)."""
    last_seen_at: datetime | None = None
    """When it was last stated (None: only when created)."""

    def valid_at(self, when: datetime) -> bool:
        """Whether the fact held in the world at ``when`` (a pending or archived fact never does)."""
        if self.status in (FactStatus.PENDING, FactStatus.ARCHIVED):
            return False
        if self.valid_from is not None and self.valid_from > when:
            return False
        return self.valid_to is None or self.valid_to > when

    def decays(self, seen_before: datetime, below: float) -> bool:
        """Whether the decay pass archives it: active, not pinned, less sure than ``below``, not stated since."""
        seen = self.last_seen_at or self.created_at
        return self.status is FactStatus.ACTIVE and not self.pinned and self.confidence < below and seen < seen_before

    def order(self) -> tuple[datetime, str, str]:
        """The total order of "later": valid_from, then the sentence, then the id."""
        return (self.valid_from or datetime.min.replace(tzinfo=self.created_at.tzinfo), self.sentence, self.fact_id)


@dataclass(frozen=True, slots=True)
class Episode:
    """One extraction (or one human assertion): where facts came from."""

    episode_id: str
    kind: str
    """``extraction`` or ``human``."""
    where: GraphScope
    source: str
    """The conversation (extraction) or the key that asserted it (human)."""
    created_at: datetime
    facts: int = 0
    entities: int = 0
    model: str = ""
    tokens_in: int = 0
    tokens_out: int = 0
    digest: str = ""
    """At most 600 characters, redacted."""


class Action(StrEnum):
    """What asserting a fact does."""

    ADD = "add"
    RESTATE = "restate"
    """Equivalent words, same triple and date: the stored fact's mention_count goes up."""
    SUPERSEDE = "supersede"
    """The new fact is later: the listed older ones are invalidated by it."""
    SUPERSEDED = "superseded"
    """An older assertion arriving late: stored already invalidated by the later fact."""


@dataclass(frozen=True, slots=True)
class Decision:
    """The outcome of asserting one fact against the scope's facts of the same subject."""

    action: Action
    fact: Fact
    invalidate: tuple[Fact, ...] = ()
    """Older facts the new one invalidates."""
    restated: Fact | None = None
    by: Fact | None = None
    """For SUPERSEDED: the later fact that already holds."""
    repoint: tuple[Fact, ...] = ()
    """Invalidated facts older than the new one that a later fact invalidated: the new one now ends them."""


def with_ends_moved(fact: Fact, moves: Mapping[str, str]) -> Fact:
    """The fact with each end ``moves`` names replaced by the entity it moved to (a merge's target)."""
    subject, obj = moves.get(fact.subject_id, fact.subject_id), moves.get(fact.object_id, fact.object_id)
    return replace(fact, subject_id=subject, object_id=obj)


def competes(new: Fact, old: Fact) -> bool:
    """Whether ``old`` and ``new`` cannot both hold: one triple at two dates, or one single-valued slot."""
    if (old.subject_id, old.predicate) != (new.subject_id, new.predicate):
        return False
    if old.object_id == new.object_id:
        return True
    return new.predicate not in MULTI_VALUED


def _same_assertion(new: Fact, old: Fact) -> bool:
    key = (new.subject_id, new.predicate, new.object_id, new.valid_from)
    return key == (old.subject_id, old.predicate, old.object_id, old.valid_from)


def decide(new: Fact, same_subject: Sequence[Fact]) -> Decision:
    """What asserting ``new`` does, given the stored (non-pending) facts of its subject in its scope."""
    for old in same_subject:
        if old.fact_id == new.fact_id or (_same_assertion(new, old) and is_restatement(new.sentence, old.sentence)):
            return Decision(Action.RESTATE, new, restated=old)
    rivals = [old for old in same_subject if competes(new, old)]
    by_id = {f.fact_id: f for f in same_subject}
    # History as if the assertions had come in date order: an older fact that a fact later than
    # the new one invalidated is now ended by the new one.
    repoint = tuple(
        old
        for old in rivals
        if old.status is FactStatus.INVALIDATED
        and old.order() < new.order()
        and old.invalidated_by in by_id
        and by_id[old.invalidated_by].order() > new.order()
    )
    holding = [old for old in rivals if old.status is FactStatus.ACTIVE]
    # A later rival that holds, or that a still later one superseded (not one a person ended by
    # hand), ends the new fact: the nearest of them, so the history reads in date order.
    later = [old for old in rivals if old.order() > new.order() and (old in holding or old.invalidated_by in by_id)]
    if later:
        return Decision(Action.SUPERSEDED, new, by=min(later, key=Fact.order), repoint=repoint)
    older = tuple(sorted((old for old in holding if old.order() < new.order()), key=Fact.order))
    return Decision(Action.SUPERSEDE if older else Action.ADD, new, invalidate=older, repoint=repoint)


@dataclass(frozen=True, slots=True)
class GraphHit:
    """One fact a search returns, with its entities' names."""

    fact: Fact
    subject: str
    object: str
    hop: int
    score: float


class SuggestionStatus(StrEnum):
    """Where a merge suggestion stands (a merge of its entities removes it)."""

    OPEN = "open"
    DISMISSED = "dismissed"
    """A person judged the two entities different: kept, so the pair is not suggested again."""


@dataclass(frozen=True, slots=True)
class MergeSuggestion:
    """Two entities of one scope whose names are close but not close enough to fold: a person decides."""

    suggestion_id: str
    """Derived from the pair: the same two entities make one suggestion."""
    entity_id: str
    """The newer entity (its name was unseen when the assertion made it)."""
    similar_entity_id: str
    similarity: float
    """Cosine similarity of the two names' embeddings."""
    where: GraphScope
    created_at: datetime
    evidence: str = ""
    """The two names, the similarity and the assertion that made the newer one."""
    status: SuggestionStatus = SuggestionStatus.OPEN


def suggestion_id(entity_a: str, entity_b: str) -> str:
    """One id per unordered pair of entities."""
    low, high = sorted((entity_a, entity_b))
    return hashlib.sha256(f"merge\x1f{low}\x1f{high}".encode()).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class GraphAnswer:
    """What SearchGraph returns: the facts and the exact block the agent would see."""

    hits: tuple[GraphHit, ...]
    block: str
    tokens: int
    as_of: datetime
    possible_duplicates: tuple[tuple[str, str], ...] = field(default_factory=tuple)


def fact_line(fact: Fact, as_of: datetime) -> str:
    """One dated line of the prompt block: ``- [since 2026-09-01] Nadia handles billing at Acme.``."""
    if fact.valid_from is not None and fact.valid_to is not None:
        return f"- [{fact.valid_from:%Y-%m-%d} to {fact.valid_to:%Y-%m-%d}] {fact.sentence}"
    if fact.valid_from is not None:
        return f"- [since {fact.valid_from:%Y-%m-%d}] {fact.sentence}"
    if fact.valid_to is not None:
        return f"- [until {fact.valid_to:%Y-%m-%d}] {fact.sentence}"
    return f"- {fact.sentence}"


def block_header(as_of: datetime) -> str:
    """The block's first line."""
    return f"# Memory graph (as of {as_of:%Y-%m-%d})"
