"""ReviewService: review_memories — audits of an agent's archive, their findings, and applying them.

A review is a job keyed by the agent's archive as it is (``review:{tenant}:{agent}:{version}``):
asking again over an unchanged archive returns the same job. Its body finds candidates with the
rules (``core.audit_rules``), stores them, then — when a model is configured — has the model judge
them in bounded batches, storing each batch's verdicts before the next call, so a retry after an
outage asks only what is still unjudged and ends with the same findings as a clean run. A model
answer that fails validation fails the job; nothing is applied by a review that did not finish.

Findings are proposals. ``apply`` carries them out as the reviewed agent, never deleting: merged
and corrected memories become SUPERSEDED (pointing at their successor), archived ones ARCHIVED,
and every one of them can be restored. Applying a finding twice changes nothing the second time.
"""

from __future__ import annotations

import asyncio
import functools
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

from memoryd.core.answer_schemas import REVIEW
from memoryd.core.errors import InvalidRequest, NotFound, PermissionDenied
from memoryd.core.event_log import Operation
from memoryd.core.job_records import JobKind, JobRecord, JobResult, Outcome
from memoryd.core.keys import Role
from memoryd.core.model_output import Verdict, review_verdicts
from memoryd.core.models import Actor, MemoryRecord, MemoryStatus, Vector
from memoryd.core.pii import redact
from memoryd.core.ports import ArchiveSnapshot, Clock, MemoryStore, NeighbourSearch, ReviewStore, TokenCounter
from memoryd.core.prompts import REVIEW_PROMPT
from memoryd.core.provenance import HistoryKind
from memoryd.core.review import (
    Action,
    ApplyPolicy,
    Finding,
    FindingKind,
    FindingSource,
    FindingStatus,
    Review,
    ReviewLimits,
    review_key,
)
from memoryd.core.review_rules import find
from memoryd.core.validation import check_actor, check_range, check_text
from memoryd.core.visibility import may_modify
from memoryd.services.event_log import EventLog
from memoryd.services.job_runner import JobContext
from memoryd.services.job_service import JobService
from memoryd.services.memorize import MemorizeService
from memoryd.services.provenance import Provenance

_USER_TURN = "Judge every finding and answer with the JSON object."
_REASON_CHARS = 500
_MAX_SHOWN_CHARS = 400
"""A memory's text as the model sees it in a review prompt (longer ones are cut)."""


class ReviewRules:
    """The review's rules over an agent's archive: candidate findings with no job, no model, nothing stored."""

    def __init__(self, snapshot: ArchiveSnapshot, neighbours: NeighbourSearch, clock: Clock, limits: ReviewLimits):
        self._snapshot = snapshot
        self._neighbours = neighbours
        self._clock = clock
        self.limits = limits

    async def preview(self, actor: Actor) -> list[Finding]:
        """What the rules would find in the agent's archive now (``memoryd audit --dry-run``)."""
        check_actor(actor)
        records, vectors = await self._snapshot.with_vectors(Actor(actor.tenant_id, actor.agent_id))
        return await self.find("preview", records, vectors)

    async def find(self, review_id: str, records: list[MemoryRecord], vectors: Sequence[Vector]) -> list[Finding]:
        """The rules' findings over these records and their vectors."""
        near = await asyncio.to_thread(
            self._neighbours.neighbours, vectors, self.limits.neighbours, self.limits.contradiction_similarity
        )
        return find(review_id, records, near, self._clock.now(), self.limits)


