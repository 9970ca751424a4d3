"""`memoryd bench pii`: the PII floor on identifiers planted in realistic sentences, and decoys.

Per type it reports how many planted identifiers were replaced by their label (detection) and,
over every sentence, how many replacements hit text that was not planted (false positives: dates,
prices, versions, years, book numbers…), plus the redactor's speed. The shipped fixture
(``scripts/make_pii_fixture.py``) is small and written for this floor; pass ``--fixture`` to
measure on text of your own in the same shape.
"""

from __future__ import annotations

import argparse
import json
import time
from importlib import resources
from typing import Any

from memoryd.commands.arg_types import input_file
from memoryd.commands.bench.report import environment, percentiles, table, write_json
from memoryd.core.pii import LABELS, redact


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench pii`."""
    p = sub.add_parser("pii", help="the PII redactor: detection per type and false positives on planted text")
    p.add_argument("--fixture", type=input_file, help="items file (default: the shipped fixture)")
    p.set_defaults(run=_main)


def measure(items: list[dict[str, Any]]) -> dict[str, Any]:
    """Detection per type, false positives, latency per sentence."""
    planted = dict.fromkeys(LABELS, 0)
    found = dict.fromkeys(LABELS, 0)
    false_positives: list[dict[str, str]] = []
    samples: list[float] = []
    for item in items:
        started = time.perf_counter()
        result = redact(item["text"])
        samples.append((time.perf_counter() - started) * 1000)
        for p in item["planted"]:
            planted[p["type"]] += 1
            if p["value"] not in result.text and f"[{p['type']}]" in result.text:
                found[p["type"]] += 1
        for label, n in result.counts.items():
            extra = n - sum(1 for p in item["planted"] if p["type"] == label)
            if extra > 0:
                false_positives += [{"label": label, "text": item["text"], "redacted": result.text}] * extra
    sentences = len(items)
    return {
        "sentences": sentences,
        "decoy_sentences": sum(1 for i in items if not i["planted"]),
        "by_type": {t: {"planted": planted[t], "found": found[t]} for t in LABELS if planted[t]},
        "detection": sum(found.values()) / max(1, sum(planted.values())),
        "false_positives": false_positives,
        "latency_ms": percentiles(samples),
    }


def _main(args: argparse.Namespace) -> int:
    if args.fixture is not None:
        data = json.loads(args.fixture.read_text())
    else:
        data = json.loads(resources.files("memoryd.commands.bench").joinpath("data/pii_planted.json").read_text())
    record = measure(data["items"])
    rows = [[t, v["planted"], v["found"], f"{v['found'] / v['planted']:.0%}"] for t, v in record["by_type"].items()]
    print(table(rows, ["type", "planted", "found", "detection"]))
    print(
        f"\n{record['sentences']} sentences ({record['decoy_sentences']} decoys): detection "
        f"{record['detection']:.1%}, false positives {len(record['false_positives'])}; "
        f"p50 {record['latency_ms']['p50']:.3f} ms, p99 {record['latency_ms']['p99']:.3f} ms per sentence"
    )
    for fp in record["false_positives"]:
        print(f"  false positive [{fp['label']}]: {fp['text']}")
    write_json(args.json, {"bench": "pii", "environment": environment(), **record})
    return 0
