"""A plain-text table: what the commands (`memoryd bench`, `audit`, `report`) print for people."""

from __future__ import annotations

from typing import Any


def table(rows: list[list[Any]], header: list[str]) -> str:
    """The first column left-aligned, the others right-aligned, a rule under the header."""
    cells = [[_fmt(c) for c in row] for row in [header, *rows]]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    lines = [
        "  ".join(c.rjust(w) if j else c.ljust(w) for j, (c, w) in enumerate(zip(r, widths, strict=True)))
        for r in cells
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.1f}" if abs(value) >= 10 else f"{value:.2f}"
    return str(value)
