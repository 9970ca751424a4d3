"""Charts as inline SVG drawn on the server: no script, no library, nothing fetched (the CSP allows none)."""

from __future__ import annotations

from collections.abc import Sequence

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
