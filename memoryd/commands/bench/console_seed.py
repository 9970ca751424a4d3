"""The tenant `bench console` serves: memories over agents, reviews with findings, jobs (some failed), a graph.

Everything goes through the daemon's API (and `memoryd audit` and a `memoryd worker`, as an operator
runs them): the console then reads what a real tenant of that size holds.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import numpy as np

from memoryd.commands.bench import corpus
from memoryd.commands.bench.store_access import local_model
from memoryd.rpc.client import (
    TENANT_METADATA_KEY,
    AuditServiceStub,
    GraphServiceStub,
    JobServiceStub,
    MemoryServiceStub,
    ProfileServiceStub,
    apb,
    gr,
    jpb,
    pb,
    ppb,
)

TENANT = "bench"
METADATA = ((TENANT_METADATA_KEY, TENANT),)
BATCH = 256
INVALID_PROFILE = '{"profile": 42}'
"""What the scripted model answers a seeded agent's regeneration: not a profile, so the job fails for good."""
PROFILE = '{"profile": "## Preferences\\n- short answers", "demoted": []}'
"""What it answers the others (agents with an empty archive): a profile, so theirs succeed."""


def scripted_answer(system: str, user: str) -> str:
    """The scripted model: a seeded agent's archive (its memories end in "(note N)") gets no profile."""
    return INVALID_PROFILE if "(note " in system + user else PROFILE


@dataclass
class Seeded:
    """What the pages are asked about, and how long seeding took."""

    agents: list[str]
    memory_ids: dict[str, list[str]] = field(default_factory=dict)
    """Some memory ids of each agent."""
    questions: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)


