"""Percentiles, a readable table, and the JSON record every benchmark writes."""

from __future__ import annotations

import json
import os
import platform
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

PACKAGES = ["memoryd", "lancedb", "pylance", "onnxruntime", "grpcio", "protobuf", "numpy", "pyarrow"]


def percentiles(samples_ms: list[float]) -> dict[str, float]:
    """p50/p95/p99/mean of latencies in milliseconds."""
    if not samples_ms:
        return {"p50": float("nan"), "p95": float("nan"), "p99": float("nan"), "mean": float("nan"), "n": 0}
    arr = np.array(samples_ms)
    return {
        "p50": float(np.percentile(arr, 50)),
        "p95": float(np.percentile(arr, 95)),
        "p99": float(np.percentile(arr, 99)),
        "mean": float(arr.mean()),
        "n": len(samples_ms),
    }


def environment() -> dict[str, Any]:
    """Versions, machine and date, recorded with every result."""
    versions: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cores": os.cpu_count(),
        "versions": versions,
    }


def table(rows: list[list[Any]], header: list[str]) -> str:
    """A plain-text table."""
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


def write_json(path: Path | None, record: dict[str, Any]) -> None:
    """Write the record (if a path was given)."""
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record, indent=2, default=str))
