"""The store on a real S3-compatible server (moto's standalone server on loopback): every store works,
concurrent writers from two processes lose no commit, and a replica sees another's writes in time."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import lance
import lancedb
import pytest
import redis.asyncio as aioredis

from memoryd.adapters.lance.db import TABLE_FORMAT
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.adapters.redis.leases import RedisLeases
from memoryd.app import build_app
from memoryd.core.conversation import MessageInput, Role
from memoryd.core.graph import GraphScope
from memoryd.core.keys import Role as KeyRole
from memoryd.core.models import Actor, EditKind, ListQuery, MemoryDraft, MemoryFilter, ProfileEdit, RecallQuery, Scope
from memoryd.services.graph import Assertion
from tests.conftest import ObjectStore, make_settings

pytestmark = pytest.mark.timeout(240)
ME = Actor("acme", "a1", "u1")


def _objects(store: ObjectStore, prefix: str) -> list[str]:
    client = store.client()
    pages = client.get_paginator("list_objects_v2").paginate(Bucket=store.bucket, Prefix=prefix)
    return [o["Key"] for page in pages for o in page.get("Contents", [])]


async def test_every_store_works_on_object_storage(
    tmp_path: Path, object_store: ObjectStore, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    prefix = f"every-{uuid.uuid4().hex[:8]}"
    settings = make_settings(tmp_path / "unused", storage=object_store.settings(prefix))
    async with build_app(settings, embedder=onnx_embedder) as app:
        stored = await app.memory.memorize.memorize(ME, MemoryDraft("Caroline takes her espresso without sugar"))
        hits = await app.memory.recall.recall(RecallQuery(ME, "How does Caroline take her espresso?", limit=3))
        assert hits[0].memory.memory_id == stored.memory.memory_id
        await app.working.profile.edit(ME, 0, ProfileEdit(EditKind.APPEND, section="Style", text="- answer briefly"))
        await app.working.conversations.append(ME, "c1", [MessageInput("m1", Role.USER, "hello there")])
        assert [p.content for p in (await app.working.conversations.context(ME, "c1", 2000)).parts][-1] == "hello there"
        await app.admin.keys.create("acme", KeyRole.AGENT, "", "on s3")
        await app.graph.assert_human(
            Actor("acme", "ops"),
            GraphScope(Scope.END_USER, "", "u1"),
            Assertion("Acme", "ceo", "Ida", "Ida runs Acme."),
        )
        await app.working.configs.set_agent(Actor("acme", "ops"), "a1", {"recall.limit": 3}, (), 0)
        await app.admin.trail.flush()
        report = await app.admin.usage.report("acme", "a1")  # DuckDB's scan of the Lance tables on S3
        assert report.memories == 1
    keys = _objects(object_store, prefix)
    for table in ("memories_acme", "profiles_acme", "conversations_acme", "api_keys", "audit_events_acme"):
        assert any(f"/{table}.lance/" in k for k in keys), table
    assert any("/graph_facts_acme.lance/" in k for k in keys) and any("/agent_config_acme.lance/" in k for k in keys)
    options = settings.storage.storage_options()
    archive = lance.dataset(f"{settings.storage.uri}/memories_acme.lance", storage_options=options)
    assert archive.data_storage_version == TABLE_FORMAT  # new tables' format on object storage too
    # A second process (here: a second app) opening the same URI reads it all back.
    async with build_app(settings, embedder=onnx_embedder) as again:
        page = await again.memory.archive.list_memories(ListQuery(ME, page_size=10))
        assert [m.content for m in page.memories] == ["Caroline takes her espresso without sugar"]
        assert (await again.working.profile.get(ME)).revision == 1


_WRITER = textwrap.dedent(
    """
    import asyncio, json, sys
    from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
    from memoryd.app import build_app
    from memoryd.config import load_settings
    from memoryd.core.models import Actor, MemoryDraft

    async def main(storage, name, count):
        settings = load_settings(None, storage=json.loads(storage))
        async with build_app(settings.without_maintenance(), embedder=OnnxMiniLMEmbedder(threads=1)) as app:
            me = Actor("acme", "a1")
            for i in range(count):  # one commit each: every commit races the other process's
                await app.memory.memorize.memorize(me, MemoryDraft(f"note {i} written by {name}"))
        print("done")

    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
    """
)


COMMITS = 12


def test_two_processes_writing_one_tenant_table_lose_no_commit(tmp_path: Path, object_store: ObjectStore) -> None:
    prefix = f"race-{uuid.uuid4().hex[:8]}"
    storage = json.dumps(object_store.settings(prefix, read_consistency_seconds=0))
    script = tmp_path / "writer.py"
    script.write_text(_WRITER)
    # Twelve commits each: moto answers in Python (the twenty-commit run took 35–50 s), so the two
    # processes' commits overlap for many seconds, far beyond their start-up jitter.
    writers = [
        subprocess.Popen([sys.executable, str(script), storage, name, str(COMMITS)], stdout=subprocess.PIPE, text=True)
        for name in ("alpha", "beta")
    ]
    outputs = [w.communicate(timeout=200)[0] for w in writers]
    assert [w.returncode for w in writers] == [0, 0] and all("done" in o for o in outputs)

    async def count() -> list[str]:
        settings = make_settings(tmp_path / "unused", storage=object_store.settings(prefix))
        async with build_app(settings, embedder=OnnxMiniLMEmbedder(threads=1)) as app:
            rows = await app.memory.store.page(Actor("acme", "a1"), MemoryFilter(), "", 100)
            return sorted(r.content for r in rows)

    contents = asyncio.run(count())
    assert contents == sorted(f"note {i} written by {name}" for name in ("alpha", "beta") for i in range(COMMITS))


async def test_a_replica_sees_another_replicas_writes_within_read_consistency(
    tmp_path: Path, object_store: ObjectStore, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    prefix = f"replicas-{uuid.uuid4().hex[:8]}"
    bound = 1.0
    writer_settings = make_settings(tmp_path / "a", storage=object_store.settings(prefix))
    reader_settings = make_settings(tmp_path / "b", storage=object_store.settings(prefix, copy_max_rows=0))
    assert reader_settings.storage.read_consistency() == bound  # the default on object storage
    async with (
        build_app(writer_settings, embedder=onnx_embedder) as writer,
        build_app(reader_settings, embedder=onnx_embedder) as reader,
    ):
        await writer.memory.memorize.memorize(ME, MemoryDraft("the first note"))
        await reader.memory.store.page(ME, MemoryFilter(), "", 10)  # the reader has the table open at some version
        lags = []
        for i in range(3):
            await writer.memory.memorize.memorize(ME, MemoryDraft(f"a later note {i}"))
            acked = time.monotonic()
            while not any(
                r.content == f"a later note {i}" for r in await reader.memory.store.page(ME, MemoryFilter(), "", 50)
            ):
                assert time.monotonic() - acked < bound + 2.0, "the write stayed invisible past the bound"
                await asyncio.sleep(0.05)
            lags.append(time.monotonic() - acked)
        assert max(lags) <= bound + 0.5, lags


async def test_a_retry_on_another_replica_within_its_consistency_interval_is_not_stored_twice(
    tmp_path: Path, object_store: ObjectStore, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    prefix = f"retry-{uuid.uuid4().hex[:8]}"
    first = make_settings(tmp_path / "a", storage=object_store.settings(prefix))
    other = make_settings(tmp_path / "b", storage=object_store.settings(prefix, read_consistency_seconds=30))
    async with (
        build_app(first, embedder=onnx_embedder) as replica_a,
        build_app(other, embedder=onnx_embedder) as replica_b,
    ):
        await replica_a.memory.memorize.memorize(ME, MemoryDraft("the first note"))
        await replica_b.memory.store.page(ME, MemoryFilter(), "", 10)  # B holds the table at this version for 30 s
        draft = MemoryDraft("Caroline moved the standup to 9:30")
        stored = await replica_a.memory.memorize.memorize(ME, draft, request_id="call-7")  # the reply is lost...
        again = await replica_b.memory.memorize.memorize(ME, draft, request_id="call-7")  # ...the client retries on B
        assert again.memory.memory_id == stored.memory.memory_id
    async with build_app(first, embedder=onnx_embedder) as fresh:
        contents = [r.content for r in await fresh.memory.store.page(ME, MemoryFilter(), "", 50)]
    assert contents.count("Caroline moved the standup to 9:30") == 1


async def test_a_replica_creates_a_new_tenants_tables_only_under_the_shared_lease(
    tmp_path: Path, object_store: ObjectStore, onnx_embedder: OnnxMiniLMEmbedder, redis_url: str
) -> None:
    """Replicas on object storage create tables under the jobs' Redis lease (``lance_creation``)."""
    settings = make_settings(
        tmp_path / "a", storage=object_store.settings(f"lease-{uuid.uuid4().hex[:8]}"), redis={"dsn": redis_url}
    )
    client = aioredis.Redis.from_url(redis_url)
    leases, lease = RedisLeases(client), f"lance-create:{settings.storage.uri}"
    try:
        async with build_app(settings, embedder=onnx_embedder) as app:
            assert await leases.lock(lease, "another-replica", 30)  # another replica is creating a table
            first = asyncio.create_task(
                app.memory.memorize.memorize(Actor("newco", "a1"), MemoryDraft("a first memory"))
            )
            await asyncio.sleep(1.5)
            assert not first.done()  # the new tenant's table waits for the lease
            await leases.unlock(lease, "another-replica")
            stored = await asyncio.wait_for(first, 60)
            assert [r.content for r in await app.memory.store.page(Actor("newco", "a1"), MemoryFilter(), "", 5)] == [
                stored.memory.content
            ]
            # The audit log's flusher may be creating the tenant's events table under it right now.
            deadline = time.monotonic() + 30
            while await leases.is_held(lease):
                assert time.monotonic() < deadline, "the creation lease was never given back"
                await asyncio.sleep(0.05)
    finally:
        await client.aclose()


