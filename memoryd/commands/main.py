"""The `memoryd` command: serve, worker, jobs, audits, reports, keys, data rights, up, demo, bench.

Every subcommand declares its options once (shared ones through parent parsers) and names
its handler with ``set_defaults(run=...)``; ``main`` only calls it.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from memoryd.commands.arg_types import input_file, output_file, positive_int
from memoryd.config import Settings, load_settings
from memoryd.config.errors import ConfigError
from memoryd.config.process import DEFAULT_STORE_URI
from memoryd.core.errors import MemorydError
from memoryd.core.keys import Role
from memoryd.core.validation import host_port
from memoryd.facades.console.command import register as register_console
from memoryd.facades.mcp import register as register_mcp
from memoryd.runtime import logs
from memoryd.runtime.allocator import limit_blas_threads, limit_malloc_arenas


def _listen(value: str) -> tuple[str, int]:
    found = host_port(value, any_port=True)
    if found is None:
        raise argparse.ArgumentTypeError("expected HOST:PORT, e.g. 127.0.0.1:50051")
    return found


def _store_options() -> argparse.ArgumentParser:
    """``--config`` and ``--data``: every command that opens the store."""
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--config", type=Path, help="TOML config file (default: $MEMORYD_CONFIG)")
    p.add_argument("--data", help="storage directory or URI (default var/data)")
    p.set_defaults(listen=None)
    return p


def _listen_option() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--listen", type=_listen, help="HOST:PORT to serve on (default 127.0.0.1:50051)")
    return p


def _stack_option() -> argparse.ArgumentParser:
    """``--run-dir``: where ``memoryd up`` runs, for the commands that need its job queue."""
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--run-dir", type=Path, default=Path("var"), help="the `memoryd up` to use (default var)")
    return p


def settings_from(args: argparse.Namespace) -> Settings:
    """Config file and env, with command-line flags on top; the job queue of a ``memoryd up`` in ``--run-dir``."""
    overrides: dict[str, Any] = {}
    if args.listen:
        overrides["server"] = {"host": args.listen[0], "port": args.listen[1]}
    if args.data:
        overrides["storage"] = {"uri": args.data}
    settings = load_settings(args.config, **overrides)
    if args.command != "up" and getattr(args, "run_dir", None) is not None and not settings.redis.dsn:
        from memoryd.commands.up import running_stack

        stack = running_stack(args.run_dir)
        if stack is not None and stack.get("redis_url"):
            settings = _on_stack(args, settings.with_redis(stack["redis_url"]), stack.get("data", ""))
    return settings


def _on_stack(args: argparse.Namespace, settings: Settings, served: str) -> Settings:
    """A command beside a running ``memoryd up``: its store, unless another is named (then refused).

    ``--run-dir`` gave the stack's job queue but the store stayed ``var/data`` of the working
    directory: from another directory an erase or a key went to a store the daemon never reads
    (or, with none there, was refused as a missing store), and a job queued there ran on another.
    """
    uri = settings.storage.uri
    if not served or _same_store(uri, served):
        return settings
    if not args.data and uri == DEFAULT_STORE_URI:
        return settings.model_copy(update={"storage": settings.storage.model_copy(update={"uri": served})})
    raise ConfigError(
        f"--data / storage.uri {uri!r} is not the store of the `memoryd up` in {str(args.run_dir)!r} ({served!r}): "
        "name that store, or another --run-dir"
    )


def _same_store(a: str, b: str) -> bool:
    """Whether two store URIs name one store (directories compared as absolute paths)."""
    if "://" in a or "://" in b:
        return a.rstrip("/") == b.rstrip("/")
    return Path(a).expanduser().resolve() == Path(b).expanduser().resolve()


def _traced(args: argparse.Namespace, run: Callable[[Settings], None]) -> int:
    """A long-running process: its settings, logs at the configured level, tracing around ``run``."""
    settings = settings_from(args)
    logs.configure(settings.log.level, settings.log.format)
    from memoryd.runtime.telemetry import configure_tracing

    stop_tracing = configure_tracing(settings.tracing)
    try:
        run(settings)
    finally:
        stop_tracing()
    return 0


def _one_shot(args: argparse.Namespace, run: Callable[[Settings], Coroutine[Any, Any, int]]) -> int:
    """An operator's command: its settings, warnings only on the log, its exit status."""
    settings = settings_from(args)
    logs.configure("WARNING", settings.log.format)
    return asyncio.run(run(settings))


def _serve(args: argparse.Namespace) -> int:
    from memoryd.rpc.calls_in_flight import CallsInFlight
    from memoryd.rpc.server import serve
    from memoryd.runtime.busy_poll import event_loop_factory

    def run(settings: Settings) -> None:
        calls = CallsInFlight()
        with asyncio.Runner(loop_factory=event_loop_factory(settings.server.busy_poll_us, calls.quiet)) as runner:
            runner.run(serve(settings, calls))

    return _traced(args, run)


def _worker(args: argparse.Namespace) -> int:
    from memoryd.workers.run import run_workers

    return _traced(args, lambda settings: asyncio.run(run_workers(settings)))


