"""Working memory's signals: what compactions did, counted in the worker's metrics and said in its log."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.core.conversation import CompactMode, MessageInput, Role, compaction_signal
from memoryd.core.job_records import JobKind
from memoryd.core.models import MemoryDraft
from tests.jobs.conftest import job_settings, running
from tests.jobs.test_conversations import ME, replay, settle


def test_a_compactions_signal_reads_its_trigger_from_the_key_and_its_work_from_the_result() -> None:
    result = {"outcome": "compacted", "path": "model", "summarized_messages": 9, "merged_summaries": 2}
    signal = compaction_signal("compact:c:1:7:force", "succeeded", result | {"filed_memories": 3})
    assert (signal.trigger, signal.outcome, signal.path) == (CompactMode.FORCE, "compacted", "model")
    assert (signal.summarized_messages, signal.summaries_written, signal.filed_memories) == (9, 2, 3)
    window = compaction_signal("compact:c1:7", "succeeded", {"outcome": "compacted", "path": "window"})
    assert window.trigger is CompactMode.AUTO and window.summaries_written == 0
    failed = compaction_signal("compact:c1:7:end", "dead", {})
    assert (failed.trigger, failed.outcome, failed.path) == (CompactMode.END, "dead", "")


async def test_the_worker_counts_each_compaction_by_trigger_and_logs_what_it_did(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="memoryd.app.wiring")
    async with running(job_settings(tmp_path, redis_url, None, poll_seconds=0.01), onnx_embedder) as app:
        await replay(app, 14, window=600)
        await app.working.conversations.compact(ME, "c1")
        await settle(app)
        jobs = (await app.jobs.service.list_jobs("acme", JobKind.COMPACT, None, "", 500, 0))[0]
        compacted = [j for j in jobs if j.result.get("outcome") == "compacted"]
        auto = [j for j in compacted if not j.key.endswith((":force", ":end"))]
        assert auto, [j.key for j in jobs]

        def sample(name: str, **labels: str) -> float:
            return app.metrics.registry.get_sample_value(name, labels) or 0.0

        counted = sample("memoryd_compactions_total", trigger="auto", outcome="compacted", path="extractive")
        assert counted == len(auto)
        forced = sum(
            sample("memoryd_compactions_total", trigger="force", outcome=o, path=p)
            for o, p in (("compacted", "extractive"), ("nothing_to_compact", ""))
        )
        assert forced == 1
        summarised = sum(int(j.result["summarized_messages"]) for j in compacted)
        assert sample("memoryd_compaction_items_total", item="messages_summarized") == summarised > 0
        assert sample("memoryd_compaction_items_total", item="summaries_written") >= len(compacted)
    lines = [r for r in caplog.records if r.getMessage() == "compaction finished"]
    assert len(lines) == len(jobs)
    assert {r.__dict__["trigger"] for r in lines} == {"auto", "force"}
    assert sum(r.__dict__["summarized_messages"] for r in lines) == summarised


async def test_each_context_is_one_debug_line_with_its_fill_and_auto_recall(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="memoryd.services.conversation")
    async with running(job_settings(tmp_path, redis_url, None), onnx_embedder, workers=False) as app:
        await app.memory.memorize.memorize(ME, MemoryDraft("Caroline takes her espresso without sugar"))
        ask = MessageInput("q1", Role.USER, "How does Caroline take her espresso?")
        await app.working.conversations.append(ME, "c1", [ask], options={"auto_recall": True})
        await app.working.conversations.context(ME, "c1", 4000)
    [line] = [r for r in caplog.records if r.getMessage() == "context assembled"]
    assert (line.__dict__["auto_recalled"], line.__dict__["window"], line.__dict__["left_out"]) == (1, 4000, 0)
    assert 0 < line.__dict__["tokens"] < 4000 and line.__dict__["graph_facts"] == 0
