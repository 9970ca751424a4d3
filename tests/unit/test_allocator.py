"""The malloc arena cap and the BLAS thread limit are set unless the operator chose."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

from memoryd.allocator import limit_blas_threads, limit_malloc_arenas


def test_an_operators_malloc_arena_max_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert limit_malloc_arenas() is False


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc only")
def test_glibc_takes_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    assert limit_malloc_arenas() is True


def test_blas_threads_are_limited_unless_the_operator_chose(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    assert limit_blas_threads() is False and os.environ["OPENBLAS_NUM_THREADS"] == "4"
    monkeypatch.delenv("OPENBLAS_NUM_THREADS")
    assert limit_blas_threads() is True and os.environ["OPENBLAS_NUM_THREADS"] == "1"


def test_the_command_line_sets_the_limit_before_numpy_loads() -> None:
    # OpenBLAS reads the variable once, when numpy loads: the entry point must not import numpy first.
    probe = "import sys, memoryd.cli; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
