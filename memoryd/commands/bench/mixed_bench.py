"""`memoryd bench mixed`: many clients, Recall and Memorize mixed, over one tenant — throughput, latency, RSS.

The daemon runs as a child process. The tenant is seeded with ``--memories`` rows
(precomputed vectors), then ``--clients`` concurrent clients each loop for
``--seconds``: Recall (the server embeds the question) with probability
``--recall-share``, otherwise Memorize of a new text (the server embeds it, dedup on). With
``--tenants``, as many tenants are seeded so and each call goes to one of them at random (with
``--copy-tables``, more tenants than the daemon keeps in memory: how its copies fare). With
``--other-writer-rows``, a second daemon on the same data writes that many rows a second to the
tenant meanwhile, as a worker filing memories does (another process's commits, for the first
daemon's in-memory copy); with ``--other-forgets``, it forgets that many of the seeded memories a
second (another replica's deletes).
The daemon's resident set is sampled every second during the load and then during
``--idle`` seconds without load, so a soak shows whether memory plateaus. The load is also
reported in ``--windows`` equal slices of time, with the archive's table versions on disk at the
end: a daemon that slows as it runs shows it there (every version left on a local disk costs each
LanceDB operation a little, ``docs/benchmarks.md``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import random
import time
from pathlib import Path
from typing import Any

import grpc
import numpy as np

from memoryd.commands.arg_types import non_negative_float, non_negative_int, positive_int, share
from memoryd.commands.bench import corpus
from memoryd.commands.bench.daemon import Daemon
from memoryd.commands.bench.report import KEEP_LATENCIES_HELP, percentiles, run_in_scratch, table
from memoryd.commands.bench.store_access import local_model
from memoryd.rpc.client import TENANT_METADATA_KEY, MemoryServiceStub, pb

_TENANT = ((TENANT_METADATA_KEY, "mixed"),)
"""The tenant of a one-tenant load (and the first of several, which another daemon's writes go to)."""
_AGENTS = [f"agent-{i}" for i in range(10)]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench mixed`."""
    p = sub.add_parser("mixed", help="concurrent Recall + Memorize over one or more tenants: throughput, latency, RSS")
    p.add_argument("--memories", type=positive_int, default=5000, help="rows seeded before the load")
    p.add_argument("--clients", type=positive_int, default=16)
    p.add_argument("--seconds", type=non_negative_float, default=60.0, help="length of the load")
    p.add_argument("--recall-share", type=share, default=0.7)
    p.add_argument("--tenants", type=positive_int, default=1, help="tenants seeded alike, each call to one at random")
    p.add_argument(
        "--copy-tables", type=non_negative_int, help="tenant tables the daemon keeps in memory (default: the daemon's)"
    )
    p.add_argument("--idle", type=non_negative_float, default=20.0, help="seconds of RSS sampling after the load")
    p.add_argument("--windows", type=positive_int, default=4, help="slices of the load reported one by one")
    p.add_argument("--keep-latencies", action="store_true", help=KEEP_LATENCIES_HELP)
    p.add_argument(
        "--other-writer-rows",
        type=non_negative_float,
        default=0.0,
        help="rows per second another daemon on the same data writes to the tenant (a worker filing memories)",
    )
    p.add_argument(
        "--other-forgets",
        type=non_negative_float,
        default=0.0,
        help="seeded memories per second another daemon on the same data forgets (another replica's deletes)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print the table."""
    return run_in_scratch(
        args, "mixed", lambda scratch: _bench(args, scratch / "data"), _render, lambda record: record["errors"] == 0
    )


async def _bench(args: argparse.Namespace, data: Path) -> dict[str, Any]:
    embedder = local_model()
    bases = corpus.base_sentences(max(20, min(2000, args.memories // 50)))
    memories = corpus.build(args.memories, np.array(embedder.embed_sync(bases), dtype=np.float32), bases)
    questions = corpus.questions(bases, 500)
    config = {k: v for k, v in vars(args).items() if k not in {"run", "json"}}
    env = {"MEMORYD_STORAGE__COPY_TABLES": str(args.copy_tables)} if args.copy_tables else {}
    tenants = _tenants(args.tenants)
    with Daemon(data, env=env) as daemon:
        async with grpc.aio.insecure_channel(daemon.address) as channel:
            stub = MemoryServiceStub(channel)
            for tenant in tenants:
                await _seed(stub, memories, tenant)
            rss: list[tuple[float, float]] = []
            start = time.perf_counter()
            sampler = asyncio.create_task(_sample(daemon, rss, start))
            forgotten: list[str] = []
            with contextlib.ExitStack() as other:
                others = []
                if args.other_writer_rows > 0 or args.other_forgets > 0:
                    elsewhere = other.enter_context(Daemon(data))
                    if args.other_writer_rows > 0:
                        others.append(asyncio.create_task(_other_writer(elsewhere.address, memories, args)))
                    if args.other_forgets > 0:
                        others.append(asyncio.create_task(_other_forgets(elsewhere.address, args, forgotten)))
                load = await _load(stub, questions, args, tenants)
                for task in others:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            loaded_at = time.perf_counter() - start
            await asyncio.sleep(args.idle)
            sampler.cancel()
        peak = daemon.peak_rss_mb()
    return {
        "config": config,
        **load,
        "other_forgotten": len(forgotten),
        "archive_versions": sum(_versions(data / f"memories_{tenant[0][1]}.lance") for tenant in tenants),
        "rss_mb": [{"t": round(t, 1), "mb": round(m, 1)} for t, m in rss],
        "rss_summary": _rss_summary(rss, loaded_at),
        "daemon_peak_rss_mb": peak,
    }


def _tenants(count: int) -> list[tuple[tuple[str, str], ...]]:
    """Each tenant's call metadata: ``_TENANT`` first."""
    return [_TENANT, *(((TENANT_METADATA_KEY, f"mixed-{n}"),) for n in range(1, count))]


async def _seed(stub: Any, memories: corpus.Corpus, tenant: tuple[tuple[str, str], ...]) -> None:
    for chunk in range(0, len(memories.texts), 500):
        items = [
            pb.MemoryInput(content=memories.texts[i], embedding=memories.vectors[i].tolist())
            for i in range(chunk, min(chunk + 500, len(memories.texts)))
        ]
        await stub.MemorizeBatch(
            pb.MemorizeBatchRequest(
                agent_id=_AGENTS[chunk // 500 % len(_AGENTS)], items=items, skip_deduplication=True
            ),
            metadata=tenant,
        )


async def _other_writer(address: str, memories: corpus.Corpus, args: argparse.Namespace) -> None:
    """Another process's writes to the tenant (two batches a second, the caller's vectors), until cancelled."""
    per_batch = max(1, round(args.other_writer_rows / 2))
    async with grpc.aio.insecure_channel(address) as channel:
        stub = MemoryServiceStub(channel)
        for n in itertools.count():
            items = [
                pb.MemoryInput(
                    content=f"filed note {n}-{i}: {memories.texts[(n * per_batch + i) % len(memories.texts)]}",
                    embedding=memories.vectors[(n * per_batch + i) % len(memories.texts)].tolist(),
                )
                for i in range(per_batch)
            ]
            request = pb.MemorizeBatchRequest(agent_id=_AGENTS[n % len(_AGENTS)], items=items, skip_deduplication=True)
            await stub.MemorizeBatch(request, metadata=_TENANT)
            await asyncio.sleep(0.5)


async def _other_forgets(address: str, args: argparse.Namespace, forgotten: list[str]) -> None:
    """Another process forgetting seeded memories (one agent's, oldest first) at the rate asked, until cancelled."""
    async with grpc.aio.insecure_channel(address) as channel:
        stub = MemoryServiceStub(channel)
        page = await stub.ListMemories(pb.ListMemoriesRequest(agent_id=_AGENTS[0], page_size=500), metadata=_TENANT)
        for memory in page.memories:
            await stub.Forget(pb.ForgetRequest(agent_id=_AGENTS[0], memory_id=memory.id), metadata=_TENANT)
            forgotten.append(memory.id)
            await asyncio.sleep(1.0 / args.other_forgets)


async def _sample(daemon: Daemon, out: list[tuple[float, float]], start: float) -> None:
    while True:
        out.append((time.perf_counter() - start, daemon.rss_mb()))
        await asyncio.sleep(1.0)


async def _load(
    stub: Any, questions: list[str], args: argparse.Namespace, tenants: list[tuple[tuple[str, str], ...]]
) -> dict[str, Any]:
    latencies: dict[str, list[float]] = {"recall": [], "memorize": []}
    done_at: dict[str, list[float]] = {"recall": [], "memorize": []}  # seconds into the load
    errors: list[str] = []
    began = time.perf_counter()
    deadline = began + args.seconds
    serial = iter(range(10**9))

    async def client(seed: int) -> None:
        rng = random.Random(seed)
        while time.perf_counter() < deadline:
            agent, tenant = rng.choice(_AGENTS), rng.choice(tenants)
            began = time.perf_counter()
            try:
                if rng.random() < args.recall_share:
                    await stub.Recall(pb.RecallRequest(agent_id=agent, query=rng.choice(questions)), metadata=tenant)
                    kind = "recall"
                else:
                    n = next(serial)
                    text = f"{rng.choice(corpus.NAMES)} {rng.choice(corpus.ACTIVITIES)} on day {n} (entry {seed}-{n})"
                    await stub.Memorize(
                        pb.MemorizeRequest(agent_id=agent, memory=pb.MemoryInput(content=text)), metadata=tenant
                    )
                    kind = "memorize"
            except grpc.aio.AioRpcError as err:
                errors.append(f"{err.code().name}: {err.details()}")
                continue
            now = time.perf_counter()
            latencies[kind].append((now - began) * 1000)
            done_at[kind].append(now - start)

    start = time.perf_counter()
    await asyncio.gather(*(client(i) for i in range(args.clients)))
    wall = time.perf_counter() - start
    done = sum(len(v) for v in latencies.values())
    return {
        "requests_per_second": done / wall,
        "seconds": wall,
        "errors": len(errors),
        "error_samples": errors[:5],
        "recall": percentiles(latencies["recall"], keep=args.keep_latencies),
        "memorize": percentiles(latencies["memorize"], keep=args.keep_latencies),
        "windows": _windows(latencies, done_at, wall, args.windows),
    }


def _windows(
    latencies: dict[str, list[float]], done_at: dict[str, list[float]], wall: float, count: int
) -> list[dict[str, Any]]:
    """The load in ``count`` equal slices of time: throughput and percentiles of the calls ending in each."""
    count = max(1, count)
    width = wall / count
    slices: list[dict[str, list[float]]] = [{kind: [] for kind in latencies} for _ in range(count)]
    for kind, samples in latencies.items():
        for ms, t in zip(samples, done_at[kind], strict=True):
            slices[min(count - 1, int(t / width))][kind].append(ms)
    return [
        {
            "from_s": w * width,
            "to_s": (w + 1) * width,
            "requests_per_second": sum(len(v) for v in part.values()) / width,
            **{kind: percentiles(v) for kind, v in part.items()},
        }
        for w, part in enumerate(slices)
    ]


def _versions(table_dir: Path) -> int:
    """How many versions of a Lance table are on disk (its manifests)."""
    return sum(1 for _ in (table_dir / "_versions").glob("*.manifest"))


def _rss_summary(rss: list[tuple[float, float]], loaded_at: float) -> dict[str, float]:
    """Start, end of load, end of idle, and the growth rate over the load's second half (MiB per minute)."""
    if not rss:
        return {}
    during = [(t, m) for t, m in rss if t <= loaded_at]
    half = [(t, m) for t, m in during if t >= loaded_at / 2] or during
    slope = float(np.polyfit([t for t, _ in half], [m for _, m in half], 1)[0] * 60) if len(half) > 2 else 0.0
    return {
        "start": rss[0][1],
        "end_of_load": during[-1][1] if during else rss[0][1],
        "end_of_idle": rss[-1][1],
        "max": max(m for _, m in rss),
        "second_half_mb_per_minute": slope,
    }


def _of_tenants(cfg: dict[str, Any]) -> str:
    """The title's word on the tenants (and the daemon's copies) when the load spreads over several."""
    if cfg.get("tenants", 1) <= 1:
        return ""
    held = f", the daemon keeping {cfg['copy_tables']} in memory" if cfg.get("copy_tables") else ""
    return f" in each of {cfg['tenants']} tenants{held}"


def _render(record: dict[str, Any]) -> str:
    cfg, r = record["config"], record["rss_summary"]
    lines = [
        f"memoryd bench mixed: {cfg['clients']} clients, {cfg['recall_share']:.0%} Recall, {cfg['seconds']:.0f} s "
        f"over {cfg['memories']} memories{_of_tenants(cfg)}, {record['environment']['cores']} cores"
    ]
    rows = [
        [op, record[op]["n"], record[op]["p50"], record[op]["p95"], record[op]["p99"]] for op in ("recall", "memorize")
    ]
    lines.append(table(rows, ["op", "n", "p50 ms", "p95 ms", "p99 ms"]))
    lines.append(f"throughput {record['requests_per_second']:.1f} req/s, errors {record['errors']}")
    windows = [
        [
            f"{w['from_s']:.0f}-{w['to_s']:.0f}",
            w["requests_per_second"],
            w["recall"]["p50"],
            w["recall"]["p99"],
            w["memorize"]["p50"],
            w["memorize"]["p99"],
        ]
        for w in record["windows"]
    ]
    lines.append(table(windows, ["seconds", "req/s", "Recall p50", "Recall p99", "Memorize p50", "Memorize p99"]))
    if record.get("other_forgotten"):
        lines.append(f"memories another daemon forgot during the load: {record['other_forgotten']}")
    lines.append(f"archive table versions on disk at the end: {record['archive_versions']}")
    if r:
        lines.append(
            f"daemon RSS MiB: start {r['start']:.0f}, end of load {r['end_of_load']:.0f}, "
            f"after idle {r['end_of_idle']:.0f}, max {r['max']:.0f}; "
            f"growth over the load's second half {r['second_half_mb_per_minute']:+.1f} MiB/min"
        )
    return "\n".join(lines)
