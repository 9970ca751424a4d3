"""Compaction: the job that turns a conversation's old messages into a dated summary.

Model path (a chat model is configured): one summary call (which also merges the
oldest summaries into a ``[compressed]`` one when there are too many), then one
fused maintenance call whose validated output adds archive memories (through the
archive's dedup) and rewrites the profile (through the guarded rewrite). At most
two calls; the tokens of each are recorded in the job's result.

Extractive path (no model): the most central messages of the stretch, by the
embedder, with their dates, make the summary; merges concatenate; the profile is
left alone.

Re-runs converge: validated model outputs are kept with the conversation under
deterministic ids before they are applied, summaries have deterministic ids,
memories go through dedup, the profile rewrite is skipped if this compaction
already wrote it, and the state row's compare-and-swap is the commit point.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from memoryd.core.answer_schemas import SUMMARY
from memoryd.core.conversation import (
    CompactionPlan,
    CompactMode,
    Conversation,
    ConversationEvent,
    Message,
    Role,
    Summary,
    WorkingPolicy,
    compaction_lease,
    filing_due,
    parse_compact_key,
)
from memoryd.core.errors import MemorydError
from memoryd.core.job_records import JobKind, JobResult, Outcome
from memoryd.core.model_output import summary_output
from memoryd.core.models import Actor
from memoryd.core.ports import Clock, ConversationStore, Embedder, TokenCounter
from memoryd.core.prompts import COMPRESS_INSTRUCTION, SUMMARY_PROMPT
from memoryd.core.working import (
    central_messages,
    extractive_summary,
    merge_extractive,
    plan_compaction,
    shrink_tool_results,
    summaries_to_merge,
    summary_cap,
    summary_id,
)
from memoryd.services.agent_config import AgentConfigService
from memoryd.services.archive_maintenance import ArchiveMaintenance
from memoryd.services.conversation import swap_state
from memoryd.services.filing import ConversationFiling
from memoryd.services.graph_extraction import graph_key
from memoryd.services.job_runner import JobContext
from memoryd.services.job_service import JobService
from memoryd.services.pii_floor import PiiFloor

_REDO_PER_JOB = 3
"""Extractive summaries a compaction rewrites with the model at most (one call each)."""
_USER_TURN = "Answer with the JSON object only."


class CompactionService:
    """The COMPACT job body."""

    def __init__(
        self,
        store: ConversationStore,
        filing: ConversationFiling,
        embedder: Embedder,
        counter: TokenCounter,
        clock: Clock,
        configs: AgentConfigService,
        maintain: ArchiveMaintenance,
        *,
        pii: PiiFloor,
        jobs: JobService | None = None,
    ) -> None:
        self._maintain = maintain
        self._jobs = jobs
        self._store = store
        self._pii = pii
        self._filing = filing
        self._embedder = embedder
        self._counter = counter
        self._clock = clock
        self._configs = configs

    async def run(self, ctx: JobContext) -> JobResult:
        """Compact the conversation of the job's key up to its seq, one compaction per conversation at a time."""
        rec = ctx.record
        conversation_id, last_seq, mode = parse_compact_key(rec.key)
        async with ctx.exclusive(compaction_lease(rec.tenant_id, conversation_id)):
            return await self._run(ctx, conversation_id, last_seq, mode)

    async def _run(self, ctx: JobContext, conversation_id: str, last_seq: int, mode: CompactMode) -> JobResult:
        rec = ctx.record
        tenant = rec.tenant_id
        conv = await self._store.state(tenant, conversation_id)
        if conv is None:
            return {"outcome": Outcome.NO_CONVERSATION}
        actor = Actor(tenant, conv.agent_id, conv.end_user_id, via=f"job:{rec.kind.value}")
        policy = await self._configs.for_conversation(tenant, conv)
        raw = [
            m for m in await self._store.messages(tenant, conversation_id, conv.compacted_through) if m.seq <= last_seq
        ]
        summaries = await self._store.summaries(tenant, conversation_id, conv.summary_ids)
        end = mode is CompactMode.END
        plan = plan_compaction(conv, raw, summaries, policy, force=mode is not CompactMode.AUTO, end=end)
        if plan is None:
            if end and filing_due(conv, conv.compacted_through, policy.batch_size, end=True):
                filed = await self._filing.compacted(actor, conv, policy, conv.compacted_through, summaries)
                await self._commit(actor, conv, conv.compacted_through, conv.summary_ids, conv.compacted_through)
                return {"outcome": Outcome.FILED, "filed_memories": filed, "compacted_through": conv.compacted_through}
            result: JobResult = {"outcome": Outcome.NOTHING_TO_COMPACT, "compacted_through": conv.compacted_through}
            if ctx.chat.available and policy.redo_fallback_summaries and any(s.fallback for s in summaries):
                usage = {"summary_tokens_in": 0, "summary_tokens_out": 0, "model_calls": 0}
                cap = summary_cap(policy, conv.context_window)
                result["redone_summaries"] = await self._redo_fallbacks(ctx, actor, conversation_id, policy, cap, usage)
                result |= usage
            return result
        await self._event(
            tenant,
            conversation_id,
            rec.key,
            "started",
            f"compacting messages {plan.dropped[0].seq}-{plan.through}",
            attempt=rec.attempts,
        )
        try:
            return await self._compact(ctx, actor, conv, policy, plan, summaries, end=end)
        except MemorydError as exc:
            await self._event(
                tenant, conversation_id, rec.key, "failed", f"{type(exc).__name__}: {exc}", attempt=rec.attempts
            )
            raise

    async def _compact(
        self,
        ctx: JobContext,
        actor: Actor,
        conv: Conversation,
        policy: WorkingPolicy,
        plan: CompactionPlan,
        summaries: Sequence[Summary],
        *,
        end: bool,
    ) -> JobResult:
        key = ctx.record.key
        dropped = shrink_tool_results(plan.dropped, policy, self._counter.count)
        cap = summary_cap(policy, conv.context_window)
        merge = (
            summaries_to_merge([*summaries, _placeholder(plan, cap)], policy, conv.context_window)
            if plan.summarize
            else ()
        )
        usage = {
            "summary_tokens_in": 0,
            "summary_tokens_out": 0,
            "maintenance_tokens_in": 0,
            "maintenance_tokens_out": 0,
            "model_calls": 0,
        }
        model = ctx.chat.available
        new_summary: Summary | None = None
        compressed: Summary | None = None
        if plan.summarize:
            if model:
                text, merged_text = await self._model_summary(ctx, actor, conv, dropped, merge, usage, cap, policy)
            else:
                count = self._counter.count
                text, merged_text = await self._extractive(dropped, cap), merge_extractive(merge, count, cap)
            first, last = dropped[0], dropped[-1]
            new_summary = self._summary(
                conv, first.seq, last.seq, first.created_at, last.created_at, text, 0, fallback=not model
            )
            if merge:
                compressed = self._summary(
                    conv,
                    merge[0].from_seq,
                    merge[-1].to_seq,
                    merge[0].first_at,
                    merge[-1].last_at,
                    merged_text,
                    max(s.level for s in merge) + 1,
                    fallback=not model or any(s.fallback for s in merge),
                )
        filed = 0
        corrections: dict[str, int] = {}
        if model and new_summary is not None:
            done = await self._maintain.run(ctx, actor, conv, new_summary, usage, policy)
            filed += done.filed
            corrections = {"merged_restatements": done.merged, "superseded": done.superseded}
            corrections["ignored_labels"] = done.ignored_labels
        for s in (new_summary, compressed):
            if s is not None:
                await self._store.put_summary(actor.tenant_id, conv.conversation_id, s)
        live = [s for s in summaries if s not in merge]
        if compressed is not None:
            live.insert(0, compressed)
        if new_summary is not None:
            live.append(new_summary)
        filed_through = conv.filed_through
        if filing_due(conv, plan.through, policy.batch_size, end=end):
            filed += await self._filing.compacted(actor, conv, policy, plan.through, live)
            filed_through = plan.through
        await self._commit(actor, conv, plan.through, tuple(s.summary_id for s in live), filed_through)
        redone = 0
        if model and policy.redo_fallback_summaries:
            redone = await self._redo_fallbacks(ctx, actor, conv.conversation_id, policy, cap, usage)
        if model and new_summary is not None:
            await self._extract_graph(actor, conv, new_summary)
        path = "window" if not plan.summarize else "model" if model else "extractive"
        result: JobResult = {
            "outcome": Outcome.COMPACTED,
            "path": path,
            "summarized_messages": len(plan.dropped),
            "compacted_through": plan.through,
            "summaries": len(live),
            "merged_summaries": len(merge),
            "filed_memories": filed,
            "redone_summaries": redone,
            **corrections,
            **usage,
        }
        await self._event(
            actor.tenant_id,
            conv.conversation_id,
            key,
            "finished",
            f"compacted messages {plan.dropped[0].seq}-{plan.through} ({path})",
            path=path,
            summarized=len(plan.dropped),
            tokens_in=usage["summary_tokens_in"] + usage["maintenance_tokens_in"],
            tokens_out=usage["summary_tokens_out"] + usage["maintenance_tokens_out"],
        )
        return result

    # -- the two model calls ------------------------------------------------------

    async def _model_summary(
        self,
        ctx: JobContext,
        actor: Actor,
        conv: Conversation,
        dropped: Sequence[Message],
        merge: Sequence[Summary],
        usage: dict[str, int],
        cap: int,
        policy: WorkingPolicy,
    ) -> tuple[str, str]:
        blob_id = f"{conv.conversation_id}:blob:{ctx.record.key}:summary:{dropped[0].seq}-{dropped[-1].seq}"
        kept = await self._store.blob(actor.tenant_id, conv.conversation_id, blob_id)
        if kept is None:
            older = "\n".join(f"- {s.render()}" for s in merge)
            prompt = SUMMARY_PROMPT.format(
                max_tokens=cap,
                compress_instruction=COMPRESS_INSTRUCTION.format(max_tokens=cap) if merge else "",
                compress_field=', "compressed": "<text>"' if merge else "",
                first_date=f"{dropped[0].created_at:%Y-%m-%d}",
                last_date=f"{dropped[-1].created_at:%Y-%m-%d}",
                messages="\n".join(_line(m) for m in dropped),
                older=f"\nOlder summaries to merge:\n{older}\n" if merge else "",
            )
            answer, tokens_in, tokens_out = await ctx.chat.complete_json(
                prompt,
                _USER_TURN,
                policy.compaction_model,
                SUMMARY,
                check=lambda a: summary_output(a, want_compressed=bool(merge)),
            )
            out = summary_output(answer, want_compressed=bool(merge))
            kept = json.dumps(
                {"summary": out.summary, "compressed": out.compressed, "tokens_in": tokens_in, "tokens_out": tokens_out}
            )
            await self._store.put_blob(actor.tenant_id, conv.conversation_id, blob_id, kept)
        data = json.loads(kept)  # fresh, or kept by an earlier attempt of this compaction: one call either way
        usage.update(
            summary_tokens_in=data["tokens_in"],
            summary_tokens_out=data["tokens_out"],
            model_calls=usage["model_calls"] + 1,
        )
        return str(data["summary"]), str(data["compressed"])

    # -- the extractive path, filing, commit --------------------------------------

    async def _redo_fallbacks(
        self,
        ctx: JobContext,
        actor: Actor,
        conversation_id: str,
        policy: WorkingPolicy,
        cap: int,
        usage: dict[str, int],
    ) -> int:
        """Rewrite, with the model, live summaries made without one (a few per job; the rest next time).

        The model's summary gets its own id and replaces the extractive one in the state row by
        compare-and-swap; the extractive row stays in the history. Merged ones (level > 0) are left.
        """
        tenant = actor.tenant_id
        conv = await self._store.state(tenant, conversation_id)
        if conv is None:
            return 0
        stale = [s for s in await self._store.summaries(tenant, conversation_id, conv.summary_ids) if s.fallback]
        redone = 0
        for old in [s for s in stale if s.level == 0][:_REDO_PER_JOB]:
            messages = [m for m in await self._store.messages(tenant, conversation_id, old.from_seq - 1)]
            messages = [m for m in messages if m.seq <= old.to_seq]
            if not messages:
                continue
            shrunk = shrink_tool_results(messages, policy, self._counter.count)
            calls = {**usage}
            text, _ = await self._model_summary(ctx, actor, conv, shrunk, (), calls, cap, policy)
            usage["model_calls"] = calls["model_calls"]
            usage["redo_tokens_in"] = usage.get("redo_tokens_in", 0) + calls["summary_tokens_in"]
            usage["redo_tokens_out"] = usage.get("redo_tokens_out", 0) + calls["summary_tokens_out"]
            new = replace(
                self._summary(conv, old.from_seq, old.to_seq, old.first_at, old.last_at, text, 0),
                summary_id=f"{old.summary_id}:model",
            )
            await self._store.put_summary(tenant, conversation_id, new)

            def swapped(
                current: Conversation, old_id: str = old.summary_id, new_id: str = new.summary_id
            ) -> Conversation | None:
                if old_id not in current.summary_ids:
                    return None  # merged or replaced meanwhile
                ids = tuple(new_id if i == old_id else i for i in current.summary_ids)
                return replace(current, summary_ids=ids, revision=current.revision + 1, updated_at=self._clock.now())

            conv = await swap_state(
                self._store, tenant, conv, swapped, gave_up=f"conversation {conversation_id!r} kept changing"
            )
            redone += 1
        return redone

    async def _extract_graph(self, actor: Actor, conv: Conversation, summary: Summary) -> None:
        """Queue the memory-graph extraction of the new summary when the agent's graph is on (one more call)."""
        if self._jobs is None or not (await self._configs.values(actor.tenant_id, conv.agent_id))["graph.enabled"]:
            return
        key = graph_key(conv.conversation_id, summary.from_seq, summary.to_seq)
        await self._jobs.enqueue(JobKind.GRAPH_EXTRACT, actor.tenant_id, key, conv.agent_id)

    async def _extractive(self, dropped: Sequence[Message], cap: int) -> str:
        speech = [m for m in dropped if m.role != Role.TOOL and m.content.strip()] or list(dropped)
        keep = min(8, max(2, len(speech) // 5))
        vectors = await self._embedder.embed([m.content[:2000] for m in speech])
        return extractive_summary(dropped, central_messages(speech, vectors, keep), self._counter.count, cap)

    def _summary(
        self,
        conv: Conversation,
        from_seq: int,
        to_seq: int,
        first_at: datetime,
        last_at: datetime,
        text: str,
        level: int,
        *,
        fallback: bool = False,
    ) -> Summary:
        text = self._pii.derived(text)  # a summary is memoryd's text: identifiers never reach it
        return Summary(
            summary_id(conv.conversation_id, from_seq, to_seq, level),
            from_seq,
            to_seq,
            first_at,
            last_at,
            text,
            self._counter.count(text),
            level,
            fallback,
        )

    async def _commit(
        self, actor: Actor, conv: Conversation, through: int, live: tuple[str, ...], filed_through: int
    ) -> None:
        """Advance the state row past the compacted (and filed) messages (the commit point of the job)."""

        def advance(current: Conversation) -> Conversation | None:
            if current.compacted_through >= through and current.filed_through >= filed_through:
                return None  # a previous run of this job committed already
            return replace(
                current,
                compacted_through=max(through, current.compacted_through),
                filed_through=max(filed_through, current.filed_through),
                summary_ids=live,
                revision=current.revision + 1,
                updated_at=self._clock.now(),
            )

        def compacted_meanwhile(old: Conversation, fresh: Conversation) -> bool:
            # Another compaction committed first: plan again from its state. (An append only
            # moved next_seq: keep it and apply ours again.)
            return (fresh.compacted_through, fresh.summary_ids) != (old.compacted_through, old.summary_ids)

        await swap_state(
            self._store,
            actor.tenant_id,
            conv,
            advance,
            replan_if=compacted_meanwhile,
            gave_up=f"conversation {conv.conversation_id!r} kept changing; compaction re-plans",
        )

    async def _event(
        self,
        tenant_id: str,
        conversation_id: str,
        key: str,
        phase: str,
        message: str,
        *,
        attempt: int = 0,
        path: str = "",
        summarized: int = 0,
        tokens_in: int = 0,
        tokens_out: int = 0,
    ) -> None:
        suffix = f":{attempt}" if phase != "finished" else ""
        await self._store.add_event(
            tenant_id,
            conversation_id,
            ConversationEvent(
                f"{conversation_id}:event:{key}:{phase}{suffix}",
                f"compaction_{phase}",
                key,
                message,
                self._clock.now(),
                path,
                summarized,
                tokens_in,
                tokens_out,
            ),
        )


def _line(m: Message) -> str:
    name = f" ({m.tool_name})" if m.tool_name else ""
    return f"[{m.created_at:%Y-%m-%d %H:%M}] {m.role.value}{name}: {m.content}"


def _placeholder(plan: CompactionPlan, cap: int) -> Summary:
    """The new summary's place when deciding merges (its size is the summary cap)."""
    first, last = plan.dropped[0], plan.dropped[-1]
    return Summary("", first.seq, last.seq, first.created_at, last.created_at, "", cap)
