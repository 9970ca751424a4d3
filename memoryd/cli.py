"""The `memoryd` command: serve, worker, bootstrap, up, demo, bench."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from memoryd import logs
from memoryd.allocator import limit_malloc_arenas
from memoryd.config import Settings, load_settings
from memoryd.core.errors import MemorydError


def _listen(value: str) -> tuple[str, int]:
    host, _, port = value.rpartition(":")
    if not host or not port.isdigit():
        raise argparse.ArgumentTypeError("expected HOST:PORT, e.g. 127.0.0.1:50051")
    return host, int(port)


def _add_daemon_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", type=Path, help="TOML config file (default: $MEMORYD_CONFIG)")
    p.add_argument("--listen", type=_listen, help="HOST:PORT to serve on (default 127.0.0.1:50051)")
    p.add_argument("--data", help="storage directory or URI (default var/data)")


def settings_from(args: argparse.Namespace) -> Settings:
    """Config file and env, with command-line flags on top."""
    overrides: dict[str, Any] = {}
    if args.listen:
        overrides["server"] = {"host": args.listen[0], "port": args.listen[1]}
    if args.data:
        overrides["storage"] = {"uri": args.data}
    return load_settings(args.config, **overrides)


def parser() -> argparse.ArgumentParser:
    """The argument parser."""
    root = argparse.ArgumentParser(prog="memoryd", description="Persistent memory for LLM agents over gRPC.")
    sub = root.add_subparsers(dest="command", required=True)
    _add_daemon_args(sub.add_parser("serve", help="run the gRPC daemon"))
    worker = sub.add_parser("worker", help="run the job workers (needs REDIS_URL)")
    worker.add_argument("--config", type=Path, help="TOML config file (default: $MEMORYD_CONFIG)")
    worker.add_argument("--data", help="storage directory or URI (default var/data)")
    worker.set_defaults(listen=None)
    boot = sub.add_parser("bootstrap", help="compile every agent's archive into its profile (batch job)")
    boot.add_argument("--all", action="store_true", required=True, help="every agent of every tenant")
    boot.add_argument(
        "--no-worker", action="store_true", help="only queue and follow the batch; running workers do the work"
    )
    boot.add_argument("--config", type=Path, help="TOML config file (default: $MEMORYD_CONFIG)")
    boot.add_argument("--data", help="storage directory or URI (default var/data)")
    boot.set_defaults(listen=None)
    up = sub.add_parser("up", help="run the embedded default: daemon + worker + embedded Valkey")
    _add_daemon_args(up)
    up.add_argument("--run-dir", type=Path, default=Path("var"), help="where data, Valkey files and logs go")
    from memoryd.demo import register as register_demo

    register_demo(sub)
    bench = sub.add_parser("bench", help="benchmarks (JSON + table)")
    bench_sub = bench.add_subparsers(dest="bench", required=True)
    from memoryd.bench.cli import add_bench_commands

    add_bench_commands(bench_sub)
    return root


def main(argv: list[str] | None = None) -> None:
    """Entry point."""
    limit_malloc_arenas()  # before any native thread pool starts (lancedb, grpc, onnxruntime)
    args = parser().parse_args(argv)
    try:
        if args.command == "serve":
            settings = settings_from(args)
            logs.configure(settings.log.level, settings.log.format)
            from memoryd.rpc.server import serve

            asyncio.run(serve(settings))
        elif args.command == "worker":
            settings = settings_from(args)
            logs.configure(settings.log.level, settings.log.format)
            from workers.run import run_workers

            asyncio.run(run_workers(settings))
        elif args.command == "bootstrap":
            settings = settings_from(args)
            logs.configure("WARNING", settings.log.format)
            from workers.batch import run_bootstrap_all

            sys.exit(asyncio.run(run_bootstrap_all(settings, with_worker=not args.no_worker)))
        elif args.command == "up":
            from memoryd.launcher import run_up

            settings = settings_from(args)
            sys.exit(run_up(args, settings))
        else:
            sys.exit(args.run(args))
    except MemorydError as exc:
        sys.exit(f"memoryd: {exc}")
    except KeyboardInterrupt:
        pass
