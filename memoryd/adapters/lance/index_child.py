"""An ANN index built in a child process: ``python -m memoryd.adapters.lance.index_child URI TABLE COLUMN PARENT``.

The storage options come as a JSON object on stdin (credentials stay off the command line). Lance's
CPU pool has a thread per core, and a build fills it for seconds: built in the daemon, every query of a
table read from disk waited for the whole build (a 32,000-row table's first index: a Recall of that
tenant stalled 7.3 s on 2 cores, ``docs/benchmarks.md``). In its own process, at a lower priority, the
build runs mostly on the time the daemon leaves idle; nothing waits for it (the maintenance passes go on
beside it), so a busy daemon makes the build slower, not the other way round. The same LanceDB builds
it as the daemon would; the daemon sees the index at its next read of the table.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
import time

import lancedb  # after memoryd.adapters' own import of it (lance_import)
from lancedb.index import IvfHnswSq

_NICENESS = 10
_PARENT_CHECK_SECONDS = 1.0


def exit_when_orphaned(parent: int, seconds: float = _PARENT_CHECK_SECONDS) -> None:
    """Exit as soon as ``parent``, the process that started this one, is gone.

    A daemon killed with SIGKILL cannot stop its build; the orphan would go on using the cores the
    restarted daemon needs, and a daemon restarted again and again would pile up builds of the same
    table. A parent's death shows as a new parent id (init or a subreaper adopts the child), which a
    thread checks here on every platform, where ``PR_SET_PDEATHSIG`` exists on Linux only. The parent's
    id comes from the parent: one that died while this process was still importing LanceDB would
    otherwise be mistaken for the process that adopted it.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(seconds)
        os._exit(3)  # nothing to flush: an uncommitted index leaves the table as it was

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


async def build(uri: str, name: str, column: str, storage_options: dict[str, str]) -> None:
    """Build the table's IVF_HNSW_SQ index on ``column`` (cosine), as the maintenance configures it."""
    db = await lancedb.connect_async(uri, storage_options=storage_options or None)
    table = await db.open_table(name)
    await table.create_index(column, config=IvfHnswSq(distance_type="cosine"))


def main() -> None:
    """Entry point of the child."""
    uri, name, column, parent = sys.argv[1:5]
    exit_when_orphaned(int(parent))
    os.nice(_NICENESS)
    asyncio.run(build(uri, name, column, json.loads(sys.stdin.read() or "{}")))


if __name__ == "__main__":
    main()
