"""Re-embedding on real LanceDB: the embedded model → an OpenAI-compatible one (the scriptable provider).

Recall answers at every moment of the move, writes made during it land in both spaces, the switch
is per tenant, and switching back works; the vectors stored in the new space are the new model's.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import lancedb
import openai
import pytest

from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.rows import space_column
from memoryd.adapters.lance.spaces import LanceEmbeddingSpaces
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.adapters.openai.embedder import OpenAIEmbedder
from memoryd.app import App, build_app
from memoryd.config import ReembedSettings, Settings
from memoryd.core.errors import InvalidRequest, NotReady, PreconditionFailed, Unavailable
from memoryd.core.feedback import Signal
from memoryd.core.graph import GraphScope
from memoryd.core.models import Actor, MemoryDraft, MemoryPatch, RecallArms, RecallQuery, Scope
from memoryd.services.graph import Assertion
from memoryd.services.reembed import Progress, Reembed
from memoryd.testing.provider import FakeProvider, hashed_embedding
from tests.conftest import make_settings

MODEL, DIM = "fake-embed", 256
TOPICS = ["espresso", "glacier", "violin", "harbor", "quartz", "meadow", "lantern", "tundra"]


def _target(provider: FakeProvider) -> OpenAIEmbedder:
    client = openai.AsyncOpenAI(base_url=provider.base_url, api_key="test", max_retries=0)
    return OpenAIEmbedder(client, MODEL, DIM, send_dimensions=True)


@contextlib.asynccontextmanager
async def _reembedding(
    settings: Settings, embedder: OnnxMiniLMEmbedder, provider: FakeProvider
) -> AsyncIterator[tuple[App, Reembed]]:
    """An app re-embedding into the fake provider's model, and its re-embed service."""
    async with build_app(settings, embedder=embedder, reembed_target=_target(provider)) as app:
        assert app.memory.reembed is not None
        yield app, app.memory.reembed


def _optimizing(tmp_path: Path, **storage: Any) -> Settings:
    """A store whose tables every maintenance pass compacts and indexes (the finish and edits must cope)."""
    return make_settings(
        tmp_path / "data",
        reembed={"refresh_seconds": 0.01},
        storage={"maintenance_enabled": False, "optimize_min_fragments": 1, **storage},
    )


@pytest.fixture
def provider() -> Iterator[FakeProvider]:
    with FakeProvider() as p:
        yield p


async def test_a_store_moves_to_another_model_with_recall_answering_throughout(
    tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder, provider: FakeProvider
) -> None:
    settings = _optimizing(tmp_path, ann_min_rows=100)
    a, b = Actor("t-a", "agent"), Actor("t-b", "agent")
    async with _reembedding(settings, onnx_embedder, provider) as (app, job):
        for actor in (a, b):
            drafts = [MemoryDraft(f"note {i} about the {TOPICS[i % 8]} number {i}") for i in range(120)]
            await app.memory.memorize.memorize_batch(actor, drafts, True)
        assert [(p.tenant_id, p.missing, p.total, p.space) for p in await job.status(MODEL)] == [
            ("t-a", 120, 120, ""),
            ("t-b", 120, 120, ""),
        ]

        assert app.maintenance is not None
        await app.maintenance.maintain(full=True)  # compacted and indexed, as a daemon's upkeep leaves it
        await app.maintenance.settled()
        # Recall keeps answering while tenant a is filled and switched.
        answers: list[int] = []
        stop = asyncio.Event()

        async def recall_all_along() -> None:
            while not stop.is_set():
                hits = await app.memory.recall.recall(RecallQuery(a, "the glacier number 9", limit=5))
                answers.append(len(hits))
                assert any("glacier number 9" in h.memory.content for h in hits)
                await asyncio.sleep(0)

        reader = asyncio.create_task(recall_all_along())
        seen: list[Progress] = []
        done = await job.run(MODEL, ["t-a"], batch=16, on_progress=seen.append)
        stop.set()
        await reader
        assert len(answers) > 3 and min(answers) == 5
        assert [(p.tenant_id, p.missing, p.total, p.space) for p in done] == [("t-a", 0, 120, MODEL)]
        assert seen[-1].filled == 120 and seen[-1].total == 120 and seen[-1].eta_seconds == 0

        # Switched: a's Recall embeds the query with the new model and searches its vectors alone.
        calls = provider.calls["/v1/embeddings"]
        await asyncio.sleep(0.02)  # past refresh_seconds
        vector_only = RecallQuery(a, "lantern number 14", limit=3, arms=RecallArms.VECTOR)
        hits = await app.memory.recall.recall(vector_only)
        assert provider.calls["/v1/embeddings"] == calls + 1
        assert "lantern number 14" in hits[0].memory.content
        # b was not switched: its Recall stays on the embedded model (no provider call).
        await app.memory.recall.recall(RecallQuery(b, "lantern number 14", limit=3))
        assert provider.calls["/v1/embeddings"] == calls + 1

        # A large enough table gets an ANN index on the new space too; the switched tenant searches through it.
        assert app.maintenance is not None
        await app.maintenance.maintain(full=True)
        await app.maintenance.settled()  # the index builds beside the pass
        indexed = await (await lancedb.connect_async(str(tmp_path / "data"))).open_table("memories_t-a")
        assert f"{space_column(MODEL)}_idx" in [ix.name for ix in await indexed.list_indices()]
        assert "lantern number 14" in (await app.memory.recall.recall(vector_only))[0].memory.content

        # A write during the re-embed lands in both spaces at once (b's table has the column now too).
        await job.run(MODEL, ["t-b"], switch=False)
        new = await app.memory.memorize.memorize(b, MemoryDraft("the quartz clock in the hallway is slow"))
        edited = await app.memory.archive.update(
            a, (await app.memory.recall.recall(vector_only))[0].memory.memory_id, _patch()
        )
        progress = await job.status(MODEL, ["t-a", "t-b"])
        assert [(p.tenant_id, p.missing, p.total) for p in progress] == [("t-a", 0, 120), ("t-b", 0, 121)]
        stored = await _space_vectors(tmp_path / "data", ["t-a", "t-b"])
        assert stored[new.memory.memory_id] == pytest.approx(
            hashed_embedding("the quartz clock in the hallway is slow", DIM)
        )
        assert stored[edited.memory_id] == pytest.approx(hashed_embedding(edited.content, DIM))

        # Switching needs every row filled; switching back is one record and needs nothing.
        with pytest.raises(InvalidRequest, match="to"):
            await job.run("other-model", ["t-b"])
        back = await job.switch("", ["t-a"])
        assert [(p.tenant_id, p.space) for p in back] == [("t-a", "")]
        await asyncio.sleep(0.02)
        before = provider.calls["/v1/embeddings"]
        await app.memory.recall.recall(vector_only)
        assert provider.calls["/v1/embeddings"] == before  # the embedded model again


