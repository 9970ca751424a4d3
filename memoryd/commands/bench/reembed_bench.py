"""`memoryd bench reembed`: move an archive to another embedding model while Recall is being asked.

In process, real LanceDB in a temporary directory: the embedded model is the store's, the target an
OpenAI-compatible endpoint (the scriptable provider: hashed vectors, ``--latency`` per call). One
tenant with ``--memories`` memories is filled in the new space by the re-embed job and switched,
while one client asks Recall back to back and the daemon's maintenance loop runs as it would. The
fill, the endpoint and Recall share this one process (a worst case: in production the fill runs in
``memoryd reembed`` or a worker, the endpoint elsewhere). Reported: fill rate (rows/s), Recall p50/p99 before,
during the fill and after the switch, Recall errors and misses (0 expected), rows lost and rows left
without a vector (0 expected).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

import openai

from memoryd.adapters.openai.embedder import OpenAIEmbedder
from memoryd.app import App, build_app
from memoryd.commands.arg_types import non_negative_float, positive_int
from memoryd.commands.bench.report import percentiles, publish, table
from memoryd.config import load_settings
from memoryd.core.models import Actor, MemoryDraft, RecallQuery
from memoryd.testing.provider import FakeProvider

_MODEL, _DIM = "bench-embed", 256
_WORDS = ["harbor", "violin", "glacier", "lantern", "meadow", "quartz", "tundra", "espresso", "canyon", "orchid"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench reembed`."""
    p = sub.add_parser("reembed", help="re-embed an archive to another model while Recall runs: rate, latency, losses")
    p.add_argument("--memories", type=positive_int, default=10_000)
    p.add_argument("--batch", type=positive_int, default=256, help="rows per model call and commit")
    p.add_argument("--latency", type=non_negative_float, default=0.0, help="seconds the target endpoint takes per call")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print the table."""
    with tempfile.TemporaryDirectory(prefix="memoryd-bench-reembed-") as tmp, FakeProvider(latency=args.latency) as p:
        record = asyncio.run(_bench(args, Path(tmp), p))
    publish(args, record, _render)
    ok = record["recall_errors"] == record["recall_misses"] == record["rows_lost"] == record["rows_missing"] == 0
    return 0 if ok else 1


def _text(i: int) -> str:
    return f"note {i}: the {_WORDS[i % 10]} {_WORDS[(i // 10) % 10]} plan number {i}"


async def _bench(args: argparse.Namespace, tmp: Path, provider: FakeProvider) -> dict[str, Any]:
    settings = load_settings(
        None,
        storage={"uri": str(tmp / "data")},  # the daemon's maintenance loop runs, as in production
        reembed={"refresh_seconds": 0.05},
        log={"level": "ERROR"},
    )
    client = openai.AsyncOpenAI(base_url=provider.base_url, api_key="bench", max_retries=0)
    target = OpenAIEmbedder(client, _MODEL, _DIM, send_dimensions=True)
    me = Actor("acme", "agent")
    async with build_app(settings, reembed_target=target) as app:
        job = app.memory.reembed
        assert job is not None
        for start in range(0, args.memories, 512):
            drafts = [MemoryDraft(_text(i)) for i in range(start, min(start + 512, args.memories))]
            await app.memory.memorize.memorize_batch(me, drafts, skip_deduplication=True)
        assert app.maintenance is not None
        await app.maintenance.maintain(full=True)  # the load indexed, as a daemon's upkeep leaves it
        await app.maintenance.settled()
        asker = _Asker(app, me, args.memories)
        before = await asker.times(50)
        during: dict[str, Any] = {"ms": [], "errors": 0, "misses": 0}
        stop = asyncio.Event()
        reader = asyncio.create_task(asker.until(stop, during))
        started = time.perf_counter()
        await job.run(_MODEL, ["acme"], batch=args.batch)
        fill_seconds = time.perf_counter() - started
        stop.set()
        await reader
        await asyncio.sleep(0.1)  # past refresh_seconds: Recall searches the new space
        after = await asker.times(50)
        (status,) = await job.status(_MODEL, ["acme"])
    errors = before["errors"] + during["errors"] + after["errors"]
    return {
        "benchmark": "reembed",
        "config": {k: v for k, v in vars(args).items() if k not in ("run", "json")},
        "fill_seconds": round(fill_seconds, 2),
        "rows_per_second": round(args.memories / fill_seconds, 1),
        "recall_before_ms": percentiles(before["ms"]),
        "recall_during_ms": percentiles(during["ms"]),
        "recall_after_ms": percentiles(after["ms"]),
        "recall_errors": errors,
        "recall_misses": before["misses"] + during["misses"] + after["misses"],
        "rows_lost": args.memories - status.total,
        "rows_missing": status.missing,
        "switched": status.space == _MODEL,
    }


class _Asker:
    """Recall of one memory's words at a time, timed; errors and misses counted."""

    def __init__(self, app: App, me: Actor, memories: int) -> None:
        self._app, self._me, self._span = app, me, min(1000, memories)
        self.n = 0

    async def ask(self, out: dict[str, Any]) -> None:
        i = (self.n * 7919) % self._span
        self.n += 1
        started = time.perf_counter()
        query = f"the {_WORDS[i % 10]} {_WORDS[(i // 10) % 10]} plan {i}"
        try:
            hits = await self._app.memory.recall.recall(RecallQuery(self._me, query))
        except Exception:  # noqa: BLE001  # counted: the benchmark's point is that there are none
            out["errors"] += 1
            return
        out["ms"].append((time.perf_counter() - started) * 1000)
        out["misses"] += not any(h.memory.content.endswith(f"plan number {i}") for h in hits)

    async def times(self, count: int) -> dict[str, Any]:
        out: dict[str, Any] = {"ms": [], "errors": 0, "misses": 0}
        for _ in range(count):
            await self.ask(out)
        return out

    async def until(self, stop: asyncio.Event, out: dict[str, Any]) -> None:
        while not stop.is_set():
            await self.ask(out)


def _render(record: dict[str, Any]) -> str:
    cfg = record["config"]

    def lat(key: str) -> str:
        p = record[key]
        return f"{p['p50']:.1f} / {p['p99']:.1f} ms (n={p['n']})"

    rows = [
        ["memories / batch / target latency", f"{cfg['memories']} / {cfg['batch']} / {cfg['latency']} s"],
        ["fill", f"{record['fill_seconds']} s, {record['rows_per_second']} rows/s"],
        ["Recall p50 / p99 before", lat("recall_before_ms")],
        ["Recall p50 / p99 during the fill", lat("recall_during_ms")],
        ["Recall p50 / p99 after the switch", lat("recall_after_ms")],
        ["Recall errors / misses", f"{record['recall_errors']} / {record['recall_misses']}"],
        [
            "rows lost / left without a vector / switched",
            f"{record['rows_lost']} / {record['rows_missing']} / {record['switched']}",
        ],
    ]
    return "memoryd bench reembed\n" + table(rows, ["", "value"])
