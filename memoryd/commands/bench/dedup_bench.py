"""`memoryd bench dedup`: how insert-time dedup treats restatements and near misses, per embedder.

For every pair of the fixture (restatements that should merge, near misses that must not: a
changed number, date, negation, name or other value) it reports the share merged by the
shipped rule (a candidate within the embedder's dedup distance *and* a restatement of its
text) and, beside it, by the embedding alone at several distances — the measurement that
shows why the embedding cannot decide by itself. It also prints the distance that admits
every restatement the rule accepts (the calibration of ``core.calibration``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from importlib import resources
from pathlib import Path
from typing import Any

from memoryd.app import build_embedder
from memoryd.commands.arg_types import input_file
from memoryd.commands.bench.report import environment, table, write_json
from memoryd.config import load_settings
from memoryd.core.calibration import calibration_for
from memoryd.core.restatement import is_restatement

_DISTANCES = (0.02, 0.05, 0.10, 0.15, 0.20)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench dedup`."""
    p = sub.add_parser("dedup", help="insert-time dedup on restatement and near-miss pairs (merge rates)")
    p.add_argument("--pairs", type=input_file, help="pairs file (default: the shipped fixture)")
    p.add_argument("--config", type=Path, help="TOML config naming the embedder (default: the embedded model)")
    p.set_defaults(run=lambda args: asyncio.run(_main(args)))


def _load(path: Path | None) -> dict[str, Any]:
    if path is not None:
        data: dict[str, Any] = json.loads(path.read_text())
    else:
        data = json.loads(resources.files("memoryd.commands.bench").joinpath("data/dedup_pairs.json").read_text())
    return data


async def _similarities(pairs: list[tuple[str, str]], embed: Any) -> list[float]:
    vectors = await embed([text for pair in pairs for text in pair])
    return [
        float(sum(x * y for x, y in zip(vectors[2 * i], vectors[2 * i + 1], strict=True))) for i in range(len(pairs))
    ]


async def _main(args: argparse.Namespace) -> int:
    data = _load(args.pairs)
    embedder = build_embedder(load_settings(args.config).embedding)
    distance = calibration_for(embedder.model_name).dedup_distance
    restatements = [(a, b) for a, b in data["restatement"]]
    misses = [(m["kind"], tuple(m["pair"])) for m in data["near_miss"]]
    r_sims = await _similarities(restatements, embedder.embed)
    m_sims = await _similarities([pair for _, pair in misses], embedder.embed)
    r_rule = [s >= 1 - distance and is_restatement(b, a) for s, (a, b) in zip(r_sims, restatements, strict=True)]
    m_rule = [s >= 1 - distance and is_restatement(b, a) for s, (_, (a, b)) in zip(m_sims, misses, strict=True)]
    kinds = sorted({k for k, _ in misses})
    accepted = [s for s, (a, b) in zip(r_sims, restatements, strict=True) if is_restatement(b, a)]
    by_kind = {k: sum(m for m, (kk, _) in zip(m_rule, misses, strict=True) if kk == k) for k in kinds}
    rule = {
        "restatements_merged": sum(r_rule) / len(r_rule),
        "near_misses_merged": sum(m_rule) / len(m_rule),
        "near_misses_merged_by_kind": by_kind,
    }
    alone = [
        {
            "distance": d,
            "restatements_merged": sum(s >= 1 - d for s in r_sims) / len(r_sims),
            "near_misses_merged": sum(s >= 1 - d for s in m_sims) / len(m_sims),
        }
        for d in _DISTANCES
    ]
    admitting = round(1 - min(accepted), 4) if accepted else None
    record: dict[str, Any] = {
        "embedding_model": embedder.model_name,
        "dedup_distance": distance,
        "pairs": {"restatement": len(restatements), "near_miss": len(misses)},
        "rule": rule,
        "embedding_alone": alone,
        "distance_admitting_every_rule_restatement": admitting,
        "environment": environment(),
    }
    rows = [["shipped rule", f"{distance:.2f}", rule["restatements_merged"], rule["near_misses_merged"]]]
    rows += [
        ["embedding alone", f"{e['distance']:.2f}", e["restatements_merged"], e["near_misses_merged"]] for e in alone
    ]
    print(f"dedup on {len(restatements)} restatement and {len(misses)} near-miss pairs ({embedder.model_name})")
    print(table(rows, ["decision", "distance", "restatements merged", "near misses merged"]))
    print("near misses merged by the rule, by kind: " + ", ".join(f"{k} {v}" for k, v in by_kind.items()))
    print(f"every restatement the rule accepts lies within distance {admitting}")
    write_json(args.json, record)
    return 0
