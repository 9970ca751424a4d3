"""Automatic profile rewrites against real LanceDB: the guards of the profile layer."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import lancedb
import pytest

from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.maintenance import LanceMaintenance
from memoryd.adapters.lance.profiles import LanceProfileStore
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import App, build_app
from memoryd.config import Settings
from memoryd.core.models import Actor, EditKind, ListQuery, MemoryType, Profile, ProfileEdit
from memoryd.core.ports import ProfileStore
from tests.conftest import make_settings
from tests.fakes import InMemoryAgentConfigs, InMemoryArchive, InMemoryEventLog, InMemoryKeys
from tests.lance_stores import counted_copy_loads, slow_table_reads

ME = Actor("acme", "a1")


@pytest.fixture
async def app(settings: Settings, onnx_embedder) -> AsyncIterator[App]:
    async with build_app(settings, embedder=onnx_embedder) as built:
        yield built


async def seed(app: App) -> Profile:
    svc = app.working.profile
    await svc.edit(ME, 0, ProfileEdit(EditKind.APPEND, text="Always answer in English", pinned=True))
    await svc.edit(ME, 1, ProfileEdit(EditKind.APPEND, "Preferences", "- likes espresso"))
    return await svc.edit(ME, 2, ProfileEdit(EditKind.APPEND, "Work", "- ships memoryd"))


async def archive_lines(app: App) -> list[tuple[str, str, MemoryType]]:
    page = await app.memory.archive.list_memories(ListQuery(ME, page_size=500))
    return [(m.content, m.source_context, m.memory_type) for m in page.memories]


async def test_pinned_survives_a_rewrite_that_deletes_or_alters_it(app: App) -> None:
    await seed(app)
    deleted = await app.working.profile.rewrite(ME, "## Preferences\n- likes tea\n", [], "bootstrap")
    assert deleted.applied and deleted.profile.document.startswith("## Pinned\nAlways answer in English\n")
    altered = await app.working.profile.rewrite(
        ME, "## Pinned\nAnswer in French\n\n## Preferences\n- tea\n", [], "bootstrap"
    )
    assert "Always answer in English" in altered.profile.document and "French" not in altered.profile.document
    assert altered.profile.revision == 5 and altered.profile.source == "rewrite:bootstrap"


async def test_over_budget_rewrite_drops_trailing_sections_and_files_their_lines(app: App) -> None:
    await seed(app)
    current = await app.working.profile.edit(ME, 3, ProfileEdit(EditKind.SET_BUDGET, budget_tokens=40))
    generated = (
        "## Preferences\n- likes espresso\n\n## Projects\n- memoryd storage engine\n\n"
        "## Trivia\n- Sam's dog is called Biscuit and is afraid of the vacuum cleaner\n"
        "- the office plant was watered on Tuesday by the intern from the design team\n"
    )
    result = await app.working.profile.rewrite(ME, generated, ["- used to drink green tea every morning"], "compaction")
    assert result.applied and result.dropped_sections == ("Trivia",)
    assert result.profile.token_count <= 40 and "## Trivia" not in result.profile.document
    assert "## Pinned" in result.profile.document and "## Projects" in result.profile.document
    filed = await archive_lines(app)
    provenance = f"profile revision {current.revision}"
    assert ("Sam's dog is called Biscuit and is afraid of the vacuum cleaner", provenance, MemoryType.SEMANTIC) in filed
    assert ("used to drink green tea every morning", provenance, MemoryType.SEMANTIC) in filed
    assert ("ships memoryd", provenance, MemoryType.SEMANTIC) in filed  # left out of the rewrite, not demoted
    assert len(filed) == 4
    again = await app.working.profile.rewrite(ME, generated, ["- used to drink green tea every morning"], "compaction")
    assert again.applied and len(await archive_lines(app)) == 4  # filing is deduplicated: re-runs converge


async def test_a_line_a_rewrite_leaves_out_unsaid_is_filed_never_gone(app: App) -> None:
    """A person's line the model dropped or reworded goes to the archive; a line it moved does not."""
    current = await seed(app)
    await app.working.profile.edit(ME, current.revision, ProfileEdit(EditKind.APPEND, "Work", "- on call 2-4 May"))
    generated = "## Preferences\n- prefers tea\n\n## Team\n- ships memoryd\n"  # no demoted list at all
    result = await app.working.profile.rewrite(ME, generated, [], "compaction")
    assert result.applied and result.filed_memories == 2
    filed = {content for content, _, _ in await archive_lines(app)}
    assert filed == {"likes espresso", "on call 2-4 May"}  # reworded, and dropped; "ships memoryd" moved
    assert "Always answer in English" in result.profile.document  # Pinned is reinstated, never filed


