"""ConversationFiling: what a conversation leaves in the archive, per its ``storage_scope``.

Compaction files each compacted stretch (at once, or once ``batch_size`` messages wait, or at
EndSession). Retention files what a conversation still holds unfiled before it deletes it: a
runtime that never calls EndSession would otherwise lose its last messages, never compacted, with
the conversation. Everything is deduplicated and keyed by its stretch, so a re-run finds the first
filing instead of filing twice; what a conversation with a contact files is that contact's.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

from memoryd.core.conversation import Conversation, Role, StorageScope, Summary, WorkingPolicy
from memoryd.core.ids import content_hash
from memoryd.core.models import Actor, MemoryDraft, MemoryType
from memoryd.core.ports import ConversationStore
from memoryd.core.working import byte_pieces
from memoryd.services.agent_config import AgentConfigService
from memoryd.services.memorize import MemorizeService

MAX_FILED_BYTES = 8 * 1024
_READABLE_KEY = 120
_EVERYTHING = ((0, sys.maxsize),)


@dataclass(frozen=True, slots=True)
class _Batch:
    """Drafts filed under one request id (a re-run finds them); ``derived``: memoryd's text, not the caller's."""

    drafts: list[MemoryDraft]
    request_id: str
    derived: bool = False


class ConversationFiling:
    """Files a conversation's stretches into the archive (the caller holds its compaction lease)."""

    def __init__(self, store: ConversationStore, memorize: MemorizeService, configs: AgentConfigService) -> None:
        self._store = store
        self._memorize = memorize
        self._configs = configs

    async def compacted(
        self, actor: Actor, conv: Conversation, policy: WorkingPolicy, through: int, live: Sequence[Summary]
    ) -> int:
        """File what the messages after ``filed_through`` up to ``through`` leave in the archive; the count."""
        filed = 0
        for batch in await self._compacted(actor, conv, policy, through, live):
            filed += await self._batches(actor, batch)
        return filed

    async def _compacted(
        self, actor: Actor, conv: Conversation, policy: WorkingPolicy, through: int, live: Sequence[Summary]
    ) -> list[_Batch]:
        """What the messages after ``filed_through`` up to ``through`` leave in the archive (``storage_scope``).

        Under ``session``, a stretch an extractive summary covers (no model) also files what the user
        said in it, as said: the summary quotes at most a fifth of the messages, and the rest would be
        in no memory Recall finds. So does a stretch compressed before it was filed (``batch_size``
        other than 1): its own summaries are no longer live, and "[compressed] …" keeps what still
        mattered to the context, not to the archive.
        """
        scope = policy.storage_scope
        covering = [s for s in live if s.to_seq > conv.filed_through]
        stretch = f"{conv.conversation_id}:{conv.filed_through}-{through}"
        if scope == StorageScope.SESSION and covering:
            first, last = covering[0], covering[-1]
            source = f"conversation {conv.conversation_id} summary {first.from_seq}-{last.to_seq}"
            summaries = [
                MemoryDraft(
                    content=piece,
                    scope=conv.filing_scope,
                    memory_type=MemoryType.EPISODIC,
                    occurred_at=last.last_at,
                    category="conversation summary",
                    collection=policy.collection,
                    source_context=source + part,
                )
                for piece, part in self._pieces("\n".join(s.render() for s in covering))
            ]
            # A summary is memoryd's text (always redacted); messages filed as they are remain the
            # caller's words, under the tenant's PII policy like every other text the caller wrote.
            batches = [_Batch(summaries, _request_id(f"file:{stretch}"), derived=True)]
            lossy = [(s.from_seq, s.to_seq) for s in covering if s.fallback or s.level]
            if lossy:
                said = await self._said(actor, conv, through, (Role.USER,), policy, within=lossy)
                batches.append(_Batch(said, _request_id(f"file:{stretch}:said")))
            return batches
        if scope in (StorageScope.ALL, StorageScope.CONVERSATIONAL):
            said = await self._said(actor, conv, through, _roles(scope), policy)
            return [_Batch(said, _request_id(f"file:{stretch}"))]
        return []

    async def before_expiry(self, tenant_id: str, conversation_id: str, *, dry_run: bool = False) -> int:
        """File what the conversation holds unfiled, as EndSession would without a model; the count.

        The compacted stretches not yet filed go as a compaction files them; the messages never
        compacted have no summary, so under ``session`` what the user said in them is filed as said
        (``all`` and ``conversational`` file them as they always do; ``summaries_only`` files nothing).
        """
        conv = await self._store.state(tenant_id, conversation_id)
        if conv is None or conv.filed_through >= conv.next_seq - 1:
            return 0
        actor = Actor(tenant_id, conv.agent_id, conv.end_user_id, via="job:retention")
        policy = await self._configs.for_conversation(tenant_id, conv)
        batches: list[_Batch] = []
        if conv.compacted_through > conv.filed_through:
            live = await self._store.summaries(tenant_id, conversation_id, conv.summary_ids)
            batches += await self._compacted(actor, conv, policy, conv.compacted_through, live)
        if policy.storage_scope in (StorageScope.SESSION, StorageScope.ALL, StorageScope.CONVERSATIONAL):
            start, last = max(conv.compacted_through, conv.filed_through), conv.next_seq - 1
            roles = (Role.USER,) if policy.storage_scope == StorageScope.SESSION else _roles(policy.storage_scope)
            said = await self._said(actor, conv, last, roles, policy, within=((start + 1, last),))
            batches.append(_Batch(said, _request_id(f"expire:{conversation_id}:{start}-{last}")))
        if dry_run:
            return sum(len(b.drafts) for b in batches)
        return sum([await self._batches(actor, b) for b in batches])

    async def _said(
        self,
        actor: Actor,
        conv: Conversation,
        through: int,
        roles: tuple[Role, ...],
        policy: WorkingPolicy,
        within: Sequence[tuple[int, int]] = _EVERYTHING,
    ) -> list[MemoryDraft]:
        """The messages of ``roles`` after ``filed_through`` up to ``through`` (and in a ``within`` span), as said."""
        pending = await self._store.messages(actor.tenant_id, conv.conversation_id, conv.filed_through)
        return [
            MemoryDraft(
                content=piece,
                scope=conv.filing_scope,
                memory_type=MemoryType.EPISODIC,
                occurred_at=m.created_at,
                source_context=f"conversation {conv.conversation_id} message {m.seq}{part}",
                collection=policy.collection,
            )
            for m in pending
            if m.seq <= through and m.role in roles and m.content.strip() and any(a <= m.seq <= b for a, b in within)
            for piece, part in self._pieces(m.content, f"{m.role.value}: ")
        ]

    def _pieces(self, text: str, lead: str = "") -> list[tuple[str, str]]:
        """``text`` as memories the archive takes whole: (content, source suffix) per piece, each led by ``lead``.

        A long message is filed in parts rather than cut: what a truncation drops is what the user said.
        """
        room = min(MAX_FILED_BYTES, self._memorize.max_content_bytes) - len(lead.encode())
        pieces = [p for p in byte_pieces(text, max(room, 1)) if p.strip()]
        if len(pieces) == 1:
            return [(lead + pieces[0], "")]
        return [(lead + p, f" part {i} of {len(pieces)}") for i, p in enumerate(pieces, start=1)]

    async def _batches(self, actor: Actor, batch: _Batch) -> int:
        """File a batch in the memorize service's batches, each keyed by its place in the stretch."""
        size, drafts = self._memorize.max_batch_items, batch.drafts
        for at in range(0, len(drafts), size):
            key = batch.request_id if at == 0 else f"{batch.request_id}:{at // size}"  # the first keeps the key
            await self._memorize.memorize_batch(
                actor, drafts[at : at + size], skip_deduplication=False, derived=batch.derived, request_id=key
            )
        return len(drafts)


def _roles(scope: StorageScope) -> tuple[Role, ...]:
    return (Role.USER,) if scope == StorageScope.CONVERSATIONAL else (Role.USER, Role.ASSISTANT)


def _request_id(stretch: str) -> str:
    """The stretch's idempotency key as written, or its digest when too long for one.

    A request id holds 128 characters and a conversation id as many: a long one failed its
    compaction for good. Room is left for the ``:N`` of a stretch's later batches.
    """
    return stretch if len(stretch) <= _READABLE_KEY else f"{stretch.split(':', 1)[0]}.{content_hash(stretch)[:40]}"
