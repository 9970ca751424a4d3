"""`memoryd bench faults`: kill -9 the daemon under concurrent writers; count what an acknowledgement was worth.

Writers call Memorize with a request_id each, retrying the same id until a reply arrives (as a
client must after UNAVAILABLE or a lost reply); as many others call AppendMessages one message at a
time, retrying the same message_id. The daemon is killed with SIGKILL at random moments
and restarted on the same data and port. At the end every acknowledged write must be stored
(lost = 0) and every text stored once (duplicates = 0, the retries notwithstanding).

Every replica is listed twice: as soon as the writers stop, and again once the store's read
consistency interval has passed (1 s on object storage: a replica may not yet see what another
wrote in the last second). A write is lost only if no replica's second listing holds it; one that
some replica's second listing lacks is a replica that stays behind (a failure too); one that only
the second listings hold is reported as late, which the interval allows.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import grpc

from memoryd.commands.arg_types import non_negative_float, positive_int
from memoryd.commands.bench.daemon import Daemon, free_port
from memoryd.commands.bench.report import publish, table
from memoryd.config import load_settings
from memoryd.rpc.client import TENANT_METADATA_KEY, ConversationServiceStub, MemoryServiceStub, cpb, pb

TENANT = ((TENANT_METADATA_KEY, "faults"),)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench faults`."""
    p = sub.add_parser("faults", help="kill -9 the daemon under concurrent writers: lost and duplicated writes")
    p.add_argument("--kills", type=positive_int, default=20)
    p.add_argument("--writers", type=positive_int, default=8)
    p.add_argument(
        "--between", type=non_negative_float, default=1.5, help="seconds between kills (uniform from half to this)"
    )
    p.add_argument("--seed", type=int, default=11)
    p.add_argument(
        "--replicas", type=positive_int, default=1, help="daemons on one store; a kill takes one, the others serve"
    )
    p.add_argument(
        "--storage",
        help="an object-store URI (s3://bucket/prefix) instead of a temporary directory; endpoint and credentials "
        "from the MEMORYD_STORAGE__S3_* environment",
    )
    p.set_defaults(run=lambda args: asyncio.run(_main(args)))


async def _main(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="memoryd-faults-") as tmp:
        record = await _bench(args, args.storage or Path(tmp) / "data")
    publish(args, record, _render)
    failures = ("lost", "behind", "duplicates", "appends_lost", "appends_behind", "appends_duplicated")
    clean = not any(record[k] for k in failures)
    return 0 if clean else 1


