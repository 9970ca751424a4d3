"""The HTML usage report: its growth chart's axes and the breakdowns the text report has."""

from __future__ import annotations

from datetime import UTC, datetime

import matplotlib

from memoryd.commands.reports.page import draw_growth, usage_page
from memoryd.core.usage import UsageReport

matplotlib.use("svg")


def _report() -> UsageReport:
    return UsageReport(
        memories=1210,
        by_scope={"private": 1000, "shared": 210}, by_type={"episodic": 1200, "semantic": 10},
        by_status={"active": 1210},
        growth=(("2026-11-01", 1000), ("2026-11-02", 100), ("2026-11-03", 110)),
        never_retrieved_share=0.5, retrievals=10, injections=0, top1pct_share=0.1, top10_share=0.2, gini=0.3,
        age_days=(), salience=(), duplicate_share=0.0, agents=(),
        computed_at=datetime(2026, 11, 3, tzinfo=UTC), seconds=0.1,
    )  # fmt: skip


def test_both_growth_axes_start_at_zero() -> None:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    try:
        twin = draw_growth(ax, _report())
        assert ax.get_ylim()[0] == 0 and twin.get_ylim()[0] == 0  # totals 1000 → 1210 would start near 1000
    finally:
        plt.close(fig)


def test_the_page_holds_the_scope_and_type_breakdowns() -> None:
    page = usage_page([("acme", _report())])
    for shown in ("scope private", "scope shared", "type episodic", "type semantic", "<b>210</b>"):
        assert shown in page
