"""The console against a real daemon, driven in Debian's headless Chromium through Playwright.

Each test gets a daemon (LanceDB on disk, Valkey on loopback) seeded with keys and memories, the
console as its own process (`memoryd console`, as an operator runs it) and a fresh browser.
Screenshots go to ``CONSOLE_SCREENSHOTS`` (default: the test's temporary folder).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, async_playwright

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.commands.bench.daemon import free_port
from memoryd.config import Settings
from memoryd.core.keys import Role
from memoryd.core.models import Actor, MemoryDraft, Scope
from memoryd.testing.provider import FakeProvider
from tests.conftest import LiveServer
from tests.jobs.conftest import job_settings

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""As root in a container, and with no network: without the background-networking flags Chromium keeps
trying to reach its update and sync hosts."""
SCRIPT_MEMORY = "<script>document.title='pwned'</script><img src=x onerror=\"document.title='pwned'\"> is a test"


@dataclass
class Stack:
    """A seeded daemon, the console in front of it, and the tokens of each role."""

    daemon: LiveServer
    settings: Settings
    url: str
    tokens: dict[str, str]
    provider: FakeProvider
    ids: dict[str, str]


@pytest.fixture
def provider() -> Iterator[FakeProvider]:
    with FakeProvider() as p:
        yield p


@pytest.fixture
def stack(tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder) -> Iterator[Stack]:
    settings = job_settings(tmp_path, redis_url, provider)
    with LiveServer(settings, onnx_embedder) as daemon:
        assert daemon.app is not None
        app = daemon.app
        tokens = {}
        for role, agent in ((Role.ADMIN, ""), (Role.OPERATOR, ""), (Role.AGENT, "a1")):
            tokens[role.label] = daemon.run(app.admin.keys.create("acme", role, agent, f"{role.label} key"))[1]
        maria, a1, contact = Actor("acme", "a1", "c-maria"), Actor("acme", "a1"), Scope.END_USER
        ids = {}
        for name, actor, draft in (
            ("email", maria, MemoryDraft("Maria prefers email over phone calls", scope=contact)),
            ("address", maria, MemoryDraft("Maria's invoices go to Hauptstrasse 5, Berlin", scope=contact)),
            ("office", a1, MemoryDraft("The office closes at 18:00 on Fridays", scope=Scope.TENANT)),
            ("script", a1, MemoryDraft(SCRIPT_MEMORY)),
            ("other", Actor("acme", "a2"), MemoryDraft("a2 keeps the release checklist")),
        ):
            ids[name] = daemon.run(app.memory.memorize.memorize(actor, draft)).memory.memory_id
        port = free_port()
        command = [sys.executable, "-m", "memoryd", "console", "--listen", f"127.0.0.1:{port}"]
        command += ["--target", f"127.0.0.1:{daemon.port}"]
        console = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_for(url + "/signin", console)
            yield Stack(daemon, settings, url, tokens, provider, ids)
        finally:
            console.terminate()
            output, _ = console.communicate(timeout=10)
            print(output.decode(errors="replace"))  # shown with a failing test's output


def _wait_for(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            out = process.stdout.read().decode() if process.stdout else ""
            raise AssertionError(f"memoryd console exited {process.returncode}: {out}")
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"memoryd console did not answer at {url}")


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    if not shutil.which(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: `make browser` installs Debian's chromium")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield launched
        await launched.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where the tests leave their screenshots."""
    folder = Path(os.environ.get("CONSOLE_SCREENSHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


async def sign_in(browser: Browser, stack: Stack, role: str) -> Page:
    """A new browser context signed in with the key of ``role``."""
    page = await (await browser.new_context(viewport={"width": 1360, "height": 900})).new_page()
    await page.goto(stack.url + "/")
    await page.fill("input[name=key]", stack.tokens[role])
    await page.click("form[action='/signin'] button")
    await page.wait_for_load_state()
    return page
