"""The GRAPH_EXTRACT job: one model call turns a compaction's summary into memory-graph facts.

Queued by the COMPACT job right after it commits (so a compaction costs at most one more model
call), only for agents whose ``graph.enabled`` resolves on and only when a model is configured:
without one nothing is extracted and nothing pretends it was. The answer is validated before
anything is written; names and sentences pass the PII floor (memoryd's derived text is always
redacted); facts land ``pending`` under ``graph.write_approval``. A re-run converges: the episode
id comes from the job key, and a fact restated by the same episode does not count twice.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from datetime import UTC, datetime

from memoryd.core.answer_schemas import GRAPH
from memoryd.core.conversation import extraction_lease
from memoryd.core.errors import InvalidRequest, Unavailable
from memoryd.core.graph import EXTRACTED_CONFIDENCE, EntityType, Episode, Fact, FactStatus, GraphScope
from memoryd.core.job_records import JobResult, Outcome
from memoryd.core.model_output import ExtractedFact, graph_facts
from memoryd.core.models import Actor, Scope
from memoryd.core.ports import ConversationStore
from memoryd.core.working import summary_id
from memoryd.services.agent_config import AgentConfigService
from memoryd.services.graph import Assertion, GraphService
from memoryd.services.job_runner import JobContext
from memoryd.services.pii_floor import PiiFloor

GRAPH_PROMPT = """You extract a knowledge graph from a dated conversation summary.
Return a JSON object {{"facts": [...]}} with at most 20 facts. Each fact is an object:
{{"subject": "<entity name>", "subject_type": "person|organization|place|topic|product|event|other",
  "predicate": "<snake_case relation, e.g. billing_contact, works_at, lives_in, likes>",
  "object": "<entity name or value>", "object_type": "person|organization|place|topic|product|event|other",
  "fact": "<the fact as one plain sentence>", "valid_from": "<YYYY-MM-DD when it became true, or empty>",
  "confidence": <0-1: how plainly the summary states it (1: said outright; 0.5: implied)>}}
Only facts the summary states; no guesses. Use the same predicate for the same relation.
{known}
Summary ({first_date} to {last_date}):
{summary}
"""
KNOWN_FACTS = """
Facts already known (label: fact). When a new fact makes one of them no longer true, add
"invalidates": ["<label>", ...] to the new fact; leave it out when unsure.
{lines}
"""
_USER_TURN = "Answer with the JSON object only."
KNOWN_LIMIT = 15
"""Known facts shown to the model, so it can judge which a new fact ends."""


def extraction_prompt(first_date: str, last_date: str, summary: str, known: Sequence[str]) -> str:
    """The extraction call's prompt: the summary and the known facts, labelled F1, F2, … in order."""
    lines = "\n".join(f"F{n}: {sentence}" for n, sentence in enumerate(known, start=1))
    return GRAPH_PROMPT.format(
        first_date=first_date,
        last_date=last_date,
        summary=summary,
        known=KNOWN_FACTS.format(lines=lines) if known else "",
    )


def graph_key(conversation_id: str, from_seq: int, to_seq: int) -> str:
    """One extraction per compaction stretch."""
    return f"graph:{conversation_id}:{from_seq}-{to_seq}"


def parse_graph_key(key: str) -> tuple[str, int, int]:
    """(conversation_id, from_seq, to_seq) of an extraction key (conversation ids may contain ':')."""
    body = key.removeprefix("graph:")
    conversation_id, _, span = body.rpartition(":")
    first, _, last = span.partition("-")
    return conversation_id, int(first), int(last)