async def _bench(args: argparse.Namespace, data: Path | str) -> dict[str, Any]:
    rng = random.Random(args.seed)
    ports = [free_port() for _ in range(args.replicas)]
    daemons = list(await asyncio.gather(*(asyncio.to_thread(_started, data, port) for port in ports)))
    acknowledged: dict[str, str] = {}
    retried = 0
    stop = asyncio.Event()
    restarts: list[float] = []
    started = time.perf_counter()
    channels = [grpc.aio.insecure_channel(f"127.0.0.1:{port}") for port in ports]
    try:
        stubs = [MemoryServiceStub(channel) for channel in channels]
        talks = [ConversationServiceStub(channel) for channel in channels]
        appended: set[tuple[int, int]] = set()

        async def talker(w: int) -> None:
            """AppendMessages of one message at a time, the same message_id until a reply."""
            nonlocal retried
            mine = talks[w % len(talks)]
            n = 0
            while not stop.is_set():
                request = cpb.AppendMessagesRequest(
                    agent_id=f"writer-{w}",
                    conversation_id=f"conv-{w}",
                    messages=[cpb.MessageInput(message_id=f"m{n}", role=cpb.ROLE_USER, content=f"turn {n} of {w}")],
                )
                while True:
                    try:
                        await mine.AppendMessages(request, metadata=TENANT, timeout=10)
                    except grpc.aio.AioRpcError:
                        retried += 1
                        await asyncio.sleep(0.05)
                        continue
                    appended.add((w, n))
                    break
                n += 1

        async def writer(w: int) -> None:
            nonlocal retried
            mine = stubs[w % len(stubs)]  # writers spread over the replicas
            n = 0
            while not stop.is_set():
                request = pb.MemorizeRequest(
                    agent_id=f"writer-{w}",
                    memory=pb.MemoryInput(content=f"writer {w} wrote fact number {n}"),
                    request_id=f"w{w}-{n}",
                )
                while True:  # the same request_id until a reply: a retry must not store twice
                    try:
                        reply = await mine.Memorize(request, metadata=TENANT, timeout=10)
                    except grpc.aio.AioRpcError:
                        retried += 1
                        await asyncio.sleep(0.05)
                        continue
                    acknowledged[request.request_id] = reply.memory.id
                    break
                n += 1

        writers = [asyncio.create_task(writer(w)) for w in range(args.writers)]
        writers += [asyncio.create_task(talker(w)) for w in range(args.writers)]
        for k in range(args.kills):
            await asyncio.sleep(rng.uniform(args.between / 2, args.between))
            victim = k % len(daemons)  # one replica at a time; the others keep serving
            daemons[victim].kill()
            down = time.perf_counter()
            daemons[victim] = await asyncio.to_thread(_started, data, ports[victim])
            restarts.append(time.perf_counter() - down)
        await asyncio.sleep(0.5)
        stop.set()
        await asyncio.gather(*writers)
        elapsed = time.perf_counter() - started
        first = [await _stored(s, args.writers) for s in stubs]
        first_messages = [await _messages(t, args.writers) for t in talks]
        await asyncio.sleep(_consistency_seconds(data) + 0.5)
        final = [await _stored(s, args.writers) for s in stubs]
        final_messages = [await _messages(t, args.writers) for t in talks]
    finally:
        for channel in channels:
            await channel.close(None)
    for daemon in daemons:
        daemon.stop()
    stored = final[0]
    texts = Counter(content for _, content in stored)
    writes = reconcile(
        set(acknowledged.values()), [{i for i, _ in x} for x in first], [{i for i, _ in x} for x in final]
    )
    appends = reconcile(appended, [set(x) for x in first_messages], [set(x) for x in final_messages])
    restarts.sort()
    return {
        "config": {
            "kills": args.kills,
            "writers": args.writers,
            "between_seconds": args.between,
            "replicas": args.replicas,
            "storage": "object storage" if args.storage else "local disk",
        },
        "appends_acknowledged": len(appended),
        "appends_lost": appends["lost"],
        "appends_behind": appends["behind"],
        "appends_late": appends["late"],
        "appends_duplicated": sum(n - 1 for n in Counter(final_messages[0]).values() if n > 1),
        "acknowledged": len(acknowledged),
        "retried_calls": retried,
        "stored": len(stored),
        "lost": writes["lost"],
        "behind": writes["behind"],
        "late": writes["late"],
        "duplicates": sum(n - 1 for n in texts.values() if n > 1),
        "restart_seconds": {"p50": restarts[len(restarts) // 2], "max": restarts[-1]} if restarts else {},
        "writes_per_second": len(acknowledged) / elapsed,
    }


def reconcile(acknowledged: set[Any], first: list[set[Any]], final: list[set[Any]]) -> dict[str, int]:
    """Acknowledged writes against each replica's listings, first right away, then after the interval.

    ``lost``: in no replica's final listing; ``behind``: in some final listing but not in every one
    (a replica that stays behind); ``late``: in every final listing but missing from a first one.
    """
    everywhere = set.intersection(*final) if final else set()
    anywhere = set.union(*final) if final else set()
    early = set.intersection(*first) if first else set()
    return {
        "lost": len(acknowledged - anywhere),
        "behind": len((acknowledged & anywhere) - everywhere),
        "late": len((acknowledged & everywhere) - early),
    }


def _consistency_seconds(data: Path | str) -> float:
    """How stale the daemons' reads may be (their settings come from the same environment)."""
    return load_settings(None, storage={"uri": str(data)}).storage.read_consistency()


def _started(data: Path | str, port: int) -> Daemon:
    daemon = Daemon(data, port=port)
    daemon.wait_serving()
    return daemon


async def _messages(stub: Any, writers: int) -> list[tuple[int, int]]:
    """(writer, n) of every message each conversation holds (no job queue here: nothing is compacted)."""
    out: list[tuple[int, int]] = []
    for w in range(writers):
        request = cpb.GetContextRequest(
            agent_id=f"writer-{w}", conversation_id=f"conv-{w}", context_window_tokens=4_000_000
        )
        try:
            context = await stub.GetContext(request, metadata=TENANT)
        except grpc.aio.AioRpcError as err:
            if err.code() == grpc.StatusCode.NOT_FOUND:  # the writer never got one append through
                continue
            raise
        out += [(w, int(m.content.split()[1])) for m in context.messages if m.kind == "message"]
    return out


async def _stored(stub: Any, writers: int) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for w in range(writers):
        token = ""
        while True:
            request = pb.ListMemoriesRequest(agent_id=f"writer-{w}", page_size=500, page_token=token)
            page = await stub.ListMemories(request, metadata=TENANT)
            out.extend((m.id, m.content) for m in page.memories)
            token = page.next_page_token
            if not token:
                break
    return out


def _render(record: dict[str, Any]) -> str:
    cfg, restart = record["config"], record["restart_seconds"]
    rows = [
        ["replicas on one store", f"{cfg.get('replicas', 1)} ({cfg.get('storage', 'local disk')})"],
        ["kill -9 of a daemon", cfg["kills"]],
        ["concurrent writers", cfg["writers"]],
        ["writes acknowledged", record["acknowledged"]],
        [
            "appends acknowledged / lost / behind / duplicated",
            f"{record['appends_acknowledged']} / {record['appends_lost']} / {record['appends_behind']}"
            f" / {record['appends_duplicated']}",
        ],
        ["calls retried (same request_id)", record["retried_calls"]],
        ["acknowledged writes lost / behind on a replica", f"{record['lost']} / {record['behind']}"],
        [
            "found only after the read-consistency interval",
            f"{record['late']} writes, {record['appends_late']} appends",
        ],
        ["duplicates after retries", record["duplicates"]],
        ["restart p50 / max (s)", f"{restart.get('p50', 0):.2f} / {restart.get('max', 0):.2f}"],
        ["writes/s overall", f"{record['writes_per_second']:.1f}"],
    ]
    return "memoryd bench faults\n" + table(rows, ["", "value"])
