"""`memoryd mcp` over stdio, driven by the MCP SDK's own client against a real daemon."""

from __future__ import annotations

import sys

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.conftest import LiveServer

pytestmark = pytest.mark.timeout(120)


async def test_the_memory_tools_over_stdio(live_server: LiveServer) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "memoryd", "mcp", "--target", f"127.0.0.1:{live_server.port}", "--tenant", "acme", "--agent", "a1"],
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert {"recall", "memorize", "update_memory", "forget", "list_memories", "get_profile"} <= set(tools)
        assert "Routing rule" in (tools["memorize"].description or "")

        stored = await session.call_tool("memorize", {"content": "Caroline prefers espresso", "tags": ["drinks"]})
        assert not stored.is_error
        memory_id = stored.structured_content["id"]
        found = await session.call_tool("recall", {"query": "What does Caroline drink?", "min_score": 0.3})
        assert not found.is_error and memory_id in str(found.structured_content)
        listed = await session.call_tool("list_memories", {})
        assert "Caroline prefers espresso" in str(listed.structured_content)

        bad = await session.call_tool("forget", {"memory_id": "not-an-id"})  # the daemon's refusal, kept
        assert bad.is_error and "INVALID_ARGUMENT" in str(bad.content) and "memory_id" in str(bad.content)
        gone = await session.call_tool("forget", {"memory_id": memory_id})
        assert not gone.is_error
        again = await session.call_tool("recall", {"query": "What does Caroline drink?", "min_score": 0.3})
        assert memory_id not in str(again.structured_content)
