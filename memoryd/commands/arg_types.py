"""Argparse types for the files a command reads or writes and the numbers it takes.

A bad path or number is argparse's one line (exit 2), said before any work, never a traceback in it.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import TypeVar

Number = TypeVar("Number", int, float)


def input_file(value: str) -> Path:
    """A file to read: it must exist and be a file."""
    path = Path(value)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"{value!r} is not a file" if path.exists() else f"{value!r} does not exist")
    return path


def output_file(value: str) -> Path:
    """A file to write (its missing directories are made): not a directory, nor under a file."""
    path = Path(value)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{value!r} is a directory")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise argparse.ArgumentTypeError(f"{value!r}: {str(parent)!r} is not a directory")
            break
    return path


def positive_int(value: str) -> int:
    """A count of at least one (rows, calls, agents, clients, a batch's size)."""
    number = _int(value)
    if number < 1:
        raise argparse.ArgumentTypeError(f"{value!r} is not a positive whole number")
    return number


def non_negative_int(value: str) -> int:
    """A count that may be zero (zero: none, or "all" where the option says so)."""
    return _not_negative(_int(value), value)


def positive_ints(value: str) -> list[int]:
    """Comma-separated counts, each at least one (``1,10,100``)."""
    parts = [part.strip() for part in value.split(",") if part.strip()]
    if not parts:
        raise argparse.ArgumentTypeError(f"{value!r} names no count")
    return [positive_int(part) for part in parts]


def non_negative_float(value: str) -> float:
    """A finite amount that may be zero (seconds, a rate)."""
    return _not_negative(_float(value), value)


def share(value: str) -> float:
    """A fraction from 0 to 1."""
    number = _float(value)
    if not 0 <= number <= 1:
        raise argparse.ArgumentTypeError(f"{value!r} is not a share from 0 to 1")
    return number


def _not_negative(number: Number, value: str) -> Number:
    if number < 0:
        raise argparse.ArgumentTypeError(f"{value!r} is negative")
    return number


def _float(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number") from None
    if not math.isfinite(number):
        raise argparse.ArgumentTypeError(f"{value!r} is not a finite number")
    return number


def _int(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
