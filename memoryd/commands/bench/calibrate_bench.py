"""`memoryd bench calibrate`: an embedder's similarity scale, measured on questions and their evidence.

For every question of a LoCoMo-format file it takes the cosine similarity between the
question and each evidence turn (gold pairs) and between the question and turns of the same
conversation drawn at random, not evidence (random pairs, a fixed seed). It prints
percentiles of both and the share of each kept by candidate floors: the numbers behind the
per-embedder values of ``core.calibration`` (similarity floor, noise level, strong match).
"""

from __future__ import annotations

import argparse
import asyncio
import random
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from memoryd.app import build_embedder
from memoryd.commands.arg_types import input_file, non_negative_int
from memoryd.commands.bench import locomo
from memoryd.commands.bench.report import environment, table, write_json
from memoryd.config import load_settings
from memoryd.core.calibration import calibration_for
from memoryd.core.embed_roles import EmbedRole

_PERCENTILES = (1, 2, 5, 10, 25, 50, 75, 90, 95, 99)
_FLOORS = (0.5, 0.4, 0.3, 0.2, 0.15, 0.1, 0.0)
_RANDOM_PER_QUESTION = 4


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench calibrate`."""
    p = sub.add_parser("calibrate", help="an embedder's cosine scale on question/evidence and random pairs")
    p.add_argument("--data", type=input_file, required=True, help="path to locomo10.json (or a file in its format)")
    p.add_argument("--conversations", type=non_negative_int, default=0, help="use only the first N conversations")
    p.add_argument("--config", type=Path, help="TOML config naming the embedder (default: the embedded model)")
    p.set_defaults(run=lambda args: asyncio.run(_main(args)))


async def _main(args: argparse.Namespace) -> int:
    settings = load_settings(args.config).embedding
    embedder = build_embedder(settings)
    rng = random.Random(7)
    gold: list[float] = []
    noise: list[float] = []
    for conv in locomo.load(args.data)[: args.conversations or None]:
        index = {t.dia_id: i for i, t in enumerate(conv.turns)}
        # each in its role, as Recall compares them: a question is a query, a turn a stored text
        turns = np.asarray(await _embed(embedder, [t.content for t in conv.turns], EmbedRole.DOCUMENT))
        questions = np.asarray(await _embed(embedder, [q.text for q in conv.questions], EmbedRole.QUERY))
        for q, question in zip(questions, conv.questions, strict=True):
            evidence = {index[d] for d in question.evidence}
            gold.extend(float(turns[i] @ q) for i in evidence)
            others = [i for i in range(len(conv.turns)) if i not in evidence]
            noise.extend(float(turns[i] @ q) for i in rng.sample(others, min(_RANDOM_PER_QUESTION, len(others))))
    record: dict[str, Any] = {
        "model": embedder.model_name,
        "roles": asdict(settings.role_marking()),
        "gold_pairs": len(gold),
        "random_pairs": len(noise),
        "percentiles": {
            "gold": {p: float(np.percentile(gold, p)) for p in _PERCENTILES},
            "random": {p: float(np.percentile(noise, p)) for p in _PERCENTILES},
        },
        "kept": {f: {"gold": _share(gold, f), "random": _share(noise, f)} for f in _FLOORS},
        "shipped": asdict(calibration_for(embedder.model_name)),
        "environment": environment(),
    }
    print(_render(record))
    write_json(args.json, record)
    return 0


async def _embed(embedder: Any, texts: list[str], role: EmbedRole) -> list[list[float]]:
    out: list[list[float]] = []
    for start in range(0, len(texts), 256):
        out.extend(await embedder.embed(texts[start : start + 256], role))
    return out


def _share(values: list[float], floor: float) -> float:
    return sum(v >= floor for v in values) / len(values) if values else 0.0


def _render(record: dict[str, Any]) -> str:
    pct = record["percentiles"]
    rows = [[f"p{p}", f"{pct['gold'][p]:.3f}", f"{pct['random'][p]:.3f}"] for p in _PERCENTILES]
    kept = [[f"{f}", f"{k['gold']:.3f}", f"{k['random']:.3f}"] for f, k in record["kept"].items()]
    return (
        f"memoryd bench calibrate: {record['model']}, {record['gold_pairs']} gold pairs, "
        f"{record['random_pairs']} random pairs\n"
        f"{table(rows, ['percentile', 'gold', 'random'])}\n\n{table(kept, ['floor', 'gold kept', 'random kept'])}\n"
        f"shipped: {record['shipped']}"
    )