@pytest.mark.parametrize("generated", [None, "", "no sections at all", "## A\nx\n## A\ny\n"])
async def test_malformed_rewrite_keeps_the_previous_revision(app: App, generated: str | None) -> None:
    before = await seed(app)
    result = await app.working.profile.rewrite(ME, generated, ["- demoted but must not be filed"], "compaction")
    assert not result.applied and result.reason
    assert await app.working.profile.get(ME) == before
    assert await archive_lines(app) == []
    assert isinstance(app.working.profiles, LanceProfileStore)
    failures = await app.working.profiles.failures("acme", "a1")
    assert [(f["base_revision"], f["source"]) for f in failures] == [(before.revision, "compaction")]


class EditDuringSwap:
    """The real store, with a manual edit landing just before the rewrite's first swap."""

    def __init__(self, store: ProfileStore, app: App) -> None:
        self._store = store
        self._app = app
        self.fired = False

    async def current(self, tenant_id: str, agent_id: str) -> Profile | None:
        return await self._store.current(tenant_id, agent_id)

    async def swap(self, tenant_id: str, profile: Profile, expected_revision: int) -> bool:
        if not self.fired:
            self.fired = True
            await self._app.working.profile.edit(
                ME, expected_revision, ProfileEdit(EditKind.APPEND, "Preferences", "- loves jazz")
            )
        return await self._store.swap(tenant_id, profile, expected_revision)

    async def log_revision(self, tenant_id: str, profile: Profile) -> None:
        await self._store.log_revision(tenant_id, profile)

    async def revisions(self, tenant_id: str, agent_id: str, before: int, limit: int) -> list[Profile]:
        return await self._store.revisions(tenant_id, agent_id, before, limit)

    async def log_failure(self, tenant_id: str, agent_id: str, base_revision: int, source: str, reason: str) -> None:
        await self._store.log_failure(tenant_id, agent_id, base_revision, source, reason)


async def test_a_concurrent_manual_edit_survives_the_rewrite(app: App, settings: Settings, onnx_embedder) -> None:
    before = await seed(app)
    racing = EditDuringSwap(app.working.profiles, app)
    async with build_app(
        settings,
        store=app.memory.ports,
        reviews=app.admin.reviews,
        keys=InMemoryKeys(),
        audit_log=InMemoryEventLog(),
        archive=InMemoryArchive(),
        agent_configs=InMemoryAgentConfigs(),
        profiles=racing,
        conversations=app.working.conversation_store,
        embedder=onnx_embedder,
        clock=app.clock,
    ) as raced:
        result = await raced.working.profile.rewrite(
            ME, "## Preferences\n- likes espresso\n- likes tea\n", [], "compaction"
        )
    assert racing.fired and result.applied and result.attempts == 2
    doc = result.profile.document
    assert "- loves jazz" in doc and "- likes tea" in doc and "Always answer in English" in doc
    assert result.profile.revision == before.revision + 2
    history = await app.working.profile.revisions(ME, 10, 0)
    assert [p.source for p in history[:2]] == ["rewrite:compaction", "edit"]