def _patch() -> MemoryPatch:
    return MemoryPatch(content="lantern number 14 now hangs by the door")


async def _space_vectors(data: Path, tenants: list[str]) -> dict[str, list[float]]:
    db = await lancedb.connect_async(str(data))
    out: dict[str, list[float]] = {}
    for tenant in tenants:
        table = await db.open_table(f"memories_{tenant}")
        rows = (await table.query().select(["id", space_column(MODEL)]).to_arrow()).to_pylist()
        out |= {r["id"]: r[space_column(MODEL)] for r in rows}
    return out


async def test_progress_counts_the_rows_a_run_stored_not_the_rows_it_read(
    tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder, provider: FakeProvider
) -> None:
    # Two runs over one tenant at once (two operators, or a run and a job) read the same unfilled rows;
    # each row is stored by one of them, and only that one may count it as filled.
    settings = make_settings(tmp_path / "data", storage={"maintenance_enabled": False})
    async with _reembedding(settings, onnx_embedder, provider) as (app, job):
        drafts = [MemoryDraft(f"note {i} about the {TOPICS[i % 8]} number {i}") for i in range(96)]
        await app.memory.memorize.memorize_batch(Actor("t-a", "agent"), drafts, True)
        first: list[Progress] = []
        second: list[Progress] = []
        await asyncio.gather(
            job.run(MODEL, ["t-a"], batch=16, on_progress=first.append),
            job.run(MODEL, ["t-a"], batch=16, on_progress=second.append),
        )
        assert [(p.missing, p.total) for p in await job.status(MODEL, ["t-a"])] == [(0, 96)]
        assert first and second
        assert first[-1].filled + second[-1].filled == 96  # read twice, stored once


async def test_progress_names_each_tenants_own_rows_and_status_refuses_another_model(
    tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder, provider: FakeProvider
) -> None:
    settings = make_settings(tmp_path / "data", storage={"maintenance_enabled": False})
    async with _reembedding(settings, onnx_embedder, provider) as (app, job):
        for tenant, count in (("t-a", 30), ("t-b", 20)):
            drafts = [MemoryDraft(f"note {i} about the {TOPICS[i % 8]} of {tenant}") for i in range(count)]
            await app.memory.memorize.memorize_batch(Actor(tenant, "agent"), drafts, True)
        seen: list[Progress] = []
        await job.run(MODEL, batch=8, on_progress=seen.append)
        last = {p.tenant_id: p for p in seen}
        assert (last["t-a"].tenant_filled, last["t-a"].tenant_total) == (30, 30)
        assert (last["t-b"].tenant_filled, last["t-b"].tenant_total, last["t-b"].filled, last["t-b"].total) == (
            20,
            20,
            50,
            50,
        )
        with pytest.raises(InvalidRequest, match=f"configured to re-embed to {MODEL!r}, not 'another-model'"):
            await job.status("another-model")


