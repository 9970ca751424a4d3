"""`memoryd bench locomo`: recall quality on LoCoMo through the real MemorizeBatch and Recall RPCs.

Every dialog turn becomes one memory (one agent per conversation, so each
question is answered from its own conversation only); every question goes
through Recall with limit 10. Several server configurations run against the
same loaded store, one daemon after another, and are printed side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

import grpc

from memoryd.app.providers import stored_model
from memoryd.commands.arg_types import input_file, non_negative_int, positive_int
from memoryd.commands.bench import locomo
from memoryd.commands.bench.daemon import Daemon
from memoryd.commands.bench.report import environment, table, write_json
from memoryd.commands.bench.store_access import maintain_now, opened
from memoryd.config import load_settings
from memoryd.rpc.client import TENANT_METADATA_KEY, ConfigServiceStub, MemoryServiceStub, gpb, pb
from memoryd.rpc.config_values import config_value

TENANT = ((TENANT_METADATA_KEY, "locomo"),)
NO_MAINTENANCE = {"MEMORYD_STORAGE__MAINTENANCE_ENABLED": "false"}
_NOTES_FTS = {"MEMORYD_RECALL__FULL_TEXT_MODE": "or", "MEMORYD_RECALL__PREFIX_MATCHING": "false"}
_ARMS: dict[str, Any] = {
    "both": pb.RECALL_ARMS_BOTH,
    "vector": pb.RECALL_ARMS_VECTOR,
    "full_text": pb.RECALL_ARMS_FULL_TEXT,
}

# name -> (arms, server env). The last three reproduce the reference measurements
# (plain OR BM25; cosine top-k without a floor; RRF at weight 1 over 10 per arm).
DEFAULT_VARIANTS: dict[str, tuple[str, dict[str, str]]] = {
    "default": ("both", {}),
    "full_text arm": ("full_text", {}),
    "vector arm": ("vector", {}),
    "baseline: bm25 OR": ("full_text", _NOTES_FTS),
    "baseline: vector, no floor": ("vector", {"MEMORY_SIMILARITY_THRESHOLD": "-1"}),
    "baseline: hybrid w1 d10": (
        "both",
        {
            **_NOTES_FTS,
            "MEMORY_SIMILARITY_THRESHOLD": "-1",
            "MEMORYD_RECALL__MIN_DEPTH": "10",
            "MEMORYD_RECALL__DEPTH_PER_LIMIT": "1",
        },
    ),
}


def _variant(value: str) -> tuple[str, tuple[str, dict[str, str]]]:
    """``name|arms|KEY=VALUE,KEY=VALUE`` (arms: both, vector, full_text)."""
    name, arms, *rest = value.split("|")
    env = dict(kv.split("=", 1) for kv in (rest[0].split(",") if rest and rest[0] else []))
    if arms not in _ARMS:
        raise argparse.ArgumentTypeError(f"arms must be one of {sorted(_ARMS)}")
    return name, (arms, env)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench locomo`."""
    p = sub.add_parser("locomo", help="recall quality on LoCoMo (R@5, R@10, hit@10, MRR)")
    p.add_argument("--data", type=input_file, required=True, help="path to locomo10.json (or a file in its format)")
    p.add_argument("--conversations", type=non_negative_int, default=0, help="use only the first N conversations")
    p.add_argument("--with-date", action="store_true", help="prefix each memory with its session date")
    p.add_argument(
        "--variant",
        type=_variant,
        action="append",
        default=[],
        help="extra configuration 'name|arms|ENV=VALUE,...' (repeatable)",
    )
    p.add_argument("--only", action="append", default=[], help="run only these variants (by name)")
    p.add_argument(
        "--protocol",
        choices=["batch", "single", "both"],
        default="batch",
        help="how turns are written: one MemorizeBatch per conversation with source_context (batch), or each "
        "turn its own Memorize with no source_context, as a runtime writes (single)",
    )
    p.add_argument("--concurrency", type=positive_int, default=4)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Load, ask, print."""
    conversations = locomo.load(args.data)[: args.conversations or None]
    variants = {**DEFAULT_VARIANTS, **dict(args.variant)}
    if args.only:
        variants = {k: v for k, v in variants.items() if k in args.only}
    protocols = ["batch", "single"] if args.protocol == "both" else [args.protocol]
    records = {}
    for protocol in protocols:
        with tempfile.TemporaryDirectory(prefix="memoryd-locomo-") as tmp:
            records[protocol] = asyncio.run(bench_protocol(conversations, variants, Path(tmp) / "data", args, protocol))
        print(_render(records[protocol]))
    record = records[protocols[0]] if len(protocols) == 1 else {"protocols": records}
    record["environment"] = environment()
    write_json(args.json, record)
    return 0


async def bench_protocol(
    conversations: list[locomo.Conversation],
    variants: dict[str, tuple[str, dict[str, str]]],
    data: Path,
    args: argparse.Namespace,
    protocol: str,
    text_language: str = "",
) -> dict[str, Any]:
    """Load the conversations in ``protocol``'s way, ask every variant, return the record.

    ``text_language``: the tenant's ``recall.text_language``, set before the load ("": the default).
    """
    results: dict[str, Any] = {}

    async def ask(stub: MemoryServiceStub, names: list[str]) -> None:
        for name in names:
            arms, env = variants[name]
            results[name] = await _ask(stub, conversations, ids, _ARMS[arms], args.concurrency)
            results[name]["arms"], results[name]["env"] = arms, env

    # One daemon per distinct configuration: the variants of the default one ask the daemon that
    # loaded the rows (it reads the maintained table at its new version, as any replica would).
    by_env: dict[tuple[tuple[str, str], ...], list[str]] = {}
    for name, (_, env) in variants.items():
        by_env.setdefault(tuple(sorted(env.items())), []).append(name)
    with Daemon(data, env=NO_MAINTENANCE) as daemon:
        async with grpc.aio.insecure_channel(daemon.address) as channel:
            if text_language:
                language = {"recall.text_language": config_value(text_language)}
                await ConfigServiceStub(channel).SetTenantConfig(
                    gpb.SetTenantConfigRequest(values=language), metadata=TENANT
                )
            start = time.perf_counter()
            load = load_batch if protocol == "batch" else load_single
            ids = await load(MemoryServiceStub(channel), conversations, args.with_date)
            load_seconds = time.perf_counter() - start
            await maintain(data)
            await ask(MemoryServiceStub(channel), by_env.pop((), []))
    for env_items, names in by_env.items():
        with Daemon(data, env={**NO_MAINTENANCE, **dict(env_items)}) as daemon:
            async with grpc.aio.insecure_channel(daemon.address) as channel:
                await ask(MemoryServiceStub(channel), names)
    results = {name: results[name] for name in variants}  # in the order asked for
    return {
        "config": {
            "conversations": len(conversations),
            "with_date": args.with_date,
            "protocol": protocol,
            "limit": 10,
            "turns": sum(len(c.turns) for c in conversations),
            "questions": sum(len(c.questions) for c in conversations),
            "text_language": text_language or "english",
        },
        "load_seconds": load_seconds,
        "variants": results,
    }


async def load_batch(
    stub: MemoryServiceStub, conversations: list[locomo.Conversation], with_date: bool
) -> dict[str, str]:
    """Memorize every turn; return memory id -> dia id (scoped by conversation agent)."""
    ids: dict[str, str] = {}
    for conv in conversations:
        for chunk in range(0, len(conv.turns), 1000):
            turns = conv.turns[chunk : chunk + 1000]
            items = []
            for t in turns:
                item = pb.MemoryInput(content=_content(t, with_date), source_context=f"locomo {conv.sample_id}")
                if t.occurred_at is not None:
                    item.occurred_at.FromDatetime(t.occurred_at)
                items.append(item)
            reply = await stub.MemorizeBatch(
                pb.MemorizeBatchRequest(agent_id=agent_of(conv), items=items, skip_deduplication=True), metadata=TENANT
            )
            ids.update({r.memory.id: t.dia_id for r, t in zip(reply.results, turns, strict=True)})
    return ids


async def load_single(
    stub: MemoryServiceStub, conversations: list[locomo.Conversation], with_date: bool
) -> dict[str, str]:
    """Memorize each turn on its own (no source_context, dedup on), a few calls at a time, as runtimes write."""
    ids: dict[str, str] = {}
    for conv in conversations:
        pending = list(conv.turns)

        async def writer(conv: locomo.Conversation = conv, pending: list[locomo.Turn] = pending) -> None:
            while pending:
                turn = pending.pop(0)
                item = pb.MemoryInput(content=_content(turn, with_date))
                if turn.occurred_at is not None:
                    item.occurred_at.FromDatetime(turn.occurred_at)
                reply = await stub.Memorize(pb.MemorizeRequest(agent_id=agent_of(conv), memory=item), metadata=TENANT)
                ids[reply.memory.id] = turn.dia_id

        await asyncio.gather(*(writer() for _ in range(_SINGLE_WRITERS)))
    return ids


_SINGLE_WRITERS = 8
"""Concurrent Memorize calls while loading turn by turn (the order of rows does not matter to the questions)."""


async def maintain(data: Path) -> None:
    """Fold the loaded rows into the full-text index, as the daemon's maintenance loop would."""
    async with opened(data, *stored_model(load_settings(None).embedding)) as db:  # the daemons' embedder (env)
        await maintain_now(db)


