"""`memoryd bench names`: how the memory graph tells entity names apart, per embedder.

On the shipped fixture (``data/entity_names.json``, or ``--names``): unrelated names (every pair two
entities), variants (spellings a person would fold into one entity) and alike pairs (a letter, a
word, a title or a number apart: different entities), in seven languages. It prints percentiles of
the unrelated pairs' cosine similarity, the share of each kind that would come back as possible
duplicates at several similarities, and what the shipped rules do: the embedder's calibrated
``entity_duplicate`` (the 99.9th percentile of unrelated names: ``core.calibration``), and the
resolution without a person, which takes only names of the same words
(``core.graph.may_name_one_entity``) however alike they embed.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from memoryd.app import build_embedder
from memoryd.commands.arg_types import input_file
from memoryd.commands.bench.report import environment, table, write_json
from memoryd.config import load_settings
from memoryd.core.calibration import calibration_for
from memoryd.core.graph import may_name_one_entity

_SIMILARITIES = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.92, 0.95)
_PERCENTILES = (50, 90, 99, 99.9, 100)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench names`."""
    p = sub.add_parser("names", help="graph entity names: unrelated, variant and alike pairs by similarity")
    p.add_argument("--names", type=input_file, help="names file (default: the shipped fixture)")
    p.add_argument("--config", type=Path, help="TOML config naming the embedder (default: the embedded model)")
    p.set_defaults(run=lambda args: asyncio.run(_main(args)))


async def _main(args: argparse.Namespace) -> int:
    names = args.names or resources.files("memoryd.commands.bench").joinpath("data/entity_names.json")
    data = json.loads(names.read_text(encoding="utf-8"))
    embedder = build_embedder(load_settings(args.config).embedding)
    shipped = calibration_for(embedder.model_name).entity_duplicate
    unrelated = list(itertools.combinations(data["unrelated"], 2))
    kinds = {"unrelated": unrelated, "variants": [tuple(p) for p in data["variants"]]}
    kinds["alike"] = [tuple(p) for p in data["alike"]]
    scores = {kind: await _similarities(pairs, embedder.embed) for kind, pairs in kinds.items()}
    record: dict[str, Any] = {
        "embedding_model": embedder.model_name,
        "pairs": {kind: len(pairs) for kind, pairs in kinds.items()},
        "unrelated_percentiles": {str(p): float(np.percentile(scores["unrelated"], p)) for p in _PERCENTILES},
        "suggested": {
            str(s): {kind: _share(values, s) for kind, values in scores.items()} for s in (*_SIMILARITIES, shipped)
        },
        "entity_duplicate": shipped,
        "resolved_without_a_person": {
            kind: sum(may_name_one_entity(a, b) for a, b in pairs)
            for kind, pairs in kinds.items()
            if kind != "unrelated"
        },
        "environment": environment(),
    }
    print(_render(record))
    write_json(args.json, record)
    return 0


async def _similarities(pairs: list[tuple[str, ...]], embed: Any) -> list[float]:
    texts = sorted({name for pair in pairs for name in pair})
    vectors = np.asarray(await embed(texts), dtype=float)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    at = {name: i for i, name in enumerate(texts)}
    return [float(vectors[at[a]] @ vectors[at[b]]) for a, b in pairs]


def _share(values: list[float], similarity: float) -> float:
    return sum(v >= similarity for v in values) / len(values) if values else 0.0


def _render(record: dict[str, Any]) -> str:
    pct = ", ".join(f"p{p} {v:.3f}" for p, v in record["unrelated_percentiles"].items())
    shipped = record["entity_duplicate"]
    kinds = ("unrelated", "variants", "alike")
    rows = [
        [f"shipped {s}" if float(s) == shipped else s, *(f"{k[kind]:.1%}" for kind in kinds)]
        for s, k in record["suggested"].items()
    ]
    counts, resolved = record["pairs"], record["resolved_without_a_person"]
    return (
        f"memoryd bench names: {record['embedding_model']}, {counts['unrelated']} unrelated, "
        f"{counts['variants']} variant and {counts['alike']} alike pairs\nunrelated: {pct}\n"
        f"{table(rows, ['similarity', 'unrelated suggested', 'variants suggested', 'alike suggested'])}\n"
        f"resolved into one entity without a person: {resolved['variants']} variants, {resolved['alike']} alike pairs"
    )
