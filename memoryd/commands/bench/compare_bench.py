"""`memoryd bench compare`: runs of two builds side by side, each call's latency pooled over the runs.

On a shared machine one run's p99 moves by a quarter between identical runs, and an event that comes
once a minute (the served log's spool move) falls into one run's timed window and not into the next.
The median of per-run p99s hides such an event; pooling every call of several alternating runs
(each recorded with ``--keep-latencies``) gives the percentiles a long run at that rate would have.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from memoryd.commands.arg_types import input_file
from memoryd.commands.bench.report import percentiles, publish, table

_NAMING_FIELDS = ("agents", "mode", "concurrency")
"""Fields that name an item of a list of timed runs (``bench recall``'s shapes and modes)."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench compare`."""
    p = sub.add_parser(
        "compare", help="pool the latencies of runs recorded with --keep-latencies: before and after side by side"
    )
    p.add_argument("--before", type=input_file, nargs="+", required=True, help="JSON records of the baseline's runs")
    p.add_argument("--after", type=input_file, nargs="+", required=True, help="JSON records of the change's runs")
    p.set_defaults(run=run)


def series(record: Any, label: str = "") -> Iterator[tuple[str, list[float]]]:
    """Every timed series in a record: its label (where it stands, lists named by their fields) and latencies."""
    if isinstance(record, dict):
        if "latencies_ms" in record:
            yield label, record["latencies_ms"]
        for key, value in record.items():
            if key != "latencies_ms":
                yield from series(value, f"{label}/{key}" if label else key)
    elif isinstance(record, list):
        for i, item in enumerate(record):
            named = [f"{k}={item[k]}" for k in _NAMING_FIELDS if isinstance(item, dict) and k in item]
            yield from series(item, f"{label}[{', '.join(named) or i}]")


def pooled(paths: list[Path]) -> dict[str, tuple[int, list[float]]]:
    """Per series label: the runs that have it and their latencies together."""
    out: dict[str, tuple[int, list[float]]] = {}
    for path in paths:
        try:
            record = json.loads(path.read_text())
        except (OSError, ValueError) as error:
            raise SystemExit(f"memoryd bench compare: cannot read {path}: {error}") from None
        found = list(series(record))
        if not found:
            raise SystemExit(f"memoryd bench compare: {path} holds no latencies (record it with --keep-latencies)")
        for label, latencies in found:
            runs, pool = out.get(label, (0, []))
            out[label] = (runs + 1, pool + latencies)
    return out


def run(args: argparse.Namespace) -> int:
    """Pool both sides, print the table, write the record."""
    before, after = pooled(args.before), pooled(args.after)
    compared: dict[str, Any] = {}
    for label in (label for label in before if label in after):
        sides = {"before": before[label], "after": after[label]}
        figures = {side: {**percentiles(pool), "runs": runs} for side, (runs, pool) in sides.items()}
        ratios = {f"ratio_{p}": figures["after"][p] / figures["before"][p] for p in ("p50", "p99")}
        compared[label] = figures | ratios
    if not compared:
        raise SystemExit("memoryd bench compare: the two sides share no timed series")
    record = {"before": [str(p) for p in args.before], "after": [str(p) for p in args.after], "series": compared}
    publish(args, record, _render)
    return 0


def _render(record: dict[str, Any]) -> str:
    rows = [
        [
            label,
            f"{c['before']['runs']} / {c['after']['runs']}",
            f"{c['before']['p50']:.2f} / {c['before']['p99']:.2f}",
            f"{c['after']['p50']:.2f} / {c['after']['p99']:.2f}",
            f"{c['ratio_p50']:.3f} / {c['ratio_p99']:.3f}",
        ]
        for label, c in record["series"].items()
    ]
    header = ["series", "runs before / after", "before p50 / p99 ms", "after p50 / p99 ms", "after / before"]
    return "memoryd bench compare: every call of the runs on each side pooled\n" + table(rows, header)
