"""`memoryd bench multilingual`: LoCoMo's measurement on the shipped Spanish, German and Chinese conversations.

The set (``data/multilingual/{es,de,zh}.json``, LoCoMo's format) was written by hand for memoryd:
per language two conversations of three sessions between two people (~100 turns), and 57–59
questions that each paraphrase one turn (their evidence), so a question shares few words with its
answer. Each language is measured with each embedder, both arms and the fused default, through
the real daemon, as ``bench locomo`` measures English; a language the full-text index can stem is
measured again with the tenant's ``recall.text_language`` set to it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from memoryd.commands.arg_types import input_file, positive_int
from memoryd.commands.bench import locomo
from memoryd.commands.bench.locomo_bench import DEFAULT_VARIANTS, bench_protocol
from memoryd.commands.bench.report import environment, table, write_json

LANGUAGES = ("es", "de", "zh")
VARIANTS = {name: DEFAULT_VARIANTS[name] for name in ("default", "full_text arm", "vector arm")}
STEMMED = {"es": "spanish", "de": "german"}
"""The shipped sets' languages the full-text index stems (Chinese needs none: its runs are pairs in any)."""
_PROVIDER = "MEMORYD_EMBEDDING__PROVIDER"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench multilingual`."""
    p = sub.add_parser("multilingual", help="recall quality in Spanish, German and Chinese, per embedder and arm")
    p.add_argument("--embedders", default="onnx,e5", help="embedding providers to compare (comma-separated)")
    p.add_argument("--languages", default=",".join(LANGUAGES), help="shipped languages to ask (comma-separated)")
    p.add_argument("--data", type=input_file, action="append", default=[], help="another set in LoCoMo's format")
    p.add_argument("--protocol", choices=["batch", "single"], default="batch")
    p.add_argument("--concurrency", type=positive_int, default=4)
    p.set_defaults(run=run, with_date=False)


def shipped(language: str) -> list[locomo.Conversation]:
    """One language of the shipped set."""
    if language not in LANGUAGES:
        known = ", ".join(LANGUAGES)
        raise SystemExit(f"memoryd bench multilingual: no shipped set for {language!r} (shipped: {known})")
    data = resources.files("memoryd.commands.bench").joinpath(f"data/multilingual/{language}.json")
    return locomo.parse(json.loads(data.read_text()))


def run(args: argparse.Namespace) -> int:
    """Ask every set with every embedder; print one table."""
    sets = {lang: shipped(lang) for lang in args.languages.split(",") if lang}
    sets |= {path.stem: locomo.load(path) for path in args.data}
    results: dict[str, dict[str, Any]] = {}
    for provider in args.embedders.split(","):
        with _embedder(provider):
            for name, conversations in sets.items():
                for language in ("", STEMMED.get(name, "")) if name in STEMMED else ("",):
                    with tempfile.TemporaryDirectory(prefix="memoryd-multilingual-") as tmp:
                        data = Path(tmp) / "data"
                        protocol = bench_protocol(conversations, VARIANTS, data, args, args.protocol, language)
                        record = asyncio.run(protocol)
                    results.setdefault(name, {})[f"{provider}, {language} index" if language else provider] = record
    print(_render(results))
    write_json(args.json, {"sets": results, "protocol": args.protocol, "environment": environment()})
    return 0


@contextmanager
def _embedder(provider: str) -> Iterator[None]:
    """The daemons this bench starts (and its own store access) use ``provider``."""
    before = os.environ.get(_PROVIDER)
    os.environ[_PROVIDER] = provider
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(_PROVIDER, None)
        else:
            os.environ[_PROVIDER] = before


def _render(results: dict[str, dict[str, Any]]) -> str:
    rows = []
    for name, by_provider in results.items():
        for provider, record in by_provider.items():
            cfg = record["config"]
            for variant, r in record["variants"].items():
                o = r["overall"]
                rows.append([name, cfg["questions"], provider, variant, o["R@5"], o["R@10"], o["MRR@10"]])
    return table(rows, ["set", "questions", "embedder", "variant", "R@5", "R@10", "MRR@10"])
