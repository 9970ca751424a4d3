"""`memoryd bench ...` subcommands."""

from __future__ import annotations

import argparse


def add_bench_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the bench subcommands."""
    from memoryd.bench import recall_bench

    recall_bench.register(sub)