async def seed(args: argparse.Namespace, address: str) -> Seeded:
    """Memories (with twins for the reviews to find) and graph facts, through the daemon's API."""
    agents = [f"agent-{i:02d}" for i in range(args.agents)]
    seeded = Seeded(agents)
    embedder = local_model()
    bases = corpus.base_sentences(max(20, min(2000, args.memories // 50)))
    memories = corpus.build(args.memories, np.array(embedder.embed_sync(bases), dtype=np.float32), bases)
    seeded.questions = corpus.questions(bases, 50)
    twins_per_agent = max(1, args.findings // args.agents)
    started = time.perf_counter()
    async with grpc.aio.insecure_channel(address) as channel:
        stub = MemoryServiceStub(channel)
        for a, agent in enumerate(agents):
            idx = list(range(a, len(memories.texts), len(agents)))
            items = [pb.MemoryInput(content=memories.texts[i], embedding=memories.vectors[i].tolist()) for i in idx]
            # identical pairs: the review's duplicate rule finds each (a finding per pair)
            items += [items[k] for k in range(min(twins_per_agent, len(items)))]
            for chunk in range(0, len(items), BATCH):
                reply = await stub.MemorizeBatch(
                    pb.MemorizeBatchRequest(
                        agent_id=agent, items=items[chunk : chunk + BATCH], skip_deduplication=True
                    ),
                    metadata=METADATA,
                )
                seeded.memory_ids.setdefault(agent, []).extend(r.memory.id for r in reply.results[:5])
        seeded.seconds["memories"] = time.perf_counter() - started
        started = time.perf_counter()
        await _facts(GraphServiceStub(channel), args.facts)
        seeded.seconds["facts"] = time.perf_counter() - started
    return seeded


async def _facts(graph: GraphServiceStub, count: int) -> None:
    """``count`` tenant facts between people and places, a few at a time."""
    people = [f"{n} {s}" for n in corpus.NAMES for s in ("Berg", "Costa", "Dahl", "Ito")]
    places = ["Lisbon", "Oslo", "Kyoto", "Lima", "Porto", "Accra", "Quito", "Tartu"]

    async def one(i: int) -> None:
        person, place = people[i % len(people)], places[i % len(places)]
        request = gr.AssertFactRequest(
            subject=person, subject_type=gr.ENTITY_TYPE_PERSON, predicate=f"visited_{i // len(people)}",
            object=place, object_type=gr.ENTITY_TYPE_PLACE, fact=f"{person} visited {place} (trip {i}).",
            scope=pb.SCOPE_TENANT,
        )  # fmt: skip
        await graph.AssertFact(request, metadata=METADATA)

    for start in range(0, count, 8):
        await asyncio.gather(*(one(i) for i in range(start, min(count, start + 8))))


def audit(data: Path, env: dict[str, str]) -> float:
    """`memoryd audit` over the tenant (rules only): a review per agent and the kept usage report."""
    started = time.perf_counter()
    command = [sys.executable, "-m", "memoryd", "audit", "--data", str(data), "--tenant", TENANT]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"memoryd audit failed: {done.stderr[-2000:]}")
    return time.perf_counter() - started


async def jobs(address: str, seeded: Seeded, count: int, worker: list[str], env: dict[str, str]) -> float:
    """``count`` regenerations, run by a worker whose model answers no profile: the seeded agents' fail."""
    started = time.perf_counter()
    async with grpc.aio.insecure_channel(address) as channel:
        profiles, ledger = ProfileServiceStub(channel), JobServiceStub(channel)
        idle = [f"idle-{i:03d}" for i in range(max(0, count - len(seeded.agents)))]
        for agent in [*seeded.agents, *idle]:
            await profiles.RegenerateProfile(ppb.RegenerateProfileRequest(agent_id=agent), metadata=METADATA)
        child = subprocess.Popen(worker, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 600
            while time.monotonic() < deadline:
                live = 0
                for state in (jpb.JOB_STATE_QUEUED, jpb.JOB_STATE_RUNNING, jpb.JOB_STATE_RETRYING):
                    page = await ledger.ListJobs(jpb.ListJobsRequest(state=state, page_size=1), metadata=METADATA)
                    live += len(page.jobs)
                if not live:
                    break
                await asyncio.sleep(0.5)
        finally:
            child.terminate()
            child.wait(30)
    return time.perf_counter() - started


def worker_command(data: Path) -> list[str]:
    """`memoryd worker` on the bench's store."""
    return [sys.executable, "-m", "memoryd", "worker", "--data", str(data)]


def child_env(redis_url: str, provider_url: str = "") -> dict[str, str]:
    """The environment of the bench's daemon, worker and audit: its Valkey, and the scripted model if given."""
    env = {**os.environ, "REDIS_URL": redis_url, "LANCEDB_LOG": "error", "MEMORYD_LOG__LEVEL": "WARNING"}
    if provider_url:
        env |= {"MEMORYD_PROVIDER__BASE_URL": provider_url, "MEMORY_EXTRACTION_MODEL": "scripted"}
    else:
        env.pop("MEMORY_EXTRACTION_MODEL", None)
    return env


async def census(address: str, agents: list[str]) -> dict[str, Any]:
    """What the tenant holds once seeded: its findings (latest review per agent) and its jobs by state."""
    async with grpc.aio.insecure_channel(address) as channel:
        audits, ledger = AuditServiceStub(channel), JobServiceStub(channel)
        findings = 0
        for agent in agents:
            reviews = await audits.ListReviews(apb.ListReviewsRequest(agent_id=agent, page_size=1), metadata=METADATA)
            for review in reviews.reviews:
                got = await audits.GetReview(
                    apb.GetReviewRequest(agent_id=agent, review_id=review.review_id), metadata=METADATA
                )
                findings += len(got.findings)
        jobs: dict[str, Any] = {}
        failed = await ledger.ListJobs(jpb.ListJobsRequest(state=jpb.JOB_STATE_FAILED, page_size=3), metadata=METADATA)
        jobs["failed_examples"] = {j.job_id: j.last_error[:200] for j in failed.jobs}
        for state in (jpb.JOB_STATE_SUCCEEDED, jpb.JOB_STATE_FAILED, jpb.JOB_STATE_DEAD):
            count, token = 0, ""
            while True:
                page = await ledger.ListJobs(
                    jpb.ListJobsRequest(state=state, page_size=500, page_token=token), metadata=METADATA
                )
                count += len(page.jobs)
                token = page.next_page_token
                if not token:
                    break
            jobs[jpb.JobState.Name(state).removeprefix("JOB_STATE_").lower()] = count
    return {"findings": findings, "jobs": jobs}