def _bootstrap(args: argparse.Namespace) -> int:
    from memoryd.commands.bootstrap import run_bootstrap_all

    return _one_shot(args, lambda settings: run_bootstrap_all(settings, with_worker=not args.no_worker))


def _audit(args: argparse.Namespace) -> int:
    from memoryd.commands.audit import run_audit
    from memoryd.core.review import ApplyPolicy

    return _one_shot(
        args,
        lambda settings: run_audit(
            settings,
            tenant_id=args.tenant,
            agent_id=args.agent,
            apply=ApplyPolicy(args.apply),
            dry_run=args.dry_run,
            with_worker=not args.no_worker,
        ),
    )


def _report(args: argparse.Namespace) -> int:
    from memoryd.commands.reports.command import parse_since, run_report

    since = parse_since(args.since) if args.since else None
    return _one_shot(
        args,
        lambda settings: run_report(
            settings,
            tenant_id=args.tenant,
            agent_id=args.agent,
            since=since,
            json_path=args.json,
            html_path=args.html,
            fail_on_alarm=args.fail_on_alarm,
        ),
    )


def _keys(args: argparse.Namespace) -> int:
    from memoryd.commands.keys import run_keys

    return _one_shot(
        args,
        lambda settings: run_keys(
            settings,
            args.action,
            tenant_id=args.tenant,
            role=args.role,
            agent_id=args.agent,
            name=args.name,
            key_id=args.key_id,
            scope=args.scope,
        ),
    )


def _export(args: argparse.Namespace) -> int:
    from memoryd.commands.data import replaced_on_success, run_export

    if args.out == "-":
        return _one_shot(args, lambda settings: run_export(settings, args.tenant, args.end_user, args.embeddings))
    with replaced_on_success(Path(args.out)) as out:
        return _one_shot(args, lambda settings: run_export(settings, args.tenant, args.end_user, args.embeddings, out))


def _import(args: argparse.Namespace) -> int:
    from memoryd.commands.data import run_import

    return _one_shot(args, lambda settings: run_import(settings, args.tenant, args.file))


def _erase(args: argparse.Namespace) -> int:
    from memoryd.commands.data import run_erase

    return _one_shot(args, lambda settings: run_erase(settings, args.tenant, args.end_user))


def _retention(args: argparse.Namespace) -> int:
    from memoryd.commands.data import run_retention

    return _one_shot(args, lambda settings: run_retention(settings, args.tenant, args.dry_run))


def _reembed(args: argparse.Namespace) -> int:
    from memoryd.commands.reembed import run_reembed

    action = next((a for a in ("status", "switch", "switch_back", "finish") if getattr(args, a)), "run")
    action = action.replace("_", "-")
    return _one_shot(
        args, lambda settings: run_reembed(settings, args.to, args.tenant, action=action, batch=args.batch)
    )


def _up(args: argparse.Namespace) -> int:
    from memoryd.commands.up import run_up

    return run_up(args, settings_from(args))


def parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; the benchmarks' subcommands only when ``command`` is ``bench`` or None (all)."""
    root = argparse.ArgumentParser(prog="memoryd", description="Persistent memory for LLM agents over gRPC.")
    sub = root.add_subparsers(dest="command", required=True)
    store, listen = _store_options(), _listen_option()
    sub.add_parser("serve", parents=[store, listen], help="run the gRPC daemon").set_defaults(run=_serve)
    sub.add_parser("worker", parents=[store], help="run the job workers (needs REDIS_URL)").set_defaults(run=_worker)
    stack = _stack_option()
    boot = sub.add_parser("bootstrap", parents=[store, stack], help="compile every agent's archive into its profile")
    boot.add_argument("--all", action="store_true", required=True, help="every agent of every tenant")
    boot.add_argument(
        "--no-worker", action="store_true", help="only queue and follow the batch; running workers do the work"
    )
    boot.set_defaults(run=_bootstrap)
    audit = sub.add_parser("audit", parents=[store, stack], help="review archives now (the audit batch) and summarise")
    audit.add_argument("--tenant", default="", help="only this tenant (default: every tenant)")
    audit.add_argument("--agent", default="", help="only this agent's review (needs --tenant)")
    audit.add_argument(
        "--apply",
        choices=["rules", "all"],
        default="none",
        help="then apply the proposals: rules (certain rule findings) or all (every confirmed finding)",
    )
    audit.add_argument("--dry-run", action="store_true", help="print what the rules would find; store nothing")
    audit.add_argument("--no-worker", action="store_true", help="only queue and follow; running workers do the work")
    audit.set_defaults(run=_audit)
    report = sub.add_parser("report", parents=[store, stack], help="usage report: counts, concentration, age, growth")
    report.add_argument("--tenant", default="", help="only this tenant (default: every tenant)")
    report.add_argument("--agent", default="", help="only this agent's memories (needs --tenant)")
    report.add_argument("--since", default="", help="only memories created since (ISO date or time, UTC)")
    report.add_argument("--json", type=output_file, help="also write the report(s) as JSON here")
    report.add_argument("--html", type=output_file, help="also write a self-contained HTML page with charts here")
    report.add_argument("--fail-on-alarm", action="store_true", help="exit 1 when a report raises an alarm")
    report.set_defaults(run=_report)
    keys = sub.add_parser("keys", help="API keys: create (token shown once), list, revoke")
    actions = keys.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create", parents=[store, stack], help="a new key; its token is printed once")
    create.add_argument("--tenant", default="", help="the key's tenant (system keys act for every tenant)")
    create.add_argument("--role", default="agent", choices=[r.name.lower() for r in Role])
    create.add_argument("--agent", default="", help="pin an agent key to this agent id")
    create.add_argument("--name", default="", help="a label for people")
    create.add_argument(
        "--scope", default="all", choices=["all", "read_only", "non_destructive"], help="narrow the role (default all)"
    )
    listing = actions.add_parser("list", parents=[store, stack], help="every key (or one tenant's), never a secret")
    listing.add_argument("--tenant", default="", help="only this tenant's keys")
    revoke = actions.add_parser("revoke", parents=[store, stack], help="revoke a key (its id, from `keys list`)")
    revoke.add_argument("key_id", help="the key to revoke")
    revoke.add_argument("--tenant", default="", help="only if it is this tenant's")
    keys.set_defaults(run=_keys, role="agent", agent="", name="", key_id="", scope="all")
    export = sub.add_parser("export", parents=[store, stack], help="a tenant (or one contact) as versioned JSONL")
    export.add_argument("--tenant", required=True)
    export.add_argument("--end-user", default=None, help="only what concerns this contact")
    export.add_argument("--embeddings", action="store_true", help="include the vectors (the header names the model)")
    export.add_argument("--out", default="-", help="file to write (default: standard output)")
    export.set_defaults(run=_export)
    imp = sub.add_parser("import", parents=[store, stack], help="restore an export into an empty tenant")
    imp.add_argument("file", type=input_file)
    imp.add_argument("--tenant", required=True)
    imp.set_defaults(run=_import)
    erase = sub.add_parser("erase", parents=[store, stack], help="erase one contact everywhere, bytes on disk included")
    erase.add_argument("--tenant", required=True)
    erase.add_argument("--end-user", required=True)
    erase.set_defaults(run=_erase)
    retention = sub.add_parser("retention", parents=[store, stack], help="apply the retention policies now")
    retention.add_argument("--tenant", default="", help="one tenant (default: every tenant with a policy)")
    retention.add_argument("--dry-run", action="store_true", help="count what would go; remove nothing")
    retention.set_defaults(run=_retention)
    reembed = sub.add_parser(
        "reembed",
        parents=[store, stack],
        help="re-embed the archive with the [reembed] model; switch tenants to it and back",
    )
    reembed.add_argument("--to", required=True, help="the model re-embedded to (the configured [reembed] model)")
    reembed.add_argument("--tenant", action="append", default=[], help="only these tenants (repeatable)")
    reembed.add_argument("--batch", type=positive_int, default=256, help="rows per model call and commit")
    mode = reembed.add_mutually_exclusive_group()
    mode.add_argument("--status", action="store_true", help="show progress; change nothing")
    mode.add_argument("--switch", action="store_true", help="switch complete tenants without filling")
    mode.add_argument("--switch-back", action="store_true", help="Recall back on the store's model")
    mode.add_argument(
        "--finish",
        action="store_true",
        help="daemons stopped: drop the old vectors, MODEL becomes the store's",
    )
    reembed.set_defaults(run=_reembed)
    up = sub.add_parser("up", parents=[store, listen], help="the embedded default: daemon + worker + Valkey")
    up.add_argument("--run-dir", type=Path, default=Path("var"), help="where data, Valkey files and logs go")
    up.add_argument("--console", default="127.0.0.1:8080", help="HOST:PORT of the operator console, or 'off'")
    up.add_argument(
        "--console-allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another Host name browsers reach the console by (repeat; e.g. a forwarded port's name)",
    )
    up.set_defaults(run=_up)
    from memoryd.commands.demo import register as register_demo

    register_demo(sub)
    register_mcp(sub)
    register_console(sub)
    bench = sub.add_parser("bench", help="benchmarks (JSON + table)")
    benches = bench.add_subparsers(dest="bench", required=True)
    if command in (None, "bench"):  # the benches import their own tooling: only for `memoryd bench`
        from memoryd.commands.bench.cli import add_bench_commands

        add_bench_commands(benches)
    return root


def main(argv: list[str] | None = None) -> None:
    """Entry point: parse, then run the subcommand's handler."""
    limit_malloc_arenas()  # before any native thread pool starts (lancedb, grpc, onnxruntime)
    limit_blas_threads()  # before numpy loads
    argv = sys.argv[1:] if argv is None else argv
    args = parser(argv[0] if argv else "").parse_args(argv)
    try:
        sys.exit(args.run(args))
    except ConfigError as exc:  # a usage mistake, like argparse's own: exit 2
        print(f"memoryd: {exc}", file=sys.stderr)
        sys.exit(2)
    except MemorydError as exc:
        sys.exit(f"memoryd: {exc}")
    except KeyboardInterrupt:
        pass
