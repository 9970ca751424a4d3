"""`memoryd bench recall`: Recall latency over gRPC, memorize throughput, and the SQLite baseline.

For each agents-per-table shape (``--agents 1,10,100``) one tenant holds
``--memories`` rows spread over that many agents (private scope), bulk-loaded
through MemorizeBatch with precomputed clustered vectors. The store is then
maintained (compaction; the ANN index where the table is large) as the
daemon's maintenance loop would, and Recall is timed end to end over gRPC:
with the server embedding the query (the configured embedded model) and with a
precomputed query vector, at each concurrency level, after every query has been asked once
in each mode (the daemon warm, as a serving one is). ``--baseline sqlite``
times the same queries on sqlite-vec + FTS5 with the same fusion.
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
from grpc_health.v1 import health_pb2, health_pb2_grpc

from memoryd.app import build_embedder
from memoryd.commands.arg_types import non_negative_int, positive_int, positive_ints
from memoryd.commands.bench import corpus
from memoryd.commands.bench.daemon import Daemon
from memoryd.commands.bench.embedder_alone import texts_per_second
from memoryd.commands.bench.report import KEEP_LATENCIES_HELP, percentiles, publish, table
from memoryd.commands.bench.store_access import (
    LocalModel,
    copy_index_recall,
    has_vector_index,
    local_model,
    maintain_now,
    nearest_ids,
    opened,
    write_footprint,
)
from memoryd.config import StorageSettings, load_settings
from memoryd.core.embed_roles import EmbedRole
from memoryd.core.models import Actor
from memoryd.core.ranking import FusionWeights
from memoryd.rpc.client import TENANT_METADATA_KEY, MemoryServiceStub, ProfileServiceStub, pb, ppb

BATCH = 1000


RECALL_MODES = ("server_embeds_query", "precomputed_query_vector")


def _modes(value: str) -> str:
    unknown = set(value.split(",")) - set(RECALL_MODES)
    if unknown:
        known = ", ".join(RECALL_MODES)
        raise argparse.ArgumentTypeError(f"unknown mode {', '.join(sorted(unknown))} (modes: {known})")
    return value


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench recall`."""
    p = sub.add_parser("recall", help="Recall latency and memorize throughput over gRPC")
    p.add_argument("--memories", type=positive_int, default=10_000)
    p.add_argument(
        "--agents", type=positive_ints, default="10", help="agents-per-table shapes, comma-separated (e.g. 1,10,100)"
    )
    p.add_argument("--queries", type=positive_int, default=200, help="Recall calls per mode and concurrency")
    p.add_argument("--concurrency", type=positive_ints, default="1,8", help="comma-separated client concurrency levels")
    p.add_argument("--limit", type=positive_int, default=10)
    p.add_argument(
        "--single-writes", type=non_negative_int, default=100, help="sequential Memorize calls to time (0: Recall only)"
    )
    p.add_argument(
        "--ann-min-rows",
        type=non_negative_int,
        default=StorageSettings().ann_min_rows,
        help="tables from this size get the ANN index, copies searched approximately (default: the daemon's)",
    )
    p.add_argument(
        "--copy-max-rows",
        type=non_negative_int,
        default=StorageSettings().copy_max_rows,
        help="tables up to this size are searched in memory (0: off; default: the daemon's)",
    )
    p.add_argument("--baseline", choices=["sqlite"], help="also run the same queries on this baseline")
    p.add_argument(
        "--modes",
        default=",".join(RECALL_MODES),
        type=_modes,
        help="comma-separated: the daemon embeds each question (server_embeds_query), the client sends its vector "
        "(precomputed_query_vector), or both",
    )
    p.add_argument("--keep-latencies", action="store_true", help=KEEP_LATENCIES_HELP)
    p.add_argument("--data", type=Path, help="data directory (default: a temporary one)")
    p.add_argument(
        "--storage",
        help="an object-store URI (s3://bucket/prefix) instead of a directory; endpoint and credentials from the "
        "MEMORYD_STORAGE__S3_* environment, as the daemon reads them",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print the table."""
    with tempfile.TemporaryDirectory(prefix="memoryd-bench-") as tmp:
        record = asyncio.run(_bench(args, args.storage or args.data or Path(tmp) / "data", Path(tmp)))
    record["storage"] = "object storage" if args.storage else "local disk"
    publish(args, record, _render)
    return 0


async def _bench(args: argparse.Namespace, data: Path | str, scratch: Path) -> dict[str, Any]:
    embedder = local_model()
    # About 50 memories per base sentence: clusters as tight as a topic, not near-duplicates
    # (with hundreds per base, exact top-10 is a coin toss among equals and ANN recall means nothing).
    bases = corpus.base_sentences(min(2000, max(20, args.memories // 50)))
    base_vectors = np.array(embedder.embed_sync(bases), dtype=np.float32)
    memories = corpus.build(args.memories, base_vectors, bases)
    queries = corpus.questions(bases, args.queries)
    query_vectors = embedder.embed_sync(queries, EmbedRole.QUERY)
    config = {k: v for k, v in vars(args).items() if k not in {"run", "json", "data"}}
    shapes: list[dict[str, Any]] = []
    # The bench runs the maintenance step itself (timed), so the daemon's own loop is off.
    env = {
        "MEMORYD_STORAGE__MAINTENANCE_ENABLED": "false",
        "MEMORYD_STORAGE__COPY_MAX_ROWS": str(args.copy_max_rows),
        "MEMORYD_STORAGE__ANN_MIN_ROWS": str(args.ann_min_rows),  # the copies' index: from the same size
    }
    with Daemon(data, env=env) as daemon:
        for agents_per_table in args.agents:
            tenant = f"bench-a{agents_per_table}"
            agents = [f"agent-{i}" for i in range(agents_per_table)]
            shape: dict[str, Any] = {"agents": agents_per_table, "rows": args.memories}
            async with grpc.aio.insecure_channel(daemon.address) as channel:
                shape["load"] = await load_rows(MemorizeCalls(channel, tenant), memories, agents)
            shape.update(await _maintain(data, embedder, tenant, agents, query_vectors, args.ann_min_rows))
            if args.memories <= args.copy_max_rows:
                visible = args.memories // agents_per_table
                in_memory = "IVF_SQ8" if visible >= args.ann_min_rows else "exact"
                shape["vector_index"] = f"in memory, {in_memory} ({shape['vector_index']} on disk)"
                if visible >= args.ann_min_rows:
                    async with opened(data, embedder.model_name, embedder.dimension) as db:
                        actor = Actor(tenant, agents[0])
                        shape["copy_recall_at_10"] = await copy_index_recall(db, actor, query_vectors[:50], 10)
            async with grpc.aio.insecure_channel(daemon.address) as channel:
                shape["recall"] = await _recalls(MemorizeCalls(channel, tenant), queries, query_vectors, agents, args)
                shape["reads"] = await _reads(
                    MemorizeCalls(channel, tenant), ProfileServiceStub(channel), agents, args.queries
                )
            if args.baseline == "sqlite":
                shape["sqlite"] = _sqlite(
                    scratch / f"{tenant}.sqlite", memories, agents, queries, query_vectors, args, embedder
                )
            shapes.append(shape)
        async with grpc.aio.insecure_channel(daemon.address) as channel:
            # --single-writes 0: Recall only (the write phases take a minute of their own)
            writes = (
                await _writes(MemorizeCalls(channel, "bench-writes"), args.single_writes) if args.single_writes else {}
            )
            floor = await _round_trip(channel, args.queries)
        peak = daemon.peak_rss_mb()
    if writes:
        async with opened(data, embedder.model_name, embedder.dimension) as db:
            writes["footprint"] = await write_footprint(db, "bench-writes")
    if writes.get("footprint"):  # the commits the write phases made, over their wall time
        commits = writes["footprint"]["commits_per_memory"] * writes["footprint"]["rows"]
        writes["footprint"]["commits_per_second"] = commits / writes["write_seconds"]
    return {
        "config": config,
        "shapes": shapes,
        "memorize": writes,
        "daemon_peak_rss_mb": peak,
        "grpc_round_trip_ms": floor,
    }


async def _reads(calls: MemorizeCalls, profiles: Any, agents: list[str], count: int) -> dict[str, dict[str, float]]:
    """ListMemories (a page of 20, each agent's second page), GetMemory of its rows and GetProfile, one call at a time.

    Each agent gets a profile of one line first (what GetContext and an agent's turn read).
    """
    for agent in agents:
        line = ppb.AppendLine(section="Preferences", line=f"{agent} prefers short answers")
        await profiles.EditProfile(ppb.EditProfileRequest(agent_id=agent, append=line), metadata=calls.metadata)
    lists, gets, profile_reads = [], [], []
    for i in range(count):
        agent = agents[i % len(agents)]
        start = time.perf_counter()
        await profiles.GetProfile(ppb.GetProfileRequest(agent_id=agent), metadata=calls.metadata)
        profile_reads.append((time.perf_counter() - start) * 1000)
        first = await calls.stub.ListMemories(
            pb.ListMemoriesRequest(agent_id=agent, page_size=20), metadata=calls.metadata
        )
        start = time.perf_counter()
        page = await calls.stub.ListMemories(
            pb.ListMemoriesRequest(agent_id=agent, page_size=20, page_token=first.next_page_token),
            metadata=calls.metadata,
        )
        lists.append((time.perf_counter() - start) * 1000)
        rows = page.memories or first.memories  # an agent with at most 20 rows has no second page
        if not rows:
            continue
        memory_id = rows[i % len(rows)].id
        start = time.perf_counter()
        await calls.stub.GetMemory(pb.GetMemoryRequest(agent_id=agent, memory_id=memory_id), metadata=calls.metadata)
        gets.append((time.perf_counter() - start) * 1000)
    return {
        "list_page_of_20": percentiles(lists),
        "get_memory": percentiles(gets),
        "get_profile": percentiles(profile_reads),
    }


async def _round_trip(channel: grpc.aio.Channel, count: int) -> dict[str, float]:
    """A health check's latency, one at a time: what any call over gRPC costs (the baseline runs in process)."""
    stub = health_pb2_grpc.HealthStub(channel)
    latencies = []
    for _ in range(count):
        start = time.perf_counter()
        await stub.Check(health_pb2.HealthCheckRequest())
        latencies.append((time.perf_counter() - start) * 1000)
    return percentiles(latencies)


class MemorizeCalls:
    """The stub plus the tenant metadata of one shape."""

    def __init__(self, channel: grpc.aio.Channel, tenant: str) -> None:
        self.stub = MemoryServiceStub(channel)
        self.metadata = ((TENANT_METADATA_KEY, tenant),)


async def load_rows(calls: MemorizeCalls, memories: corpus.Corpus, agents: list[str]) -> dict[str, float]:
    """MemorizeBatch every row (its vector given, no dedup), spread over the agents in turn; timed."""
    start = time.perf_counter()
    for agent_index, agent in enumerate(agents):
        idx = list(range(agent_index, len(memories.texts), len(agents)))
        for chunk in range(0, len(idx), BATCH):
            items = [
                pb.MemoryInput(content=memories.texts[i], embedding=memories.vectors[i].tolist())
                for i in idx[chunk : chunk + BATCH]
            ]
            await calls.stub.MemorizeBatch(
                pb.MemorizeBatchRequest(agent_id=agent, items=items, skip_deduplication=True), metadata=calls.metadata
            )
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "rows_per_second": len(memories.texts) / seconds}


async def _maintain(
    data: Path | str,
    embedder: LocalModel,
    tenant: str,
    agents: list[str],
    vectors: list[list[float]],
    ann_min_rows: int,
) -> dict[str, Any]:
    """Run the maintenance step now (timed), then measure the ANN index's recall@10 against exact search."""
    async with opened(data, embedder.model_name, embedder.dimension) as db:
        start = time.perf_counter()
        await maintain_now(db, ann_min_rows)
        seconds = time.perf_counter() - start
        indexed = await has_vector_index(db, tenant)
        overlap = []
        for i, vector in enumerate(vectors[:50]):
            actor = Actor(tenant, agents[i % len(agents)])
            ann = await nearest_ids(db, actor, vector, 10, exact=False)
            wanted = set(await nearest_ids(db, actor, vector, 10, exact=True))
            overlap.append(len(wanted & set(ann)) / max(1, len(wanted)))
    return {
        "maintenance_seconds": seconds,
        "vector_index": "IVF_HNSW_SQ" if indexed else "exact",
        "ann_recall_at_10": float(np.mean(overlap)) if overlap else float("nan"),
    }


async def _recalls(
    calls: MemorizeCalls, queries: list[str], vectors: list[list[float]], agents: list[str], args: argparse.Namespace
) -> list[dict[str, Any]]:
    out = []
    modes = args.modes.split(",")
    # Every query once in each mode before any is timed: otherwise the first run timed pays alone for
    # the daemon's first touches (each agent's visible rows, each term's postings, the model's first runs).
    for mode in modes:
        await timed_calls(calls, calls.stub.Recall, recall_requests(mode, queries, vectors, agents, args.limit), 8)
    for mode in modes:
        for concurrency in args.concurrency:
            requests = recall_requests(mode, queries, vectors, agents, args.limit)
            await timed_calls(calls, calls.stub.Recall, requests[:10], 2)  # warm-up
            latencies, wall = await timed_calls(calls, calls.stub.Recall, requests, concurrency)
            out.append(
                {"mode": mode, "concurrency": concurrency, "qps": len(requests) / wall}
                | percentiles(latencies, keep=args.keep_latencies)
            )
    return out


def _sqlite(
    path: Path,
    memories: corpus.Corpus,
    agents: list[str],
    queries: list[str],
    vectors: list[list[float]],
    args: argparse.Namespace,
    embedder: LocalModel,
) -> dict[str, Any]:
    """The same Recalls in process on SQLite, with the precomputed vectors; then each query embedded first.

    The second is the baseline of a Recall whose server embeds the query: the same model on the same
    machine, the text embedded and searched one query at a time.
    """
    from memoryd.commands.bench.sqlite_baseline import SqliteHybrid

    db = SqliteHybrid(path, len(vectors[0]))
    owner = [agents[i % len(agents)] for i in range(len(memories.texts))]
    start = time.perf_counter()
    db.load(owner, memories.texts, memories.vectors)  # rows as float32 arrays: no 1M-row Python lists
    load_seconds = time.perf_counter() - start
    depth = max(20, 2 * args.limit)
    latencies = []
    for i, (q, v) in enumerate(zip(queries, vectors, strict=True)):
        t = time.perf_counter()
        db.recall(agents[i % len(agents)], q, v, args.limit, depth, FusionWeights())
        latencies.append((time.perf_counter() - t) * 1000)
    embedded = []
    for i, q in enumerate(queries):
        t = time.perf_counter()
        (v,) = embedder.embed_sync([q], EmbedRole.QUERY)
        db.recall(agents[i % len(agents)], q, v, args.limit, depth, FusionWeights())
        embedded.append((time.perf_counter() - t) * 1000)
    db.close()
    return {
        "load_seconds": load_seconds,
        "concurrency": 1,
        **percentiles(latencies),
        "with_query_embedding": percentiles(embedded),
    }


async def _writes(calls: MemorizeCalls, count: int) -> dict[str, Any]:
    singles = [
        pb.MemorizeRequest(
            agent_id="writer",
            memory=pb.MemoryInput(
                content=f"single write {i}: {corpus.ACTIVITIES[i % len(corpus.ACTIVITIES)]} with note {i * 7919}"
            ),
        )
        for i in range(count)
    ]
    latencies, wall = await timed_calls(calls, calls.stub.Memorize, singles, 1)
    concurrent = [
        pb.MemorizeRequest(agent_id="writer8", memory=pb.MemoryInput(content=f"concurrent {r.memory.content}"))
        for r in singles
    ]
    latencies8, wall8 = await timed_calls(calls, calls.stub.Memorize, concurrent, 8)
    batch = pb.MemorizeBatchRequest(
        agent_id="batch-writer",
        items=[
            pb.MemoryInput(content=f"batch write {i}: {corpus.ACTIVITIES[i % len(corpus.ACTIVITIES)]} {i * 31}")
            for i in range(256)
        ],
    )
    start = time.perf_counter()
    await calls.stub.MemorizeBatch(batch, metadata=calls.metadata)
    batch_seconds = time.perf_counter() - start
    texts = [r.memory.content for r in singles]
    return {
        "write_seconds": wall + wall8 + batch_seconds,
        "single": {"per_second": count / wall, **percentiles(latencies)},
        "concurrent_8": {"per_second": count / wall8, **percentiles(latencies8)},
        "batch_server_embeds": {"items": 256, "seconds": batch_seconds, "per_second": 256 / batch_seconds},
        "embedder_alone": await _embedder_alone(texts, [i.content for i in batch.items]),
    }


async def _embedder_alone(texts: list[str], batch: list[str]) -> dict[str, float]:
    """The same model in this process, at the batch sizes the daemon sees: the baseline of the write path."""
    embedder = build_embedder(load_settings(None).embedding)
    return {
        f"texts_per_second_{size}": await texts_per_second(embedder, items, size)
        for size, items in ((1, texts), (8, texts), (256, batch))
    }


def recall_requests(
    mode: str, queries: list[str], vectors: list[list[float]], agents: list[str], limit: int
) -> list[pb.RecallRequest]:
    """One Recall per question, the agents in turn; with its vector unless the server embeds the query."""
    return [
        pb.RecallRequest(
            agent_id=agents[i % len(agents)],
            query=q,
            limit=limit,
            query_embedding=vectors[i] if mode != "server_embeds_query" else [],
        )
        for i, q in enumerate(queries)
    ]


async def timed_calls(
    calls: MemorizeCalls, method: Any, requests: list[Any], concurrency: int
) -> tuple[list[float], float]:
    """Each request's latency in ms (``concurrency`` callers in parallel) and the wall time of them all."""
    latencies: list[float] = []
    queue = list(reversed(requests))

    async def worker() -> None:
        while queue:
            request = queue.pop()
            start = time.perf_counter()
            await method(request, metadata=calls.metadata)
            latencies.append((time.perf_counter() - start) * 1000)

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return latencies, time.perf_counter() - start


def _ratio(run: dict[str, Any], base: dict[str, Any] | None) -> str:
    """A run's p50 / p99 against the baseline's; a server-embedded run's against the baseline that embeds too."""
    # (records from before the embedding baseline lack it: no ratio then)
    against = (base or {}).get("with_query_embedding") if run["mode"] == "server_embeds_query" else base
    return f"{run['p50'] / against['p50']:.1f}x / {run['p99'] / against['p99']:.1f}x" if against else ""


def _render(record: dict[str, Any]) -> str:
    cfg, mem = record["config"], record["memorize"]
    lines = [
        f"memoryd bench recall ({record.get('storage', 'local disk')}): {cfg['memories']} memories per shape, "
        f"limit {cfg['limit']}, "
        f"{record['environment']['cores']} cores"
    ]
    rows = []
    for shape in record["shapes"]:
        base = shape.get("sqlite")
        for r in shape["recall"]:
            rows.append(
                [
                    shape["agents"],
                    shape["vector_index"],
                    r["mode"],
                    r["concurrency"],
                    r["p50"],
                    r["p95"],
                    r["p99"],
                    r["qps"],
                    _ratio(r, base) if r["concurrency"] == 1 else "",
                ]
            )
        if base:
            rows.append(
                [
                    shape["agents"],
                    "sqlite-vec+FTS5",
                    "baseline (in process)",
                    1,
                    base["p50"],
                    base["p95"],
                    base["p99"],
                    1000 / base["mean"],
                    "",
                ]
            )
            if embedded_base := base.get("with_query_embedding"):
                rows.append(
                    [
                        shape["agents"],
                        "sqlite-vec+FTS5",
                        "baseline, the model embeds the query",
                        1,
                        embedded_base["p50"],
                        embedded_base["p95"],
                        embedded_base["p99"],
                        1000 / embedded_base["mean"],
                        "",
                    ]
                )
    lines.append(
        table(rows, ["agents", "vector", "Recall", "conc", "p50 ms", "p95 ms", "p99 ms", "q/s", "vs sqlite p50/p99"])
    )
    if trip := record.get("grpc_round_trip_ms"):
        lines.append(
            f"gRPC round trip alone (a health check; the baseline makes none): p50 {trip['p50']:.2f} ms, "
            f"p99 {trip['p99']:.2f} ms"
        )
    for shape in record["shapes"]:
        lines.append(
            f"agents={shape['agents']}: load {shape['load']['rows_per_second']:.0f} rows/s, maintenance "
            f"{shape['maintenance_seconds']:.1f} s, ANN recall@10 vs exact {shape['ann_recall_at_10']:.3f}"
            + (f" (in memory {shape['copy_recall_at_10']:.3f})" if "copy_recall_at_10" in shape else "")
            + (f", sqlite load {shape['sqlite']['load_seconds']:.1f} s" if "sqlite" in shape else "")
        )
        if reads := shape.get("reads"):
            page, get = reads["list_page_of_20"], reads["get_memory"]
            lines.append(
                f"agents={shape['agents']}: ListMemories (a page of 20) p50 {page['p50']:.1f} ms, p99 "
                f"{page['p99']:.1f} ms; GetMemory p50 {get['p50']:.1f} ms, p99 {get['p99']:.1f} ms"
                + (
                    f"; GetProfile p50 {gp['p50']:.1f} ms, p99 {gp['p99']:.1f} ms"
                    if (gp := reads.get("get_profile"))
                    else ""
                )
            )
    lines += _write_lines(mem) if mem else []  # none with --single-writes 0
    lines.append(f"daemon peak RSS: {record['daemon_peak_rss_mb']:.0f} MiB")
    return "\n".join(lines)


def _write_lines(mem: dict[str, Any]) -> list[str]:
    """The write phases' lines."""
    lines: list[str] = []
    lines.append(
        f"Memorize (server embeds, dedup on): {mem['single']['per_second']:.1f}/s, "
        f"p50 {mem['single']['p50']:.1f} ms, p99 {mem['single']['p99']:.1f} ms"
    )
    alone = mem["embedder_alone"]
    lines.append(
        f"Memorize, 8 concurrent clients: {mem['concurrent_8']['per_second']:.1f}/s "
        f"({mem['concurrent_8']['per_second'] / alone['texts_per_second_8']:.0%} of the embedder alone, batches of 8: "
        f"{alone['texts_per_second_8']:.0f} texts/s), p50 {mem['concurrent_8']['p50']:.1f} ms"
    )
    lines.append(
        f"MemorizeBatch (server embeds, 256 items): {mem['batch_server_embeds']['per_second']:.0f} items/s "
        f"({mem['batch_server_embeds']['per_second'] / alone['texts_per_second_256']:.0%} of the embedder alone, "
        f"{alone['texts_per_second_256']:.0f} texts/s); the embedder alone, one text at a time: "
        f"{alone['texts_per_second_1']:.0f}/s"
    )
    foot = mem.get("footprint") or {}
    if foot:
        lines.append(
            f"writes above: {foot['commits_per_memory']:.3f} commits per memory, "
            f"{foot.get('commits_per_second', 0):.1f} commits/s; "
            f"{foot['bytes_per_memory']:.0f} bytes on disk per memory after maintenance ({foot['rows']:.0f} rows)"
        )
    return lines
