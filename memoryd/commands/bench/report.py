"""Percentiles, a readable table, and the JSON record every benchmark writes."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import subprocess
import sys
import tempfile
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from memoryd.commands.table import table

__all__ = ["KEEP_LATENCIES_HELP", "checkout", "environment", "percentiles", "publish", "table", "write_json"]

KEEP_LATENCIES_HELP = "record every timed call's latency in the JSON, for `memoryd bench compare`"

PACKAGES = ["memoryd", "lancedb", "pylance", "onnxruntime", "grpcio", "protobuf", "numpy", "pyarrow"]


def percentiles(samples_ms: list[float], *, keep: bool = False) -> dict[str, Any]:
    """p50/p95/p99/mean of latencies in milliseconds; ``keep``: the latencies too (``bench compare`` pools them)."""
    if not samples_ms:
        return {"p50": float("nan"), "p95": float("nan"), "p99": float("nan"), "mean": float("nan"), "n": 0}
    arr = np.array(samples_ms)
    kept = {"latencies_ms": [round(s, 3) for s in samples_ms]} if keep else {}
    return {
        "p50": float(np.percentile(arr, 50)),
        "p95": float(np.percentile(arr, 95)),
        "p99": float(np.percentile(arr, 99)),
        "mean": float(arr.mean()),
        "n": len(samples_ms),
        **kept,
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
        "commit": _commit(),
        "versions": versions,
    }


def _commit() -> str | None:
    """The commit of the memoryd source that ran (a checkout), so a figure names the code it measured."""
    return _git(Path(__file__).resolve().parents[3], "describe", "--always", "--dirty")


def checkout(root: Path) -> dict[str, str | None]:
    """A checkout's path, commit, and its uncommitted changes (a build measured with a patch names the patch)."""
    return {"path": str(root), "commit": _git(root, "describe", "--always", "--dirty"), "diff": _git(root, "diff")}


def _git(root: Path, *command: str) -> str | None:
    try:
        found = subprocess.run(["git", "-C", str(root), *command], capture_output=True, text=True, timeout=10)
    except OSError:
        return None
    return found.stdout.strip() or None


def publish(args: argparse.Namespace, record: dict[str, Any], render: Callable[[dict[str, Any]], str]) -> None:
    """Record the environment, write the JSON (``--json``) and print the table."""
    record["environment"] = environment()
    write_json(args.json, record)
    print(render(record))


def run_in_scratch(
    args: argparse.Namespace,
    name: str,
    bench: Callable[[Path], Coroutine[Any, Any, dict[str, Any]]],
    render: Callable[[dict[str, Any]], str],
    passed: Callable[[dict[str, Any]], bool] = lambda record: True,
) -> int:
    """Run ``bench`` over a scratch folder removed after it, publish its record; the exit code (0: ``passed``)."""
    with tempfile.TemporaryDirectory(prefix=f"memoryd-bench-{name}-") as scratch:
        record = asyncio.run(bench(Path(scratch)))
    publish(args, record, render)
    return 0 if passed(record) else 1


def write_json(path: Path | None, record: dict[str, Any]) -> None:
    """Write the record (if a path was given)."""
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record, indent=2, default=str))
