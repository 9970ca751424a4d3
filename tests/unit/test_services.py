from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest

from memoryd.core.embed_roles import EmbedRole
from memoryd.core.errors import InvalidRequest, NotFound, PermissionDenied
from memoryd.core.models import Actor, ArmHit, MemoryDraft, MemoryPatch, RecallQuery, Scope
from memoryd.core.pii import PiiPolicy
from memoryd.core.ranking import FusionWeights, RecallTuning
from memoryd.core.validation import Limits
from memoryd.services.archive import ArchiveService
from memoryd.services.event_log import EventLog
from memoryd.services.memorize import MemorizeService
from memoryd.services.pii_floor import PiiFloor
from memoryd.services.recall import RecallService
from memoryd.services.retrievals import RetrievalLog
from tests.fakes import FrozenClock, HashEmbedder, InMemoryEventLog, InMemoryStore, PairwiseNeighbours
from tests.unit.conftest import World

ME = Actor("t1", "a1")


@pytest.fixture
def parts() -> tuple[InMemoryStore, HashEmbedder, FrozenClock]:
    return InMemoryStore(), HashEmbedder(), FrozenClock()


def services(
    store: InMemoryStore, emb: HashEmbedder, clock: FrozenClock
) -> tuple[MemorizeService, RecallService, ArchiveService, RetrievalLog]:
    log, trail = RetrievalLog(store, clock), EventLog(InMemoryEventLog(), clock)
    floor = PiiFloor(lambda _: PiiPolicy.OFF)
    return (
        MemorizeService(store, emb, clock, Limits(), 0.15, trail=trail, pii=floor, neighbours=PairwiseNeighbours()),
        RecallService(store, emb, clock, log, Limits(), RecallTuning(FusionWeights(), 0.2)),
        ArchiveService(store, emb, clock, Limits(), trail=trail, pii=floor),
        log,
    )


async def test_memorize_merges_near_duplicate_and_merges_tags(parts) -> None:
    mem, *_ = services(*parts)
    clock = parts[2]
    first = await mem.memorize(ME, MemoryDraft(content="Caroline likes espresso", tags=("coffee",)))
    clock.advance(minutes=5)
    again = await mem.memorize(ME, MemoryDraft(content="caroline likes espresso!", tags=("drinks",)))
    assert again.deduplicated and again.memory.memory_id == first.memory.memory_id
    assert again.memory.tags == ("coffee", "drinks")
    assert again.memory.updated_at == first.memory.created_at + timedelta(minutes=5)
    assert len(parts[0].rows) == 1


async def test_memorize_does_not_dedup_against_other_agents_private(parts) -> None:
    mem, *_ = services(*parts)
    await mem.memorize(Actor("t1", "a2"), MemoryDraft(content="Caroline likes espresso"))
    result = await mem.memorize(ME, MemoryDraft(content="Caroline likes espresso"))
    assert not result.deduplicated and len(parts[0].rows) == 2


async def test_batch_is_all_or_nothing(parts) -> None:
    mem, *_ = services(*parts)
    with pytest.raises(InvalidRequest) as err:
        await mem.memorize_batch(ME, [MemoryDraft(content="fine"), MemoryDraft(content="")], False)
    assert err.value.field == "items[1].content"
    assert parts[0].rows == {}


async def test_batch_dedups_within_the_batch_unless_skipped(parts) -> None:
    mem, *_ = services(*parts)
    drafts = [MemoryDraft(content="the garden has tomatoes"), MemoryDraft(content="The garden has tomatoes.")]
    results = await mem.memorize_batch(ME, drafts, False)
    assert [r.deduplicated for r in results] == [False, True]
    results = await mem.memorize_batch(Actor("t1", "a9"), drafts, True)
    assert [r.deduplicated for r in results] == [False, False]


async def test_recall_fuses_arms_and_records_retrievals_write_behind(parts) -> None:
    mem, recall, archive, log = services(*parts)
    target = await mem.memorize(ME, MemoryDraft(content="Melanie went hiking in the mountains"))
    await mem.memorize(ME, MemoryDraft(content="Tomatoes grow in the garden"))
    hits = await recall.recall(RecallQuery(ME, "hiking mountains", limit=5))
    assert hits[0].memory.memory_id == target.memory.memory_id
    assert hits[0].parts.vector_rank == 1 and hits[0].parts.full_text_rank == 1
    assert (await archive.get(ME, target.memory.memory_id)).retrieval_count == 0  # not written yet
    await log.flush()
    assert (await archive.get(ME, target.memory.memory_id)).retrieval_count == 1


