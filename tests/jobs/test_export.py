"""Export and import against real LanceDB, Valkey and arq: the round trip, a contact's export."""

from __future__ import annotations

import asyncio
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.text_analysis import built_language
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import App
from memoryd.commands.data import run_export, run_import
from memoryd.commands.keys import run_keys
from memoryd.commands.main import main
from memoryd.config import Settings
from memoryd.core.data_rights import json_line
from memoryd.core.errors import InvalidRequest, PreconditionFailed
from memoryd.core.graph import GraphScope
from memoryd.core.models import Actor, EditKind, MemoryDraft, MemoryFilter, ProfileEdit, RecallQuery, Scope
from memoryd.services.graph import Assertion
from tests.jobs.conftest import job_settings, running
from tests.jobs.test_conversations import settle
from tests.jobs.test_erasure import turn

pytestmark = pytest.mark.timeout(180)
OPERATOR = Actor("acme", "")


async def export(app: App, end_user: str | None = None, embeddings: bool = True) -> list[str]:
    return [json_line(r) async for r in app.admin.exports.export(OPERATOR, end_user, embeddings)]


async def seed(app: App) -> None:
    alice, bob = Actor("acme", "a1", "alice"), Actor("acme", "a2", "bob")
    await app.memory.memorize.memorize(alice, MemoryDraft(content="Alice prefers morning calls", scope=Scope.END_USER))
    await app.memory.memorize.memorize(alice, MemoryDraft(content="Alice's cat is called Miso", scope=Scope.END_USER))
    await app.memory.memorize.memorize(bob, MemoryDraft(content="Bob pays by invoice", scope=Scope.END_USER))
    await app.memory.memorize.memorize(
        Actor("acme", "a1"), MemoryDraft(content="Office closes at six", scope=Scope.TENANT)
    )
    await app.working.profile.edit(
        Actor("acme", "a1"), 0, ProfileEdit(EditKind.APPEND, section="Style", text="- answer briefly")
    )
    for contact, claim in (
        ("alice", Assertion("Alice", "pet", "Miso", "Alice's cat is called Miso.")),
        ("bob", Assertion("Bob", "pays_by", "invoice", "Bob pays by invoice.")),
        ("", Assertion("The office", "closes_at", "six", "The office closes at six.")),
    ):
        where = GraphScope(Scope.END_USER, "", contact) if contact else GraphScope(Scope.TENANT)
        office = (await app.graph.assert_human(OPERATOR, where, claim)).fact.subject_id
    head = Assertion("Head office", "opens_at", "nine", "The head office opens at nine.")
    twin = (await app.graph.assert_human(OPERATOR, GraphScope(Scope.TENANT), head)).fact.subject_id
    await app.graph.merge_entities(OPERATOR, twin, office)  # an export keeps what the merge moved: undoable
    for i in range(30):
        await app.working.conversations.append(alice, "chat-alice", [turn(i, "alice")], context_window=1000)
        await app.working.conversations.append(bob, "chat-bob", [turn(i, "bob")], context_window=1000)
    await app.working.configs.set_tenant(OPERATOR, {"recall.limit": 7, "recall.text_language": "spanish"}, (), 0)
    await app.memory.recall.recall(RecallQuery(alice, "When does Alice like calls?"))
    await app.memory.recall.recall(RecallQuery(bob, "How does Bob pay?"))
    await settle(app)
    await app.admin.trail.flush()
    assert app.admin.provenance is not None
    await app.admin.provenance.flush()


async def seeded(root: Path, redis_url: str, embedder: OnnxMiniLMEmbedder) -> Settings:
    """Job settings over a store under ``root`` that ``seed`` filled (its app and workers stopped since)."""
    settings = job_settings(root, redis_url, None, poll_seconds=0.01)
    async with running(settings, embedder) as app:
        await seed(app)
    return settings


async def text_language(uri: Path, tenant: str, embedder: OnnxMiniLMEmbedder) -> str:
    db = await LanceDatabase.open(str(uri), embedder.model_name, embedder.dimension)
    try:
        table = await db.open_existing("memories_" + tenant)
        (index,) = [ix for ix in await table.list_indices() if ix.columns == ["search_text"]]
        return built_language(index.index_details)
    finally:
        db.close()


