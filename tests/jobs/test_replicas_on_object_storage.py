"""Two daemons and two workers on one object store and one Valkey, writing one tenant's tables at once.

Every process is a real `memoryd serve` / `memoryd worker` started from one configuration file, the
store on moto's S3 server, maintenance on (one replica holds the lease and compacts while the others
write). Clients write through both daemons at once — Memorize into the archive, AppendMessages into
one conversation table (each message through the other daemon than the last), pinned lines into the
profile table — while the workers compact those conversations (conversation items, state swaps,
memories filed into the archive, profile rewrites) and regenerate profiles. Nothing acknowledged may
be missing afterwards, nothing may be stored twice, and every job must succeed.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import build_app
from memoryd.commands.bench.daemon import Daemon
from memoryd.core.models import Actor, MemoryFilter
from memoryd.rpc.client import (
    ConversationServiceStub,
    JobServiceStub,
    MemoryServiceStub,
    ProfileServiceStub,
    cpb,
    jpb,
    pb,
    ppb,
)
from memoryd.testing.provider import FakeProvider
from tests.conftest import ObjectStore, make_settings, tenant
from tests.jobs.conftest import process_config

pytestmark = pytest.mark.timeout(300)

T = tenant("acme")
AGENTS = ("a0", "a1")
# Small counts: moto's server answers every object request in Python, so each commit costs tens of
# milliseconds and the four processes' commits to one table take turns; the race is what matters.
WRITERS, WRITES, MESSAGES, PINS = 4, 8, 12, 3
ANSWER = json.dumps(
    {
        "profile": "## Preferences\n- prefers short answers",
        "demoted": [],
        "summary": "They went over the garden plan.",
        "memories": [{"content": "The garden gets raised beds this spring", "memory_type": "semantic"}],
    }
)


@pytest.fixture
def processes(
    tmp_path: Path, object_store: ObjectStore, redis_url: str, provider: FakeProvider
) -> Iterator[tuple[list[Daemon], dict[str, Any]]]:
    """Two daemons and two workers, all from one configuration file; stopped with SIGTERM after."""
    provider.answer_with(lambda system, user: ANSWER)
    store = object_store.settings(f"replicas-{uuid.uuid4().hex[:8]}")  # the default consistency: 1 s
    maintenance = {"maintenance_interval_seconds": 2, "maintenance_written_seconds": 1, "maintenance_lease_seconds": 3}
    config = process_config(tmp_path / "memoryd.toml", redis_url, provider, storage={**store, **maintenance})
    env = {**os.environ, "LANCEDB_LOG": "error", "MEMORYD_CONFIG": str(config)}
    workers = [
        subprocess.Popen([sys.executable, "-m", "memoryd", "worker", "--config", str(config)], env=env)
        for _ in range(2)
    ]
    daemons = [Daemon(store["uri"], env=env) for _ in range(2)]
    try:
        for daemon in daemons:
            daemon.wait_serving()
        yield daemons, store
    finally:
        for daemon in daemons:
            daemon.stop()
        for worker in workers:
            worker.send_signal(signal.SIGTERM)
        for worker in workers:
            worker.wait(timeout=60)


async def _until_acknowledged(call: Any, request: Any) -> Any:
    """The same request until a reply: a refused swap (ABORTED) or a busy replica is retried as a client would."""
    while True:
        try:
            return await call(request, metadata=T, timeout=90)
        except grpc.aio.AioRpcError as err:
            assert err.code() in (grpc.StatusCode.ABORTED, grpc.StatusCode.UNAVAILABLE), err
            await asyncio.sleep(0.05)


async def _pin(profiles: list[Any], agent: str, line: str) -> None:
    """Append a pinned line by compare-and-swap on the revision, through either daemon, re-reading on a lost race."""
    for attempt in range(50):
        stub = profiles[attempt % 2]
        current = await stub.GetProfile(ppb.GetProfileRequest(agent_id=agent), metadata=T)
        edit = ppb.EditProfileRequest(
            agent_id=agent,
            expected_revision=current.profile.revision,
            append=ppb.AppendLine(line=line, pinned=True),
        )
        try:
            await stub.EditProfile(edit, metadata=T, timeout=90)
            return
        except grpc.aio.AioRpcError as err:  # another writer's revision landed first
            assert err.code() in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION), err
    raise AssertionError(f"{line!r} never landed")


async def test_two_daemons_and_two_workers_writing_one_tenant_lose_nothing(
    processes: tuple[list[Daemon], dict[str, Any]], tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    daemons, store = processes
    channels = [grpc.aio.insecure_channel(d.address) for d in daemons]
    memories = [MemoryServiceStub(c) for c in channels]
    talks = [ConversationServiceStub(c) for c in channels]
    profiles = [ProfileServiceStub(c) for c in channels]
    jobs = JobServiceStub(channels[0])
    acknowledged: dict[str, str] = {}
    pinned: dict[str, list[str]] = {agent: [] for agent in AGENTS}
    job_ids: set[str] = set()

    async def memorizer(w: int) -> None:
        for n in range(WRITES):
            request = pb.MemorizeRequest(
                agent_id=AGENTS[w % 2],
                memory=pb.MemoryInput(content=f"writer {w} noted fact number {n} about the orchard"),
                request_id=f"w{w}-{n}",
            )
            reply = await _until_acknowledged(memories[w % 2].Memorize, request)
            acknowledged[request.request_id] = reply.memory.id

    async def talker(c: int) -> None:
        for n in range(MESSAGES):  # each message through the other daemon: both swap the same state row
            role = cpb.ROLE_USER if n % 2 == 0 else cpb.ROLE_ASSISTANT
            message = cpb.MessageInput(
                message_id=f"m{n}", role=role, content=f"turn {n}: the garden plan, raised beds, what to sow next"
            )
            request = cpb.AppendMessagesRequest(
                agent_id=AGENTS[c % 2], conversation_id=f"c{c}", messages=[message], context_window_tokens=300
            )
            reply = await _until_acknowledged(talks[n % 2].AppendMessages, request)
            if reply.compaction_job_id:
                job_ids.add(reply.compaction_job_id)

    async def pinner(agent: str) -> None:
        for n in range(PINS):
            line = f"pinned rule {n} of {agent}"
            await _pin(profiles, agent, line)
            pinned[agent].append(line)
            regenerate = ppb.RegenerateProfileRequest(agent_id=agent)
            job_ids.add((await profiles[n % 2].RegenerateProfile(regenerate, metadata=T)).job_id)

    try:
        await asyncio.gather(
            *(memorizer(w) for w in range(WRITERS)), *(talker(c) for c in range(2)), *(pinner(a) for a in AGENTS)
        )
        states = await _wait_jobs_done(jobs, job_ids)
        assert set(states.values()) == {jpb.JOB_STATE_SUCCEEDED}, states
        final = {
            a: (await profiles[1].GetProfile(ppb.GetProfileRequest(agent_id=a), metadata=T)).profile for a in AGENTS
        }
    finally:
        for channel in channels:
            await channel.close(None)
    assert any(p.source == "rewrite" or p.revision > len(pinned[p.agent_id]) for p in final.values())
    for agent, profile in final.items():  # a rewrite reinstates Pinned: no acknowledged line may be gone
        assert all(line in profile.document for line in pinned[agent]), (agent, profile.document)

    await _assert_stored_once(make_settings(tmp_path / "unused", storage=store), onnx_embedder, acknowledged, final)


async def _assert_stored_once(
    settings: Any, embedder: OnnxMiniLMEmbedder, acknowledged: dict[str, str], final: dict[str, Any]
) -> None:
    """Read back through a fresh process's view of the store: every acknowledged write, each once."""
    async with build_app(settings, embedder=embedder) as app:
        rows = []
        for agent in AGENTS:
            rows += await app.memory.store.page(Actor("acme", agent), MemoryFilter(), "", 500)
        ids = {r.memory_id for r in rows}
        assert (
            len(acknowledged) == WRITERS * WRITES and set(acknowledged.values()) <= ids
        )  # every acknowledged write is there
        assert len(ids) == len(rows)
        texts = Counter((r.agent_id, r.content) for r in rows)
        assert max(texts.values()) == 1, [t for t, n in texts.items() if n > 1]  # none stored twice
        for c in range(2):
            messages = await app.working.conversation_store.messages("acme", f"c{c}", 0)
            assert sorted(m.message_id for m in messages) == sorted(f"m{n}" for n in range(MESSAGES))
            assert len({m.seq for m in messages}) == MESSAGES  # one sequence number each, none reused by a racing swap
        for agent in AGENTS:
            numbers = [r.revision for r in await app.working.profile.revisions(Actor("acme", agent), 100, 0)]
            assert len(numbers) == len(set(numbers)) and max(numbers) == final[agent].revision


async def _wait_jobs_done(stub: Any, job_ids: set[str], timeout: float = 120.0) -> dict[str, int]:
    """Each job's state once none is live any more."""
    live = {jpb.JOB_STATE_QUEUED, jpb.JOB_STATE_RUNNING, jpb.JOB_STATE_RETRYING, jpb.JOB_STATE_WAITING_FOR_PROVIDER}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        states = {}
        for job_id in job_ids:
            states[job_id] = (await stub.GetJob(jpb.GetJobRequest(job_id=job_id), metadata=T)).job.state
        if not live & set(states.values()):
            return states
        assert loop.time() < deadline, states
        await asyncio.sleep(0.2)