def _content(turn: locomo.Turn, with_date: bool) -> str:
    if with_date and turn.occurred_at is not None:
        return f"[{turn.occurred_at:%d %B %Y}] {turn.content}"
    return turn.content


def agent_of(conv: locomo.Conversation) -> str:
    """The agent a conversation's turns are stored under (each question is answered from its own)."""
    return f"conv-{conv.sample_id}"


async def _ask(
    stub: MemoryServiceStub, conversations: list[locomo.Conversation], ids: dict[str, str], arms: Any, concurrency: int
) -> dict[str, Any]:
    overall = locomo.Scores()
    per_category = {c: locomo.Scores() for c in locomo.CATEGORIES}
    work = [(conv, q) for conv in conversations for q in conv.questions]
    latencies: list[float] = []

    async def worker() -> None:
        while work:
            conv, question = work.pop()
            start = time.perf_counter()
            reply = await stub.Recall(
                pb.RecallRequest(agent_id=agent_of(conv), query=question.text, limit=10, arms=arms), metadata=TENANT
            )
            latencies.append((time.perf_counter() - start) * 1000)
            ranked = [ids[h.memory.id] for h in reply.hits]
            overall.add(ranked, question.evidence)
            per_category[question.category].add(ranked, question.evidence)

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    latencies.sort()
    return {
        "overall": overall.means(),
        "categories": {locomo.CATEGORIES[c]: s.means() for c, s in per_category.items()},
        "recall_p50_ms": latencies[len(latencies) // 2] if latencies else 0.0,
    }


def _render(record: dict[str, Any]) -> str:
    cfg = record["config"]
    rows = []
    for name, r in record["variants"].items():
        o, cats = r["overall"], r["categories"]
        rows.append(
            [
                name,
                o["R@5"],
                o["R@10"],
                o["hit@10"],
                o["MRR@10"],
                *(f"{cats[c]['R@10']:.3f}/{cats[c]['MRR@10']:.3f}" for c in locomo.CATEGORIES.values()),
            ]
        )
    header = ["variant", "R@5", "R@10", "hit@10", "MRR@10", *(f"{c} R@10/MRR" for c in locomo.CATEGORIES.values())]
    body = table([[c if not isinstance(c, float) else f"{c:.3f}" for c in row] for row in rows], header)
    return (
        f"memoryd bench locomo: {cfg['conversations']} conversations, {cfg['turns']} turns, "
        f"{cfg['questions']} questions (limit 10, with_date={cfg['with_date']}, protocol {cfg['protocol']})\n"
        f"{body}\nload ({'MemorizeBatch' if cfg['protocol'] == 'batch' else 'Memorize per turn'}, server embeds): "
        f"{record['load_seconds']:.1f} s"
    )
