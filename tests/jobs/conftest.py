"""Job fixtures: a real Valkey on loopback, the scriptable provider, in-process arq workers."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
import redis.asyncio

from memoryd.adapters.arq_queue import MODEL_QUEUE, SHORT_QUEUE
from memoryd.app import App, build_app
from memoryd.config import Settings
from memoryd.core.job_records import JobRecord
from memoryd.core.models import Actor, MemoryDraft
from memoryd.core.ports import Embedder
from memoryd.testing.provider import FakeProvider
from memoryd.workers.settings import running_workers
from tests.conftest import make_settings

PROFILE_REPLY = '{"profile": "## Preferences\\n- likes green tea", "demoted": []}'


@pytest.fixture
def provider() -> Iterator[FakeProvider]:
    with FakeProvider() as p:
        yield p


def job_settings(
    tmp_path: Path, redis_url: str, provider: FakeProvider | None, *, audits: dict[str, Any] | None = None, **jobs: Any
) -> Settings:
    """Fast retries and polling so outages play out in seconds; `jobs` overrides the jobs section."""
    knobs = {
        "poll_seconds": 0.02,
        "backoff_base_seconds": 0.05,
        "backoff_cap_seconds": 0.4,
        "breaker_threshold": 100,
        "model_job_timeout_seconds": 10,
        "bootstrap_at_start": False,
        **jobs,
    }
    prov = {"base_url": provider.base_url, "extraction_model": "fake-model", "timeout_seconds": 5} if provider else {}
    return make_settings(
        tmp_path / "data",
        redis={"dsn": redis_url},
        jobs=knobs,
        provider=prov,
        storage={"maintenance_enabled": False},
        audits=audits or {},
    )


def process_config(
    path: Path,
    redis_url: str,
    provider: FakeProvider,
    *,
    storage: dict[str, Any],
    jobs: dict[str, Any] | None = None,
    metrics: dict[str, Any] | None = None,
) -> Path:
    """A configuration file for `memoryd serve` / `memoryd worker` processes: the store, this Valkey and provider."""
    sections: dict[str, dict[str, Any]] = {
        "storage": storage,
        "redis": {"dsn": redis_url},
        "provider": {"base_url": provider.base_url, "extraction_model": "fake-model", "timeout_seconds": 20},
        "jobs": {"poll_seconds": 0.02, "bootstrap_at_start": False, **(jobs or {})},
        "metrics": metrics or {"enabled": False},  # off unless asked: several processes share one machine
        "log": {"level": "WARNING"},
    }
    lines = []
    for name, values in sections.items():  # JSON strings, numbers and booleans are TOML values too
        lines += [f"[{name}]", *(f"{key} = {json.dumps(value)}" for key, value in values.items())]
    path.write_text("\n".join(lines) + "\n")
    return path


@asynccontextmanager
async def running(settings: Settings, embedder: Embedder, *, workers: bool = True) -> AsyncIterator[App]:
    """The App, with both arq workers running on it in this loop."""
    async with build_app(settings, embedder=embedder) as app, running_workers(settings, app, enabled=workers):
        yield app


async def seed(app: App, tenant: str, agent: str, *contents: str) -> None:
    drafts = [MemoryDraft(content=c) for c in contents]
    await app.memory.memorize.memorize_batch(Actor(tenant, agent), drafts, skip_deduplication=True)


async def command_calls(client: redis.asyncio.Redis, command: str) -> int:
    """How many times the server has run ``command`` (its command statistics): round trips counted."""
    return int((await client.info("commandstats")).get(f"cmdstat_{command}", {}).get("calls", 0))


async def nothing_queued(redis_url: str) -> bool:
    """Whether both job queues are empty: no message is waiting, so nothing more can run."""
    client = redis.asyncio.Redis.from_url(redis_url)
    try:
        return not any([await client.zcard(MODEL_QUEUE), await client.zcard(SHORT_QUEUE)])
    finally:
        await client.aclose()


async def wait_for(
    check: Callable[[], Awaitable[JobRecord | None]],
    timeout: float = 30.0,
    until: Callable[[JobRecord], bool] = lambda r: not r.live,
) -> JobRecord:
    """Poll until the record exists and ``until`` holds (default: it is no longer live)."""
    deadline = time.monotonic() + timeout
    while True:
        record = await check()
        if record is not None and until(record):
            return record
        if time.monotonic() > deadline:
            raise AssertionError(f"job still live after {timeout} s: {record}")
        await asyncio.sleep(0.05)