async def test_one_re_embed_at_a_time_and_switches_are_per_tenant_records(tmp_path: Path) -> None:
    db = await LanceDatabase.open(str(tmp_path / "data"), "base-model", 8)
    spaces = LanceEmbeddingSpaces(db)
    assert await spaces.target() is None and await spaces.active() == {}
    await spaces.begin(MODEL, DIM)
    await spaces.begin(MODEL, DIM)  # idempotent: a re-run resumes
    with pytest.raises(PreconditionFailed, match="under way"):
        await spaces.begin("other-model", DIM)
    await spaces.switch("t1", MODEL)
    await spaces.switch("t2", MODEL)
    await spaces.switch("t2", "")
    assert await spaces.target() == (MODEL, DIM) and await spaces.active() == {"t1": MODEL}
    db.close()


async def test_finishing_makes_the_new_model_the_stores_own(
    tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder, provider: FakeProvider
) -> None:
    # Tables optimized on every pass: the finish must work on compacted, indexed tables too.
    settings = _optimizing(tmp_path)
    a, late = Actor("t-a", "agent"), Actor("t-late", "agent")
    office = Assertion("Acme", "located_in", "Berlin", "Acme has its office in Berlin.")
    async with _reembedding(settings, onnx_embedder, provider) as (app, job):
        drafts = [MemoryDraft(f"note {i} about the {TOPICS[i % 8]} number {i}") for i in range(40)]
        await app.memory.memorize.memorize_batch(a, drafts, True)
        await app.graph.assert_human(a, GraphScope(Scope.TENANT), office)
        await job.run(MODEL)
        await app.memory.memorize.memorize(late, MemoryDraft("a tenant that arrived after the re-embed began"))
        with pytest.raises(PreconditionFailed, match="t-late"):
            await job.finish(MODEL)  # it still searches the store's model: finishing would strand it
        await job.run(MODEL, ["t-late"])
        assert app.maintenance is not None
        await app.maintenance.maintain(full=True)
        assert await job.finish(MODEL) == {"graph_entities": 2, "graph_facts": 1, "memories": 0}
        assert await job.finish(MODEL) == {}  # a re-run finds it done
    # The store is the new model's now: a daemon of the old one is refused, one of the new one works.
    with pytest.raises(NotReady, match=MODEL):
        async with build_app(settings.model_copy(update={"reembed": ReembedSettings()}), embedder=onnx_embedder):
            pass
    plain = settings.model_copy(update={"reembed": ReembedSettings()})
    async with build_app(plain, embedder=_target(provider)) as app:
        hits = await app.memory.recall.recall(RecallQuery(a, "lantern number 14", limit=3, arms=RecallArms.VECTOR))
        assert "lantern number 14" in hits[0].memory.content
        found = await app.graph.search(Actor("t-a", "agent"), "where is the Acme office")
        assert [h.object for h in found.hits] == ["Berlin"]
        new = await app.memory.memorize.memorize(a, MemoryDraft("the violin lesson moved to Thursday"))
        assert new.memory.embedding_model == MODEL
    table = await (await lancedb.connect_async(str(tmp_path / "data"))).open_table("memories_t-a")
    schema = await table.schema()
    assert schema.field("vector").type.list_size == DIM and space_column(MODEL) not in schema.names
    models = (await table.query().select(["embedding_model"]).to_arrow()).column("embedding_model").unique()
    assert models.to_pylist() == [MODEL]


async def test_rows_still_unfilled_can_be_edited_on_an_optimized_table(
    tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder, provider: FakeProvider
) -> None:
    """A row whose new-space vector is still null (the target was down) is tagged, edited, corrected as usual."""
    settings = _optimizing(tmp_path)
    me = Actor("t-a", "agent")
    async with _reembedding(settings, onnx_embedder, provider) as (app, job):
        stored = await app.memory.memorize.memorize_batch(
            me, [MemoryDraft(f"the {w} plan is ready") for w in TOPICS], True
        )
        ids = [r.memory.memory_id for r in stored]
        provider.outage(60, "503")
        with pytest.raises(Unavailable):
            await job.run(MODEL, ["t-a"])  # began, the column is there, nothing could be filled
        assert app.maintenance is not None
        await app.maintenance.maintain(full=True)
        await asyncio.sleep(0.02)  # past refresh_seconds: this process knows the re-embed began
        tagged = await app.memory.archive.update(me, ids[0], MemoryPatch(tags=("ops",)))
        edited = await app.memory.archive.update(me, ids[1], MemoryPatch(content="the glacier plan slipped a week"))
        await app.memory.feedback.feedback(me, ids[2], Signal.CORRECTION, "the violin plan is cancelled")
        assert tagged.tags == ("ops",) and edited.content == "the glacier plan slipped a week"
        (progress,) = await job.status(MODEL, ["t-a"])
        assert progress.missing == progress.total == len(TOPICS) + 1  # the correction's row too
        provider.outage(0)
        (done,) = await job.run(MODEL, ["t-a"])
        assert (done.missing, done.space) == (0, MODEL)
    vectors = await _space_vectors(tmp_path / "data", ["t-a"])
    assert vectors[ids[1]] == pytest.approx(hashed_embedding("the glacier plan slipped a week", DIM))
