"""GRAPH_EXTRACT on real Valkey, arq and LanceDB with the scriptable provider: one more call, facts, approval."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import grpc
import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import App
from memoryd.core.conversation import MessageInput, Role
from memoryd.core.errors import PreconditionFailed
from memoryd.core.graph import FactStatus
from memoryd.core.job_records import JobKind, JobRecord, JobState
from memoryd.core.models import Actor
from memoryd.rpc.client import GraphServiceStub, gr
from memoryd.rpc.server import serving
from memoryd.testing.provider import FakeProvider
from tests.jobs.conftest import job_settings, running, wait_for

ME = Actor("acme", "a1", "u1")
OPS = Actor("acme", "ops")
START = datetime(2026, 9, 20, 9, 0, tzinfo=UTC)
SUMMARY = json.dumps({"summary": "Since October Omar handles billing at Acme; the user likes espresso."})
MAINTENANCE = json.dumps({"memories": [], "profile": "## Billing\n- Omar handles billing at Acme"})
GRAPH = json.dumps(
    {
        "facts": [
            {
                "subject": "Acme",
                "subject_type": "organization",
                "predicate": "billing contact",
                "object": "Omar",
                "object_type": "person",
                "fact": "Omar handles billing at Acme from October; reach him at omar@acme.example.",
                "valid_from": "2026-10-01",
            },
            {"subject": "Acme", "predicate": "!!", "object": "x", "fact": "refused predicate"},
        ]
    }
)


HEADQUARTERS = {"subject": "Acme", "predicate": "headquarters", "object": "Lisbon", "fact": "Acme sits in Lisbon."}
GRAPH_TWO = json.dumps({"facts": [*json.loads(GRAPH)["facts"], HEADQUARTERS]})
"""Two facts of one subject in one answer: both kept."""


async def _conversation(app: App, n: int = 6) -> None:
    for i in range(n):
        role = Role.USER if i % 2 == 0 else Role.ASSISTANT
        text = f"Message {i}: billing at Acme moves to Omar in October, and the espresso order stays the same."
        message = MessageInput(f"m{i}", role, text, START + timedelta(minutes=i))
        await app.working.conversations.append(ME, "c1", [message], context_window=300)


async def _extraction(app: App) -> JobRecord:
    return await wait_for(
        lambda: _first(app, JobKind.GRAPH_EXTRACT), timeout=60, until=lambda r: r.state is JobState.SUCCEEDED
    )


async def _first(app: App, kind: JobKind) -> JobRecord | None:
    records, _ = await app.jobs.service.list_jobs("acme", kind, None, "", 10, 0)
    return records[0] if records else None


async def test_a_compaction_of_an_agent_with_the_graph_on_extracts_facts_with_one_more_call(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.reply_with(SUMMARY, MAINTENANCE, GRAPH_TWO)
    async with running(job_settings(tmp_path, redis_url, provider), onnx_embedder) as app:
        await app.working.configs.set_agent(OPS, "a1", {"graph.enabled": True}, (), 0)
        await _conversation(app)
        compaction = await app.working.conversations.compact(ME, "c1")
        done = await wait_for(lambda: app.jobs.service.record("acme", compaction.key), timeout=60)
        assert done.state is JobState.SUCCEEDED, done.last_error
        extraction = await _extraction(app)
        assert extraction.result["asserted"] == 2 and extraction.result["skipped"] == 1
        kept, _ = await app.graph.list_facts(ME, None, "", 50, "")
        assert sorted(f.predicate for f in kept) == ["billing_contact", "headquarters"]
        assert provider.calls["/v1/chat/completions"] == 3  # summary, maintenance, graph: one more call
        calls = {"tenant": "acme", "model": "fake-model", "outcome": "ok"}
        assert app.metrics.registry.get_sample_value("memoryd_provider_calls_total", calls) == 3
        tokens = {"tenant": "acme", "model": "fake-model", "direction": "input"}
        assert (app.metrics.registry.get_sample_value("memoryd_provider_tokens_total", tokens) or 0) > 0
        answer = await app.graph.search(ME, "who handles billing at Acme")
        assert answer.hits[0].object == "Omar" and answer.hits[0].fact.predicate == "billing_contact"
        assert "omar@acme.example" not in answer.block and "[email]" in answer.block  # the PII floor ran first
        assert answer.hits[0].fact.sources  # provenance: the extraction's episode
        assert not (await app.graph.search(Actor("acme", "a1", "u2"), "who handles billing at Acme")).hits
        # GetContext ends with the block, after everything else, for the agent whose graph is on.
        parts = (await app.working.conversations.context(ME, "c1", 4000)).parts
        assert parts[-1].kind == "graph" and parts[-1].content == answer.block
        await app.working.configs.set_agent(OPS, "a1", {"graph.enabled": False}, (), 1)
        assert all(p.kind != "graph" for p in (await app.working.conversations.context(ME, "c1", 4000)).parts)


async def test_write_approval_keeps_extracted_facts_pending_and_an_agent_without_the_graph_gets_none(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.reply_with(SUMMARY, MAINTENANCE, GRAPH)
    async with running(job_settings(tmp_path, redis_url, provider), onnx_embedder) as app:
        await app.working.configs.set_tenant(OPS, {"graph.write_approval": True}, (), 0)
        with pytest.raises(PreconditionFailed, match=r"graph\.write_approval"):  # tighten-only below the tenant
            await app.working.configs.set_agent(
                OPS, "a1", {"graph.enabled": True, "graph.write_approval": False}, (), 0
            )
        await app.working.configs.set_agent(OPS, "a1", {"graph.enabled": True}, (), 0)
        assert (await app.working.configs.values("acme", "a1"))["graph.write_approval"] is True
        await _conversation(app)
        await app.working.conversations.compact(ME, "c1")
        await _extraction(app)
        assert not (await app.graph.search(ME, "who handles billing at Acme")).hits  # pending: invisible
        # The administrator's path, over gRPC alone: find every pending fact, approve it.
        async with serving(app, "127.0.0.1", 0, 1.0) as port, grpc.aio.insecure_channel(f"127.0.0.1:{port}") as ch:
            graph, admin = GraphServiceStub(ch), (("x-tenant-id", "acme"),)
            waiting = gr.ListFactsRequest(agent_id="a1", end_user_id="u1", status=gr.FACT_STATUS_PENDING)
            pending = (await graph.ListFacts(waiting, metadata=admin)).facts
            assert [f.object for f in pending] == ["Omar"]
            approve = gr.UpdateFactRequest(fact_id=pending[0].id, status=gr.FACT_STATUS_ACTIVE)
            await graph.UpdateFact(approve, metadata=admin)
            assert not (await graph.ListFacts(waiting, metadata=admin)).facts
        assert [h.object for h in (await app.graph.search(ME, "who handles billing at Acme")).hits] == ["Omar"]

        # The tenant turns the graph off: the next compaction queues no extraction (no model call).
        await app.working.configs.set_tenant(OPS, {"graph.enabled": False}, (), 1)
        provider.reply_with(SUMMARY, MAINTENANCE)
        before = provider.calls["/v1/chat/completions"]
        for i in range(6, 10):
            text = f"Message {i}: more about the espresso order and the billing handover at Acme."
            await app.working.conversations.append(
                ME, "c1", [MessageInput(f"m{i}", Role.USER, text, START + timedelta(minutes=i))]
            )
        again = await app.working.conversations.compact(ME, "c1")
        assert (
            await wait_for(lambda: app.jobs.service.record("acme", again.key), timeout=60)
        ).state is JobState.SUCCEEDED
        records, _ = await app.jobs.service.list_jobs("acme", JobKind.GRAPH_EXTRACT, None, "", 10, 0)
        assert len(records) == 1 and provider.calls["/v1/chat/completions"] == before + 2


def _graph_reply(name: str, since: str) -> str:
    return json.dumps(
        {
            "facts": [
                {
                    "subject": "Acme",
                    "subject_type": "organization",
                    "predicate": "billing_contact",
                    "object": name,
                    "object_type": "person",
                    "fact": f"{name} handles billing at Acme.",
                    "valid_from": since,
                }
            ]
        }
    )


async def test_the_billing_example_end_to_end_through_two_compactions(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.reply_with(SUMMARY, MAINTENANCE, _graph_reply("Nadia", "2026-09-01"))
    async with running(job_settings(tmp_path, redis_url, provider), onnx_embedder) as app:
        await app.working.configs.set_agent(OPS, "a1", {"graph.enabled": True}, (), 0)
        await _conversation(app)
        await app.working.conversations.compact(ME, "c1")
        await _extraction(app)
        provider.reply_with(SUMMARY, MAINTENANCE, _graph_reply("Omar", "2026-10-01"))
        for i in range(6, 12):
            text = f"Message {i}: from October Omar takes over the billing at Acme from Nadia."
            message = MessageInput(f"m{i}", Role.USER, text, START + timedelta(minutes=i))
            await app.working.conversations.append(ME, "c1", [message], context_window=300)
        second = await app.working.conversations.compact(ME, "c1")
        assert (
            await wait_for(lambda: app.jobs.service.record("acme", second.key), timeout=60)
        ).state is JobState.SUCCEEDED
        await wait_for(
            lambda: _first(app, JobKind.GRAPH_EXTRACT),
            timeout=60,
            until=lambda r: r.key != "graph:c1:1-2" and r.state is JobState.SUCCEEDED,
        )
        september = await app.graph.search(ME, "who handles billing at Acme", as_of=datetime(2026, 9, 16, tzinfo=UTC))
        assert [h.object for h in september.hits] == ["Nadia"]
        now = await app.graph.search(ME, "who handles billing at Acme")
        assert [h.object for h in now.hits] == ["Omar"]
        assert now.block.splitlines()[1] == "- [since 2026-10-01] Omar handles billing at Acme."
        nadia = september.hits[0].fact
        old, _, by = await app.graph.explain(ME, nadia.fact_id)
        assert (
            old.valid_to == datetime(2026, 10, 1, tzinfo=UTC)
            and by is not None
            and by.fact_id == now.hits[0].fact.fact_id
        )


async def test_a_fact_the_model_judges_incompatible_is_invalidated_only_within_its_subject(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    from memoryd.core.graph import GraphScope
    from memoryd.core.models import Scope
    from memoryd.services.graph import Assertion

    async with running(job_settings(tmp_path, redis_url, provider), onnx_embedder) as app:
        contact = GraphScope(Scope.END_USER, "", "u1")
        berlin = await app.graph.assert_human(
            OPS, contact, Assertion("Acme", "located_in", "Berlin", "Acme is in Berlin.")
        )
        ida = await app.graph.assert_human(OPS, contact, Assertion("Ida", "lives_in", "Berlin", "Ida lives in Berlin."))

        def answer(system: str, user: str) -> str:
            if "Facts already known" not in system:
                return GRAPH if '"facts"' in system else (SUMMARY if "summary" in system.lower() else MAINTENANCE)
            labels = {line.split(": ", 1)[1]: line.split(": ", 1)[0] for line in system.splitlines() if line[:1] == "F"}
            moved = {
                "subject": "Acme",
                "predicate": "headquarters",
                "object": "Lisbon",
                "fact": "Acme moved to Lisbon.",
                "invalidates": [labels["Acme is in Berlin."], labels["Ida lives in Berlin."]],
            }
            return json.dumps({"facts": [moved]})

        provider.reply_with(SUMMARY, MAINTENANCE)
        provider.answer_with(answer)
        await app.working.configs.set_agent(OPS, "a1", {"graph.enabled": True}, (), 0)
        await _conversation(app)
        await app.working.conversations.compact(ME, "c1")
        done = await _extraction(app)
        assert done.result["invalidated"] == 1
        old, _, by = await app.graph.explain(ME, berlin.fact.fact_id)
        assert old.status is FactStatus.INVALIDATED and by is not None and by.sentence == "Acme moved to Lisbon."
        kept, _, _ = await app.graph.explain(ME, ida.fact.fact_id)
        assert kept.status is FactStatus.ACTIVE  # another subject: a model's judgement never reaches it
