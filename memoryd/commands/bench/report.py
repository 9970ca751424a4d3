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

from memoryd.commands.table import table

__all__ = ["environment", "percentiles", "table", "write_json"]

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


def write_json(path: Path | None, record: dict[str, Any]) -> None:
    """Write the record (if a path was given)."""
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record, indent=2, default=str))
