"""Bootstrap jobs end to end: real Valkey, real arq workers, real LanceDB, the scriptable provider."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

from memoryd.adapters.arq_queue import ArqJobQueue, connect
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import App
from memoryd.core.job_records import (
    SYSTEM_TENANT,
    JobKind,
    JobRecord,
    JobState,
    bootstrap_all_key,
    bootstrap_done_flag,
    bootstrap_key,
)
from memoryd.core.models import Actor, EditKind, MemoryFilter, ProfileEdit
from memoryd.testing.provider import FakeProvider
from tests.jobs.conftest import PROFILE_REPLY, job_settings, nothing_queued, running, seed, wait_for

AGENTS = [("acme", "a1"), ("acme", "a2"), ("globex", "b1")]


async def _seed_all(app: App, agents: list[tuple[str, str]] = AGENTS) -> None:
    for tenant, agent in agents:
        await seed(app, tenant, agent, f"{agent} prefers answers in French", f"{agent} works on the billing team")


async def _batch(app: App) -> JobRecord:
    job = await app.jobs.bootstrap.start_batch()
    assert job is not None
    return await wait_for(lambda: app.jobs.service.record(SYSTEM_TENANT, job.key), timeout=45)


async def _regenerated(app: App, agent: str) -> JobRecord:
    """acme's ``agent``'s RegenerateProfile job once it has ended."""
    job = await app.jobs.bootstrap.regenerate(Actor("acme", agent))
    return await wait_for(lambda: app.jobs.service.record("acme", job.key))


async def test_a_503_outage_ends_with_every_profile_written_exactly_once(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.script("503", "503", "503", "503")
    provider.reply_with(*[PROFILE_REPLY] * 3)
    settings = job_settings(tmp_path, redis_url, provider)
    async with running(settings, onnx_embedder) as app:
        await _seed_all(app)
        batch = await _batch(app)
        assert batch.state == JobState.SUCCEEDED, batch
        assert await app.jobs.service.flag(bootstrap_done_flag(1))
        for tenant, agent in AGENTS:
            child = await app.jobs.service.get(tenant, bootstrap_key(tenant, agent, 1))
            assert child.state == JobState.SUCCEEDED and child.result["outcome"] == "compiled"
            profile = await app.working.profile.get(Actor(tenant, agent))
            assert profile.revision == 1 and "likes green tea" in profile.document
            assert len(await app.working.profile.revisions(Actor(tenant, agent), 10, 0)) == 1
        retried = [await app.jobs.service.get(t, bootstrap_key(t, a, 1)) for t, a in AGENTS]
        assert sum(r.attempts for r in retried) == 3 + 4  # every 503 cost one attempt of some agent
    assert provider.calls["/v1/chat/completions"] == 3 + 4


async def test_retry_after_is_honoured(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.script("429:1.5")
    provider.reply_with(PROFILE_REPLY, PROFILE_REPLY)
    settings = job_settings(tmp_path, redis_url, provider)
    async with running(settings, onnx_embedder) as app:
        await _seed_all(app, AGENTS[:1])
        done = await _regenerated(app, "a1")
    assert done.state == JobState.SUCCEEDED and done.attempts == 2
    chats = [r["at"] for r in provider.requests if r["path"].endswith("/chat/completions")]
    assert len(chats) == 2
    assert chats[1] - chats[0] >= 1.5  # backoff alone would have retried after at most 0.4 s


async def test_malformed_answers_fail_the_job_and_leave_the_profile(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.script("malformed")
    provider.reply_with('{"profile": 42}', '{"profile": 42}')
    settings = job_settings(tmp_path, redis_url, provider)
    async with running(settings, onnx_embedder) as app:
        await _seed_all(app, AGENTS[:2])
        failed = await _regenerated(app, "a1")
        assert failed.state == JobState.FAILED and failed.attempts == 1
        assert "not JSON" in failed.last_error
        wrong_shape = await _regenerated(app, "a2")
        assert wrong_shape.state == JobState.FAILED and "'profile'" in wrong_shape.last_error
        for agent in ("a1", "a2"):
            assert (await app.working.profile.get(Actor("acme", agent))).revision == 0
    assert provider.calls["/v1/chat/completions"] == 2  # permanent: never retried


async def test_enqueueing_the_same_key_twice_runs_once(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.reply_with(PROFILE_REPLY, PROFILE_REPLY)
    settings = job_settings(tmp_path, redis_url, provider)
    async with running(settings, onnx_embedder, workers=False) as app:
        await _seed_all(app, AGENTS[:1])
    async with running(settings, onnx_embedder) as app:
        key = bootstrap_key("acme", "a1", 1)
        first, second = await asyncio.gather(
            app.jobs.service.enqueue(JobKind.BOOTSTRAP, "acme", key, "a1"),
            app.jobs.service.enqueue(JobKind.BOOTSTRAP, "acme", key, "a1"),
        )
        assert first.run == second.run == 1 and first.created_at == second.created_at
        done = await wait_for(lambda: app.jobs.service.record("acme", key))
        again = await app.jobs.service.enqueue(JobKind.BOOTSTRAP, "acme", key, "a1")  # finished: returned as it is
        assert done.state == again.state == JobState.SUCCEEDED and again.run == 1
        assert await nothing_queued(redis_url)  # no second message: nothing can call the model again
    assert provider.calls["/v1/chat/completions"] == 1


async def test_done_flag_waits_for_every_agent_and_the_next_start_finishes(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.script("503")
    provider.reply_with(*[PROFILE_REPLY] * 4)
    settings = job_settings(tmp_path, redis_url, provider, max_tries=1)
    async with running(settings, onnx_embedder) as app:
        await _seed_all(app)
        batch = await _batch(app)
        assert batch.state == JobState.FAILED and "1 of 3 agents failed" in batch.last_error
        assert not await app.jobs.service.flag(bootstrap_done_flag(1))
        dead = [a for t, a in AGENTS if (await app.jobs.service.get(t, bootstrap_key(t, a, 1))).state == JobState.DEAD]
        assert len(dead) == 1
    calls_before = provider.calls["/v1/chat/completions"]
    async with running(settings, onnx_embedder) as app:  # "the next start" queues the batch again
        batch = await _batch(app)
        assert batch.state == JobState.SUCCEEDED and batch.run == 2
        assert await app.jobs.service.flag(bootstrap_done_flag(1))
        assert await app.jobs.bootstrap.start_batch() is None  # done: nothing more is queued
        for tenant, agent in AGENTS:
            assert (await app.working.profile.get(Actor(tenant, agent))).revision == 1
    assert provider.calls["/v1/chat/completions"] == calls_before + 1  # only the dead agent ran again


async def test_an_agent_with_an_empty_archive_had_nothing_to_compile(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    settings = job_settings(tmp_path, redis_url, provider)
    async with running(settings, onnx_embedder) as app:
        done = await _regenerated(app, "nobody")
        assert done.state == JobState.SUCCEEDED and done.result == {"outcome": "nothing_to_compile"}
    assert provider.calls["/v1/chat/completions"] == 0


async def test_without_a_model_jobs_wait_and_proceed_once_one_is_configured(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.reply_with(PROFILE_REPLY)
    without = job_settings(tmp_path, redis_url, None)
    async with running(without, onnx_embedder) as app:
        await _seed_all(app, AGENTS[:1])
        job = await app.jobs.bootstrap.regenerate(Actor("acme", "a1"))
        parked = await wait_for(
            lambda: app.jobs.service.record("acme", job.key), until=lambda r: r.state == JobState.WAITING_FOR_PROVIDER
        )
        assert await nothing_queued(redis_url)  # parked, not retried: no message left to run it
        assert (await app.jobs.service.get("acme", job.key)).state == JobState.WAITING_FOR_PROVIDER
        assert parked.state == JobState.WAITING_FOR_PROVIDER and parked.attempts == 0
        assert "no chat model" in parked.last_error
    from memoryd.workers.run import run_workers

    stop = asyncio.Event()
    worker = asyncio.create_task(run_workers(job_settings(tmp_path, redis_url, provider), stop))
    try:
        async with running(without, onnx_embedder, workers=False) as app:
            done = await wait_for(lambda: app.jobs.service.record("acme", job.key))
            assert done.state == JobState.SUCCEEDED and done.attempts == 1
    finally:
        stop.set()
        await worker
    assert provider.calls["/v1/chat/completions"] == 1


async def test_the_batch_key_is_per_schema_version(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    async with running(job_settings(tmp_path, redis_url, provider), onnx_embedder, workers=False) as app:
        job = await app.jobs.bootstrap.start_batch()
        assert job is not None and job.key == bootstrap_all_key(1) and job.tenant_id == SYSTEM_TENANT


async def test_a_rerun_after_the_profile_was_written_converges_without_a_model_call(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.reply_with(PROFILE_REPLY, PROFILE_REPLY)
    settings = job_settings(tmp_path, redis_url, provider)
    async with running(settings, onnx_embedder) as app:
        await _seed_all(app, AGENTS[:1])
        key = bootstrap_key("acme", "a1", 1)
        await app.jobs.service.enqueue(JobKind.BOOTSTRAP, "acme", key, "a1")
        done = await wait_for(lambda: app.jobs.service.record("acme", key))
        assert done.result["outcome"] == "compiled"
        # A crash after the profile swap, before the ledger write: the record still says running,
        # and the queue delivers the message again.
        await app.jobs.service.update(replace(done, state=JobState.RUNNING, result={}, finished_at=None), "crash")
        client = await connect(redis_url)
        try:
            await ArqJobQueue(client).submit(done)
        finally:
            await client.aclose()
        again = await wait_for(lambda: app.jobs.service.record("acme", key))
        assert again.state == JobState.SUCCEEDED and again.result["outcome"] == "already_compiled"
        assert [r.revision for r in await app.working.profile.revisions(Actor("acme", "a1"), 10, 0)] == [1]
    assert provider.calls["/v1/chat/completions"] == 1


async def test_retryable_failures_back_off_then_die_visibly_and_a_4xx_fails_at_once(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.script("503", "500", "drop", "400")
    settings = job_settings(tmp_path, redis_url, provider, max_tries=3)
    async with running(settings, onnx_embedder) as app:
        await _seed_all(app, AGENTS[:2])
        dead = await _regenerated(app, "a1")
        assert dead.state == JobState.DEAD and dead.attempts == 3
        assert "gave up after 3 attempts" in dead.last_error and "unreachable" in dead.last_error
        refused = await _regenerated(app, "a2")
        assert refused.state == JobState.FAILED and refused.attempts == 1 and "(400)" in refused.last_error
        for agent in ("a1", "a2"):
            assert (await app.working.profile.get(Actor("acme", agent))).revision == 0
    assert provider.calls["/v1/chat/completions"] == 4


async def test_bootstrap_keeps_pinned_and_leaves_the_archive_as_it_was(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    provider.reply_with('{"profile": "## Pinned\\n- rewritten by the model\\n## Preferences\\n- likes green tea"}')
    settings = job_settings(tmp_path, redis_url, provider)
    me = Actor("acme", "a1")
    async with running(settings, onnx_embedder) as app:
        await _seed_all(app, AGENTS[:1])
        await app.working.profile.edit(
            me, 0, ProfileEdit(EditKind.APPEND, text="- always answer in English", pinned=True)
        )
        before = sorted(m.content for m in await app.memory.store.page(me, MemoryFilter(), "", 100))
        job = await app.jobs.bootstrap.regenerate(me)
        assert job.key == "regenerate:acme:a1:r1"
        done = await wait_for(lambda: app.jobs.service.record("acme", job.key))
        assert done.state == JobState.SUCCEEDED
        profile = await app.working.profile.get(me)
        assert "- always answer in English" in profile.document and "rewritten by the model" not in profile.document
        assert "likes green tea" in profile.document and profile.revision == 2
        assert sorted(m.content for m in await app.memory.store.page(me, MemoryFilter(), "", 100)) == before
    prompt = provider.requests[-1]["body"]["messages"][0]["content"]
    assert "Should this influence the agent's behaviour" in prompt and "prefers answers in French" in prompt
