"""`memoryd console`: serve the console on HOST:PORT, calling the daemon at --target."""

from __future__ import annotations

import argparse
import re
import ssl
from pathlib import Path

import grpc

from memoryd.core.validation import host_port, is_loopback
from memoryd.facades.console.app import build
from memoryd.facades.console.daemon import Daemon
from memoryd.facades.console.web import LOOPBACK_HOSTS, Console

DEFAULT_LISTEN = "127.0.0.1:8080"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `memoryd console`."""
    p = sub.add_parser("console", help="the operator console (a web page), calling a running daemon")
    p.add_argument("--listen", default=DEFAULT_LISTEN, help=f"HOST:PORT to serve on (default {DEFAULT_LISTEN})")
    p.add_argument("--target", default="127.0.0.1:50051", help="the daemon's HOST:PORT")
    p.add_argument("--tls-cert", type=Path, help="serve HTTPS with this certificate (PEM); needed beyond loopback")
    p.add_argument("--tls-key", type=Path, help="the certificate's private key (PEM)")
    p.add_argument("--daemon-ca", type=Path, help="call the daemon over TLS, trusting this CA (PEM)")
    p.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a Host name browsers reach the console by (repeat; on loopback 127.0.0.1, localhost and [::1] are "
        "always allowed; behind TLS with none given, any)",
    )
    p.set_defaults(run=run)


def listen_address(value: str) -> tuple[str, int]:
    """HOST:PORT, checked (a clear line, not a traceback, when it is not one)."""
    found = host_port(value)
    if found is None:
        raise SystemExit(f"memoryd console: --listen {value!r} is not HOST:PORT (e.g. {DEFAULT_LISTEN})")
    return found


def allowed_hosts(listen_host: str, names: list[str]) -> frozenset[str]:
    """The Host names to serve: those given, and on loopback the loopback names (empty: any host).

    ValueError names a given name that is not one.

    Plain HTTP listens on loopback only, where a rebinding page reaches it; behind TLS a page under
    another name fails the certificate check, so a TLS console checks only the names it is given.
    """
    given = {name.strip().lower() for name in names if name.strip()}
    for name in given:
        if not re.fullmatch(r"[a-z0-9.-]+|\[[0-9a-f:.]+\]", name):
            raise ValueError(f"{name!r} is not a host name (no port, no scheme)")
    if not is_loopback(listen_host):
        return frozenset(given)
    listening = f"[{listen_host}]" if ":" in listen_host else listen_host.lower()  # e.g. 127.0.0.2
    return frozenset(given | LOOPBACK_HOSTS | {listening})


def _check_pem(cert: Path | None, key: Path | None, daemon_ca: Path | None) -> None:
    """Refuse files that are not PEM now: uvicorn would raise at start, grpc at every call."""
    try:
        if cert is not None and key is not None:
            ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(cert, key)
    except ssl.SSLError as exc:
        raise SystemExit(
            f"memoryd console: --tls-cert, --tls-key: not a certificate chain and its key ({exc})"
        ) from None
    try:
        if daemon_ca is not None:
            ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT).load_verify_locations(daemon_ca)
    except ssl.SSLError as exc:
        raise SystemExit(f"memoryd console: --daemon-ca: not PEM certificates ({exc})") from None


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    import uvicorn

    host, port = listen_address(args.listen)
    tls = bool(args.tls_cert and args.tls_key)
    if bool(args.tls_cert) != bool(args.tls_key):
        raise SystemExit("memoryd console: give both --tls-cert and --tls-key")
    if not is_loopback(host) and not tls:
        raise SystemExit(
            f"memoryd console: refusing to listen on {host} without TLS (the session cookie and pasted keys "
            "would cross the network in the clear); give --tls-cert and --tls-key, or listen on 127.0.0.1"
        )
    for path in (args.tls_cert, args.tls_key, args.daemon_ca):
        if path is not None and not path.is_file():
            raise SystemExit(f"memoryd console: no such file: {path}")
    _check_pem(args.tls_cert, args.tls_key, args.daemon_ca)
    credentials = grpc.ssl_channel_credentials(args.daemon_ca.read_bytes()) if args.daemon_ca else None
    try:
        hosts = allowed_hosts(host, args.allowed_host)
    except ValueError as exc:
        raise SystemExit(f"memoryd console: --allowed-host {exc}") from None
    console = Console(Daemon(args.target, credentials), secure_cookies=tls, hosts=hosts)
    config = uvicorn.Config(
        build(console),
        host=host,
        port=port,
        ssl_certfile=str(args.tls_cert) if tls else None,
        ssl_keyfile=str(args.tls_key) if tls else None,
        log_level="warning",
        access_log=False,
        server_header=False,
    )
    print(f"memoryd console on {'https' if tls else 'http'}://{host}:{port}/ (daemon {args.target})", flush=True)
    uvicorn.Server(config).run()
    return 0
