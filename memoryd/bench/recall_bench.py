"""`memoryd bench recall` (filled in below)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench recall`."""
    sub.add_parser("recall", help="Recall latency and memorize throughput over gRPC")
