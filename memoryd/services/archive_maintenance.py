"""A compaction's fused maintenance call: archive memories added, restated or corrected; the profile rewritten.

The call is shown the new summary, the profile and up to ``CANDIDATES`` existing memories the
conversation's agent may modify, recalled for the summary and labelled M1, M2…: a model copies a
short label more faithfully than an id, and cannot name a memory it was not shown. Each memory it
answers is applied by what it names:

- nothing: filed as a new memory in the policy's collection (deduplicated as any write is);
- ``restates`` a shown memory: merged into it when the two say the same (``says_nothing_new``: no
  number, date, name, sign or word the other lacks, either way: a correction may drop "not"), its
  text kept in that memory's history; otherwise filed new (a ``supersedes`` that says the same too);
- ``supersedes`` a shown memory: filed where the old memory was (scope, category, tags,
  collection), and the old memory superseded with a link to it (kept, restorable; a correction
  never deletes);
- a label it was not shown: applied as if it named nothing, and counted (``ignored_labels``).

A malformed answer fails the job before anything is written. The answer and the labels' memory ids
are kept with the conversation, so a retry applies the same answer to the same memories, and the
filed memories carry one request id, so a retry finds them instead of filing them again.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from memoryd.core.answer_schemas import MAINTENANCE
from memoryd.core.conversation import Conversation, Summary, WorkingPolicy
from memoryd.core.data_rights import digest
from memoryd.core.ids import content_hash
from memoryd.core.keys import Role
from memoryd.core.model_output import MAX_EXTRACTED, MAX_SUBJECT, ExtractedMemory, maintenance_output
from memoryd.core.models import Actor, MemoryDraft, MemoryRecord, MemoryStatus, MemoryType, RecallQuery, Scope
from memoryd.core.ports import Clock, ConversationStore, MemoryStore
from memoryd.core.profile_doc import bare_line, parse, vanished_lines
from memoryd.core.prompts import CONTACT_MAINTENANCE_PROMPT, MAINTENANCE_PROMPT
from memoryd.core.provenance import HistoryKind
from memoryd.core.restatement import says_nothing_new
from memoryd.core.visibility import may_modify
from memoryd.core.working import byte_pieces
from memoryd.services.filing import MAX_FILED_BYTES
from memoryd.services.job_runner import JobContext
from memoryd.services.memorize import MemorizeService
from memoryd.services.profile import ProfileService
from memoryd.services.provenance import Provenance
from memoryd.services.recall import RecallService

CANDIDATES = 10
"""Existing memories shown to the call (the summary's best Recall hits the agent may modify)."""
_CANDIDATE_CHARS = 500
_USER_TURN = "Answer with the JSON object only."


@dataclass(frozen=True, slots=True)
class MaintenanceDone:
    """What one maintenance call changed in the archive."""

    filed: int
    merged: int
    superseded: int
    ignored_labels: int


class ArchiveMaintenance:
    """Runs the maintenance call of a compaction and applies its answer."""

    def __init__(
        self,
        conversations: ConversationStore,
        memories: MemoryStore,
        memorize: MemorizeService,
        recall: RecallService,
        profile: ProfileService,
        clock: Clock,
        provenance: Provenance | None = None,
    ) -> None:
        self._conversations = conversations
        self._memories = memories
        self._memorize = memorize
        self._recall = recall
        self._profile = profile
        self._clock = clock
        self._provenance = provenance

    async def run(
        self,
        ctx: JobContext,
        actor: Actor,
        conv: Conversation,
        summary: Summary,
        usage: dict[str, int],
        policy: WorkingPolicy,
    ) -> MaintenanceDone:
        """Ask (or read the kept answer), then apply it; ``usage`` gets the call's tokens."""
        blob_id = f"{conv.conversation_id}:blob:{ctx.record.key}:maintenance:{summary.from_seq}-{summary.to_seq}"
        kept = await self._conversations.blob(actor.tenant_id, conv.conversation_id, blob_id)
        current = await self._profile.get(actor)
        if kept is None:
            shown = await self._candidates(actor, conv, summary)
            existing = "\n".join(f"M{i}: {m.content[:_CANDIDATE_CHARS]}" for i, m in enumerate(shown, start=1))
            prompt = (
                CONTACT_MAINTENANCE_PROMPT.format(existing=existing or "(none)", summary=summary.render())
                if conv.end_user_id
                else MAINTENANCE_PROMPT.format(
                    budget_tokens=current.budget_tokens,
                    profile=current.document or "(empty)",
                    existing=existing or "(none)",
                    summary=summary.render(),
                )
            )
            # validated before anything is kept or written
            answer, tokens_in, tokens_out = await ctx.chat.complete_json(
                prompt, _USER_TURN, policy.compaction_model, MAINTENANCE, check=maintenance_output
            )
            labels = {f"M{i}": m.memory_id for i, m in enumerate(shown, start=1)}
            kept = json.dumps({"answer": answer, "labels": labels, "tokens_in": tokens_in, "tokens_out": tokens_out})
            await self._conversations.put_blob(actor.tenant_id, conv.conversation_id, blob_id, kept)
        data = json.loads(kept)
        usage.update(
            maintenance_tokens_in=data["tokens_in"],
            maintenance_tokens_out=data["tokens_out"],
            model_calls=usage["model_calls"] + 1,
        )
        out = maintenance_output(data["answer"])
        memories = out.memories
        if conv.end_user_id and out.profile is not None:
            # The agent's profile is in every contact's context: one contact's conversation never rewrites
            # it. What a model put there anyway is kept as this contact's memories, not dropped.
            lines = vanished_lines(parse(out.profile.profile), parse(current.document))[:MAX_EXTRACTED]
            memories += tuple(ExtractedMemory(bare_line(t), "semantic", h[:MAX_SUBJECT]) for h, t in lines)
        done = await self._apply(actor, conv, summary, memories, data.get("labels", {}), policy.collection)
        # The profile's history keeps its origin: the conversation by digest, as an erasure receipt names it.
        origin = f"compact:{digest(actor.tenant_id, conv.conversation_id)}:{summary.to_seq}"
        if out.profile is not None and not conv.end_user_id and current.source != f"rewrite:{origin}":
            await self._profile.rewrite(actor, out.profile.profile, out.profile.demoted, origin, base=current)
        return done

    async def _candidates(self, actor: Actor, conv: Conversation, summary: Summary) -> list[MemoryRecord]:
        """The summary's best Recall hits that the conversation may change (memoryd's own lookup: not a retrieval).

        The agent's memories, or, in a conversation with a contact, that contact's only: the agent's
        private and shared memories reach every contact it serves, and one contact's words must not
        correct them for all (a contact saying "refunds are free now" supersedes nothing of the agent's).
        """
        query = RecallQuery(actor, summary.text[:4096], limit=CANDIDATES, internal=True)
        hits = await self._recall.recall(query)
        return [h.memory for h in hits if h.memory.status is MemoryStatus.ACTIVE and _changeable(actor, conv, h.memory)]

    async def _apply(
        self,
        actor: Actor,
        conv: Conversation,
        summary: Summary,
        memories: Sequence[ExtractedMemory],
        labels: dict[str, str],
        collection: str,
    ) -> MaintenanceDone:
        named = {m for m in (labels.get(e.supersedes or e.restates) for e in memories) if m}
        found = await self._memories.get_many(actor, sorted(named), with_retrievals=False) if named else {}
        key = f"maintenance.{content_hash(f'{conv.conversation_id}:{summary.from_seq}-{summary.to_seq}')[:32]}"
        filed: list[tuple[ExtractedMemory, MemoryRecord | None]] = []
        merged = ignored = 0
        for e in memories:
            label = e.supersedes or e.restates
            target = found.get(labels.get(label, ""))
            if label and target is None:
                ignored += 1  # not a label it was shown (or that memory is gone): a new memory
            usable = target if target is not None and _changeable(actor, conv, target) else None
            if usable is not None and says_nothing_new(e.content, usable.content):
                merged += self._merged(actor, usable, e.content, key)
                continue
            filed.append((e, usable if e.supersedes else None))
        superseded = await self._file(actor, conv, summary, filed, key, collection)
        return MaintenanceDone(len(filed), merged, superseded, ignored)

    def _merged(self, actor: Actor, target: MemoryRecord, text: str, key: str) -> int:
        if self._provenance is not None:  # the history keeps the restatement's words
            detail = {"restatement": text, "by": "compaction"}
            self._provenance.record(actor, HistoryKind.MERGED, target, request_id=key, detail=detail)
        return 1

    async def _file(
        self,
        actor: Actor,
        conv: Conversation,
        summary: Summary,
        filed: Sequence[tuple[ExtractedMemory, MemoryRecord | None]],
        key: str,
        collection: str,
    ) -> int:
        if not filed:
            return 0
        source = f"conversation {conv.conversation_id} summary {summary.from_seq}-{summary.to_seq}"
        drafts = [await self._draft(actor, conv, e, old, source, summary.last_at, collection) for e, old in filed]
        results = await self._memorize.memorize_batch(
            actor, drafts, skip_deduplication=False, request_id=key, derived=True
        )
        superseded = 0
        for (_, old), result in zip(filed, results, strict=True):
            if old is not None and old.memory_id != result.memory.memory_id:
                superseded += await self._supersede(actor, old, result.memory.memory_id, key)
        return superseded

    async def _draft(
        self,
        actor: Actor,
        conv: Conversation,
        e: ExtractedMemory,
        old: MemoryRecord | None,
        source: str,
        at: datetime,
        collection: str,
    ) -> MemoryDraft:
        """A new memory goes to the policy's collection; a correction is filed where the memory it replaces was.

        A new memory of a contact's conversation is the contact's (``Conversation.filing_scope``). A
        correction keeps its scope above all: a shared or contact memory corrected into a private one
        would vanish for the other agents that saw it. One exception: in a contact's conversation the
        correction of a private memory written while serving them is theirs, not every contact's. The
        model's kind, subject and salience win where it gave them.
        """
        content = byte_pieces(e.content, min(MAX_FILED_BYTES, self._memorize.max_content_bytes))[0]
        memory_type = MemoryType(e.memory_type)
        if old is None:
            return MemoryDraft(
                content, scope=conv.filing_scope, memory_type=memory_type, subject=e.subject, salience=e.salience,
                source_context=source, occurred_at=at, collection=collection,
            )  # fmt: skip
        draft = await self._memorize.successor(actor, old, content, source)
        return replace(
            draft,
            scope=conv.filing_scope if conv.end_user_id else draft.scope,
            memory_type=memory_type,
            subject=e.subject or old.subject,
            salience=old.salience if e.salience is None else e.salience,
            decay_factor=old.decay_factor if memory_type is old.memory_type else None,
            occurred_at=at,
        )

    async def _supersede(self, actor: Actor, old: MemoryRecord, successor: str, key: str) -> int:
        """Mark ``old`` superseded by ``successor`` (a retry finds it done and changes nothing)."""
        if old.status is MemoryStatus.SUPERSEDED and old.superseded_by == successor:
            return 0
        changed = replace(old, status=MemoryStatus.SUPERSEDED, superseded_by=successor, updated_at=self._clock.now())
        if not await self._memories.replace(actor, changed, None):
            return 0  # forgotten meanwhile: the correction stays, filed
        if self._provenance is not None:
            detail = {"superseded_by": successor, "correction": "compaction"}
            self._provenance.record(actor, HistoryKind.SUPERSEDED, old, request_id=key, detail=detail)
        return 1


def _changeable(actor: Actor, conv: Conversation, record: MemoryRecord) -> bool:
    """Whether the maintenance of ``conv`` may merge into or supersede ``record``.

    The job acts as memoryd: what it may change is the agent's. In a conversation with a contact, only
    that contact's memories: theirs, and the agent's private ones written while serving them (a kept
    answer of an older release may name others: they stay).
    """
    theirs = record.end_user_id == conv.end_user_id and record.scope in (Scope.END_USER, Scope.PRIVATE)
    if conv.end_user_id and not theirs:
        return False
    return may_modify(replace(actor, role=Role.AGENT), record)
