"""The usage report as text for a terminal: the figures, the alarms, the distributions as bars."""

from __future__ import annotations

from memoryd.commands.table import table
from memoryd.core.usage import UsageReport

_BAR = 30
_AGENTS_SHOWN = 20
_DAYS_SHOWN = 14


def _share(x: float) -> str:
    return f"{x:.0%}"


def _bars(buckets: tuple[tuple[str, int], ...], label: str) -> str:
    top = max((n for _, n in buckets), default=0) or 1
    return table([[b, n, "█" * round(_BAR * n / top)] for b, n in buckets], [label, "memories", ""])


def usage_text(tenant_id: str, report: UsageReport, agent_id: str = "") -> str:
    """Everything in the report, most telling first: alarms, then the figures, then the breakdowns."""
    who = f"agent {agent_id} of tenant {tenant_id}" if agent_id else f"tenant {tenant_id}"
    status = " / ".join(f"{n} {s}" for s, n in sorted(report.by_status.items())) or "none"
    parts = [
        f"usage of {who}: {report.memories} memories ({status}), "
        f"computed {report.computed_at:%Y-%m-%d %H:%M} UTC in {report.seconds:.2f} s",
        *(f"ALARM {alarm}" for alarm in report.alarms),
        "",
        table(
            [
                ["retrievals (Recall)", report.retrievals],
                ["injections (auto-recall)", report.injections],
                ["never retrieved", _share(report.never_retrieved_share)],
                ["top 1 % of memories hold", _share(report.top1pct_share)],
                ["top 10 memories hold", _share(report.top10_share)],
                ["Gini of retrievals", f"{report.gini:.2f}"],
                ["duplicate texts", _share(report.duplicate_share)],
                ["by scope", _counts(report.by_scope)],
                ["by type", _counts(report.by_type)],
            ],
            ["figure", "value"],
        ),
        "",
        _bars(report.age_days, "age"),
        "",
        _bars(report.salience, "salience"),
    ]
    if report.agents:
        busiest = sorted(report.agents, key=lambda a: (-a.memories, a.agent_id))[:_AGENTS_SHOWN]
        more = len(report.agents) - len(busiest)
        parts += [
            "",
            table(
                [[a.agent_id, a.memories, a.retrievals, _share(a.never_retrieved_share)] for a in busiest],
                ["agent", "memories", "retrievals", "never retrieved"],
            ),
            *([f"... and {more} more agents (--json has them all)"] if more > 0 else []),
        ]
    if report.growth:
        parts += ["", table([list(day) for day in report.growth[-_DAYS_SHOWN:]], ["day (UTC)", "created"])]
    return "\n".join(parts)


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "-"
