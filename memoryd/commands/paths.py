"""Argparse types for the files a command reads or writes.

A bad path is argparse's one line (exit 2), said before any work, never a traceback at the end of it.
"""

from __future__ import annotations

import argparse
from pathlib import Path


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
