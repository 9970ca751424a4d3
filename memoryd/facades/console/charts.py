"""Charts as inline SVG drawn on the server: no script, no library, nothing fetched (the CSP allows none)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from markupsafe import Markup, escape


def bars(points: Sequence[tuple[str, float]], *, width: int = 640, height: int = 140, title: str = "") -> Markup:
    """A bar chart of (label, value), labels as tooltips, the largest value printed at the top."""
    if not points:
        return Markup("")
    top = max(value for _, value in points) or 1.0
    step = width / len(points)
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height + 16}" width="{width}" height="{height + 16}" '
        f'role="img" aria-label="{escape(title)}">'
    ]
    for i, (name, value) in enumerate(points):
        tall = 0 if value <= 0 else max(1.0, height * value / top)
        parts.append(
            f'<rect x="{i * step + 1:.1f}" y="{height - tall:.1f}" width="{max(step - 2, 1):.1f}" height="{tall:.1f}">'
            f"<title>{escape(name)}: {value:g}</title></rect>"
        )
    parts.append(f'<text x="0" y="{height + 13}">{escape(points[0][0])}</text>')
    parts.append(f'<text x="{width}" y="{height + 13}" text-anchor="end">{escape(points[-1][0])}</text>')
    parts.append(f'<text x="{width}" y="10" text-anchor="end">max {top:g}</text></svg>')
    return Markup("".join(parts))


def curve(points: Sequence[tuple[float, float]], *, size: int = 160, title: str = "") -> Markup:
    """A curve over the unit square (a Lorenz curve) with the diagonal for comparison."""
    if not points:
        return Markup("")
    path = " ".join(f"{x * size:.1f},{size - y * size:.1f}" for x, y in [(0.0, 0.0), *points])
    return Markup(
        f'<svg class="chart" viewBox="0 0 {size} {size}" width="{size}" height="{size}" role="img" '
        f'aria-label="{escape(title)}"><line x1="0" y1="{size}" x2="{size}" y2="0" class="even"/>'
        f'<polyline points="{path}" class="curve"/></svg>'
    )


def timeline(
    spans: Sequence[tuple[str, datetime | None, datetime | None, bool, str]], *, width: int = 640, title: str = ""
) -> Markup:
    """Each fact's validity as a bar from ``valid_from`` to ``valid_to`` (open-ended: to now), one row each.

    ``spans``: (label, from, to, current, href). A fact without a start is drawn from the earliest start;
    a current fact is filled, an ended or invalidated one outlined. A row is a link to ``href`` (the
    fact's page: what it superseded), its dates in the bar's tooltip: no script, so the strict CSP holds.
    """
    starts = [s for _, s, _, _, _ in spans if s is not None]
    if not spans or not starts:
        return Markup("")
    now = datetime.now(UTC)
    first = min(starts)
    last = max([now, *(e for _, _, e, _, _ in spans if e is not None)])
    total = max((last - first).total_seconds(), 1.0)
    row, label_width = 18, 220
    height = row * len(spans) + 16
    span_width = width - label_width

    def x(when: datetime) -> float:
        return label_width + span_width * (when - first).total_seconds() / total

    parts = [
        f'<svg class="chart timeline" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(title)}">'
    ]
    for i, (label, start, end, current, href) in enumerate(spans):
        left, right = x(start or first), x(end or now)
        y = i * row + 2
        dates = f"{(start or first):%Y-%m-%d} → {f'{end:%Y-%m-%d}' if end else 'now'}"
        parts.append(f'<a href="{escape(href)}"><text x="0" y="{y + 12}">{escape(label[:34])}</text>')
        parts.append(
            f'<rect class="{"current" if current else "ended"}" x="{left:.1f}" y="{y}" '
            f'width="{max(right - left, 2):.1f}" height="{row - 6}"><title>{escape(label)} ({dates})</title></rect></a>'
        )
    parts.append(f'<text x="{label_width}" y="{height - 2}">{first:%Y-%m-%d}</text>')
    parts.append(f'<text x="{width}" y="{height - 2}" text-anchor="end">{last:%Y-%m-%d}</text></svg>')
    return Markup("".join(parts))