async def test_update_and_forget_respect_ownership(parts) -> None:
    mem, _, archive, _ = services(*parts)
    shared = await mem.memorize(Actor("t1", "a2"), MemoryDraft(content="deploys happen on friday", scope=Scope.SHARED))
    with pytest.raises(PermissionDenied):
        await archive.update(ME, shared.memory.memory_id, MemoryPatch(subject="x"))
    with pytest.raises(PermissionDenied):
        await archive.forget(ME, shared.memory.memory_id)
    with pytest.raises(NotFound):
        await archive.get(Actor("t2", "a2"), shared.memory.memory_id)


async def test_update_content_reembeds(parts) -> None:
    mem, _, archive, _ = services(*parts)
    emb = parts[1]
    m = await mem.memorize(ME, MemoryDraft(content="old words here"))
    calls = emb.calls
    updated = await archive.update(ME, m.memory.memory_id, MemoryPatch(content="brand new text"))
    assert emb.calls == calls + 1 and updated.content_hash != m.memory.content_hash
    await archive.update(ME, m.memory.memory_id, MemoryPatch(salience=0.9))
    assert emb.calls == calls + 1


async def test_full_text_prefix_matches_only_fill_after_whole_words(parts) -> None:
    class PrefixAwareStore(InMemoryStore):
        """The fake treats a term as a prefix only when the query carries prefix terms."""

        async def full_text(self, actor, query, flt, limit, require_all):
            hits = await super().full_text(actor, query, flt, limit, require_all)
            if query.prefix_terms:
                seen = {h.memory_id for h in hits}
                for record, _ in self._visible(actor, flt):
                    if record.memory_id not in seen and any(
                        w.startswith(p) for p in query.prefix_terms for w in record.content.lower().split()
                    ):
                        hits.append(ArmHit(record.memory_id, 0.5, record.occurred_at))
            return hits[:limit]

    store, emb, clock = PrefixAwareStore(), parts[1], parts[2]
    mem, recall, *_ = services(store, emb, clock)
    whole = await mem.memorize(ME, MemoryDraft(content="the car broke down"))
    prefix = await mem.memorize(ME, MemoryDraft(content="a new career in nursing"))
    hits = await recall.full_text_arm(RecallQuery(ME, "car", limit=5))
    assert [h.memory_id for h in hits] == [whole.memory.memory_id, prefix.memory.memory_id]


async def test_recall_fills_up_to_limit_under_the_floor_after_every_fused_hit() -> None:
    from memoryd.core.models import RecallArms, RecallQuery
    from memoryd.core.ranking import FusionWeights, RecallTuning

    store, emb, clock = InMemoryStore(), HashEmbedder(), FrozenClock()
    memorize, _, _, log = services(store, emb, clock)
    strict = RecallService(store, emb, clock, log, Limits(), RecallTuning(FusionWeights(), 0.99))
    me = Actor("t1", "a1")
    for text in ("lisbon trip in may", "chess club on thursdays", "the quarterly report is late"):
        await memorize.memorize(me, MemoryDraft(text))
    hits = await strict.recall(RecallQuery(me, "lisbon", limit=3))
    assert hits[0].memory.content == "lisbon trip in may" and len(hits) == 3
    assert hits[0].parts.fused > 0 and all(h.parts.fused == 0.0 for h in hits[1:])  # fill-ins come after, fused 0
    assert len(await strict.recall(RecallQuery(me, "lisbon", limit=2))) == 2
    assert len(await strict.recall(RecallQuery(me, "lisbon", limit=5, arms=RecallArms.FULL_TEXT))) == 1


async def test_the_embedding_backfill_looks_only_where_writes_left_pending_rows(world: World) -> None:
    await world.app.memory.memorize.memorize(Actor("t1", "a1"), MemoryDraft("a stored memory"))
    await world.app.memory.backfill.run_once()  # the first pass looks at every tenant (rows left by a stopped process)
    assert world.store.pending_reads == 1
    await world.app.memory.backfill.run_once()
    await world.app.memory.backfill.run_once()
    assert world.store.pending_reads == 1  # nothing written during an outage since: no table is read
    world.app.memory.backfill.note("t1")
    await world.app.memory.backfill.run_once()
    assert world.store.pending_reads == 2