async def test_a_crash_between_swap_and_log_is_healed_on_read(app: App) -> None:
    current = await seed(app)
    crashed = Profile(
        ME.agent_id,
        current.document + "\n## Later\n- x\n",
        20,
        current.budget_tokens,
        current.revision + 1,
        current.updated_at,
        "edit",
    )
    assert await app.working.profiles.swap("acme", crashed, current.revision)  # swapped, never logged
    history = await app.working.profile.revisions(ME, 10, 0)
    assert [p.revision for p in history] == [4, 3, 2, 1]
    assert (await app.working.profile.revision(ME, 4)).document == crashed.document


async def test_a_revision_logged_twice_is_listed_once(app: App) -> None:
    # The log is a plain append (the compare-and-swap's winner logs once); a log repeated after a
    # reply lost on the way back must not show the revision twice.
    current = await seed(app)
    await app.working.profiles.log_revision("acme", current)
    history = await app.working.profile.revisions(ME, 10, 0)
    assert [p.revision for p in history] == [3, 2, 1]
    assert [p.revision for p in await app.working.profiles.revisions("acme", ME.agent_id, 4, 2)] == [3, 2]


def _maintenance(app: App) -> LanceMaintenance:
    assert isinstance(app.maintenance, LanceMaintenance)
    return app.maintenance


async def _table(app: App, name: str) -> Any:
    db = await lancedb.connect_async(app.settings.storage.uri, read_consistency_interval=timedelta(0))
    return await db.open_table(name)


async def test_maintenance_compacts_the_profile_tables_too(settings: Settings, onnx_embedder) -> None:
    # the background loop off: on a slow machine its pass compacted the table before it was counted
    async with build_app(settings.without_maintenance(), embedder=onnx_embedder) as app:
        for i in range(20):  # one fragment per logged revision
            await app.working.profile.edit(ME, i, ProfileEdit(EditKind.APPEND, "Notes", f"- note {i}"))
        revisions = await _table(app, "profile_revisions_acme")
        before = (await revisions.stats())["fragment_stats"]["num_fragments"]
        assert before >= 20
        await _maintenance(app).maintain()
        assert (await revisions.stats())["fragment_stats"]["num_fragments"] < before
        assert (await app.working.profile.get(ME)).revision == 20
        assert len(await app.working.profile.revisions(ME, 50, 0)) == 20


