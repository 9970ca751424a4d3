"""`memoryd bench paired`: two builds' Recall timed side by side, in alternating blocks of calls.

Runs of one build after another's compare two stretches of time; on a shared machine the host
alone moves a run's p99 by a quarter (an episode of seconds in which every call slows). Here two
daemons, each from its own checkout (``--before-root``, ``--after-root``) and environment
(``--before-env``, ``--after-env``), hold the same rows; the client asks the same questions of
each in blocks of ``--block`` calls in the order before, after, after, before (a linear drift
cancels within each group), and each side's calls are pooled. A host episode of seconds spans
many blocks of both sides. While one daemon is timed the other is stopped (SIGSTOP), so its
background work (flushes, spool moves, timers) runs in its own blocks only: a build's background
cost is charged to it, never to the other. The interval of each ratio comes from resampling the
groups of four blocks (a bootstrap over time, which keeps each group's pairing).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path
from typing import Any

import grpc
import numpy as np

from memoryd.commands.arg_types import positive_int
from memoryd.commands.bench import corpus
from memoryd.commands.bench.daemon import Daemon
from memoryd.commands.bench.recall_bench import RECALL_MODES, MemorizeCalls, load_rows, recall_requests, timed_calls
from memoryd.commands.bench.report import KEEP_LATENCIES_HELP, checkout, percentiles, publish, table
from memoryd.commands.bench.store_access import local_model, maintain_now, opened
from memoryd.config import StorageSettings
from memoryd.core.embed_roles import EmbedRole

_SIDES = ("before", "after")
_ORDER = (0, 1, 1, 0)
"""One group of blocks: before, after, after, before."""
_TENANT = "paired"
_RESAMPLES = 1000

Blocks = list[tuple[int, list[float]]]
"""Each block's side (0: before, 1: after) and its calls' latencies, in the order they ran."""


def _source(value: str) -> Path:
    root = Path(value).resolve()
    if not (root / "memoryd" / "__main__.py").is_file():
        raise argparse.ArgumentTypeError(f"{value} holds no memoryd package (memoryd/__main__.py)")
    return root


def _setting(value: str) -> tuple[str, str]:
    key, sep, setting = value.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{value!r} is not KEY=VALUE")
    return key, setting


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench paired`."""
    p = sub.add_parser("paired", help="two builds' Recall latency in alternating blocks, each side pooled")
    here = Path(__file__).resolve().parents[3]
    p.add_argument("--before-root", type=_source, default=here, help="checkout of the baseline (default: this one)")
    p.add_argument("--after-root", type=_source, default=here, help="checkout of the change (default: this one)")
    p.add_argument("--before-env", type=_setting, action="append", default=[], help="KEY=VALUE for the baseline")
    p.add_argument("--after-env", type=_setting, action="append", default=[], help="KEY=VALUE for the change")
    p.add_argument("--memories", type=positive_int, default=10_000)
    p.add_argument("--agents", type=positive_int, default=10, help="agents sharing the tenant's table")
    p.add_argument("--queries", type=positive_int, default=20_000, help="timed Recall calls per side")
    p.add_argument("--block", type=positive_int, default=250, help="calls in one block")
    p.add_argument("--limit", type=positive_int, default=10)
    modes = "the client sends each question's vector (precomputed_query_vector), or the daemon embeds it"
    p.add_argument("--mode", choices=RECALL_MODES, default="precomputed_query_vector", help=modes)
    p.add_argument("--keep-latencies", action="store_true", help=KEEP_LATENCIES_HELP)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print the table."""
    if args.block < 1 or args.queries // args.block < 2:
        raise SystemExit("memoryd bench paired: --queries must hold two --block of calls at least (--block ≥ 1)")
    with tempfile.TemporaryDirectory(prefix="memoryd-bench-paired-") as scratch:
        record = asyncio.run(_bench(args, Path(scratch)))
    publish(args, record, _render)
    return 0


async def _bench(args: argparse.Namespace, scratch: Path) -> dict[str, Any]:
    embedder = local_model()
    bases = corpus.base_sentences(min(2000, max(20, args.memories // 50)))
    memories = corpus.build(args.memories, np.array(embedder.embed_sync(bases), dtype=np.float32), bases)
    queries = corpus.questions(bases, args.queries)
    vectors = embedder.embed_sync(queries, EmbedRole.QUERY)
    agents = [f"agent-{i}" for i in range(args.agents)]
    requests = recall_requests(args.mode, queries, vectors, agents, args.limit)
    # The daemons' own maintenance is off (both get the same pass here before anything is timed), and
    # so is the metrics endpoint (two daemons, one port).
    common = {"MEMORYD_STORAGE__MAINTENANCE_ENABLED": "false", "MEMORYD_METRICS__ENABLED": "false"}
    roots = (args.before_root, args.after_root)
    envs = (dict(args.before_env), dict(args.after_env))
    daemons = [Daemon(scratch / side, env={**common, **envs[i]}, source=roots[i]) for i, side in enumerate(_SIDES)]
    try:
        for daemon in daemons:
            daemon.wait_serving()
        channels = [grpc.aio.insecure_channel(d.address) for d in daemons]
        calls = [MemorizeCalls(channel, _TENANT) for channel in channels]
        for i, side in enumerate(_SIDES):
            await load_rows(calls[i], memories, agents)
            async with opened(scratch / side, embedder.model_name, embedder.dimension) as db:
                await maintain_now(db, StorageSettings().ann_min_rows)
            await timed_calls(calls[i], calls[i].stub.Recall, requests, 1)  # every question once: warm
        cpu = [d.cpu_seconds() for d in daemons]
        blocks = await _alternate(daemons, calls, requests, args)
        cpu = [d.cpu_seconds() - cpu[i] for i, d in enumerate(daemons)]
        for channel in channels:
            await channel.close(None)
    finally:
        for daemon in daemons:
            daemon.stop()
    return _record(args, blocks, roots, cpu)


async def _alternate(
    daemons: list[Daemon], calls: list[MemorizeCalls], requests: list[Any], args: argparse.Namespace
) -> Blocks:
    """Every block, in the order they ran; each side asks each question at most once."""
    daemons[1].pause()
    asked = [0, 0]
    blocks: Blocks = []
    per_side = args.queries // args.block // 2 * 2  # whole groups: each side as many blocks
    for k in range(per_side * 2):
        side = _ORDER[k % len(_ORDER)]
        if k and side != blocks[-1][0]:
            daemons[1 - side].pause()
            daemons[side].resume()
        chunk = requests[asked[side] : asked[side] + args.block]
        asked[side] += args.block
        latencies, _ = await timed_calls(calls[side], calls[side].stub.Recall, chunk, 1)
        blocks.append((side, latencies))
    for daemon in daemons:
        daemon.resume()
    return blocks


def _record(args: argparse.Namespace, blocks: Blocks, roots: tuple[Path, Path], cpu: list[float]) -> dict[str, Any]:
    """Each side's calls pooled, its daemon's CPU a call (every thread; less noisy than time), the ratios."""
    config = {k: v for k, v in vars(args).items() if k not in {"run", "json"}}
    sides = {}
    for i, side in enumerate(_SIDES):
        calls = [ms for s, latencies in blocks if s == i for ms in latencies]
        sides[side] = percentiles(calls, keep=args.keep_latencies) | {
            "blocks": sum(1 for s, _ in blocks if s == i),
            "checkout": checkout(roots[i]),
            "daemon_cpu_ms_per_call": 1000 * cpu[i] / len(calls),
        }
    # each block's median and slowest call in the order they ran: a host episode shows in both sides' blocks
    timeline = [{"side": _SIDES[s], "p50": float(np.median(lat)), "max": max(lat)} for s, lat in blocks]
    return {"config": config, **sides, "ratio": ratios(blocks), "blocks": timeline}


def ratios(blocks: Blocks) -> dict[str, dict[str, float]]:
    """After over before for p50 and p99 pooled, with a 95 % interval from resampling the groups of blocks."""
    group = len(_ORDER)
    groups = [blocks[g : g + group] for g in range(0, len(blocks) - group + 1, group)]
    per_group = [
        (np.concatenate([lat for s, lat in g if s == 0]), np.concatenate([lat for s, lat in g if s == 1]))
        for g in groups
    ]
    rng = np.random.default_rng(0)

    def ratio(picked: list[int], q: float) -> float:
        before = np.concatenate([per_group[i][0] for i in picked])
        after = np.concatenate([per_group[i][1] for i in picked])
        return float(np.percentile(after, q) / np.percentile(before, q))

    out = {}
    everything = list(range(len(per_group)))
    for q in (50, 99):
        resampled = [ratio(rng.integers(0, len(per_group), len(per_group)).tolist(), q) for _ in range(_RESAMPLES)]
        low, high = np.percentile(resampled, [2.5, 97.5])
        out[f"p{q}"] = {"ratio": ratio(everything, q), "low": float(low), "high": float(high)}
    return out


def _render(record: dict[str, Any]) -> str:
    config = record["config"]
    rows = [
        [side, str(record[side]["n"]), str(record[side]["blocks"])]
        + [f"{record[side][q]:.2f}" for q in ("p50", "p95", "p99", "daemon_cpu_ms_per_call")]
        for side in _SIDES
    ]
    lines = [
        f"memoryd bench paired: {config['mode']} Recall, {config['memories']} memories over {config['agents']} agents,"
        f" blocks of {config['block']} calls (before, after, after, before), the other daemon stopped",
        table(rows, ["side", "calls", "blocks", "p50 ms", "p95 ms", "p99 ms", "daemon CPU ms/call"]),
    ]
    for q in ("p50", "p99"):
        r = record["ratio"][q]
        lines.append(f"after / before {q}: {r['ratio']:.3f} (95 % interval {r['low']:.3f}-{r['high']:.3f})")
    return "\n".join(lines)
