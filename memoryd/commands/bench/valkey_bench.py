"""`memoryd bench valkey`: kill -9 the embedded Valkey in the middle of a batch of model jobs.

The deployment as `memoryd up` runs it (Valkey with its append-only file, the daemon, a worker, all
supervised) against the scriptable provider. Agents are seeded over gRPC, then each agent's profile
is regenerated as its own job; when a share of them has succeeded, Valkey is killed with SIGKILL,
`memoryd up` restarts it on its AOF, and the run waits for every job to end. Reported: job states
at the end (each must have succeeded once), agents whose profile has more than one revision
(duplicates, 0 expected), model calls per agent, how long after the kill every job had finished.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import grpc
import valkey

from memoryd.commands.arg_types import non_negative_float, positive_int, share
from memoryd.commands.bench.daemon import READINESS_CHANNEL_OPTIONS, free_port
from memoryd.commands.bench.report import publish, table
from memoryd.rpc.client import JobServiceStub, MemoryServiceStub, ProfileServiceStub, jpb, pb, ppb
from memoryd.testing.provider import FakeProvider

_T = (("x-tenant-id", "acme"),)
_REPLY = json.dumps({"profile": "## Preferences\n- prefers short answers", "demoted": []})
_FINAL = {jpb.JOB_STATE_SUCCEEDED, jpb.JOB_STATE_FAILED, jpb.JOB_STATE_DEAD}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench valkey`."""
    p = sub.add_parser("valkey", help="kill -9 Valkey mid-batch under `memoryd up`: every job once, no duplicates")
    p.add_argument("--agents", type=positive_int, default=60, help="profiles regenerated, one job each")
    p.add_argument("--latency", type=non_negative_float, default=0.3, help="seconds the provider takes per call")
    p.add_argument("--kill-after", type=share, default=0.3, help="share of jobs succeeded when Valkey is killed")
    p.add_argument(
        "--timeout", type=non_negative_float, default=180.0, help="seconds to wait for every job after the kill"
    )
    p.add_argument(
        "--job-timeout", type=non_negative_float, default=300.0, help="jobs.model_job_timeout_seconds for the run"
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print the table."""
    with tempfile.TemporaryDirectory(prefix="memoryd-bench-valkey-") as tmp, FakeProvider(args.latency) as provider:
        provider.answer_with(lambda system, user: _REPLY)
        record = _bench(args, Path(tmp), provider)
    publish(args, record, _render)
    ok = record["jobs"] == {"succeeded": args.agents} and record["duplicate_revisions"] == 0
    return 0 if ok else 1


def _config(tmp: Path, provider: FakeProvider, job_timeout: float) -> Path:
    path = tmp / "memoryd.toml"
    path.write_text(f"""
[provider]
base_url = "{provider.base_url}"
extraction_model = "bench-model"
timeout_seconds = 10
[jobs]
bootstrap_at_start = false
backoff_base_seconds = 0.2
backoff_cap_seconds = 2
reconcile_stale_seconds = 5
model_job_timeout_seconds = {job_timeout}
[storage]
maintenance_enabled = false
[log]
level = "WARNING"
""")
    return path


def _bench(args: argparse.Namespace, tmp: Path, provider: FakeProvider) -> dict[str, Any]:
    address = f"127.0.0.1:{free_port()}"
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"} | {"LANCEDB_LOG": "error"}
    command = [sys.executable, "-m", "memoryd", "up", "--run-dir", str(tmp / "run"), "--listen", address]
    command += ["--console", "off"]
    up = subprocess.Popen(
        [*command, "--config", str(_config(tmp, provider, args.job_timeout))],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    output: list[str] = []
    try:
        assert up.stdout is not None
        banner = up.stdout.readline()
        stdout = up.stdout
        threading.Thread(target=lambda: output.extend(iter(stdout.readline, "")), daemon=True).start()
        url = banner.split(" at ", 1)[1].split(" ", 1)[0]
        with grpc.insecure_channel(address, options=READINESS_CHANNEL_OPTIONS) as channel:
            grpc.channel_ready_future(channel).result(timeout=120)
            memories, jobs, profiles = MemoryServiceStub(channel), JobServiceStub(channel), ProfileServiceStub(channel)
            agents = [f"agent-{i:03d}" for i in range(args.agents)]
            for agent in agents:
                item = pb.MemoryInput(content=f"{agent} prefers short answers about topic {agent[-2:]}")
                _retrying(memories.Memorize, pb.MemorizeRequest(agent_id=agent, memory=item))
            ids = [
                profiles.RegenerateProfile(ppb.RegenerateProfileRequest(agent_id=a), metadata=_T).job_id for a in agents
            ]
            info: dict[str, Any] = valkey.Valkey.from_url(url).info()  # type: ignore[assignment]  # sync client
            pid = int(info["process_id"])
            # Killed as soon as a poll sees the share done, and that poll's count is the one reported:
            # polling again first would let more jobs finish on a loaded machine.
            while (done_at_kill := _states(jobs, ids).get(jpb.JOB_STATE_SUCCEEDED, 0)) < args.kill_after * len(ids):
                time.sleep(0.05)
            os.kill(pid, signal.SIGKILL)
            killed = time.monotonic()
            deadline = killed + args.timeout
            states: dict[int, int] = {}
            while time.monotonic() < deadline:
                states = _states(jobs, ids)
                if states and sum(n for s, n in states.items() if s in _FINAL) == len(ids):
                    break
                time.sleep(0.2)
            finished = time.monotonic()
            revisions = [
                len(profiles.ListProfileRevisions(ppb.ListProfileRevisionsRequest(agent_id=a), metadata=_T).revisions)
                for a in agents
            ]
    finally:
        up.send_signal(signal.SIGTERM)
        up.wait(timeout=60)
        if up.stdout is not None:
            up.stdout.close()
    named = {jpb.JobState.Name(s).removeprefix("JOB_STATE_").lower(): n for s, n in states.items()}
    return {
        "benchmark": "valkey",
        "config": {k: v for k, v in vars(args).items() if k not in ("run", "json")},
        "succeeded_before_kill": done_at_kill,
        "jobs": named,
        "seconds_after_kill_until_all_done": round(finished - killed, 1),
        "valkey_restarts": sum("valkey restarted" in line for line in output),
        "worker_restarts": sum("worker restarted" in line for line in output),
        "model_calls": provider.calls["/v1/chat/completions"],
        "agents_with_a_profile": sum(1 for n in revisions if n),
        "duplicate_revisions": sum(n - 1 for n in revisions if n > 1),
    }


def _states(jobs: Any, ids: list[str]) -> dict[int, int]:
    """Jobs by state ({} while Valkey is down: the job RPCs answer UNAVAILABLE)."""
    try:
        return dict(Counter(jobs.GetJob(jpb.GetJobRequest(job_id=i), metadata=_T).job.state for i in ids))
    except grpc.RpcError:
        return {}


def _retrying(method: Any, request: Any) -> Any:
    """The call, retried while the daemon is still starting (UNAVAILABLE)."""
    for attempt in range(50):
        try:
            return method(request, metadata=_T)
        except grpc.RpcError as err:
            if err.code() != grpc.StatusCode.UNAVAILABLE or attempt == 49:
                raise
            time.sleep(0.2)
    return None


def _render(record: dict[str, Any]) -> str:
    cfg = record["config"]
    rows = [
        ["agents (one model job each) / provider latency (s)", f"{cfg['agents']} / {cfg['latency']}"],
        ["succeeded when Valkey was killed", record["succeeded_before_kill"]],
        ["job states at the end", ", ".join(f"{k} {v}" for k, v in sorted(record["jobs"].items()))],
        ["all done, seconds after the kill", record["seconds_after_kill_until_all_done"]],
        ["Valkey / worker restarts by memoryd up", f"{record['valkey_restarts']} / {record['worker_restarts']}"],
        ["model calls", record["model_calls"]],
        [
            "agents with a profile / duplicate revisions",
            f"{record['agents_with_a_profile']} / {record['duplicate_revisions']}",
        ],
    ]
    return "memoryd bench valkey\n" + table(rows, ["", "value"])
