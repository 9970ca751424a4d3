"""Retention against the jobs under way, on the real parts (Valkey, arq, LanceDB, the provider)."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import lancedb
import pytest
import redis.asyncio

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.adapters.redis.leases import RedisLeases
from memoryd.app import build_app
from memoryd.core.conversation import MessageInput, Role, compaction_lease
from memoryd.core.models import Actor
from memoryd.testing.provider import FakeProvider
from memoryd.workers.settings import running_workers
from tests.fakes import FrozenClock
from tests.jobs.conftest import job_settings

pytestmark = pytest.mark.timeout(120)

START = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)


def turn(i: int) -> MessageInput:
    text = f"Turn {i}: details about the plan, the schedule and the budget of the move. " * 3
    return MessageInput(f"m{i}", Role.USER if i % 2 == 0 else Role.ASSISTANT, text, START + timedelta(minutes=i))


async def test_retention_leaves_a_conversation_whose_compaction_is_under_way_whole(
    tmp_path: Path, redis_url: str, provider: FakeProvider, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    """A compaction that read the messages before retention expired the conversation writes its summary after:
    no item may be left without its conversation."""
    reply = json.dumps({"summary": "They planned the move.", "compressed": "Earlier: the move.", "memories": []})
    provider.reply_with(*[reply] * 50)
    provider.latency = 1.5  # the retention pass comes while the model is asked
    settings = job_settings(tmp_path, redis_url, provider, poll_seconds=0.01)
    settings.retention.conversations_days = 7.0
    clock = FrozenClock(START)
    me, conversation = Actor("acme", "a1", "u1"), "chat-move"
    client = redis.asyncio.Redis.from_url(redis_url)
    leases = RedisLeases(client)
    async with build_app(settings, embedder=onnx_embedder, clock=clock) as app, running_workers(settings, app):
        assert app.working.conversations is not None
        for i in range(60):
            await app.working.conversations.append(me, conversation, [turn(i)], context_window=1000)
            if provider.calls["/v1/chat/completions"]:
                break
        else:
            raise AssertionError("no compaction called the model")
        assert await leases.is_held(compaction_lease("acme", conversation))
        clock.advance(days=30)  # the conversation has been idle for longer than the policy

        receipt = await app.admin.retention.purge("acme", dry_run=False)

        deadline = time.monotonic() + 30
        while await leases.is_held(compaction_lease("acme", conversation)):
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)
        state = await app.working.conversation_store.state("acme", conversation)
        db = await lancedb.connect_async(settings.storage.uri)
        items = await (await db.open_table("conversation_items_acme")).count_rows(f"conversation_id = '{conversation}'")
        assert state is not None or items == 0, f"{items} items left without their conversation"
        assert receipt.counts["conversations"] == 0  # it was busy: the next pass expires it
    await client.aclose()
