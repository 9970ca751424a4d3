"""`memoryd bench graph`: what the memory graph costs — extraction calls and prompt tokens, SearchGraph latency.

Extraction cost is measured on a conversation file in LoCoMo's format (``--locomo``; the demo's
conversation by default): every turn is appended as a message through the default working-memory
policy (accumulate, an 8,192-token window), each compaction the policy plans is one more model call,
and its prompt is the extraction prompt around a summary at the policy's summary cap, counted
exactly (o200k). The completion tokens depend on the model and are not estimated.

SearchGraph latency is measured on LanceDB on disk at each ``--facts`` size: synthetic facts over
entities (a fifth as many), spread over tenant, agent and contact scopes, with random unit vectors
(the search path does not depend on what the vectors mean), indexed by the daemon's maintenance
pass (full text; an ANN index from `storage.ann_min_rows` rows), queried by a contact with the embedded
model embedding each query. Reported: p50/p99 per size, and the ratio to the smallest size.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any

from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.graph import LanceGraphStore
from memoryd.adapters.lance.maintenance import LanceMaintenance
from memoryd.adapters.tiktoken_counter import TiktokenCounter
from memoryd.app import build_embedder
from memoryd.commands.arg_types import input_file, positive_int, positive_ints
from memoryd.commands.bench.locomo import load, parse
from memoryd.commands.bench.report import environment, percentiles, table, write_json
from memoryd.config import load_settings
from memoryd.core.calibration import calibration_for
from memoryd.core.conversation import Conversation, Message, Role, WorkingPolicy
from memoryd.core.graph import Entity, EntityType, Fact, GraphScope
from memoryd.core.models import Actor, Scope
from memoryd.core.working import plan_compaction, summary_cap
from memoryd.services.graph import GraphService
from memoryd.services.graph_extraction import KNOWN_LIMIT, extraction_prompt

_PREDICATES = ["works_at", "lives_in", "billing_contact", "manager_of", "likes", "member_of", "owns", "visited"]
_WORDS = ["garden", "billing", "invoice", "Lisbon", "marathon", "espresso", "chess", "report", "piano", "budget"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench graph`."""
    p = sub.add_parser("graph", help="memory graph: extraction calls/tokens per 1,000 messages, SearchGraph p50/p99")
    p.add_argument("--locomo", type=input_file, help="conversations in LoCoMo's format (default: the shipped tiny one)")
    p.add_argument(
        "--facts", type=positive_ints, default="10000,100000", help="comma-separated fact counts (default 10000,100000)"
    )
    p.add_argument("--queries", type=positive_int, default=200, help="SearchGraph calls per size (default 200)")
    p.set_defaults(run=lambda args: asyncio.run(_main(args)))


def extraction_cost(path: Path | None, counter: TiktokenCounter) -> dict[str, Any]:
    """Compactions the default policy plans per 1,000 messages, and each extraction prompt's tokens."""
    if path is not None:
        conversations = load(path)
    else:  # the demo's conversation, in LoCoMo's format
        conversations = parse(
            json.loads(resources.files("memoryd.commands.demo").joinpath("conversation.json").read_text())
        )
    policy, window = WorkingPolicy(), 8192
    cap = summary_cap(policy, window)
    summary = " ".join(["word"] * cap)  # a summary at the cap and every known fact shown: the prompt's bound
    known = [
        f"Fact {n} about the conversation's people, places and plans, as one plain sentence."
        for n in range(KNOWN_LIMIT)
    ]
    prompt = counter.count(extraction_prompt("2026-01-01", "2026-01-02", summary, known))
    messages = compactions = 0
    for sample in conversations:
        conv = Conversation(sample.sample_id, "bench", context_window=window)
        raw_tail: list[Message] = []
        summaries_tokens = 0
        start = datetime(2026, 1, 1, tzinfo=UTC)
        for seq, turn in enumerate(sample.turns, start=1):
            messages += 1
            text = turn.content
            raw_tail.append(
                Message(seq, f"m{seq}", Role.USER, text, start + timedelta(minutes=seq), counter.count(text))
            )
            plan = plan_compaction(conv, raw_tail, _placeholders(summaries_tokens, cap), policy)
            if plan is not None:
                compactions += 1
                raw_tail = list(plan.kept)
                summaries_tokens = min(summaries_tokens + cap, int(policy.summary_budget_percent / 100 * window))
    per_thousand = 1000 * compactions / messages if messages else 0.0
    return {
        "messages": messages,
        "compactions": compactions,
        "extraction_calls_per_1000_messages": round(per_thousand, 2),
        "prompt_tokens_per_call_at_most": prompt,
        "prompt_tokens_per_1000_messages_at_most": round(per_thousand * prompt),
        "completion_tokens": "not estimated (the model decides)",
    }


def _placeholders(tokens: int, cap: int) -> list[Any]:
    from memoryd.core.conversation import Summary

    now = datetime(2026, 1, 1, tzinfo=UTC)
    n = tokens // cap
    return [Summary(f"s{i}", 0, 0, now, now, "", cap) for i in range(n)]


def _unit(rng: random.Random, dimension: int) -> list[float]:
    v = [rng.gauss(0, 1) for _ in range(dimension)]
    norm = sum(x * x for x in v) ** 0.5
    return [x / norm for x in v]


