"""The review's rules: candidate findings without a model, from texts, similarities and usage. Pure.

Input: the agent's visible active memories and, for each, its nearest neighbours by cosine
similarity (computed by a ``NeighbourSearch`` adapter). Output: findings with a proposed
action; ``certain`` marks the ones the rules may apply on their own (identical texts, clutter,
old memories nobody ever used). Nothing here merges a correction: two texts that differ in a
number, a date, a name or a negation are a contradiction candidate, never duplicates. A pinned
memory is never clutter or stale, and a duplicate group keeps a pinned member.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from datetime import datetime

from memoryd.core.feedback import Signal
from memoryd.core.models import MemoryRecord, Scope
from memoryd.core.restatement import conflicting_markers, contradicting, differing_markers
from memoryd.core.review import Action, Finding, FindingKind, ReviewLimits, finding_id

Neighbours = Sequence[Sequence[tuple[int, float]]]
"""For each memory (by index), other indices with their cosine similarity, most similar first."""

_WORD = re.compile(r"[^\W_]+")
_GREETINGS = frozenset({
    "hi", "hello", "hey", "thanks", "thank", "you", "ok", "okay", "bye", "goodbye", "good", "morning", "night",
    "evening", "cheers", "sure", "yes", "no", "yep", "nope", "great", "cool", "lol", "haha", "welcome", "np", "ty",
    "sounds", "fine", "alright", "noted", "perfect", "awesome", "got", "it", "will", "do", "nice", "thx",
})  # fmt: skip
_TRACE = re.compile(r"Traceback \(most recent call last\)|^\s*[{\[]|\bat [\w.$]+\(|Exception:|ERROR\b")
_WIDEST_FIRST = {Scope.TENANT: 0, Scope.SHARED: 1, Scope.END_USER: 2, Scope.PRIVATE: 3}
_SUBJECT_GROUP_LIMIT = 50


def clutter_reason(content: str) -> str:
    """Why a memory is clutter, or "" (near-empty, greeting-only, tool noise, a fragment with no fact)."""
    text = content.strip()
    words = _WORD.findall(text)
    if not words:
        return "near-empty: no words"
    if all(w.lower() in _GREETINGS for w in words):
        return "greeting-only"
    letters = sum(c.isalpha() for c in text)
    if len(text) >= 20 and (letters / len(text) < 0.5 or _TRACE.search(text)):
        return "tool noise: mostly symbols, markup or a stack trace"
    if len(words) < 3 and not any(c.isdigit() for c in text) and not any(w[0].isupper() for w in words[1:]):
        return "a fragment with no fact"
    return ""


def survivor(records: Sequence[MemoryRecord]) -> MemoryRecord:
    """The memory a merge keeps: a pinned one, then the widest visibility, then the most used, then the oldest."""
    return min(
        records,
        key=lambda r: (
            not r.pinned,
            _WIDEST_FIRST[r.scope],
            -(r.retrieval_count + r.injection_count),
            r.created_at,
            r.memory_id,
        ),
    )


def find(
    review_id: str, records: Sequence[MemoryRecord], neighbours: Neighbours, now: datetime, limits: ReviewLimits
) -> list[Finding]:
    """Every candidate finding, in a deterministic order."""
    out: list[Finding] = []
    for r in records:
        reason = "" if r.pinned else clutter_reason(r.content)
        if reason:
            out.append(_finding(review_id, FindingKind.CLUTTER, [r], reason, Action.ARCHIVE, certain=True))
    grouped = _exact_duplicates(review_id, records, out)
    pairs = _pairs(records, neighbours, limits)
    _near_duplicates(review_id, records, pairs, grouped, limits, out)
    _contradictions(review_id, records, pairs, limits, out)
    _stale(review_id, records, pairs, now, limits, out)
    out.extend(_finding(review_id, FindingKind.DISPUTED, [r], why, Action.ARCHIVE) for r, why in _disputed(records))
    return out


def dispute_reason(record: MemoryRecord) -> str:
    """Why callers' feedback disputes a memory, or "" (reviews see active memories: a corrected one is superseded)."""
    fb = record.feedback
    if fb.count(Signal.WRONG):
        return f"reported wrong {fb.count(Signal.WRONG)} time(s) by Feedback"
    if fb.count(Signal.EXPLICIT_NEGATIVE) > fb.count(Signal.EXPLICIT_POSITIVE):
        negative, positive = fb.count(Signal.EXPLICIT_NEGATIVE), fb.count(Signal.EXPLICIT_POSITIVE)
        return f"explicit feedback is negative ({negative} against {positive})"
    return ""


def _disputed(records: Sequence[MemoryRecord]) -> list[tuple[MemoryRecord, str]]:
    return [(r, reason) for r in records if (reason := dispute_reason(r))]


def _finding(
    review_id: str,
    kind: FindingKind,
    members: Sequence[MemoryRecord],
    reason: str,
    action: Action,
    *,
    certain: bool = False,
    keep: MemoryRecord | None = None,
) -> Finding:
    ordered = sorted(members, key=lambda m: m.memory_id)
    ids = tuple(m.memory_id for m in ordered)
    return Finding(
        finding_id(review_id, kind, ids),
        review_id,
        kind,
        ids,
        reason,
        action,
        survivor_id=keep.memory_id if keep else "",
        certain=certain,
        content_hashes=tuple(m.content_hash for m in ordered),
    )


