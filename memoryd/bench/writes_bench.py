"""`memoryd bench writes`: Memorize from 1..N concurrent clients, with the embedder local or remote.

The daemon runs as a child process with its embedded ONNX model, or with ``--embedder-latency-ms``
against an OpenAI-compatible endpoint this process serves (``memoryd.testing.provider``: hashed
vectors after that many milliseconds) — a remote embedder's wait is where a tenant's commits and
its next embedding batch can overlap. Each concurrency level writes new texts to its own agent
for ``--seconds``; the table gives calls/s, latency percentiles and the daemon's CPU per call.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import grpc

from memoryd.bench import corpus
from memoryd.bench.daemon import Daemon
from memoryd.bench.report import environment, percentiles, table, write_json
from memoryd.rpc.client import TENANT_METADATA_KEY, MemoryServiceStub, pb
from memoryd.testing.provider import FakeProvider

_TENANT = ((TENANT_METADATA_KEY, "writes"),)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench writes`."""
    p = sub.add_parser("writes", help="Memorize throughput and latency by client concurrency, local or remote embedder")
    p.add_argument("--clients", default="1,8", help="comma-separated concurrency levels")
    p.add_argument("--seconds", type=float, default=15.0, help="length of each level's load")
    p.add_argument(
        "--embedder-latency-ms", type=float, default=0.0, help="embed through a local endpoint answering after this"
    )
    p.add_argument(
        "--restate-share",
        type=float,
        default=0.0,
        help="share of calls that repeat an earlier text of their level (merged into it by dedup)",
    )
    p.add_argument("--json", type=Path, help="write the results here")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print the table."""
    with tempfile.TemporaryDirectory(prefix="memoryd-writes-") as tmp:
        record = asyncio.run(_bench(args, Path(tmp) / "data"))
    record["environment"] = environment()
    write_json(args.json, record)
    print(_render(record))
    return 0


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
            for n, clients in enumerate(int(c) for c in args.clients.split(",")):
                cpu = daemon.cpu_seconds()
                level = await _calls(stub, f"writer-{n}-{clients}", clients, args.seconds, args.restate_share)
                level["daemon_cpu_ms_per_call"] = (daemon.cpu_seconds() - cpu) * 1000 / max(1, level["calls"])
                levels.append(level)
    return {"config": config, "levels": levels}


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
            activity = corpus.ACTIVITIES[i % len(corpus.ACTIVITIES)]
            request = pb.MemorizeRequest(
                agent_id=agent, memory=pb.MemoryInput(content=f"{agent} note {i}: {activity}, ticket {i * 7919}")
            )
            start = time.perf_counter()
            await stub.Memorize(request, metadata=_TENANT)
            latencies.append((time.perf_counter() - start) * 1000)

    start = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    wall = time.perf_counter() - start
    return {"clients": clients, "calls": len(latencies), "per_second": len(latencies) / wall, **percentiles(latencies)}


def _render(record: dict[str, Any]) -> str:
    latency = record["config"]["embedder_latency_ms"]
    where = f"remote embedder answering after {latency:g} ms" if latency else "the embedded ONNX model"
    share = record["config"]["restate_share"]
    head = f"memoryd bench writes ({where}, {share:.0%} restatements), {record['environment']['cores']} cores"
    rows = [
        [
            str(level["clients"]),
            f"{level['per_second']:.1f}",
            f"{level['p50']:.1f}",
            f"{level['p99']:.1f}",
            f"{level['daemon_cpu_ms_per_call']:.1f}",
        ]
        for level in record["levels"]
    ]
    return head + "\n" + table(rows, ["clients", "calls/s", "p50 ms", "p99 ms", "daemon CPU ms/call"])
