"""The MCP review_memories tool with an agent key: the agent reviews its own archive (a job is queued)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.core.keys import Role
from memoryd.core.models import Actor, MemoryDraft
from memoryd.testing.provider import FakeProvider
from tests.conftest import LiveServer
from tests.jobs.conftest import job_settings
from tests.mcp_stdio import mcp_session

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def daemon(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> Iterator[LiveServer]:
    with LiveServer(job_settings(tmp_path, redis_url, provider), onnx_embedder) as server:
        yield server


async def test_an_agent_key_reviews_its_own_archive_through_mcp(daemon: LiveServer) -> None:
    assert daemon.app is not None
    daemon.run(daemon.app.memory.memorize.memorize(Actor("acme", "a1"), MemoryDraft("a1 prefers tea")))
    _, token = daemon.key("acme", Role.AGENT, "a1", "a1's runtime")
    async with mcp_session(daemon.port, token) as session:
        review = await session.call_tool("review_memories", {})
        assert not review.is_error, review.content
        assert "review queued as job review:acme:a1:" in str(review.content)
