"""The usage report: DuckDB over the real Lance tables, checked against a hand computation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memoryd.adapters.duckdb_analytics import DuckDBAnalytics
from memoryd.adapters.lance.reviews import LanceReviewStore
from memoryd.core.feedback import Signal
from memoryd.core.models import MemoryStatus, MemoryType, Scope
from memoryd.services.usage import UsageService
from tests.fakes import FrozenClock, memory_record
from tests.lance_stores import open_store

NOW = datetime(2026, 6, 30, 12, tzinfo=UTC)


def vec(i: int) -> list[float]:
    v = [0.0] * 8
    v[i % 8] = 1.0
    return v


def mem(n: int, content: str, days_old: float, **fields: object) -> object:
    at = NOW - timedelta(days=days_old)
    return memory_record(
        f"{n:032x}", content, created_at=at, updated_at=at, occurred_at=at, content_hash=f"h-{content}", **fields
    )


async def test_report_figures_equal_a_hand_computation(tmp_path: Path) -> None:
    store = await open_store(str(tmp_path))
    rows = [
        mem(1, "m1", 0.5, salience=0.9),
        mem(2, "m2", 3, salience=0.5, collection="billing"),
        mem(3, "m3", 3, salience=0.5, memory_type=MemoryType.SEMANTIC, collection="billing"),
        mem(4, "same", 40, salience=0.1),
        mem(5, "same", 400, salience=0.1, scope=Scope.SHARED),
        mem(6, "m6", 10, agent_id="a2", salience=0.3),
        mem(7, "gone", 10, status=MemoryStatus.ARCHIVED, salience=0.3),
    ]
    await store.insert("t1", [(r, vec(i)) for i, r in enumerate(rows)])
    ids = {n: f"{n:032x}" for n in range(1, 8)}
    # Recall returned m1 six times, m2 and m6 twice each; auto-recall injected m3 ten times and m1 once.
    await store.record_retrievals("t1", {ids[1]: 4, ids[2]: 2, ids[6]: 2}, {ids[3]: 10, ids[1]: 1}, NOW)
    await store.record_retrievals("t1", {ids[1]: 2, ids[7]: 5}, {}, NOW)
    wrong, used = Signal.WRONG, Signal.USED
    await store.record_feedback("t1", [(ids[1], used), (ids[2], used), (ids[2], wrong), (ids[2], wrong)], NOW)
    usage = UsageService(
        DuckDBAnalytics(str(tmp_path)),
        LanceReviewStore(store.db),
        FrozenClock(NOW),
        top1_threshold=0.5,
        never_threshold=0.9,
    )

    report = await usage.report("t1")

    # Six active memories (m7 is archived): retrieval counts 6, 2, 0, 0, 0, 2 → total 10.
    assert report.memories == 7
    assert report.by_status == {"active": 6, "archived": 1}
    assert report.by_scope == {"private": 6, "shared": 1}
    assert report.by_type == {"episodic": 6, "semantic": 1}
    assert report.by_collection == (("", 5), ("billing", 2))  # most first
    assert report.retrievals == 10 and report.injections == 11
    # m3 was injected ten times and never recalled: it counts as never retrieved. 3 of 6.
    assert report.never_retrieved_share == pytest.approx(3 / 6)
    # Top 1 % of six memories is one memory (m1): 6 of 10. The top 10 hold everything.
    assert report.top1pct_share == pytest.approx(0.6) and report.top10_share == pytest.approx(1.0)
    # Gini of [0, 0, 0, 2, 2, 6]: 2·(4·2 + 5·2 + 6·6)/(6·10) − 7/6.
    assert report.gini == pytest.approx(2 * 54 / 60 - 7 / 6)
    # Lorenz: sorted counts 0 0 0 2 2 6, one point per 5 % of memories (memory k of 6 ends step ceil(20k/6)).
    expected = [(0, 0), (0.2, 0), (0.35, 0), (0.5, 0), (0.7, 0.2), (0.85, 0.4), (1.0, 1.0)]
    assert [x for p in report.lorenz for x in p] == pytest.approx([x for p in expected for x in p])
    assert report.duplicate_share == pytest.approx(2 / 6)  # m4 and m5 share a text
    assert dict(report.age_days) == {
        "<1 day": 1, "1-7 days": 2, "7-30 days": 1, "30-90 days": 1, "90-365 days": 0, ">365 days": 1,
    }  # fmt: skip
    assert dict(report.salience) == {"0.0-0.2": 2, "0.2-0.4": 1, "0.4-0.6": 2, "0.6-0.8": 0, "0.8-1.0": 1}
    assert [(a.agent_id, a.memories, a.retrievals) for a in report.agents] == [("a1", 5, 8), ("a2", 1, 2)]
    assert report.agents[0].never_retrieved_share == pytest.approx(3 / 5)
    assert dict(report.feedback) == {"wrong": 2, "used": 2}
    days = dict(report.growth)
    assert days[(NOW - timedelta(days=3)).strftime("%Y-%m-%d")] == 2 and sum(days.values()) == 7
    assert report.alarms and "concentration" in report.alarms[0]  # 60 % ≥ 50 %

    one = await usage.report("t1", "a2")
    assert (one.memories, one.retrievals, one.never_retrieved_share, one.agents) == (1, 2, 0.0, ())
    recent = await usage.report("t1", since=NOW - timedelta(days=5))
    assert recent.memories == 3 and recent.retrievals == 8
    assert (await usage.report("t2")).memories == 0  # another tenant: its own (empty) table
    kept = await usage.keep("t1", "review_all:@all:20260630T0300Z")
    assert await usage.kept("t1", 10) == [("review_all:@all:20260630T0300Z", kept)] and kept.gini == report.gini
    assert await usage.kept("t2", 10) == []
    store.close()