async def test_the_vector_index_is_built_on_object_storage(
    tmp_path: Path, object_store: ObjectStore, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    # The build runs in a child process, which opens the store itself: its URI and credentials must reach it.
    prefix = f"ann-{uuid.uuid4().hex[:8]}"
    storage = object_store.settings(prefix, ann_min_rows=300, copy_max_rows=0, maintenance_enabled=False)
    settings = make_settings(tmp_path / "unused", storage=storage)
    async with build_app(settings, embedder=onnx_embedder) as app:
        drafts = [MemoryDraft(f"note {i} about the garden, the tea and the number {i}") for i in range(400)]
        await app.memory.memorize.memorize_batch(ME, drafts, skip_deduplication=True)
        assert app.maintenance is not None
        await app.maintenance.maintain(full=True)
        await app.maintenance.settled()
        db = await lancedb.connect_async(settings.storage.uri, storage_options=settings.storage.storage_options())
        indexes = await (await db.open_table("memories_acme")).list_indices()
        assert any(ix.columns == ["vector"] and ix.index_type == "IvfHnswSq" for ix in indexes)
        hits = await app.memory.recall.recall(RecallQuery(ME, "the number 7 about the garden", limit=3))
        assert len(hits) == 3


def test_a_store_that_cannot_be_opened_is_one_line_naming_it_and_why(
    object_store: ObjectStore, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from memoryd.commands.main import main

    monkeypatch.chdir(tmp_path)  # not beside a `make run` of this checkout: its var/up.json names another store

    for key, value in object_store.settings("").items():
        monkeypatch.setenv(f"MEMORYD_STORAGE__{key.upper()}", str(value))
    wrong = [
        ("s3://no-such-bucket/memoryd", "", "NoSuchBucket"),
        (f"s3://{object_store.bucket}/memoryd", "http://127.0.0.1:1", "Connection refused"),
    ]
    for uri, endpoint, why in wrong:
        if endpoint:
            monkeypatch.setenv("MEMORYD_STORAGE__S3_ENDPOINT", endpoint)
        with pytest.raises(SystemExit) as done:  # was a traceback ending in lancedb's nested debug dump
            main(["keys", "list", "--data", uri])
        assert done.value.code == f"memoryd: storage unavailable: cannot open {uri}: {why}"
