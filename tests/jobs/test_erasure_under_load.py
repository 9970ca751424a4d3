"""EraseEndUser while other contacts write, workers compact and maintenance runs: no byte of the contact stays.

Maintenance passes every few tens of milliseconds lose commits to the appends (a compaction
preempted by a state-row update) and leave files no version references; an optimize keeps the
versions made while it ran. Either held the erased contact's conversation ids in index pages after
the erasure returned. The scan runs against a control contact too: its bytes must be found, or
the scan proves nothing. ``ERASURE_ROUNDS`` repeats the test (20 for the record).
"""

from __future__ import annotations

import asyncio
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import App
from memoryd.core.conversation import MessageInput, Role
from memoryd.core.keys import Role as KeyRole
from memoryd.core.models import Actor, MemoryDraft, Scope
from tests.conftest import make_settings
from tests.jobs.test_erasure import scan_for

pytestmark = pytest.mark.timeout(240)

GONE, KEPT = "u-gone-vellumcrane", "u-kept-cobaltlynx"
GONE_MARK, KEPT_MARK = "zirconpelican", "basaltheron"
START = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
ROUNDS = int(os.environ.get("ERASURE_ROUNDS", "1"))


async def _write(app: App, who: str, conversation: str, stop: asyncio.Event) -> int:
    actor, i = Actor("acme", "a1", who), 0
    while not stop.is_set():
        text = f"Turn {i} of {who} about the plan and the schedule, with the details agreed so far. " * 2
        message = MessageInput(f"m{i}", Role.USER, text, START + timedelta(seconds=i))
        await app.working.conversations.append(actor, conversation, [message], context_window=900)
        i += 1
        await asyncio.sleep(0.005)
    return i


def _explain(root: Path, found: dict[str, list[str]]) -> list[str]:
    """Each file found, and which versions of its table reference it (none: a lost commit's leftover)."""
    import lance

    lines = []
    for path in sorted({p for paths in found.values() for p in paths}):
        table, inner = path.split(".lance/", 1)
        dataset = lance.dataset(str(root / f"{table}.lance"))
        versions = sorted(r["version"] for r in dataset.tracked_files().read_all().to_pylist() if r["path"] == inner)
        lines.append(f"{path}: referenced by versions {versions[:5]} of {[v['version'] for v in dataset.versions()]}")
    return lines


@pytest.mark.parametrize("round_", range(ROUNDS))
async def test_an_erasure_under_writes_compactions_and_maintenance_leaves_no_byte_of_the_contact(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder, round_: int
) -> None:
    from tests.jobs.conftest import running

    storage = {
        "maintenance_enabled": True,
        "maintenance_written_seconds": 0.05,
        "maintenance_interval_seconds": 0.3,
        "optimize_min_fragments": 2,
        "orphan_grace_seconds": 3,
    }
    jobs = {"poll_seconds": 0.01, "bootstrap_at_start": False}
    settings = make_settings(tmp_path / "data", redis={"dsn": redis_url}, jobs=jobs, storage=storage)
    async with running(settings, onnx_embedder) as app:
        gone, kept = Actor("acme", "a1", GONE), Actor("acme", "a1", KEPT)
        await app.memory.memorize.memorize(gone, MemoryDraft(f"{GONE_MARK} is the contact's cat", Scope.END_USER))
        await app.memory.memorize.memorize(kept, MemoryDraft(f"{KEPT_MARK} is the other contact's dog", Scope.END_USER))
        stop_gone, stop_kept = asyncio.Event(), asyncio.Event()
        theirs = [asyncio.create_task(_write(app, GONE, f"chat-{k}-{GONE_MARK}", stop_gone)) for k in range(2)]
        others = [asyncio.create_task(_write(app, KEPT, f"chat-{k}-{KEPT_MARK}", stop_kept)) for k in range(2)]
        await asyncio.sleep(4)  # passes lose commits to the appends meanwhile; the workers compact
        stop_gone.set()
        assert min(await asyncio.gather(*theirs)) > 5
        receipt = await app.admin.erasure.erase_end_user(Actor("acme", "", role=KeyRole.ADMIN), GONE)
        right_after = scan_for(Path(settings.storage.uri), [GONE_MARK, GONE])
        stop_kept.set()  # the other contact wrote all through the erasure
        assert min(await asyncio.gather(*others)) > 5
    assert receipt.counts["conversations"] == 2 and receipt.counts["conversation_items"] > 10
    assert right_after == {}, _explain(Path(settings.storage.uri), right_after)
    found = scan_for(Path(settings.storage.uri), [GONE_MARK, GONE, KEPT_MARK])
    assert set(found) == {KEPT_MARK}, found  # the scan does find a contact it must find