def _exact_duplicates(review_id: str, records: Sequence[MemoryRecord], out: list[Finding]) -> set[str]:
    by_hash: dict[tuple[str, str], list[MemoryRecord]] = {}
    for r in records:  # one contact's words are not another's (nor the agent's own): see ``_pairs``
        by_hash.setdefault((r.content_hash, r.end_user_id), []).append(r)
    grouped: set[str] = set()
    for group in by_hash.values():
        if len(group) > 1:
            keep = survivor(group)
            scopes = sorted({g.scope.value for g in group})
            reason = f"{len(group)} memories hold the identical text (scopes: {', '.join(scopes)})"
            out.append(_finding(review_id, FindingKind.DUPLICATE, group, reason, Action.MERGE, certain=True, keep=keep))
            grouped.update(g.memory_id for g in group)
    return grouped


def _pairs(
    records: Sequence[MemoryRecord], neighbours: Neighbours, limits: ReviewLimits
) -> dict[tuple[int, int], float]:
    """Similar pairs (i < j) from the neighbour lists, plus every pair sharing a subject (similarity 0 if unknown).

    Only rows written serving the same contact (or none) pair: two contacts' "my alarm code is ..." are
    neither duplicates nor a contradiction nor one replacing the other, and a merge into one contact's
    row was erased with that contact and hidden from the other's auto-recall.
    """
    pairs: dict[tuple[int, int], float] = {}
    for i, found in enumerate(neighbours):
        for j, similarity in found[: limits.neighbours]:
            same_sayer = records[i].end_user_id == records[j].end_user_id
            if i != j and same_sayer and similarity >= limits.contradiction_similarity:
                pairs[(min(i, j), max(i, j))] = similarity
    by_subject: dict[tuple[str, str], list[int]] = {}
    for i, r in enumerate(records):
        if r.subject:
            by_subject.setdefault((r.subject.lower(), r.end_user_id), []).append(i)
    for members in by_subject.values():
        if len(members) <= _SUBJECT_GROUP_LIMIT:
            for a, i in enumerate(members):
                for j in members[a + 1 :]:
                    pairs.setdefault((i, j), 0.0)
    return pairs


def _near_duplicates(
    review_id: str,
    records: Sequence[MemoryRecord],
    pairs: dict[tuple[int, int], float],
    grouped: set[str],
    limits: ReviewLimits,
    out: list[Finding],
) -> None:
    parent = list(range(len(records)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for (i, j), similarity in sorted(pairs.items()):
        a, b = records[i], records[j]
        near = similarity >= limits.duplicate_similarity and a.content_hash != b.content_hash
        if near and not differing_markers(a.content, b.content):
            parent[root(i)] = root(j)
    groups: dict[int, list[MemoryRecord]] = {}
    for i, r in enumerate(records):
        groups.setdefault(root(i), []).append(r)
    for group in groups.values():
        distinct = {g.content_hash for g in group}
        if len(distinct) > 1 and not all(g.memory_id in grouped for g in group):
            keep = survivor(group)
            cosine = limits.duplicate_similarity
            reason = f"{len(group)} memories are near-identical (cosine >= {cosine}) with no fact changed"
            out.append(_finding(review_id, FindingKind.DUPLICATE, group, reason, Action.MERGE, keep=keep))


def _contradictions(
    review_id: str,
    records: Sequence[MemoryRecord],
    pairs: dict[tuple[int, int], float],
    limits: ReviewLimits,
    out: list[Finding],
) -> None:
    for (i, j), similarity in sorted(pairs.items()):
        a, b = records[i], records[j]
        same_subject = bool(a.subject) and a.subject.lower() == b.subject.lower()
        # Stated subjects vouch for "one fact"; otherwise the texts must say one thing differently.
        differ = contradicting((differing_markers if same_subject else conflicting_markers)(a.content, b.content))
        if not differ or a.content_hash == b.content_hash:
            continue
        basis = f"cosine {similarity:.2f}" if similarity else f"the same subject {a.subject!r}"
        reason = f"similar ({basis}) but they differ in {', '.join(differ)}"
        out.append(_finding(review_id, FindingKind.CONTRADICTION, [a, b], reason, Action.KEEP))


def _stale(
    review_id: str,
    records: Sequence[MemoryRecord],
    pairs: dict[tuple[int, int], float],
    now: datetime,
    limits: ReviewLimits,
    out: list[Finding],
) -> None:
    for r in records:
        age = (now - r.occurred_at).total_seconds() / 86400.0
        expendable = not r.pinned and r.retrieval_count == 0 and r.injection_count == 0  # unused, not kept
        if age >= limits.stale_days and expendable and r.salience * math.exp(-r.decay_factor * age) < limits.faded:
            reason = f"{age:.0f} days old, never retrieved or injected, salience faded below {limits.faded}"
            out.append(_finding(review_id, FindingKind.STALE, [r], reason, Action.ARCHIVE, certain=True))
    stale = {f.memory_ids[0] for f in out if f.kind is FindingKind.STALE}
    # The most similar pair first: a memory with several newer neighbours is one finding (its id is the
    # memory's), naming the closest; listed twice, a model answering each listing failed the whole review.
    for (i, j), similarity in sorted(pairs.items(), key=lambda pair: (-pair[1], pair[0])):
        a, b = records[i], records[j]
        if not limits.newer_similarity <= similarity < limits.duplicate_similarity:
            continue
        if differing_markers(a.content, b.content):
            continue
        older, newer = sorted((a, b), key=lambda m: (m.occurred_at, m.memory_id))
        if older.occurred_at < newer.occurred_at and older.memory_id not in stale and not older.pinned:
            stale.add(older.memory_id)
            reason = f"a newer similar memory exists ({newer.memory_id}, cosine {similarity:.2f})"
            out.append(_finding(review_id, FindingKind.STALE, [older], reason, Action.ARCHIVE))
