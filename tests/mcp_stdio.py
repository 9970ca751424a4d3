"""The MCP facade as a runtime starts it: `memoryd mcp` over stdio, driven by the MCP SDK's client."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def facade_command(port: int, *more: str, tenant: str = "acme") -> list[str]:
    """The command line of a facade acting as agent a1 of ``tenant`` (none: the key's) on the daemon at ``port``."""
    target = f"127.0.0.1:{port}"
    named = ["--tenant", tenant] if tenant else []
    return [sys.executable, "-m", "memoryd", "mcp", "--target", target, *named, "--agent", "a1", *more]


@asynccontextmanager
async def mcp_session(port: int, api_key: str = "", *more: str, tenant: str = "acme") -> AsyncIterator[ClientSession]:
    """An initialized session with that facade; ``api_key`` its ``MEMORYD_API_KEY`` (none: protected mode)."""
    command = facade_command(port, *more, tenant=tenant)
    env = {**os.environ, "MEMORYD_API_KEY": api_key} if api_key else None
    params = StdioServerParameters(command=command[0], args=command[1:], env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session
