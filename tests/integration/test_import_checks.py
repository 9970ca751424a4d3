"""An import checks the whole export before it writes: a damaged file leaves the tenant empty, and mended, imports."""

from __future__ import annotations

import copy
import io
from pathlib import Path
from typing import Any

import pytest

from memoryd.app import App
from memoryd.commands.data import run_import
from memoryd.config import Settings
from memoryd.core.conversation import MessageInput
from memoryd.core.conversation import Role as ConvRole
from memoryd.core.data_rights import json_line
from memoryd.core.errors import InvalidRequest
from memoryd.core.graph import GraphScope
from memoryd.core.keys import Role
from memoryd.core.models import Actor, EditKind, MemoryDraft, ProfileEdit, Scope
from memoryd.services.graph import Assertion

pytestmark = pytest.mark.timeout(120)


async def _exported(app: App) -> list[dict[str, Any]]:
    me = Actor("acme", "a1")
    for text in ("Caroline takes her espresso without sugar", "The office closes at six", "Ben has a cat"):
        await app.memory.memorize.memorize(me, MemoryDraft(text))
    await app.working.profile.edit(me, 0, ProfileEdit(EditKind.APPEND, section="Style", text="- answer briefly"))
    await app.admin.trail.flush()
    return [r async for r in app.admin.exports.export(Actor("acme", ""), None, True)]


async def test_a_damaged_export_is_refused_before_anything_is_written(app: App) -> None:
    lines = await _exported(app)
    memory_at = next(i for i, r in enumerate(lines) if r["type"] == "memory")
    last = len(lines) - 1

    def damaged(at: int, **row: Any) -> list[dict[str, Any]]:
        broken = copy.deepcopy(lines)
        broken[at]["row"].update(row)
        return broken

    def without(at: int, column: str) -> list[dict[str, Any]]:
        broken = copy.deepcopy(lines)
        del broken[at]["row"][column]
        return broken

    cases = [
        (damaged(last, id=None, event_id=None, key=None), f"line {last + 1}: a "),  # the last record: after the rest
        (damaged(memory_at, created_at="yesterday"), f"line {memory_at + 1}: a 'memory' record"),
        (damaged(memory_at, vector=[0.5, 0.5]), f"line {memory_at + 1}: a 'memory' record"),  # this model's, too short
        ([*lines, {"type": "memories", "row": {}}], "unknown record type 'memories'"),
        # Rows the writes could not have made, which no call could then read, forget or see:
        (damaged(memory_at, id="not-an-id"), f"line {memory_at + 1}: .*id: must be a memory id"),
        (without(memory_at + 1, "id"), f"line {memory_at + 2}: a 'memory' record does not fit its table: no 'id'"),
        (damaged(memory_at, scope="everyone"), "'everyone' is not a valid Scope"),  # listed by no one
        (damaged(memory_at, status="gone"), "'gone' is not a valid MemoryStatus"),
        (damaged(memory_at, scope="end_user", end_user_id=""), "end_user_id: is required for an end_user memory"),
        (damaged(memory_at, agent_id="a b"), "agent_id: required, 1-128 chars"),
        (damaged(memory_at + 1, id=lines[memory_at]["row"]["id"]), f"line {memory_at + 2}: memory '.*' is in the"),
    ]
    for broken, why in cases:
        with pytest.raises(InvalidRequest, match=why):
            await app.admin.exports.import_(Actor("copy", ""), broken.copy)  # read twice, as a file is
        assert [r async for r in app.admin.exports.export(Actor("copy", ""), None, False)][1:] == [], why
    counts = await app.admin.exports.import_(Actor("copy", ""), lambda: lines)  # the same file, mended
    assert counts["memory"] == 3 and counts["profile"] == 1


async def test_a_truncated_export_file_leaves_the_tenant_empty(app: App, settings: Settings, tmp_path: Path) -> None:
    lines = [json_line(r) for r in await _exported(app)]
    cut = tmp_path / "acme.jsonl"
    cut.write_text("\n".join(lines)[:-40])  # a copy that stopped short
    with pytest.raises(InvalidRequest, match=rf"line {len(lines)} is not JSON"):
        await run_import(settings, "copy", cut, io.StringIO())
    assert [r async for r in app.admin.exports.export(Actor("copy", ""), None, False)][1:] == []


async def test_a_row_no_read_could_parse_is_refused_before_anything_is_written(app: App) -> None:
    """A graph fact of an unknown status made every SearchGraph of the tenant INTERNAL; an item of an
    unknown role every GetContext of its conversation; a setting the API would refuse every call."""
    admin = Actor("acme", "", "", Role.ADMIN)
    claim = Assertion("Acme", "ceo", "Ida", "Ida runs Acme.")
    await app.graph.assert_human(admin, GraphScope(Scope.TENANT), claim)
    await app.working.conversations.append(Actor("acme", "a1"), "c1", [MessageInput("m1", ConvRole.USER, "hi")])
    await app.working.configs.set_tenant(admin, {"recall.limit": 7}, (), 0)
    lines = await _exported(app)

    def at(kind: str) -> int:
        return next(i for i, r in enumerate(lines) if r["type"] == kind)

    cases = [
        (at("graph_fact"), {"status": "maybe"}, "'maybe' is not a valid FactStatus"),
        (at("graph_entity"), {"scope": "everyone"}, "'everyone' is not a valid Scope"),
        (at("conversation_item"), {"role": "wizard"}, "'wizard' is not a valid Role"),
        (at("conversation_item"), {"kind": "note"}, "kind: 'note' is not one of message, summary, event, blob"),
        (at("settings"), {"values": '{"recall.limit": "ten"}'}, r"values\[recall.limit\]"),
        (at("settings"), {"values": '{"recall.colour": 1}'}, "unknown setting 'recall.colour'"),
    ]
    for line, row, why in cases:
        broken = copy.deepcopy(lines)
        broken[line]["row"].update(row)
        with pytest.raises(InvalidRequest, match=f"line {line + 1}: .*{why}"):
            await app.admin.exports.import_(Actor("copy", ""), broken.copy)
        assert [r async for r in app.admin.exports.export(Actor("copy", ""), None, False)][1:] == [], why
    counts = await app.admin.exports.import_(Actor("copy", ""), lambda: lines)
    assert counts["graph_fact"] == 1 and counts["conversation_item"] == 1 and counts["settings"] == 1
    found = await app.graph.search(Actor("copy", "a1"), "who runs Acme")
    assert [h.object for h in found.hits] == ["Ida"]
