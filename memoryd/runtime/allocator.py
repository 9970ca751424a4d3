"""Process tuning: the C allocator's arenas, numpy's BLAS threads, the allocator's free pages.

The first two are set before the native libraries load. glibc gives each thread that allocates
concurrently its own malloc arena (up to 8 per core), and memory freed in one arena is not reused by
threads of another: with LanceDB's, gRPC's and onnxruntime's thread pools a busy daemon's resident set
grew for as long as the load lasted (a 10-minute soak: +850 MiB and still rising). Two arenas keep it
flat at no measurable cost on small machines (``memoryd bench mixed``; docs/benchmarks.md). glibc's own
``MALLOC_ARENA_MAX`` in the environment wins; other C libraries are left alone.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os
from typing import Any

_M_ARENA_MAX = -8  # glibc's mallopt parameter number
DEFAULT_ARENAS = 2


@functools.cache
def _glibc() -> Any | None:
    """The C library when it is glibc (``mallopt``, ``malloc_trim``), else None (musl, macOS)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
    except OSError:
        return None
    return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None


def limit_malloc_arenas(arenas: int = DEFAULT_ARENAS) -> bool:
    """Cap glibc's malloc arenas before the native thread pools start; whether the cap was set here."""
    if "MALLOC_ARENA_MAX" in os.environ:  # glibc read it at start-up: the operator chose
        return False
    libc = _glibc()
    return libc is not None and bool(libc.mallopt(_M_ARENA_MAX, arenas))


def release_free_memory() -> bool:
    """Hand the allocator's free pages back to the system; whether it could (glibc only).

    Memory freed inside glibc's heaps stays in the process (its resident set) until the top of a heap
    is free: LanceDB's compactions and the in-memory copies' reloads free large buffers in between
    live ones. ``malloc_trim`` releases every whole free page; it takes each arena's lock in turn,
    a few milliseconds at a daemon's heap (``docs/benchmarks.md``), so it runs on a worker thread.
    """
    libc = _glibc()
    if libc is None:
        return False
    libc.malloc_trim(0)
    return True


def limit_blas_threads() -> bool:
    """One OpenBLAS thread (numpy's), unless the operator chose; whether the limit was set here.

    The daemon's matrix work is small (a few thousand vectors times one query); OpenBLAS splits even
    that across every core, and its threads spin between calls, taking the cores from LanceDB,
    onnxruntime and the event loop under load (``bench mixed``, docs/benchmarks.md). OpenBLAS reads
    the variable when numpy loads, so this runs before anything imports numpy.
    """
    if "OPENBLAS_NUM_THREADS" in os.environ:
        return False
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    return True
