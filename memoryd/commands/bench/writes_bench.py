"""`memoryd bench writes`: Memorize from 1..N concurrent clients, with the embedder local or remote.

The daemon runs as a child process with its embedded ONNX model, or with ``--embedder-latency-ms``
against an OpenAI-compatible endpoint this process serves (``memoryd.testing.provider``: hashed
vectors after that many milliseconds) — a remote embedder's wait is where a tenant's commits and
its next embedding batch can overlap. Each concurrency level writes new texts to its own agent
for ``--seconds``; the table gives calls/s, latency percentiles, the daemon's CPU per call and, with
the local model, the same model alone in this process at the level's batch size (n clients: batches of
n) on texts of the same shape, and the level's calls/s as a share of it (the write path's goal).
"""

from __future__ import annotations

import argparse
import asyncio
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import grpc

from memoryd.app import build_embedder
from memoryd.commands.arg_types import non_negative_float, positive_ints, share
from memoryd.commands.bench import corpus
from memoryd.commands.bench.daemon import Daemon
from memoryd.commands.bench.embedder_alone import texts_per_second
from memoryd.commands.bench.report import percentiles, run_in_scratch, table
from memoryd.config import load_settings
from memoryd.rpc.client import TENANT_METADATA_KEY, MemoryServiceStub, pb
from memoryd.testing.provider import FakeProvider

_TENANT = ((TENANT_METADATA_KEY, "writes"),)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench writes`."""
    p = sub.add_parser("writes", help="Memorize throughput and latency by client concurrency, local or remote embedder")
    p.add_argument("--clients", type=positive_ints, default="1,8", help="comma-separated concurrency levels")
    p.add_argument("--seconds", type=non_negative_float, default=15.0, help="length of each level's load")
    p.add_argument(
        "--embedder-latency-ms",
        type=non_negative_float,
        default=0.0,
        help="embed through a local endpoint answering after this",
    )
    p.add_argument(
        "--restate-share",
        type=share,
        default=0.0,
        help="share of calls that repeat an earlier text of their level (merged into it by dedup)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print the table."""
    return run_in_scratch(args, "writes", lambda scratch: _bench(args, scratch / "data"), _render)


async def _bench(args: argparse.Namespace, data: Path) -> dict[str, Any]:
    config = {k: v for k, v in vars(args).items() if k not in {"run", "json"}}
    levels: list[dict[str, Any]] = []
    with ExitStack() as stack:
        env: dict[str, str] = {}
        if args.embedder_latency_ms:
            provider = stack.enter_context(FakeProvider(latency=args.embedder_latency_ms / 1000))
            env = {
                "MEMORYD_EMBEDDING__PROVIDER": "openai",
                "MEMORYD_EMBEDDING__BASE_URL": provider.base_url,
                "MEMORYD_EMBEDDING__API_KEY": "bench",
            }
        daemon = stack.enter_context(Daemon(data, env=env))
        async with grpc.aio.insecure_channel(daemon.address) as channel:
            stub = MemoryServiceStub(channel)
            await _calls(stub, "warm-up", 1, 2.0, 0.0)
            for n, clients in enumerate(args.clients):
                cpu = daemon.cpu_seconds()
                level = await _calls(stub, f"writer-{n}-{clients}", clients, args.seconds, args.restate_share)
                level["daemon_cpu_ms_per_call"] = (daemon.cpu_seconds() - cpu) * 1000 / max(1, level["calls"])
                levels.append(level)
    if not args.embedder_latency_ms:  # the local model alone, at each level's batch size, on the same texts
        embedder = build_embedder(load_settings(None).embedding)
        texts = [_text("alone", i) for i in range(_ALONE_TEXTS)]
        config["model"] = embedder.model_name
        for level in levels:
            level["embedder_alone_texts_per_second"] = await texts_per_second(embedder, texts, level["clients"])
    return {"config": config, "levels": levels}


_ALONE_TEXTS = 128


def _text(agent: str, i: int) -> str:
    """The n-th text a level writes."""
    return f"{agent} note {i}: {corpus.ACTIVITIES[i % len(corpus.ACTIVITIES)]}, ticket {i * 7919}"


async def _calls(
    stub: MemoryServiceStub, agent: str, clients: int, seconds: float, restate_share: float
) -> dict[str, Any]:
    latencies: list[float] = []
    count = 0
    end = time.monotonic() + seconds
    every = round(1 / restate_share) if restate_share else 0  # every n-th call restates the text of call n/2

    async def client() -> None:
        nonlocal count
        while time.monotonic() < end:
            i, count = count, count + 1
            if every and i and i % every == 0:
                i //= 2
            request = pb.MemorizeRequest(agent_id=agent, memory=pb.MemoryInput(content=_text(agent, i)))
            start = time.perf_counter()
            await stub.Memorize(request, metadata=_TENANT)
            latencies.append((time.perf_counter() - start) * 1000)

    start = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    wall = time.perf_counter() - start
    return {"clients": clients, "calls": len(latencies), "per_second": len(latencies) / wall, **percentiles(latencies)}


def _render(record: dict[str, Any]) -> str:
    latency = record["config"]["embedder_latency_ms"]
    where = f"remote embedder answering after {latency:g} ms" if latency else record["config"].get("model", "")
    share = record["config"]["restate_share"]
    head = f"memoryd bench writes ({where}, {share:.0%} restatements), {record['environment']['cores']} cores"
    rows = [
        [
            str(level["clients"]),
            f"{level['per_second']:.1f}",
            f"{level['p50']:.1f}",
            f"{level['p99']:.1f}",
            f"{level['daemon_cpu_ms_per_call']:.1f}",
            _alone(level),
        ]
        for level in record["levels"]
    ]
    columns = ["clients", "calls/s", "p50 ms", "p99 ms", "daemon CPU ms/call", "embedder alone, batches of clients"]
    return head + "\n" + table(rows, columns)


def _alone(level: dict[str, Any]) -> str:
    """The embedder alone at the level's batch size, and the level's calls/s as a share of it."""
    alone = level.get("embedder_alone_texts_per_second")
    return f"{alone:.0f} texts/s ({level['per_second'] / alone:.0%})" if alone else "-"
