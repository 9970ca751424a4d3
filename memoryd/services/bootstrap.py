"""Bootstrap: compile an agent's archive into its profile with one model call.

``compile`` is the body of one agent's job (BOOTSTRAP kind, keys from
``core.jobs.bootstrap_key`` / ``regenerate_key``); ``run_batch`` is the body of
the batch over every agent (BOOTSTRAP_ALL). Both converge when re-run:

- an agent whose current profile was already written by this very job is done
  without a model call (a crash between the profile swap and the ledger write);
- the profile is written through ``ProfileService.rewrite`` (Pinned kept, budget
  enforced, demoted lines filed with dedup, compare-and-swap), so at most once;
- the batch re-drives failed agents only at its start; the done flag is set
  only when every agent succeeded or had nothing to compile.
"""

from __future__ import annotations

import hashlib

from memoryd.core.answer_schemas import PROFILE
from memoryd.core.errors import ModelOutputInvalid, PreconditionFailed
from memoryd.core.job_records import (
    SYSTEM_TENANT,
    JobKind,
    JobRecord,
    JobResult,
    JobState,
    Outcome,
    bootstrap_all_key,
    bootstrap_done_flag,
    bootstrap_key,
    regenerate_key,
    tally_batch,
)
from memoryd.core.model_output import profile_proposal
from memoryd.core.models import Actor, MemoryFilter, MemoryRecord
from memoryd.core.ports import AgentDirectory, MemoryStore, TokenCounter
from memoryd.core.prompts import BOOTSTRAP_PROMPT
from memoryd.core.validation import check_actor
from memoryd.services.job_runner import Defer, JobContext
from memoryd.services.job_service import JobService
from memoryd.services.profile import ProfileService

_PAGE = 500
_USER_TURN = "Compile the profile now. Answer with the JSON object only."