class GraphExtraction:
    """The GRAPH_EXTRACT job body."""

    def __init__(
        self, store: ConversationStore, graph: GraphService, configs: AgentConfigService, *, pii: PiiFloor
    ) -> None:
        self._store = store
        self._graph = graph
        self._configs = configs
        self._pii = pii

    async def _known(self, reader: Actor, text: str) -> list[Fact]:
        """The current facts the conversation's actor sees nearest the summary (what a new fact may end)."""
        try:
            answer = await self._graph.search(reader, text[:4096], max_hops=1, limit=KNOWN_LIMIT)
        except Unavailable:  # no embedder now: the rules alone decide
            return []
        return [h.fact for h in answer.hits]

    async def run(self, ctx: JobContext) -> JobResult:
        """Extract, validate, assert; one model call (under the conversation's lease: an erasure waits for it)."""
        conversation_id, first, last = parse_graph_key(ctx.record.key)
        async with ctx.exclusive(extraction_lease(ctx.record.tenant_id, conversation_id)):
            return await self._run(ctx, conversation_id, first, last)

    async def _run(self, ctx: JobContext, conversation_id: str, first: int, last: int) -> JobResult:
        rec = ctx.record
        tenant = rec.tenant_id
        conv = await self._store.state(tenant, conversation_id)
        summaries = await self._store.summaries(tenant, conversation_id, [summary_id(conversation_id, first, last, 0)])
        if conv is None or not summaries or not ctx.chat.available:
            return {"outcome": Outcome.NOTHING_TO_EXTRACT}
        summary = summaries[0]
        settings = await self._configs.values(tenant, conv.agent_id)
        if not settings["graph.enabled"]:
            return {"outcome": Outcome.NOTHING_TO_EXTRACT}
        known = await self._known(Actor(tenant, conv.agent_id, conv.end_user_id), summary.text)
        prompt = extraction_prompt(
            f"{summary.first_at:%Y-%m-%d}", f"{summary.last_at:%Y-%m-%d}", summary.text, [f.sentence for f in known]
        )
        labels = {f"F{n}": f.fact_id for n, f in enumerate(known, start=1)}
        model = str(settings["working.compaction_model"])
        # The answer is kept with the conversation: a re-run (a retry after a later step failed) reuses
        # it, so one compaction costs at most one extraction call.
        blob_id = f"{conversation_id}:blob:{rec.key}:graph"
        kept = await self._store.blob(tenant, conversation_id, blob_id)
        if kept is None:
            # the whole answer is refused before anything is kept or written
            answer, tokens_in, tokens_out = await ctx.chat.complete_json(
                prompt, _USER_TURN, model, GRAPH, check=graph_facts
            )
            kept = json.dumps({"answer": answer, "tokens_in": tokens_in, "tokens_out": tokens_out})
            await self._store.put_blob(tenant, conversation_id, blob_id, kept)
        data = json.loads(kept)
        proposed = graph_facts(data["answer"])
        tokens_in, tokens_out = int(data["tokens_in"]), int(data["tokens_out"])
        where = (
            GraphScope(Scope.END_USER, "", conv.end_user_id)
            if conv.end_user_id
            else GraphScope(Scope.PRIVATE, conv.agent_id)
        )
        episode_id = hashlib.sha256(f"{tenant}\x1f{rec.key}".encode()).hexdigest()[:32]
        status = FactStatus.PENDING if settings["graph.write_approval"] else FactStatus.ACTIVE
        counts = {"asserted": 0, "skipped": 0, "invalidated": 0}
        entities: set[str] = set()
        for item in proposed:
            try:
                claim = self._graph.checked_extraction(tenant, _assertion(item))
            except InvalidRequest:  # a name or predicate the rules refuse: that fact only
                counts["skipped"] += 1
                continue
            judged = tuple(labels[x] for x in item.invalidates if x in labels)
            done = await self._graph.assert_fact(tenant, where, claim, episode_id, status, judged=judged)
            counts["asserted"] += 1
            counts["invalidated"] += len(done.invalidated)
            entities |= {done.fact.subject_id, done.fact.object_id}
        episode = Episode(
            episode_id,
            "extraction",
            where,
            conversation_id,
            summary.last_at,
            facts=counts["asserted"],
            entities=len(entities),
            model=model or ctx.chat.model_name,
            tokens_in=tokens_in,
            tokens_out=tokens_out,
            digest=self._pii.derived(summary.text)[:600],
        )
        await self._graph.store_episode(tenant, episode)
        return {
            "outcome": Outcome.EXTRACTED,
            **counts,
            "pending": status is FactStatus.PENDING,
            "model_calls": 1,
            "tokens_in": tokens_in,
            "tokens_out": tokens_out,
        }


def _assertion(item: ExtractedFact) -> Assertion:
    return Assertion(
        item.subject,
        item.predicate,
        item.object,
        item.fact,
        _entity_type(item.subject_type),
        _entity_type(item.object_type),
        _date(item.valid_from),
        EXTRACTED_CONFIDENCE if item.confidence is None else item.confidence,
    )


def _entity_type(value: str) -> EntityType:
    try:
        return EntityType(value.casefold())
    except ValueError:
        return EntityType.OTHER


def _date(value: str) -> datetime | None:
    try:
        return datetime.strptime(value, "%Y-%m-%d").replace(tzinfo=UTC) if value else None
    except ValueError:
        return None