class ReviewService:
    """Reviews: request (the job), run (its body), read, apply."""

    def __init__(
        self,
        store: MemoryStore,
        snapshot: ArchiveSnapshot,
        neighbours: NeighbourSearch,
        reviews: ReviewStore,
        jobs: JobService,
        memorize: MemorizeService,
        counter: TokenCounter,
        clock: Clock,
        limits: ReviewLimits,
        apply_policy: Callable[[str, str], Awaitable[ApplyPolicy]],
        *,
        trail: EventLog,
        may_apply: Callable[[Actor], Awaitable[None]] | None = None,
        provenance: Provenance | None = None,
    ) -> None:
        self._provenance = provenance
        self._may_apply = may_apply
        """Refuses a caller who may not apply findings (``AgentConfigService.check_apply``; None: operators only)."""
        self._store = store
        self._trail = trail
        self._snapshot = snapshot
        self.rules = ReviewRules(snapshot, neighbours, clock, limits)
        self._reviews = reviews
        self._jobs = jobs
        self._memorize = memorize
        self._counter = counter
        self._clock = clock
        self.limits = limits
        self._apply_policy = apply_policy

    async def request(self, actor: Actor) -> JobRecord:
        """ReviewMemories: the review job of the agent's archive as it is now (an unchanged archive: the same job)."""
        return (await self.request_many([actor]))[0]

    async def request_many(self, actors: Sequence[Actor]) -> list[JobRecord]:
        """``request`` of each agent, the jobs enqueued together (an audit batch's fan-out)."""
        jobs = []
        for actor in actors:
            check_actor(actor)
            version = await self._snapshot.fingerprint(Actor(actor.tenant_id, actor.agent_id))
            jobs.append((actor.tenant_id, review_key(actor.tenant_id, actor.agent_id, version), actor.agent_id))
        return await self._jobs.enqueue_many(JobKind.REVIEW, jobs, redrive=True)

    async def get(self, actor: Actor, review_id: str) -> tuple[Review, list[Finding]]:
        """A review of the actor's own agent and its findings (NotFound otherwise)."""
        check_actor(actor)
        review = await self._reviews.review(actor.tenant_id, review_id)
        if review is None or review.agent_id != actor.agent_id:
            raise NotFound(f"review {review_id!r} not found")
        return review, await self._reviews.findings(actor.tenant_id, review_id)

    async def list_reviews(self, actor: Actor, limit: int) -> list[Review]:
        """The agent's reviews, newest first."""
        check_actor(actor)
        check_range(limit, "page_size", 1, 100)
        return await self._reviews.reviews(actor.tenant_id, actor.agent_id, limit)

    async def preview(self, actor: Actor) -> list[Finding]:
        """What the rules would find in the agent's archive now: no job, no model, nothing stored."""
        return await self.rules.preview(actor)

    # -- the job body ---------------------------------------------------------------

    async def run(self, ctx: JobContext) -> JobResult:
        """Rules → stored findings → the model's verdicts (bounded, stored per batch) → auto-apply by policy."""
        rec = ctx.record
        actor = Actor(rec.tenant_id, rec.agent_id, via=f"job:{rec.kind.value}")
        version = rec.key.rsplit(":", 1)[1]
        records, vectors = await self._snapshot.with_vectors(actor)
        found = await self.rules.find(rec.key, records, vectors)
        now = self._clock.now()
        known = {f.finding_id: f for f in await self._reviews.findings(rec.tenant_id, rec.key)}
        await self._reviews.put_findings(rec.tenant_id, [f for f in found if f.finding_id not in known])
        findings = [known.get(f.finding_id, f) for f in found]
        review = await self._reviews.review(rec.tenant_id, rec.key) or Review(
            rec.key, rec.agent_id, version, created_at=now
        )
        review = replace(review, memories_reviewed=len(records), counts=dict(Counter(f.kind.value for f in findings)))
        await self._reviews.put_review(rec.tenant_id, review)
        if ctx.chat.available:
            findings, review = await self._judge(ctx, review, findings, {r.memory_id: r for r in records})
        applied = await self._by_policy(actor, findings, await self._apply_policy(actor.tenant_id, actor.agent_id))
        review = replace(review, finished_at=self._clock.now())
        await self._reviews.put_review(rec.tenant_id, review)
        return {
            "outcome": Outcome.REVIEWED,
            "findings": len(findings),
            **{kind: n for kind, n in sorted(review.counts.items())},
            "model_calls": review.model_calls,
            "tokens_in": review.tokens_in,
            "tokens_out": review.tokens_out,
            "applied": applied,
        }

    async def _judge(
        self, ctx: JobContext, review: Review, findings: list[Finding], by_id: dict[str, MemoryRecord]
    ) -> tuple[list[Finding], Review]:
        """Ask the model about unjudged findings in bounded batches; each batch's verdicts are stored at once."""
        pending = [f for f in findings if not f.judged and f.status is FindingStatus.PROPOSED]
        while pending and review.model_calls < self.limits.max_model_calls:
            batch, prompt = self._batch(pending, by_id)
            asked = {f.finding_id: f.memory_ids for f in batch}
            answer, tokens_in, tokens_out = await ctx.chat.complete_json(
                prompt, _USER_TURN, schema=REVIEW, check=functools.partial(review_verdicts, asked=asked)
            )
            verdicts = review_verdicts(answer, asked)
            judged = [_judged(f, verdicts[f.finding_id]) for f in batch]
            await self._reviews.put_findings(ctx.record.tenant_id, judged)
            review = replace(
                review,
                model=ctx.chat.model_name,
                model_calls=review.model_calls + 1,
                tokens_in=review.tokens_in + tokens_in,
                tokens_out=review.tokens_out + tokens_out,
            )
            await self._reviews.put_review(ctx.record.tenant_id, review)
            done = {f.finding_id: f for f in judged}
            findings = [done.get(f.finding_id, f) for f in findings]
            pending = pending[len(batch) :]
        return findings, review

    def _batch(self, pending: Sequence[Finding], by_id: dict[str, MemoryRecord]) -> tuple[list[Finding], str]:
        """As many findings as fit the per-call caps (at least one), and the prompt that asks about them."""
        batch: list[Finding] = []
        prompt = REVIEW_PROMPT
        for finding in pending[: self.limits.findings_per_call]:
            candidate = prompt + _describe(finding, by_id)
            if batch and self._counter.count(candidate) > self.limits.max_prompt_tokens:
                break
            batch.append(finding)
            prompt = candidate
        return batch, prompt

    async def apply_by_policy(self, actor: Actor, review_id: str, policy: ApplyPolicy) -> int:
        """Apply the review's proposed findings that ``policy`` covers (``memoryd audit --apply``); how many."""
        _, findings = await self.get(actor, review_id)
        return await self._by_policy(actor, findings, policy)

    async def _by_policy(self, actor: Actor, findings: Sequence[Finding], policy: ApplyPolicy) -> int:
        if policy is ApplyPolicy.NONE:
            return 0
        chosen = [
            f.finding_id
            for f in findings
            if f.status is FindingStatus.PROPOSED
            and ((policy is ApplyPolicy.ALL and f.judged) or (f.certain and f.source is FindingSource.RULES))
        ]
        results = await self._apply(actor, [f for f in findings if f.finding_id in set(chosen)])
        return sum(1 for f in results if f.status is FindingStatus.APPLIED)

    # -- applying ---------------------------------------------------------------------

    async def apply(self, actor: Actor, review_id: str, finding_ids: Sequence[str]) -> list[Finding]:
        """ApplyFindings: carry out these findings (all of the review's when none is named); their states after.

        Operators apply any agent's; an agent key its own agent's, where the tenant allows it.
        """
        if self._may_apply is not None:
            await self._may_apply(actor)
        elif actor.role < Role.OPERATOR:
            raise PermissionDenied("ApplyFindings: applying findings takes an operator key")
        _, findings = await self.get(actor, review_id)
        by_id = {f.finding_id: f for f in findings}
        unknown = [i for i in finding_ids if i not in by_id]
        if unknown:
            raise InvalidRequest("finding_ids", f"{unknown[0]!r} is not a finding of review {review_id!r}")
        chosen = [by_id[i] for i in dict.fromkeys(finding_ids)] if finding_ids else findings
        return await self._apply(actor, chosen)

    async def reject(self, actor: Actor, review_id: str, finding_ids: Sequence[str], reason: str) -> list[Finding]:
        """RejectFindings: a person judged these proposed findings wrong; their states after."""
        if not finding_ids:
            raise InvalidRequest("finding_ids", "name at least one finding to reject")
        check_text(reason, "reason", _REASON_CHARS)
        _, findings = await self.get(actor, review_id)
        by_id = {f.finding_id: f for f in findings}
        unknown = [i for i in finding_ids if i not in by_id]
        if unknown:
            raise InvalidRequest("finding_ids", f"{unknown[0]!r} is not a finding of review {review_id!r}")
        who = f"key {actor.key_id}" if actor.key_id else "an operator"
        out, rejected = [], []
        for finding in (by_id[i] for i in dict.fromkeys(finding_ids)):
            if finding.status is FindingStatus.PROPOSED:
                outcome = f"rejected by {who}" + (f": {reason}" if reason else "")
                finding = replace(finding, status=FindingStatus.REJECTED, outcome=outcome)
                rejected.append(finding)
            out.append(finding)
        if rejected:
            await self._reviews.put_findings(actor.tenant_id, rejected)
            ids = [m for f in rejected for m in f.memory_ids]
            await self._trail.write(
                actor.tenant_id, Operation.FINDINGS_REJECTED, actor, ids, (), {"findings": len(rejected)}
            )
        return out

    async def memories_of(self, actor: Actor, findings: Sequence[Finding]) -> list[MemoryRecord]:
        """The memories the findings name that the actor may read, in the findings' order."""
        ids = list(dict.fromkeys(m for f in findings for m in f.memory_ids))
        found = await self._store.get_many(actor, ids, with_retrievals=False) if ids else {}
        return [found[i] for i in ids if i in found]

    async def _apply(self, actor: Actor, findings: Sequence[Finding]) -> list[Finding]:
        out: list[Finding] = []
        for finding in findings:
            if finding.status is not FindingStatus.PROPOSED:
                out.append(finding)  # applied or rejected already: applying again changes nothing
                continue
            outcome, done = await self._carry_out(actor, finding)
            updated = replace(finding, status=FindingStatus.APPLIED if done else finding.status, outcome=outcome)
            await self._reviews.put_findings(actor.tenant_id, [updated])
            out.append(updated)
        applied = [f for f, before in zip(out, findings, strict=True) if f.status is not before.status]
        if applied:
            ids = [m for f in applied for m in f.memory_ids]
            counts = {"findings": len(applied)} | {k.value: sum(f.kind is k for f in applied) for k in FindingKind}
            await self._trail.write(actor.tenant_id, Operation.FINDINGS_APPLIED, actor, ids, (), counts)
        return out

    async def _carry_out(self, actor: Actor, f: Finding) -> tuple[str, bool]:
        """What applying did, and whether it is done (False: left proposed, e.g. not the agent's to change)."""
        records = await self._store.get_many(actor, f.memory_ids, with_retrievals=False)
        if len(records) != len(f.memory_ids):
            return "a memory of this finding is gone (forgotten); nothing changed", True
        rewritten = [i for i, h in zip(f.memory_ids, f.content_hashes, strict=True) if records[i].content_hash != h]
        if rewritten:
            return f"rewritten since the review: {', '.join(rewritten)}; review again", False
        targets = [records[i] for i in _targets(f)]
        refused = [r.memory_id for r in targets if not may_modify(actor, r)]
        if refused:
            return f"not this agent's to change: {', '.join(refused)}", False
        if f.action is Action.KEEP:
            return "kept as it is", True
        if f.action is Action.ARCHIVE:
            for r in targets:
                await self._set_status(actor, r, MemoryStatus.ARCHIVED, "", f)
            return f"archived {len(targets)}", True
        successor = await self._successor(actor, f, records)
        for r in targets:
            if r.memory_id != successor:
                await self._set_status(actor, r, MemoryStatus.SUPERSEDED, successor, f)
        return f"superseded by {successor}", True

    async def _successor(self, actor: Actor, f: Finding, records: dict[str, MemoryRecord]) -> str:
        """merge: the survivor (tags united) or a new memory with the merged text; update: the corrected memory."""
        base = records[f.survivor_id or f.memory_ids[0]]  # merge: the survivor; update: the corrected one
        tags = tuple(dict.fromkeys(t for r in records.values() for t in r.tags))[: self._memorize.max_tags]
        # A merge keeps what any of its memories held, a pin too: the pinned one is superseded by what it merged into.
        pinned = base.pinned or (f.action is Action.MERGE and any(r.pinned for r in records.values()))
        if f.action is Action.MERGE and (not f.text or f.text == base.content):
            if (tags, pinned) != (base.tags, base.pinned):
                kept = replace(base, tags=tags, pinned=pinned, updated_at=self._clock.now())
                await self._store.replace(actor, kept, None)
            return base.memory_id
        source = f"review {f.review_id}, finding {f.finding_id}"
        draft = await self._memorize.successor(actor, base, f.text, source, tags if f.action is Action.MERGE else None)
        draft = replace(draft, pinned=pinned)
        # The request id makes a retried apply find the memory it wrote instead of writing another.
        created = await self._memorize.memorize_batch(
            actor, [draft], True, request_id=f"review.{f.finding_id}", derived=True
        )
        return created[0].memory.memory_id

    async def _set_status(
        self, actor: Actor, record: MemoryRecord, status: MemoryStatus, successor: str, finding: Finding
    ) -> None:
        if (record.status, record.superseded_by) == (status, successor):
            return
        changed = replace(record, status=status, superseded_by=successor, updated_at=self._clock.now())
        if await self._store.replace(actor, changed, None) and self._provenance is not None:
            kind = HistoryKind.SUPERSEDED if status is MemoryStatus.SUPERSEDED else HistoryKind.ARCHIVED
            detail = {"review_id": finding.review_id, "finding_id": finding.finding_id, "finding": finding.kind.value}
            if successor:
                detail["superseded_by"] = successor
            self._provenance.record(actor, kind, changed, request_id=f"review.{finding.finding_id}", detail=detail)