async def test_a_quick_maintenance_pass_visits_only_the_tables_this_process_wrote(
    tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    settings = make_settings(tmp_path / "data", storage={"maintenance_enabled": False})  # no loop racing us
    async with build_app(settings, embedder=onnx_embedder) as app:
        await _quick_pass(app)


async def _quick_pass(app: App) -> None:
    # The audit trail's flusher writes its events table every second: flushed here, so that a slow
    # machine's timer firing during the pass cannot add a table after it.
    await app.working.profile.edit(ME, 0, ProfileEdit(EditKind.APPEND, "Notes", "- one"))
    await app.admin.trail.flush()
    assert _maintenance(app).pending == {"profiles_acme", "profile_revisions_acme", "audit_events_acme"}
    for i in range(1, 20):
        await app.working.profile.edit(ME, i, ProfileEdit(EditKind.APPEND, "Notes", f"- note {i}"))
    await app.admin.trail.flush()
    revisions = await _table(app, "profile_revisions_acme")
    before = (await revisions.stats())["fragment_stats"]["num_fragments"]
    await _maintenance(app).maintain(full=False)
    assert _maintenance(app).pending == set()
    assert (await revisions.stats())["fragment_stats"]["num_fragments"] < before


async def test_one_origin_rewriting_twice_at_once_writes_one_revision(app: App) -> None:
    before = await seed(app)
    generated = "## Preferences\n- likes espresso\n- likes tea\n"
    first, second = await asyncio.gather(
        app.working.profile.rewrite(ME, generated, [], "regenerate:r3", base=before),
        app.working.profile.rewrite(ME, generated, [], "regenerate:r3", base=before),
    )
    assert first.applied and second.applied and first.profile.revision == second.profile.revision == 4
    history = await app.working.profile.revisions(ME, 10, 0)
    assert [p.revision for p in history] == [4, 3, 2, 1] and history[0].source == "rewrite:regenerate:r3"
    other = await app.working.profile.rewrite(ME, generated, [], "regenerate:r4", base=before)  # another origin replays
    assert other.applied and other.profile.revision == 5 and other.attempts == 2


async def test_a_profile_another_process_wrote_is_read_at_once(tmp_path: Path) -> None:
    # Current profiles are read from an in-memory copy: it follows this process's swaps and any other's.
    at = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
    mine = LanceProfileStore(await LanceDatabase.open(str(tmp_path), "m", 8))
    theirs = LanceProfileStore(await LanceDatabase.open(str(tmp_path), "m", 8))
    assert await mine.current("acme", "a1") is None
    first = Profile("a1", "## Work\n- ships memoryd\n", 6, 100, 1, at, "edit")
    assert await mine.swap("acme", first, 0)
    assert await mine.current("acme", "a1") == first
    second = replace(first, document="## Work\n- ships memoryd\n- on call\n", revision=2, source="rewrite:x")
    assert await theirs.swap("acme", second, 1)
    assert await mine.current("acme", "a1") == second
    assert not await mine.swap("acme", replace(first, revision=2), 1)  # a stale compare-and-swap still loses
    assert await mine.current("acme", "a1") == second and await theirs.current("acme", "a1") == second
    other = replace(first, agent_id="a2")
    assert await theirs.swap("acme", other, 0)  # not in this process's copy yet
    third = replace(second, revision=3)
    assert await mine.swap("acme", third, 2)  # committed after theirs: the copy must not skip it
    assert await mine.current("acme", "a1") == third and await mine.current("acme", "a2") == other
    assert await mine.current("acme", "nobody") is None


async def test_concurrent_swaps_and_reads_of_one_tenant_keep_its_profile_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Sixteen bootstraps of one tenant at once: each read of the profiles used to load the whole table,
    # and the load failed on the next swap's commit, read after read.
    at = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
    store = LanceProfileStore(await LanceDatabase.open(str(tmp_path), "m", 8))
    for i in range(32):
        assert await store.swap("acme", Profile(f"a{i}", "## Work\n- new\n", 3, 100, 1, at, "edit"), 0)
    loads = counted_copy_loads(monkeypatch)
    slow_table_reads(monkeypatch, 0.02)  # a table of a thousand agents, read while the swaps commit

    async def bootstrap(i: int) -> None:
        await asyncio.sleep(0.003 * (i % 8))  # reads and swaps overlap
        new = Profile(f"a{i}", f"## Work\n- job {i}\n", 3, 100, 2, at, "edit")
        if i % 2:
            current = await store.current("acme", f"a{i}")
            assert current is not None and current.revision == 1
        assert await store.swap("acme", new, 1)
        assert await store.current("acme", f"a{(i + 1) % 32}") is not None

    await asyncio.gather(*(bootstrap(i) for i in range(32)))
    assert len(loads) <= 2, loads  # the copy followed every swap (a load for the first read)
    for i in range(32):
        expected = Profile(f"a{i}", f"## Work\n- job {i}\n", 3, 100, 2, at, "edit")
        assert await store.current("acme", f"a{i}") == expected
    assert len(loads) <= 2, loads


async def test_a_profile_copy_follows_another_processs_swaps_without_loading_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
    mine = LanceProfileStore(await LanceDatabase.open(str(tmp_path), "m", 8))
    theirs = LanceProfileStore(await LanceDatabase.open(str(tmp_path), "m", 8), copies=False)
    first = Profile("a1", "## Work\n- ships memoryd\n", 6, 100, 1, at, "edit")
    assert await mine.swap("acme", first, 0)
    assert await mine.current("acme", "a1") == first
    loads = counted_copy_loads(monkeypatch)
    second = replace(first, document="## Work\n- on call\n", revision=2)
    assert await theirs.swap("acme", second, 1)  # a rewrite of a row: the old deleted, the new appended
    newcomer = replace(first, agent_id="a2")
    assert await theirs.swap("acme", newcomer, 0)  # an insert
    assert await mine.current("acme", "a1") == second and await mine.current("acme", "a2") == newcomer
    assert not loads, loads
