"""`memoryd bench compare`: every call of the runs on each side pooled, not an average of runs' figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np


def recall_record(latencies: list[float]) -> dict[str, Any]:
    """A `bench recall` record of one shape and one mode, as --keep-latencies writes it."""
    run = {"mode": "precomputed_query_vector", "concurrency": 1, "p99": 0.0, "latencies_ms": latencies}
    return {"shapes": [{"agents": 1, "recall": [run]}], "environment": {}}


def compare(tmp_path: Path, before: list[Any], after: list[Any]) -> tuple[subprocess.CompletedProcess[str], Path]:
    names: dict[str, list[str]] = {}
    for side, records in (("before", before), ("after", after)):
        names[side] = []
        for i, record in enumerate(records):
            path = tmp_path / f"{side}-{i}.json"
            path.write_text(record if isinstance(record, str) else json.dumps(record))
            names[side].append(str(path))
    out = tmp_path / "compare.json"
    command = [sys.executable, "-m", "memoryd", "bench", "compare", "--before", *names["before"], "--after"]
    done = subprocess.run([*command, *names["after"], "--json", str(out)], capture_output=True, text=True, check=False)
    return done, out


def test_the_sides_percentiles_are_over_every_call_of_their_runs(tmp_path: Path) -> None:
    # One run of the change met a slow event (thirty calls of 50 ms), the other did not: pooled, they
    # are 1.5 % of the change's calls, so its p99 is theirs (the runs' p99s averaged would say 26 ms).
    quiet = [2.0 + i / 1000 for i in range(1000)]
    slowed = quiet[:970] + [50.0] * 30
    before, after = [recall_record(quiet), recall_record(quiet)], [recall_record(quiet), recall_record(slowed)]
    done, out = compare(tmp_path, before, after)
    assert done.returncode == 0, done.stderr
    series = json.loads(out.read_text())["series"]
    figures = series["shapes[agents=1]/recall[mode=precomputed_query_vector, concurrency=1]"]
    assert figures["before"]["runs"] == figures["after"]["runs"] == 2 and figures["after"]["n"] == 2000
    assert figures["after"]["p99"] == np.percentile(quiet + slowed, 99) == 50.0
    assert figures["before"]["p99"] == np.percentile(quiet * 2, 99)
    assert figures["ratio_p99"] == figures["after"]["p99"] / figures["before"]["p99"] > 16
    assert "shapes[agents=1]/recall[mode=precomputed_query_vector, concurrency=1]" in done.stdout


def test_a_record_without_latencies_or_unreadable_is_one_line_and_a_failure(tmp_path: Path) -> None:
    without = recall_record([1.0])
    del without["shapes"][0]["recall"][0]["latencies_ms"]
    done, out = compare(tmp_path, [recall_record([1.0])], [without])
    assert done.returncode != 0 and not out.exists()
    assert done.stderr.strip().splitlines() == [
        f"memoryd bench compare: {tmp_path / 'after-0.json'} holds no latencies (record it with --keep-latencies)"
    ]
    done, _ = compare(tmp_path, ["{not json"], [recall_record([1.0])])
    assert done.returncode != 0 and len(done.stderr.strip().splitlines()) == 1
    assert f"cannot read {tmp_path / 'before-0.json'}" in done.stderr and "Traceback" not in done.stderr
