"""Usage reports as values: how an archive is used, and the alarms an operator should see. Pure."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any

AGE_BUCKETS: tuple[tuple[str, float, float], ...] = (
    ("<1 day", 0, 1),
    ("1-7 days", 1, 7),
    ("7-30 days", 7, 30),
    ("30-90 days", 30, 90),
    ("90-365 days", 90, 365),
    (">365 days", 365, float("inf")),
)
"""Age since a memory was stored, in days: label, from (inclusive), to (exclusive)."""
LORENZ_STEPS = 20
"""The Lorenz curve's resolution: one point per 5 % of memories."""
SALIENCE_BUCKETS: tuple[tuple[str, float, float], ...] = (
    ("0.0-0.2", 0.0, 0.2),
    ("0.2-0.4", 0.2, 0.4),
    ("0.4-0.6", 0.4, 0.6),
    ("0.6-0.8", 0.6, 0.8),
    ("0.8-1.0", 0.8, 1.01),
)


@dataclass(frozen=True, slots=True)
class AgentUsage:
    """One agent's line of the breakdown (memories it authored)."""

    agent_id: str
    memories: int
    retrievals: int
    never_retrieved_share: float


@dataclass(frozen=True, slots=True)
class UsageReport:
    """A tenant's (or one agent's) archive usage; shares are in [0, 1]."""

    memories: int
    by_scope: dict[str, int]
    by_type: dict[str, int]
    by_status: dict[str, int]
    growth: tuple[tuple[str, int], ...]
    """Memories created per day (YYYY-MM-DD, UTC)."""
    never_retrieved_share: float
    """Active memories that Recall never returned (auto-recall injections do not count)."""
    retrievals: int
    injections: int
    top1pct_share: float
    """Share of retrievals held by the top 1 % of active memories (at least one memory)."""
    top10_share: float
    gini: float
    """Of retrievals over active memories: 0 even, towards 1 when a few memories take every retrieval."""
    age_days: tuple[tuple[str, int], ...]
    salience: tuple[tuple[str, int], ...]
    duplicate_share: float
    """Active memories whose exact text another active memory repeats."""
    agents: tuple[AgentUsage, ...]
    computed_at: datetime
    seconds: float
    alarms: tuple[str, ...] = ()
    lorenz: tuple[tuple[float, float], ...] = ()
    """(share of active memories, share of retrievals they hold), least retrieved first, from (0, 0) to (1, 1)."""
    feedback: tuple[tuple[str, int], ...] = ()
    """Feedback signals received, by signal (those with a non-zero total)."""
    by_collection: tuple[tuple[str, int], ...] = ()
    """Memories by named collection ("" for none), most first."""


def gini(values: list[int]) -> float:
    """The Gini coefficient of non-negative counts (0 for no counts at all)."""
    ordered = sorted(values)
    total, n = sum(ordered), len(ordered)
    if not n or not total:
        return 0.0
    weighted = sum((i + 1) * x for i, x in enumerate(ordered))
    return (2 * weighted) / (n * total) - (n + 1) / n


def with_alarms(report: UsageReport, top1_threshold: float, never_threshold: float) -> UsageReport:
    """The report with the alarms its figures raise (the product's winner-take-all lesson)."""
    alarms = []
    if report.retrievals and report.top1pct_share >= top1_threshold:
        alarms.append(
            f"concentration: the top 1 % of memories hold {report.top1pct_share:.0%} of retrievals "
            f"(threshold {top1_threshold:.0%})"
        )
    if report.memories and report.never_retrieved_share >= never_threshold:
        alarms.append(
            f"never retrieved: {report.never_retrieved_share:.0%} of active memories (threshold {never_threshold:.0%})"
        )
    return replace(report, alarms=tuple(alarms))


def report_to_dict(report: UsageReport) -> dict[str, Any]:
    """The report as JSON-ready values (``memoryd report --json``, stored batch reports)."""
    out = asdict(report)
    out["growth"] = [list(day) for day in report.growth]
    out["age_days"] = [list(b) for b in report.age_days]
    out["salience"] = [list(b) for b in report.salience]
    out["alarms"] = list(report.alarms)
    out["lorenz"] = [list(p) for p in report.lorenz]
    out["feedback"] = [list(f) for f in report.feedback]
    out["by_collection"] = [list(c) for c in report.by_collection]
    out["computed_at"] = report.computed_at.isoformat()
    return out


def report_from_dict(data: dict[str, Any]) -> UsageReport:
    """The inverse of ``report_to_dict``."""
    return UsageReport(
        **{
            **data,
            "growth": tuple((str(d), int(n)) for d, n in data["growth"]),
            "age_days": tuple((str(b), int(n)) for b, n in data["age_days"]),
            "salience": tuple((str(b), int(n)) for b, n in data["salience"]),
            "agents": tuple(AgentUsage(**a) for a in data["agents"]),
            "alarms": tuple(data["alarms"]),
            "lorenz": tuple((float(x), float(y)) for x, y in data.get("lorenz", ())),
            "feedback": tuple((str(s), int(n)) for s, n in data.get("feedback", ())),
            "by_collection": tuple((str(c), int(n)) for c, n in data.get("by_collection", ())),
            "computed_at": datetime.fromisoformat(data["computed_at"]),
        }
    )


def gini_of_histogram(histogram: list[tuple[int, int]]) -> float:
    """The Gini coefficient of counts given as (value, how many memories have it), values ascending."""
    n = sum(c for _, c in histogram)
    total = sum(v * c for v, c in histogram)
    if not n or not total:
        return 0.0
    weighted, before = 0, 0
    for value, count in histogram:  # ranks before+1 .. before+count all hold `value`
        weighted += value * (count * before + count * (count + 1) // 2)
        before += count
    return (2 * weighted) / (n * total) - (n + 1) / n


def lorenz_of_histogram(histogram: list[tuple[int, int]], steps: int = LORENZ_STEPS) -> tuple[tuple[float, float], ...]:
    """The Lorenz curve at every ``1/steps`` of memories (least retrieved first) that ends on a memory.

    Step ``s`` ends on rank ``floor(s·n/steps)``; ties hold equal values, so their order never
    changes a point. Empty when nothing was retrieved.
    """
    n = sum(c for _, c in histogram)
    total = sum(v * c for v, c in histogram)
    if not n or not total:
        return ()
    points = [(0.0, 0.0)]
    groups = iter(histogram)
    rank = cumulative = 0
    value, left = 0, 0
    for step in range(1, steps + 1):
        end, previous = step * n // steps, (step - 1) * n // steps
        if end == previous:
            continue  # no memory ends in this step
        while rank < end:
            if not left:
                value, left = next(groups)
            take = min(left, end - rank)
            rank, left, cumulative = rank + take, left - take, cumulative + take * value
        points.append((step / steps, cumulative / total))
    return tuple(points)