class _SlowCounts(InMemoryStore):
    """A store whose count writes wait for a gate: a flush stays in flight until the test opens it."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()

    async def record_retrievals(self, tenant_id: str, recalled: Any, injected: Any, at: Any) -> None:
        await self.gate.wait()
        await super().record_retrievals(tenant_id, recalled, injected, at)


async def test_retrieval_flush_returns_only_after_a_flush_already_under_way_wrote(parts) -> None:
    store = _SlowCounts()
    mem, _, _, log = services(store, parts[1], parts[2])
    written = (await mem.memorize(ME, MemoryDraft(content="the espresso machine needs descaling"))).memory
    log.note("t1", [written.memory_id])
    periodic = asyncio.create_task(log.flush())  # takes the buffer, then waits on the store
    await asyncio.sleep(0)
    explicit = asyncio.create_task(log.flush())
    await asyncio.sleep(0.01)
    assert not explicit.done()  # before: it found the buffer empty and returned at once
    store.gate.set()
    await asyncio.gather(periodic, explicit)
    assert store.rows[written.memory_id][0].retrieval_count == 1


class _GatedEmbedder(HashEmbedder):
    """An embedder whose calls wait for a gate: the query's embedding stays under way until the test opens it."""

    def __init__(self, fails: bool = False) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.fails = fails

    async def embed(self, texts: Any, role: EmbedRole = EmbedRole.DOCUMENT) -> list[list[float]]:
        await self.gate.wait()
        if self.fails:
            raise InvalidRequest("query_embedding", "refused (test)")
        return await super().embed(texts, role)


class _SeenTiers(InMemoryStore):
    def __init__(self) -> None:
        super().__init__()
        self.asked = asyncio.Event()

    async def full_text_tiers(self, *args: Any, **kwargs: Any) -> list[ArmHit]:
        self.asked.set()
        return await super().full_text_tiers(*args, **kwargs)


def _recall_with(store: InMemoryStore, emb: HashEmbedder, clock: FrozenClock) -> RecallService:
    return RecallService(store, emb, clock, RetrievalLog(store, clock), Limits(), RecallTuning(FusionWeights(), 0.2))


async def test_the_full_text_arm_runs_while_the_query_is_embedded(parts) -> None:
    store, emb = _SeenTiers(), HashEmbedder()
    mem, *_ = services(store, emb, parts[2])
    await mem.memorize(ME, MemoryDraft(content="the espresso machine needs descaling"))
    gated = _GatedEmbedder()
    recall = _recall_with(store, gated, parts[2])

    answer = asyncio.create_task(recall.recall(RecallQuery(ME, "espresso machine", 5)))
    await asyncio.wait_for(store.asked.wait(), 1)  # asked while the embedding waits
    assert not answer.done()
    gated.gate.set()
    assert [h.memory.content for h in await answer] == ["the espresso machine needs descaling"]

    failing = _GatedEmbedder(fails=True)
    failing.gate.set()
    broken = _recall_with(store, failing, parts[2])
    with pytest.raises(InvalidRequest):  # the embedder's error reaches the caller; the text arm is given up
        await broken.recall(RecallQuery(ME, "espresso machine", 5))


class _SlowGet(InMemoryStore):
    """A store whose ``get``, once armed, waits for the annotations' page to have been asked."""

    def __init__(self) -> None:
        super().__init__()
        self.armed = False
        self.paged = asyncio.Event()

    async def get(self, actor: Actor, memory_id: str) -> Any:
        if self.armed:
            await asyncio.wait_for(self.paged.wait(), 1)  # times out if the page is only asked afterwards
        return await super().get(actor, memory_id)

    async def page_ids(self, *args: Any, **kwargs: Any) -> list[str]:
        self.paged.set()
        return await super().page_ids(*args, **kwargs)


async def test_a_memory_and_its_annotations_are_read_side_by_side_and_a_missing_one_is_not_found(parts) -> None:
    store = _SlowGet()
    mem, _, archive, _ = services(store, HashEmbedder(), parts[2])
    noted = await mem.memorize(ME, MemoryDraft(content="the espresso machine needs descaling"))
    note = await mem.memorize(ME, MemoryDraft(content="descaled it on Friday", source_id=noted.memory.memory_id))
    store.armed = True

    record, annotations = await archive.get_annotated(ME, noted.memory.memory_id)

    assert record.memory_id == noted.memory.memory_id
    assert annotations == [note.memory.memory_id]
    with pytest.raises(NotFound):
        await archive.get_annotated(ME, "0" * 32)
    with pytest.raises(InvalidRequest):
        await archive.get_annotated(ME, "x' OR 1=1")
