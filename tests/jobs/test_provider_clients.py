"""The provider clients the App builds are closed with it: a kept-alive connection does not outlive the App."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import openai

from memoryd.adapters.openai.embedder import OpenAIEmbedder
from memoryd.app import build_app
from memoryd.core.job_records import JobState
from memoryd.core.models import Actor
from memoryd.testing.provider import FakeProvider
from memoryd.workers.settings import running_workers
from tests.conftest import make_settings
from tests.jobs.conftest import PROFILE_REPLY, seed, wait_for


async def test_the_embedder_and_chat_clients_the_app_built_close_their_connections_with_it(
    tmp_path: Path, redis_url: str
) -> None:
    with FakeProvider(keep_alive=True) as provider:  # a provider keeps each connection open between calls
        settings = make_settings(
            tmp_path / "data",
            redis={"dsn": redis_url},
            jobs={"poll_seconds": 0.02, "bootstrap_at_start": False},
            provider={"base_url": provider.base_url, "extraction_model": "fake-model", "timeout_seconds": 5},
            embedding={"provider": "openai", "base_url": provider.base_url, "model": "fake-embed", "dimension": 384},
            storage={"maintenance_enabled": False},
        )
        provider.reply_with(PROFILE_REPLY)
        async with build_app(settings) as app, running_workers(settings, app):
            await seed(app, "acme", "a1", "likes green tea")  # the embedder's call
            job = await app.jobs.bootstrap.regenerate(Actor("acme", "a1"))  # the chat model's call
            done = await wait_for(lambda: app.jobs.service.get("acme", job.key))
            assert done.state == JobState.SUCCEEDED
            assert provider.open_connections >= 2  # one client each, both kept alive
        # ``app`` still names the App here, so its clients are not collected: only closing ends their connections
        deadline = time.monotonic() + 5
        while provider.open_connections and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert provider.open_connections == 0, "a client the App built still holds its connection"


async def test_an_embedder_passed_in_stays_open_after_the_app(tmp_path: Path) -> None:
    with FakeProvider(keep_alive=True) as provider:
        client = openai.AsyncOpenAI(base_url=provider.base_url, api_key="test")
        mine = OpenAIEmbedder(client, "fake-embed", 384, send_dimensions=False)
        async with build_app(make_settings(tmp_path / "data"), embedder=mine) as app:
            await seed(app, "acme", "a1", "likes green tea")
        assert len(await mine.embed(["still mine to use"])) == 1  # its caller closes it
        await mine.aclose()
