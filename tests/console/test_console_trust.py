"""Whom the console serves: the Host names it answers to (DNS rebinding) and who may sign in by naming a tenant."""

from __future__ import annotations

import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memoryd.commands.bench.daemon import free_port
from memoryd.facades.console.app import build
from memoryd.facades.console.daemon import Daemon
from memoryd.facades.console.web import Console
from tests.console.conftest import _wait_for


@pytest.fixture
def console() -> Iterator[int]:
    """`memoryd console` on loopback (its daemon need not answer: nothing here reaches it), its port."""
    port = free_port()
    command = [sys.executable, "-m", "memoryd", "console", "--listen", f"127.0.0.1:{port}", "--target", "127.0.0.1:1"]
    process = subprocess.Popen([*command, "--allowed-host", "console.internal"], stdout=subprocess.PIPE)
    try:
        _wait_for(f"http://127.0.0.1:{port}/signin", process)
        yield port
    finally:
        process.terminate()
        process.communicate(timeout=10)


def _get(port: int, host: str) -> tuple[int, str]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/signin", headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as err:
        assert err.headers["x-content-type-options"] == "nosniff"  # the refusal, too, is never read as a page
        return err.code, err.read().decode()


def test_a_page_under_another_name_pointed_at_loopback_is_refused(console: int) -> None:
    """DNS rebinding: evil.example resolves to 127.0.0.1, and its page calls the console as its own origin."""
    status, body = _get(console, f"evil.example:{console}")
    assert status == 400 and "Host 'evil.example:" in body and "--allowed-host NAME" in body
    assert "csrf" not in body  # refused before any page: no form, no session
    for host in (f"127.0.0.1:{console}", f"localhost:{console}", f"[::1]:{console}", f"Console.Internal:{console}"):
        status, body = _get(console, host)
        assert status == 200 and 'name="csrf"' in body, host


@pytest.mark.parametrize("name", ["http://console.internal", "console.internal:8080", "two names"])
def test_an_allowed_host_that_is_not_a_name_is_one_clear_line(name: str) -> None:
    command = [sys.executable, "-m", "memoryd", "console", "--listen", f"127.0.0.1:{free_port()}"]
    done = subprocess.run([*command, "--allowed-host", name], capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and f"--allowed-host {name!r} is not a host name" in done.stderr, done
    assert "Traceback" not in done.stderr


async def _asgi(app: Any, method: str, path: str, peer: str, cookie: str = "", body: bytes = b"") -> dict[str, Any]:
    """One request through the console's ASGI app as if from ``peer`` (no socket: the peer is what is tested)."""
    headers = [(b"host", b"console.internal")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    if body:
        headers.append((b"content-type", b"application/x-www-form-urlencoded"))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "https",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": (peer, 50000),
        "server": ("203.0.113.1", 443),
    }
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    text = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body").decode()
    cookies = [v.decode().split(";")[0] for k, v in start["headers"] if k == b"set-cookie"]
    return {"status": start["status"], "body": text, "cookie": cookies[0] if cookies else cookie}


async def test_naming_a_tenant_signs_in_only_from_this_machine() -> None:
    """Protected mode trusts callers on the daemon's machine; a console on the network must not lend that trust."""
    console = Console(Daemon("127.0.0.1:1", None), secure_cookies=True, hosts=frozenset({"console.internal"}))
    app = build(console)
    console.daemon.connect()  # what the app's lifespan does when uvicorn serves it
    try:
        await _sign_in_from(app)
    finally:
        await console.daemon.close()


async def _sign_in_from(app: Any) -> None:
    for peer, status, said in (
        ("198.51.100.20", 403, "Naming a tenant signs in only from this machine"),
        ("127.0.0.1", 503, "UNAVAILABLE"),  # allowed: it goes on to ask the daemon, which is down here
    ):
        form = await _asgi(app, "GET", "/signin", peer)
        token = re.search(r'name="csrf" value="([^"]+)"', form["body"])
        assert token is not None
        fields = urllib.parse.urlencode({"csrf": token.group(1), "tenant": "acme"}).encode()
        answer = await _asgi(app, "POST", "/signin", peer, form["cookie"], fields)
        assert answer["status"] == status and said in answer["body"], (peer, answer)


def test_up_says_a_console_host_that_is_not_a_name_before_starting_anything(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "memoryd", "up", "--run-dir", str(tmp_path)]
    command += ["--listen", f"127.0.0.1:{free_port()}"]
    command += ["--console", f"127.0.0.1:{free_port()}", "--console-allowed-host", "https://codespace.example"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    said = "--console-allowed-host 'https://codespace.example' is not a host name"
    assert done.returncode == 1 and said in done.stderr and "Traceback" not in done.stderr, done
    assert not (tmp_path / "valkey").exists()  # nothing was started