async def test_export_import_export_gives_the_same_records(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    first = await seeded(tmp_path / "one", redis_url, onnx_embedder)
    async with running(first, onnx_embedder, workers=False) as app:
        lines = await export(app)
    header, records = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    assert header["format"] == "memoryd-export" and header["version"] == 1
    assert header["embedding_model"] == onnx_embedder.model_name
    kinds = {r["type"] for r in records}
    assert kinds >= {"memory", "profile", "profile_revision", "conversation", "conversation_item", "audit_event", "job"}
    assert kinds >= {"graph_entity", "graph_fact", "graph_episode", "settings", "memory_history", "serving"}
    path = tmp_path / "acme.jsonl"
    older = [{**r, "row": {k: v for k, v in r["row"].items() if k != "norm_aliases"}} for r in records]
    path.write_text("\n".join([lines[0], *map(json.dumps, older)]) + "\n")  # as a release without it wrote

    second = job_settings(tmp_path / "two", redis_url, None, poll_seconds=0.01)
    out = io.StringIO()  # the tenant's admin key first: its event made the tenant "hold data", the import refused
    assert await run_keys(second.without_maintenance(), "create", tenant_id="acme", role="admin", out=out) == 0
    assert await run_import(second.without_maintenance(), "acme", path, out) == 0
    assert "memory" in out.getvalue()
    async with running(second, onnx_embedder, workers=False) as app:
        # the imported settings name Spanish: the index follows them
        assert await text_language(tmp_path / "two" / "data", "acme", onnx_embedder) == "spanish"
        again = await export(app)
        restored = await app.memory.store.page(Actor("acme", "a1", "alice"), MemoryFilter(), "", 100)
        with pytest.raises(PreconditionFailed, match="empty tenant"):
            await app.admin.exports.import_(OPERATOR, lambda: [json.loads(line) for line in lines])
        with pytest.raises(InvalidRequest, match="header"):
            await app.admin.exports.import_(Actor("other", ""), lambda: [{"type": "memory", "row": {}}])
        newer = {**header, "version": 2}
        with pytest.raises(PreconditionFailed, match="newer"):
            await app.admin.exports.import_(Actor("other", ""), lambda: [newer])
    imported = [json.loads(line) for line in again[1:]]
    ours = ("import_started", "import", "key_create")
    extra = [r for r in imported if r["type"] == "audit_event" and r["row"]["operation"] in ours]
    assert sorted(r["row"]["operation"] for r in extra) == ["import", "import_started", "key_create"]
    assert [r for r in imported if r not in extra] == records
    assert {m.content for m in restored} >= {"Alice prefers morning calls", "Office closes at six"}
    folded = [r["row"] for r in records if r["type"] == "graph_entity" and r["row"]["merged_into"]]
    assert [r["merge_record"]["aliases"] for r in folded] == [["Head office"]]


async def test_the_export_command_reports_progress_and_what_it_wrote(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    settings = await seeded(tmp_path, redis_url, onnx_embedder)
    out, progress = io.StringIO(), io.StringIO()
    assert await run_export(settings.without_maintenance(), "acme", None, False, out, progress) == 0
    written = [json.loads(line)["type"] for line in out.getvalue().splitlines()]
    summary = progress.getvalue()  # progress lines first when the export takes over a second, then the summary
    assert re.search(rf"^exported {len(written) - 1} records of acme in ", summary, re.M), summary
    for kind in ("memory", "settings", "job", "conversation_item"):
        assert f"\n{kind} " in summary.replace("  ", " ") or f" {kind} " in summary, summary
    assert "not exported" not in summary
    quiet = io.StringIO()  # no job queue: the records it cannot reach are named, not silently left out
    await run_export(settings.without_maintenance().with_redis(""), "acme", None, False, io.StringIO(), quiet)
    assert "job records: not exported" in quiet.getvalue()


async def test_a_contacts_export_holds_their_rows_and_no_one_elses(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    settings = await seeded(tmp_path, redis_url, onnx_embedder)
    async with running(settings, onnx_embedder, workers=False) as app:
        lines = await export(app, "alice", embeddings=False)
    text = "\n".join(lines)
    records = [json.loads(line) for line in lines[1:]]
    memories = [r["row"]["content"] for r in records if r["type"] == "memory"]
    assert "Alice prefers morning calls" in memories and "Alice's cat is called Miso" in memories
    assert "Bob" not in text and "Office closes" not in text and "answer briefly" not in text
    assert {r["row"]["conversation_id"] for r in records if r["type"] == "conversation_item"} == {"chat-alice"}
    assert all("chat-alice" in r["row"]["key"] for r in records if r["type"] == "job")
    assert any(r["type"] == "job" for r in records)
    assert all("vector" not in r["row"] for r in records)
    facts = [r["row"]["sentence"] for r in records if r["type"] == "graph_fact"]
    assert facts == ["Alice's cat is called Miso."]
    assert {r["row"]["name"] for r in records if r["type"] == "graph_entity"} == {"Alice", "Miso"}
    alices = {r["row"]["id"] for r in records if r["type"] == "memory"}
    assert {r["row"]["memory_id"] for r in records if r["type"] == "memory_history"} == alices
    served = [r["row"] for r in records if r["type"] == "serving"]
    assert served and all(s["end_user_id"] == "alice" for s in served)


async def test_an_export_to_a_file_replaces_it_only_when_it_succeeds(
    tmp_path: Path,
    redis_url: str,
    onnx_embedder: OnnxMiniLMEmbedder,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # not beside a `make run` of this checkout: its var/up.json names another store
    # `--out` used to be opened (emptied) before the export ran: a mistyped tenant lost the previous
    # export, and a failed run left a partial file under the final name.
    settings = await seeded(tmp_path, redis_url, onnx_embedder)
    previous = tmp_path / "acme.jsonl"
    previous.write_text("yesterday's export\n")
    data = ["--data", settings.storage.uri]
    with pytest.raises(SystemExit) as unknown:
        await asyncio.to_thread(main, ["export", *data, "--tenant", "acne", "--out", str(previous)])
    assert "--tenant 'acne' is not a tenant" in str(unknown.value.code)
    assert previous.read_text() == "yesterday's export\n" and sorted(tmp_path.glob(".acme.jsonl.*")) == []
    for out, says in ((tmp_path / "none" / "x.jsonl", "does not exist"), (tmp_path, "is a directory")):
        with pytest.raises(SystemExit) as bad:
            await asyncio.to_thread(main, ["export", *data, "--tenant", "acme", "--out", str(out)])
        assert bad.value.code == 2 and says in capsys.readouterr().err
    with pytest.raises(SystemExit) as done:
        await asyncio.to_thread(main, ["export", *data, "--tenant", "acme", "--out", str(previous)])
    assert done.value.code == 0
    assert json.loads(previous.read_text().splitlines()[0])["format"] == "memoryd-export"
    assert previous.stat().st_mode & 0o777 == 0o600  # it holds personal data


async def test_an_import_cut_short_is_continued_by_the_same_export_only(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Killed half-way, an import left the tenant holding part of the export, and every later run was
    # refused as "already holds data": nothing could finish it, and no command empties a tenant.
    settings = await seeded(tmp_path, redis_url, onnx_embedder)
    async with running(settings, onnx_embedder, workers=False) as app:
        records = [json.loads(line) for line in await export(app)]
        archive = app.admin.exports._archive
        write = archive.import_rows

        async def killed_after_the_memories(tenant: str, kind: str, *args: Any, **kwargs: Any) -> int:
            if kind != "memory":
                raise RuntimeError("killed")  # the memories' commit is done, nothing after it
            return await write(tenant, kind, *args, **kwargs)

        later = Actor("acme2", "")
        monkeypatch.setattr(archive, "import_rows", killed_after_the_memories)
        with pytest.raises(RuntimeError, match="killed"):
            await app.admin.exports.import_(later, lambda: records)
        monkeypatch.undo()
        memories = sorted(r["row"]["id"] for r in records if r["type"] == "memory")
        partial = [json.loads(line) for line in await _export_of(app, "acme2")]
        assert sorted(r["row"]["id"] for r in partial if r["type"] == "memory") == memories
        assert not any(r["type"] == "profile" for r in partial)  # cut short before them
        another = [{**records[0], "exported_at": "2026-01-01T00:00:00+00:00"}, *records[1:]]
        with pytest.raises(PreconditionFailed, match="another export that was cut short"):
            await app.admin.exports.import_(later, lambda: another)
    said = io.StringIO()  # a backup taken now holds part of the tenant: the command says so
    assert await run_export(settings.without_maintenance(), "acme2", None, False, io.StringIO(), said) == 0
    assert "an import into acme2 was cut short: this export holds only what it wrote so far" in said.getvalue()
    async with running(settings, onnx_embedder, workers=False) as app:
        counts = await app.admin.exports.import_(later, lambda: records)
        assert counts["already_imported"] == len(memories) and counts["memory"] == 0
        assert counts["profile"] == sum(r["type"] == "profile" for r in records)
        again = [json.loads(line) for line in await _export_of(app, "acme2")]
        for kind in {r["type"] for r in records} - {"audit_event", "job"}:  # every row once, none twice
            assert sum(r["type"] == kind for r in again) == sum(r["type"] == kind for r in records), kind
        with pytest.raises(PreconditionFailed, match="already holds data"):
            await app.admin.exports.import_(later, lambda: records)  # finished: a new import is refused
        assert not await app.admin.exports.import_unfinished("acme2")


async def _export_of(app: App, tenant: str) -> list[str]:
    return [json_line(r) async for r in app.admin.exports.export(Actor(tenant, ""), None, False)]
