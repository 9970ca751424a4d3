"""`memoryd bench recall`: Recall latency over gRPC and memorize throughput at a given scale.

One tenant, ``--memories`` rows spread over ``--agents`` agents (private scope),
bulk-loaded through MemorizeBatch with precomputed clustered vectors; then the
store is maintained (compaction, ANN index where large) as the daemon's
maintenance loop would, and Recall is timed end to end over gRPC: once with the
server embedding the query (the embedded ONNX model), once with a precomputed
query vector (the same model, embedded ahead), at each concurrency level.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

import grpc
import numpy as np

from memoryd.adapters.lance_store import LanceMemoryStore
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.bench import corpus
from memoryd.bench.daemon import Daemon
from memoryd.bench.report import environment, percentiles, table, write_json
from memoryd.rpc.client import TENANT_METADATA_KEY, MemoryServiceStub, pb

TENANT = ((TENANT_METADATA_KEY, "bench"),)
BATCH = 1000


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench recall`."""
    p = sub.add_parser("recall", help="Recall latency and memorize throughput over gRPC")
    p.add_argument("--memories", type=int, default=10_000)
    p.add_argument("--agents", type=int, default=10, help="agents in the one tenant (each sees its share)")
    p.add_argument("--queries", type=int, default=200, help="Recall calls per mode and concurrency")
    p.add_argument("--concurrency", default="1,8", help="comma-separated client concurrency levels")
    p.add_argument("--limit", type=int, default=10)
    p.add_argument("--single-writes", type=int, default=100, help="sequential Memorize calls to time")
    p.add_argument("--data", type=Path, help="data directory (default: a temporary one)")
    p.add_argument("--json", type=Path, help="write the results here")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print the table."""
    with tempfile.TemporaryDirectory(prefix="memoryd-bench-") as tmp:
        data = args.data or Path(tmp) / "data"
        record = asyncio.run(_bench(args, data))
    record["environment"] = environment()
    write_json(args.json, record)
    print(_render(record))
    return 0


async def _bench(args: argparse.Namespace, data: Path) -> dict[str, Any]:
    embedder = OnnxMiniLMEmbedder()
    bases = corpus.base_sentences(min(400, max(20, args.memories // 10)))
    base_vectors = np.array(embedder.embed_sync(bases), dtype=np.float32)
    memories = corpus.build(args.memories, base_vectors, bases)
    queries = corpus.questions(bases, args.queries)
    query_vectors = embedder.embed_sync(queries)
    agents = [f"agent-{i}" for i in range(args.agents)]
    record: dict[str, Any] = {"config": {k: v for k, v in vars(args).items() if k not in {"run", "json", "data"}}}
    # The bench runs the maintenance step itself (timed), so the daemon's own loop is off.
    with Daemon(data, env={"MEMORYD_STORAGE__MAINTENANCE_ENABLED": "false"}) as daemon:
        async with grpc.aio.insecure_channel(daemon.address) as channel:
            stub = MemoryServiceStub(channel)
            record["load"] = await _load(stub, memories, agents)
        record["maintenance_seconds"] = await _maintain(data, embedder)
        async with grpc.aio.insecure_channel(daemon.address) as channel:
            stub = MemoryServiceStub(channel)
            record["recall"] = await _recalls(stub, queries, query_vectors, agents, args)
            record["memorize"] = await _writes(stub, args.single_writes)
        record["daemon_peak_rss_mb"] = daemon.peak_rss_mb()
    return record


async def _load(stub: MemoryServiceStub, memories: corpus.Corpus, agents: list[str]) -> dict[str, float]:
    start = time.perf_counter()
    for agent_index, agent in enumerate(agents):
        idx = list(range(agent_index, len(memories.texts), len(agents)))
        for chunk in range(0, len(idx), BATCH):
            items = [pb.MemoryInput(content=memories.texts[i], embedding=memories.vectors[i].tolist())
                     for i in idx[chunk:chunk + BATCH]]
            await stub.MemorizeBatch(pb.MemorizeBatchRequest(agent_id=agent, items=items, skip_deduplication=True),
                                     metadata=TENANT)
    seconds = time.perf_counter() - start
    return {"rows": len(memories.texts), "seconds": seconds, "rows_per_second": len(memories.texts) / seconds}


async def _maintain(data: Path, embedder: OnnxMiniLMEmbedder) -> float:
    # What the daemon's maintenance loop does, run now so the timed phase sees the steady state.
    store = await LanceMemoryStore.open(str(data), embedder.model_name, embedder.dimension)
    start = time.perf_counter()
    await store.maintain()
    store.close()
    return time.perf_counter() - start


async def _recalls(stub: MemoryServiceStub, queries: list[str], vectors: list[list[float]], agents: list[str],
                   args: argparse.Namespace) -> list[dict[str, Any]]:
    out = []
    for mode in ("server_embeds_query", "precomputed_query_vector"):
        for concurrency in (int(c) for c in args.concurrency.split(",")):
            requests = [pb.RecallRequest(agent_id=agents[i % len(agents)], query=q, limit=args.limit,
                                         query_embedding=vectors[i] if mode != "server_embeds_query" else [])
                        for i, q in enumerate(queries)]
            await _timed_calls(stub.Recall, requests[:10], 2)  # warm-up
            latencies, wall = await _timed_calls(stub.Recall, requests, concurrency)
            out.append({"mode": mode, "concurrency": concurrency, "qps": len(requests) / wall,
                        **percentiles(latencies)})
    return out


async def _writes(stub: MemoryServiceStub, count: int) -> dict[str, Any]:
    singles = [pb.MemorizeRequest(agent_id="writer", memory=pb.MemoryInput(
        content=f"single write {i}: {corpus.ACTIVITIES[i % len(corpus.ACTIVITIES)]} with note {i * 7919}"))
        for i in range(count)]
    latencies, wall = await _timed_calls(stub.Memorize, singles, 1)
    batch = pb.MemorizeBatchRequest(agent_id="batch-writer", items=[pb.MemoryInput(
        content=f"batch write {i}: {corpus.ACTIVITIES[i % len(corpus.ACTIVITIES)]} {i * 31}") for i in range(256)])
    start = time.perf_counter()
    await stub.MemorizeBatch(batch, metadata=TENANT)
    batch_seconds = time.perf_counter() - start
    return {"single": {"per_second": count / wall, **percentiles(latencies)},
            "batch_server_embeds": {"items": 256, "seconds": batch_seconds, "per_second": 256 / batch_seconds}}


async def _timed_calls(method: Any, requests: list[Any], concurrency: int) -> tuple[list[float], float]:
    latencies: list[float] = []
    queue = list(reversed(requests))

    async def worker() -> None:
        while queue:
            request = queue.pop()
            start = time.perf_counter()
            await method(request, metadata=TENANT)
            latencies.append((time.perf_counter() - start) * 1000)

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return latencies, time.perf_counter() - start


def _render(record: dict[str, Any]) -> str:
    cfg, load, mem = record["config"], record["load"], record["memorize"]
    rows = [[r["mode"], r["concurrency"], r["p50"], r["p95"], r["p99"], r["qps"]] for r in record["recall"]]
    return "\n".join([
        f"memoryd bench recall: {cfg['memories']} memories, {cfg['agents']} agents, limit {cfg['limit']}, "
        f"{record['environment']['cores']} cores",
        table(rows, ["Recall over gRPC", "conc", "p50 ms", "p95 ms", "p99 ms", "q/s"]),
        "",
        f"bulk load (MemorizeBatch, precomputed vectors): {load['rows_per_second']:.0f} rows/s",
        f"maintenance after load (optimize + indexes): {record['maintenance_seconds']:.1f} s",
        f"Memorize (server embeds, dedup on): {mem['single']['per_second']:.1f}/s, "
        f"p50 {mem['single']['p50']:.1f} ms, p99 {mem['single']['p99']:.1f} ms",
        f"MemorizeBatch (server embeds, 256 items): {mem['batch_server_embeds']['per_second']:.0f} items/s",
        f"daemon peak RSS: {record['daemon_peak_rss_mb']:.0f} MiB",
    ])