def _scope(rng: random.Random) -> GraphScope:
    roll = rng.random()
    if roll < 0.5:
        return GraphScope(Scope.END_USER, "", f"contact-{rng.randrange(50)}")
    if roll < 0.8:
        return GraphScope(Scope.TENANT)
    return GraphScope(Scope.PRIVATE, f"agent-{rng.randrange(10)}")


async def _fill(store: LanceGraphStore, count: int, dimension: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    now = datetime(2026, 11, 1, tzinfo=UTC)
    entities: list[tuple[Entity, GraphScope]] = []
    for i in range(max(10, count // 5)):
        where = _scope(rng)
        entities.append(
            (Entity(f"e{i:08d}", f"Entity {i} {rng.choice(_WORDS)}", EntityType.OTHER, where, (), now), where)
        )
    await _batched(store.put_entities, [(e, _unit(rng, dimension)) for e, _ in entities])
    by_scope: dict[GraphScope, list[Entity]] = {}
    for e, where in entities:
        by_scope.setdefault(where, []).append(e)
    scopes = [w for w, es in by_scope.items() if len(es) >= 2]
    facts = []
    for i in range(count):
        where = rng.choice(scopes)
        a, b = rng.sample(by_scope[where], 2)
        predicate = rng.choice(_PREDICATES)
        sentence = f"{a.name} {predicate.replace('_', ' ')} {b.name} ({rng.choice(_WORDS)})."
        when = now - timedelta(days=rng.randrange(1000))
        facts.append(
            (
                Fact(f"f{i:08d}", a.entity_id, predicate, b.entity_id, sentence, where, when, None, now),
                _unit(rng, dimension),
            )
        )
    await _batched(store.put_facts, facts)


async def _batched(write: Any, rows: list[Any], size: int = 5000) -> None:
    for start in range(0, len(rows), size):
        await write("bench", rows[start : start + size])


async def _latency(count: int, queries: int, embedder: Any, counter: TiktokenCounter) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="memoryd-graph-bench-") as folder:
        db = await LanceDatabase.open(folder, embedder.model_name, embedder.dimension)
        store = LanceGraphStore(db, embedder.dimension)
        started = time.perf_counter()
        await _fill(store, count, embedder.dimension)
        fill_seconds = time.perf_counter() - started
        maintenance = LanceMaintenance(db)
        await maintenance.maintain(full=True)  # indexes as the daemon's maintenance leaves them
        await maintenance.settled()
        service = _service(store, embedder, counter)
        rng = random.Random(11)
        samples = []
        hits = 0
        for i in range(queries + 10):
            actor = Actor("bench", f"agent-{rng.randrange(10)}", f"contact-{rng.randrange(50)}")
            query = f"who is {rng.choice(_WORDS)} for entity {rng.randrange(count // 5)}"
            t0 = time.perf_counter()
            answer = await service.search(actor, query)
            if i >= 10:  # warm-up
                samples.append((time.perf_counter() - t0) * 1000)
                hits += len(answer.hits)
        db.close()
    return {"facts": count, "fill_seconds": round(fill_seconds, 1), "mean_hits": hits / queries, **percentiles(samples)}


def _service(store: LanceGraphStore, embedder: Any, counter: TiktokenCounter) -> GraphService:
    from memoryd.adapters.clock import SystemClock
    from memoryd.core.pii import PiiPolicy
    from memoryd.services.event_log import EventLog
    from memoryd.services.pii_floor import PiiFloor

    class _NoLog:
        async def append_events(self, tenant_id: str, events: Any) -> None:
            return None

    trail = EventLog(_NoLog(), SystemClock())  # type: ignore[arg-type]  # search writes no audit event
    duplicate = calibration_for(embedder.model_name).entity_duplicate
    return GraphService(store, embedder, counter, SystemClock(), trail, PiiFloor(lambda _: PiiPolicy.OFF), duplicate)


async def _main(args: argparse.Namespace) -> int:
    settings = load_settings(None)
    embedder = build_embedder(settings.embedding)
    counter = TiktokenCounter(settings.profile.encoding)
    cost = extraction_cost(args.locomo, counter)
    sizes: list[int] = args.facts
    latencies = [await _latency(n, args.queries, embedder, counter) for n in sizes]
    base = latencies[0]["p50"] if latencies else 1.0
    for row in latencies:
        row["p50_ratio_to_smallest"] = round(row["p50"] / base, 2) if base else None
    record = {
        "extraction": cost,
        "search": latencies,
        "embedding_model": embedder.model_name,
        "environment": environment(),
    }
    print(
        f"extraction: {cost['extraction_calls_per_1000_messages']} calls per 1,000 messages "
        f"({cost['compactions']} compactions over {cost['messages']} messages), prompt ≤ "
        f"{cost['prompt_tokens_per_call_at_most']} tokens per call"
    )
    rows = [
        [
            r["facts"],
            round(r["p50"], 2),
            round(r["p99"], 2),
            r["p50_ratio_to_smallest"],
            r["mean_hits"],
            r["fill_seconds"],
        ]
        for r in latencies
    ]
    print(table(rows, ["facts", "p50 ms", "p99 ms", "p50 × smallest", "hits/query", "fill s"]))
    write_json(args.json, record)
    return 0
