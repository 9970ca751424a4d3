"""The usage report as one self-contained HTML page: charts drawn by matplotlib, inlined as SVG.

One page holds every tenant's section; it loads nothing from anywhere (no script, no font, no
stylesheet link), so it can be mailed or attached to a ticket. matplotlib is an optional extra
(``memoryd[report]``): only this page needs it.
"""

from __future__ import annotations

import io
from html import escape
from string import Template
from typing import Any

from memoryd.core.errors import NotReady
from memoryd.core.usage import UsageReport

_PAGE = Template("""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>memoryd usage report</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:68rem;color:#1d2330;padding:0 1rem}
h1{font-size:1.5rem} h2{font-size:1.2rem;border-bottom:1px solid #d5dae3;padding-bottom:.3rem;margin-top:2.5rem}
.alarm{background:#fdecea;border-left:4px solid #c62828;padding:.5rem .8rem;margin:.4rem 0}
.ok{color:#2e7d32} .figures{display:flex;flex-wrap:wrap;gap:.6rem;margin:1rem 0}
.figures div{background:#f3f5f9;border-radius:6px;padding:.5rem .8rem;min-width:9rem}
.figures b{display:block;font-size:1.3rem}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(30rem,1fr));gap:1rem}
.charts svg{width:100%;height:auto}
table{border-collapse:collapse} td,th{padding:.2rem .7rem;text-align:right}
td:first-child,th:first-child{text-align:left} tr:nth-child(even){background:#f6f7fa}
small{color:#5b6475}
</style></head><body>
<h1>memoryd usage report</h1>
<small>computed $computed UTC</small>
$sections
</body></html>
""")
_SECTION = Template("""<h2>$title</h2>
$alarms
<div class="figures">$figures</div>
<div class="charts">$charts</div>
$agents
""")
_BLUE, _GREY = "#3367d6", "#9aa3b5"


def _figure_lib() -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise NotReady("`memoryd report --html` needs matplotlib: pip install 'memoryd[report]'") from None
    return Figure


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    text = buf.getvalue()
    return text[text.index("<svg") :]  # inline: drop the XML prolog and doctype


def _chart(title: str, draw: Any) -> str:
    fig = _figure_lib()(figsize=(6.2, 3.4))
    ax = fig.subplots()
    draw(ax)
    ax.set_title(title, loc="left", fontsize=11)
    ax.spines[["top", "right"]].set_visible(False)
    return _svg(fig)


def _lorenz(report: UsageReport) -> str:
    def draw(ax: Any) -> None:
        ax.plot([0, 1], [0, 1], color=_GREY, linestyle="--", linewidth=1, label="every memory retrieved alike")
        if report.lorenz:
            xs, ys = zip(*report.lorenz, strict=True)
            ax.fill_between(xs, ys, xs, color=_BLUE, alpha=0.12)
            ax.plot(xs, ys, color=_BLUE, linewidth=2, label=f"this archive (Gini {report.gini:.2f})")
        else:
            ax.text(0.5, 0.5, "nothing retrieved yet", ha="center", color=_GREY)
        ax.set_xlabel("share of memories, least retrieved first")
        ax.set_ylabel("share of retrievals")
        ax.legend(frameon=False, fontsize=9, loc="upper left")

    return _chart("Who gets retrieved: the Lorenz curve", draw)


def _bars(title: str, buckets: tuple[tuple[str, int], ...], xlabel: str) -> str:
    def draw(ax: Any) -> None:
        labels = [label for label, _ in buckets]
        ax.bar(labels, [n for _, n in buckets], color=_BLUE)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("memories")
        ax.tick_params(axis="x", labelsize=8)

    return _chart(title, draw)


def _growth(report: UsageReport) -> str:
    return _chart("Growth per day", lambda ax: draw_growth(ax, report))


def draw_growth(ax: Any, report: UsageReport) -> Any:
    """Memories created per day (bars) and the running total (a line on its own axis); the total's axis."""
    days = [d for d, _ in report.growth]
    counts = [n for _, n in report.growth]
    total, running = [], 0
    for n in counts:
        running += n
        total.append(running)
    ax.bar(range(len(days)), counts, color=_BLUE, label="created that day")
    twin = ax.twinx()
    twin.plot(range(len(days)), total, color="#e07b00", linewidth=2, label="total")
    twin.set_ylabel("total")
    twin.set_ylim(bottom=0)  # a total axis not starting at 0 makes slow growth look steep
    ax.set_ylim(bottom=0)
    step = max(1, len(days) // 8)
    ax.set_xticks(range(0, len(days), step), days[::step], rotation=30, fontsize=8)
    ax.set_ylabel("created")
    return twin


def _figures(report: UsageReport) -> str:
    cells = [
        ("memories", f"{report.memories:,}"),
        ("retrievals (Recall)", f"{report.retrievals:,}"),
        ("injections (auto-recall)", f"{report.injections:,}"),
        ("never retrieved", f"{report.never_retrieved_share:.0%}"),
        ("top 1 % hold", f"{report.top1pct_share:.0%}"),
        ("top 10 hold", f"{report.top10_share:.0%}"),
        ("Gini", f"{report.gini:.2f}"),
        ("duplicate texts", f"{report.duplicate_share:.0%}"),
        *((f"{status}", f"{n:,}") for status, n in sorted(report.by_status.items())),
        *((f"scope {scope}", f"{n:,}") for scope, n in sorted(report.by_scope.items())),
        *((f"type {kind}", f"{n:,}") for kind, n in sorted(report.by_type.items())),
    ]
    return "".join(f"<div><b>{escape(value)}</b>{escape(name)}</div>" for name, value in cells)


def _agents(report: UsageReport) -> str:
    if not report.agents:
        return ""
    rows = "".join(
        f"<tr><td>{escape(a.agent_id)}</td><td>{a.memories:,}</td><td>{a.retrievals:,}</td>"
        f"<td>{a.never_retrieved_share:.0%}</td></tr>"
        for a in sorted(report.agents, key=lambda a: (-a.memories, a.agent_id))
    )
    return f"<table><tr><th>agent</th><th>memories</th><th>retrievals</th><th>never retrieved</th></tr>{rows}</table>"


def usage_page(sections: list[tuple[str, UsageReport]]) -> str:
    """The page: one section per (title, report), alarms first in each."""
    _figure_lib()  # fail before drawing anything when matplotlib is missing
    html = []
    for title, report in sections:
        alarms = "".join(f'<div class="alarm">{escape(a)}</div>' for a in report.alarms) or (
            '<p class="ok">No alarm.</p>'
        )
        charts = [
            _lorenz(report),
            _bars("Age of active memories", report.age_days, "days since stored"),
            _growth(report) if report.growth else "",
            _bars("Salience of active memories", report.salience, "salience"),
        ]
        html.append(
            _SECTION.substitute(
                title=escape(title),
                alarms=alarms,
                figures=_figures(report),
                charts="".join(f"<div>{c}</div>" for c in charts if c),
                agents=_agents(report),
            )
        )
    computed = max((r.computed_at for _, r in sections), default=None)
    return _PAGE.substitute(
        computed=f"{computed:%Y-%m-%d %H:%M}" if computed else "-",
        sections="".join(html),
    )