def _targets(f: Finding) -> tuple[str, ...]:
    """The memories an action changes: merge the group; update its one memory; archive one or all."""
    if f.action is Action.KEEP:
        return ()
    if f.action in (Action.UPDATE, Action.ARCHIVE) and f.survivor_id:
        return (f.survivor_id,)
    return f.memory_ids


def _judged(f: Finding, v: Verdict) -> Finding:
    if not v.confirm:
        return replace(f, judged=True, status=FindingStatus.REJECTED, source=FindingSource.MODEL)
    action = Action(v.action)
    # survivor_id names the memory an action keeps (merge) or changes (update, archive of one).
    target = v.survivor_id if action is Action.MERGE else v.memory_id
    return replace(
        f, judged=True, source=FindingSource.MODEL, action=action, survivor_id=target, text=redact(v.text).text
    )


def _describe(f: Finding, by_id: dict[str, MemoryRecord]) -> str:
    lines = [f"\nFinding {f.finding_id} ({f.kind.value}): {f.reason}"]
    for memory_id in f.memory_ids:
        r = by_id.get(memory_id)
        text = r.content[:_MAX_SHOWN_CHARS] if r else "(gone)"
        when = f"{r.occurred_at:%Y-%m-%d}" if r else ""
        lines.append(f"- {memory_id} [{when}] {text}")
    return "\n".join(lines)
