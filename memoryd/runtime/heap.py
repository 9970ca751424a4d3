"""The start-up heap set aside from Python's cyclic garbage collector while a process serves.

A process that has imported memoryd's stack (grpc, protobuf descriptors, pydantic models, LanceDB,
onnxruntime, arq) holds ~150k container objects that live as long as it does. Every full collection
traverses them all: in ``bench mixed`` a daemon ran 8 in 70 s, each stopping the event loop for
~106 ms, so every call in flight at that moment waited that long (freezing took Recall's p95 there from
161-168 to 130-142 ms).
``gc.freeze`` moves what exists after start-up to the permanent generation, which collections skip; a
collection then only walks what was made since (the in-memory copies, the calls in flight).

Collected first, so no cycle that was already garbage is kept forever; unfrozen on the way out, so a
process that serves more than once (the tests) collects the first server's objects again.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def settled_heap() -> Iterator[None]:
    """Around a process's serving life, after its start-up: full collections skip the start-up heap."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
