"""`memoryd console` on the command line: listeners it refuses, and `memoryd up` on a taken console port."""

from __future__ import annotations

import http.cookiejar
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from memoryd.commands.bench.daemon import free_port


def _console(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "memoryd", "console", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--listen", "0.0.0.0:8080"), "refusing to listen on 0.0.0.0 without TLS"),
        (("--listen", "8080"), "is not HOST:PORT"),
        (("--listen", "127.0.0.1:8080", "--tls-cert", "cert.pem"), "give both --tls-cert and --tls-key"),
        (("--tls-cert", "missing.pem", "--tls-key", "missing.key"), "no such file: missing.pem"),
    ],
)
def test_a_listener_the_console_must_not_open_is_one_clear_line(args: tuple[str, ...], said: str) -> None:
    done = _console(*args)
    assert done.returncode != 0 and said in done.stderr and "Traceback" not in done.stderr, done


def test_tls_files_that_are_not_pem_are_one_clear_line_before_serving(tmp_path: Path) -> None:
    # A bad certificate was uvicorn's traceback at start; a bad daemon CA failed every call after it.
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a certificate")
    for args, said in (
        (("--tls-cert", str(garbage), "--tls-key", str(garbage)), "--tls-cert, --tls-key: not a certificate chain"),
        (("--daemon-ca", str(garbage)), "--daemon-ca: not PEM certificates"),
    ):
        done = _console("--listen", f"127.0.0.1:{free_port()}", *args)
        assert done.returncode == 1 and said in done.stderr and "Traceback" not in done.stderr, done


def test_up_with_the_console_port_taken_fails_at_once(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken, socket.create_server(("127.0.0.1", 0)) as free:
        port, daemon_port = taken.getsockname()[1], free.getsockname()[1]
        free.close()
        command = [sys.executable, "-m", "memoryd", "up", "--run-dir", str(tmp_path), "--console", f"127.0.0.1:{port}"]
        done = subprocess.run(
            [*command, "--listen", f"127.0.0.1:{daemon_port}"], capture_output=True, text=True, timeout=60
        )
    assert done.returncode == 1 and f"cannot listen on 127.0.0.1:{port}" in done.stderr, done
    assert "--console off" in done.stderr and "Traceback" not in done.stderr


def test_a_console_whose_daemon_is_down_says_so_on_sign_in() -> None:
    port = free_port()
    command = [sys.executable, "-m", "memoryd", "console", "--listen", f"127.0.0.1:{port}", "--target", "127.0.0.1:1"]
    console = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        for _ in range(100):
            try:
                form = opener.open(f"http://127.0.0.1:{port}/signin", timeout=2).read().decode()
                break
            except OSError:
                time.sleep(0.1)
        csrf = re.search(r'name="csrf" value="([^"]+)"', form)
        assert csrf is not None
        body = urllib.parse.urlencode({"csrf": csrf.group(1), "tenant": "acme"}).encode()
        with pytest.raises(urllib.error.HTTPError) as refused:
            opener.open(f"http://127.0.0.1:{port}/signin", data=body, timeout=10)
        assert refused.value.code == 503 and "UNAVAILABLE" in refused.value.read().decode()
    finally:
        console.terminate()
        _, errors = console.communicate(timeout=10)
    assert b"Traceback" not in errors
