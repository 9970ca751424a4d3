"""The malloc arena cap and the BLAS thread limit are set unless the operator chose; free pages go back."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import platform
import subprocess
import sys

import pytest

from memoryd.runtime.allocator import limit_blas_threads, limit_malloc_arenas, release_free_memory

_PAGE = os.sysconf("SC_PAGE_SIZE")


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
    probe = "import sys, memoryd.commands.main; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * _PAGE


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc only")
def test_pages_freed_between_live_blocks_go_back_to_the_system() -> None:
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    block, count = 64 << 10, 512  # below the mmap threshold: inside the heap, as LanceDB's buffers are
    freed, kept = [], []
    # Blocks of one size taken in turn lie side by side (a small one could come from a hole left earlier
    # in the process), so no freed block touches another or the heap's top: free() cannot return them.
    for _ in range(count):
        freed.append(libc.malloc(block))
        ctypes.memset(freed[-1], 1, block)  # resident
        kept.append(libc.malloc(block))
    try:
        for address in freed:
            libc.free(address)
        before = _resident_bytes()
        assert release_free_memory() is True
        assert before - _resident_bytes() >= count * block // 2  # 32 MiB freed: most of it returned
    finally:
        for address in kept:
            libc.free(address)