class BootstrapService:
    """Per-agent compilation and the batch over all agents."""

    def __init__(
        self,
        store: MemoryStore,
        directory: AgentDirectory,
        profile: ProfileService,
        jobs: JobService,
        counter: TokenCounter,
        *,
        schema_version: int,
        archive_tokens: int,
        batch_check_seconds: float = 1.0,
    ) -> None:
        self._store = store
        self._directory = directory
        self._profile = profile
        self._jobs = jobs
        self._counter = counter
        self.schema_version = schema_version
        self._archive_tokens = archive_tokens
        self._batch_check_seconds = batch_check_seconds

    # -- enqueueing -------------------------------------------------------------

    async def regenerate(self, actor: Actor) -> JobRecord:
        """RegenerateProfile: one job per (agent, current revision); asking twice returns the same job."""
        check_actor(actor)
        current = await self._profile.get(actor)
        key = regenerate_key(actor.tenant_id, actor.agent_id, current.revision)
        return await self._jobs.enqueue(JobKind.REGENERATE, actor.tenant_id, key, actor.agent_id, redrive=True)

    async def start_batch(self, defer_seconds: float = 0, *, every_agent: bool = False) -> JobRecord | None:
        """Queue the batch unless this schema version is done (None then); re-drives a failed batch.

        ``every_agent`` (``memoryd bootstrap --all``): once the version is done, agents created since
        that never had a bootstrap of it get a batch of their own (the others' jobs are done and
        stay so); None when there are none.
        """
        since = ""
        if await self._jobs.flag(bootstrap_done_flag(self.schema_version)):
            if not every_agent or not (missing := await self.never_compiled()):
                return None
            since = hashlib.sha256(repr(sorted(missing)).encode()).hexdigest()[:12]  # the same agents, one batch
        return await self._jobs.enqueue(
            JobKind.BOOTSTRAP_ALL,
            SYSTEM_TENANT,
            bootstrap_all_key(self.schema_version, since),
            redrive=True,
            defer_seconds=defer_seconds,
        )

    async def never_compiled(self) -> list[tuple[str, str]]:
        """The agents (tenant, agent) with no bootstrap job of this schema version."""
        agents = await self._directory.agents()
        keys = [(tenant_id, bootstrap_key(tenant_id, agent_id, self.schema_version)) for tenant_id, agent_id in agents]
        records = await self._jobs.records(keys)
        return [agent for agent, record in zip(agents, records, strict=True) if record is None]

    # -- bodies -----------------------------------------------------------------

    async def compile(self, ctx: JobContext) -> JobResult:
        """One agent: archive → one model call → guarded profile rewrite."""
        rec = ctx.record
        actor = Actor(rec.tenant_id, rec.agent_id)
        origin = _origin(rec.key)
        current = await self._profile.get(actor)
        if current.source == f"rewrite:{origin}":
            return {"outcome": Outcome.ALREADY_COMPILED, "revision": current.revision}
        lines = await self._archive_lines(actor)
        if not lines:
            return {"outcome": Outcome.NOTHING_TO_COMPILE}
        prompt = BOOTSTRAP_PROMPT.format(
            budget_tokens=current.budget_tokens, profile=current.document or "(empty)", memories="\n".join(lines)
        )
        answer, tokens_in, tokens_out = await ctx.chat.complete_json(
            prompt, _USER_TURN, schema=PROFILE, check=profile_proposal
        )
        proposal = profile_proposal(answer)
        result = await self._profile.rewrite(actor, proposal.profile, proposal.demoted, origin, base=current)
        if not result.applied:
            raise ModelOutputInvalid(f"the generated profile was refused: {result.reason}")
        return {
            "outcome": Outcome.COMPILED,
            "revision": result.profile.revision,
            "memories_read": len(lines),
            "tokens_in": tokens_in,
            "tokens_out": tokens_out,
            "filed_memories": result.filed_memories,
            "model": ctx.chat.model_name,
        }

    async def run_batch(self, ctx: JobContext) -> JobResult:
        """Fan out one job per agent (first pass), then wait for all of them; set the done flag."""
        version = self.schema_version
        agents = _interleaved(await self._directory.agents())
        before = ctx.record.result
        first_pass = not before.get("fanned_out")
        keys = [(tenant_id, bootstrap_key(tenant_id, agent_id, version)) for tenant_id, agent_id in agents]
        if first_pass:  # failed agents re-driven at the batch's start only
            jobs = [(tenant_id, key, agent_id) for (tenant_id, agent_id), (_, key) in zip(agents, keys, strict=True)]
            children: list[JobRecord | None] = list(
                await self._jobs.enqueue_many(JobKind.BOOTSTRAP, jobs, redrive=True)
            )
        else:
            children = await self._jobs.records(keys)
        states: dict[JobState, int] = {}
        compiled = nothing = 0
        for (tenant_id, agent_id), (_, key), child in zip(agents, keys, children, strict=True):
            if child is None:  # an agent that appeared since the fan-out
                child = await self._jobs.enqueue(JobKind.BOOTSTRAP, tenant_id, key, agent_id)
            states[child.state] = states.get(child.state, 0) + 1
            outcome = child.result.get("outcome")
            compiled += outcome in (Outcome.COMPILED, Outcome.ALREADY_COMPILED)
            nothing += outcome == Outcome.NOTHING_TO_COMPILE
        at = tally_batch(states, len(agents), ctx.now().timestamp(), before, self._batch_check_seconds)
        summary: JobResult = {"fanned_out": True, **at.summary, "compiled": compiled, "nothing_to_compile": nothing}
        told = f"{at.succeeded} succeeded, {at.failed} failed, {at.remaining} remaining"
        await ctx.progress(at.finished, len(agents), told, summary)
        if at.remaining:
            raise Defer(at.wait, JobState.RUNNING, f"waiting for {at.remaining} agents")
        if at.failed:
            raise PreconditionFailed(
                f"{at.failed} of {len(agents)} agents failed; the done flag stays unset and "
                "the next daemon start re-drives them"
            )
        await self._jobs.set_flag(bootstrap_done_flag(version))
        return summary

    async def _archive_lines(self, actor: Actor) -> list[str]:
        """The agent's visible memories, newest first, as dated lines within the prompt's token share.

        Not those written while serving a contact (private rows carry their end_user_id): the profile
        is in every contact's context, and what was said serving one is not every contact's.
        """
        records: list[MemoryRecord] = []
        after = ""
        while True:
            page = await self._store.page(actor, MemoryFilter(), after, _PAGE)
            records.extend(r for r in page if not r.end_user_id)
            if len(page) < _PAGE:
                break
            after = page[-1].memory_id
        records.sort(key=lambda r: r.occurred_at, reverse=True)
        lines: list[str] = []
        used = 0
        for record in records:
            line = f"- [{record.occurred_at:%Y-%m-%d}] {record.content}"
            cost = self._counter.count(line) + 1
            if used + cost > self._archive_tokens:
                break
            lines.append(line)
            used += cost
        return lines


def _origin(key: str) -> str:
    """``bootstrap:v1`` / ``regenerate:r7``: what the rewrite records as its source."""
    kind, _, rest = key.partition(":")
    return f"{kind}:{rest.rsplit(':', 1)[-1]}"


def _interleaved(agents: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Round-robin over tenants, so the queue's order does not hand every slot to the first tenant."""
    by_tenant: dict[str, list[tuple[str, str]]] = {}
    for pair in agents:
        by_tenant.setdefault(pair[0], []).append(pair)
    columns = list(by_tenant.values())
    return [column[i] for i in range(max(map(len, columns), default=0)) for column in columns if i < len(column)]
