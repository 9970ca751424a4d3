"""`memoryd bench autorecall`: how often GetContext's auto-recall injects, and whether what it injects is evidence.

Auto-recall runs Recall on the last user message and injects the hits that reach
``working.recall_threshold``. On LoCoMo (every turn a memory, one agent per conversation) each
question is a user turn that needs memory: the bench reports how many of them get an injection and
how many of those injections hold one of the question's evidence turns. Each question is also asked
of the next conversation's agent, whose memories are about other people: any injection there is
noise (the "foreign questions" column). Every ``--ordinary-every``-th dialog turn is also asked, its
own memory left out: how often a turn of the conversation itself gets an injection. Two rules side
by side over the same Recall replies: the threshold on raw cosine similarity
(``parts.vector_similarity``) and on the calibrated 0-1 score (``score``).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc

from memoryd.commands.arg_types import input_file, non_negative_int, positive_int
from memoryd.commands.bench import locomo
from memoryd.commands.bench.daemon import Daemon
from memoryd.commands.bench.locomo_bench import NO_MAINTENANCE, TENANT, agent_of, load_batch, maintain
from memoryd.commands.bench.report import environment, write_json
from memoryd.commands.table import table
from memoryd.rpc.client import MemoryServiceStub, pb

RULES: dict[str, Callable[[Any], float]] = {
    "raw cosine": lambda hit: hit.parts.vector_similarity,
    "calibrated score": lambda hit: hit.score,
}
_LIMIT = 5
"""``working.recall_limit``'s default: auto-recall injects at most this many."""
_FOREIGN = "foreign"
"""The own-id of a question asked of another conversation's agent (no memory there is its own)."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench autorecall`."""
    p = sub.add_parser("autorecall", help="auto-recall on LoCoMo: turns injected, injections holding evidence")
    p.add_argument("--data", type=input_file, required=True, help="path to locomo10.json (or a file in its format)")
    p.add_argument("--conversations", type=non_negative_int, default=0, help="use only the first N conversations")
    p.add_argument("--thresholds", default="0.5,0.6,0.7,0.8", help="comma-separated thresholds to compare")
    p.add_argument(
        "--ordinary-every", type=positive_int, default=10, help="ask every N-th dialog turn as an ordinary turn"
    )
    p.add_argument("--concurrency", type=positive_int, default=4)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Load, ask, print."""
    conversations = locomo.load(args.data)[: args.conversations or None]
    thresholds = [float(t) for t in args.thresholds.split(",")]
    with tempfile.TemporaryDirectory(prefix="memoryd-autorecall-") as tmp:
        record = asyncio.run(_bench(conversations, Path(tmp) / "data", thresholds, args))
    print(render(record))
    record["environment"] = environment()
    write_json(args.json, record)
    return 0


async def _bench(
    conversations: list[locomo.Conversation], data: Path, thresholds: list[float], args: argparse.Namespace
) -> dict[str, Any]:
    with Daemon(data, env=NO_MAINTENANCE) as daemon:
        async with grpc.aio.insecure_channel(daemon.address) as channel:
            stub = MemoryServiceStub(channel)
            ids = await load_batch(stub, conversations, with_date=False)
            await maintain(data)
            questions = [(agent_of(c), q.text, q.evidence, "") for c in conversations for q in c.questions]
            foreign = [
                (agent_of(conversations[(i + 1) % len(conversations)]), q.text, (), _FOREIGN)
                for i, c in enumerate(conversations)
                for q in c.questions
            ]
            ordinary = [
                (agent_of(c), t.content, (), t.dia_id)
                for c in conversations
                for t in c.turns[:: max(1, args.ordinary_every)]
            ]
            asked = await _recall_all(stub, [*questions, *ordinary, *foreign], args.concurrency)
    scores = {rule: {f"{t:g}": _score(asked, ids, score_of, t) for t in thresholds} for rule, score_of in RULES.items()}
    return {
        "config": {
            "conversations": len(conversations),
            "questions": len(questions),
            "ordinary_turns": len(ordinary),
            "foreign_questions": len(foreign),
            "limit": _LIMIT,
            "thresholds": thresholds,
        },
        "rules": scores,
    }


_Asked = list[tuple[tuple[str, ...], str, list[Any]]]
"""Per turn asked: its evidence (empty: an ordinary turn), its own dia id, the hits (its own left out)."""


async def _recall_all(
    stub: MemoryServiceStub, work: list[tuple[str, str, tuple[str, ...], str]], concurrency: int
) -> _Asked:
    asked: _Asked = []
    pending = list(work)

    async def worker() -> None:
        while pending:
            agent, text, evidence, own = pending.pop()
            request = pb.RecallRequest(agent_id=agent, query=text[:4096], limit=_LIMIT + 1, min_score=0.0)
            reply = await stub.Recall(request, metadata=TENANT)
            asked.append((evidence, own, list(reply.hits)))

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return asked


def _score(asked: _Asked, ids: dict[str, str], score_of: Callable[[Any], float], threshold: float) -> dict[str, float]:
    """Share of question turns injected, of those holding evidence, and of ordinary turns injected."""
    questions = injected = with_evidence = shown = ordinary = ordinary_injected = foreign = foreign_injected = 0
    for evidence, own, hits in asked:
        kept = [ids[h.memory.id] for h in hits if ids[h.memory.id] != own][:_LIMIT]
        scored = {ids[h.memory.id]: score_of(h) for h in hits}
        chosen = [d for d in kept if scored[d] >= threshold]
        if own == _FOREIGN:
            foreign += 1
            foreign_injected += bool(chosen)
            continue
        if not evidence:
            ordinary += 1
            ordinary_injected += bool(chosen)
            continue
        questions += 1
        injected += bool(chosen)
        with_evidence += bool(set(chosen) & set(evidence))
        shown += len(chosen)
    return {
        "questions_injected": injected / (questions or 1),
        "injections_with_evidence": with_evidence / (injected or 1),
        "questions_with_evidence": with_evidence / (questions or 1),
        "memories_per_injection": shown / (injected or 1),
        "ordinary_injected": ordinary_injected / (ordinary or 1),
        "foreign_injected": foreign_injected / (foreign or 1),
    }


def render(record: dict[str, Any]) -> str:
    """The table: one row per rule and threshold."""
    cfg = record["config"]
    rows = [
        [
            rule,
            threshold,
            f"{s['questions_injected']:.1%}",
            f"{s['injections_with_evidence']:.1%}",
            f"{s['questions_with_evidence']:.1%}",
            f"{s['memories_per_injection']:.2f}",
            f"{s['ordinary_injected']:.1%}",
            f"{s['foreign_injected']:.1%}",
        ]
        for rule, by_threshold in record["rules"].items()
        for threshold, s in by_threshold.items()
    ]
    header = [
        "rule", "threshold", "questions injected", "injections with evidence", "questions given evidence",
        "memories / injection", "ordinary turns injected", "foreign questions injected",
    ]  # fmt: skip
    return (
        f"memoryd bench autorecall: {cfg['conversations']} conversations, {cfg['questions']} questions, "
        f"{cfg['ordinary_turns']} ordinary turns, {cfg['foreign_questions']} foreign questions "
        f"(at most {cfg['limit']} memories injected)\n" + table(rows, header)
    )
