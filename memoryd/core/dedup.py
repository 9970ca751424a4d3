"""Insert-time deduplication rules: which stored memories a new one is compared with, and what a merge may change.

A new memory merges into an existing one only when its text is a restatement
(``core.restatement``), the existing row lies in the new one's pool, and the merge is
allowed for the caller:

- the author may merge into its own memory: tags are united, and an author sharing a
  memory it holds privately promotes that memory to ``shared`` (never the other way: a
  private restatement of a shared memory does not hide it);
- a merge never modifies a memory the caller may not modify (another agent's shared
  memory): it is the twin only when it already holds everything the new one adds (its
  tags); otherwise the new memory is stored as its own row;
- a pinned restatement pins the memory it merges into (a caller asked to keep it); if the caller
  may not modify that memory and it is not pinned, the new one is stored as its own, pinned, row;
- a memory written serving one contact (its ``end_user_id``) is a twin only of what is written serving
  that contact: "user: I'm vegetarian" said by Ida merged into Omar's row was erased with Omar, and
  left out of Ida's auto-recall (which skips rows of another contact); the agent's own rows and a
  contact's stay apart the same way;
- a memory filed elsewhere is not a twin: a collection, category or subject the new one names
  other than the stored one's keeps them apart (a memory holds one of each, and a merge would
  drop where the caller filed it from every Recall filtered by it); one the stored memory lacks
  is added to it, as tags are.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from memoryd.core.models import Actor, MemoryDraft, MemoryRecord, Scope
from memoryd.core.visibility import may_modify

DEDUP_POOL = {
    Scope.PRIVATE: frozenset({Scope.PRIVATE, Scope.SHARED}),
    Scope.SHARED: frozenset({Scope.PRIVATE, Scope.SHARED}),
    Scope.TENANT: frozenset({Scope.TENANT}),
    Scope.END_USER: frozenset({Scope.END_USER}),
}
"""Private and shared memories form one pool (an agent keeps no private copy of a fact it can already
see shared); tenant and end_user memories are compared only within their own scope."""


def merge_into(
    existing: MemoryRecord, draft: MemoryDraft, actor: Actor, now: datetime, max_tags: int
) -> MemoryRecord | None:
    """``existing`` after absorbing the restatement ``draft``, or None when the caller may not merge into it.

    Returns ``existing`` itself when the merge changes nothing the caller may change.
    """
    filing = _filing(existing, draft)
    if existing.scope not in DEDUP_POOL[draft.scope] or filing is None or existing.end_user_id != actor.end_user_id:
        return None
    collection, category, subject = filing
    tags = tuple(dict.fromkeys((*existing.tags, *draft.tags)))[:max_tags]
    pinned = existing.pinned or draft.pinned
    if not may_modify(actor, existing):
        unchanged = filing == (existing.collection, existing.category, existing.subject)
        return existing if tags == existing.tags and unchanged and pinned == existing.pinned else None
    scope = existing.scope
    if scope is Scope.PRIVATE and draft.scope is Scope.SHARED:
        scope = Scope.SHARED  # may_modify held, so the caller is the author: sharing promotes
    return replace(
        existing,
        tags=tags,
        scope=scope,
        collection=collection,
        category=category,
        subject=subject,
        pinned=pinned,
        updated_at=now,
    )


def _filing(existing: MemoryRecord, draft: MemoryDraft) -> tuple[str, str, str] | None:
    """The collection, category and subject after the merge; None when the draft names another than the stored."""
    pairs = (
        (draft.collection, existing.collection),
        (draft.category, existing.category),
        (draft.subject, existing.subject),
    )
    if any(given and held and given != held for given, held in pairs):
        return None
    collection, category, subject = (held or given for given, held in pairs)
    return collection, category, subject
