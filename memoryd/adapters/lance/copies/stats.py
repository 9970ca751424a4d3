"""StatsCopy: a tenant's retrieval statistics table in memory, at one table version.

GetMemory and ListMemories show each memory's retrieval counts and feedback, which live in a side
table that every few seconds takes a flush of counts (an insert and an update or two, each a commit
that leaves a small fragment and deletion files behind until maintenance compacts them). A lookup of
one id there cost 8-14 ms at 3,000 rows, more than the whole Recall of the same agent:
reading the table once per version (a flush every ``retrieval_flush_seconds``) and answering from
memory costs microseconds. Loaded through ``CopyCache``, like the archive's copy, so any process's
commit is seen at the next read. The rows stay in Arrow (about 100 bytes each) with an index by id;
a lookup converts only the rows it returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyarrow as pa

_SLICED = 4
"""Up to this many rows are read by slicing (~70 µs a row), more by one ``take`` (~150 µs, then a few a row)."""


class StatsCopy:
    """The statistics rows of one table version, by memory id."""

    def __init__(self, version: int, data: pa.Table) -> None:
        self.version = version
        self._data = data.combine_chunks()  # one chunk: a take from many cost ~0.25 ms
        self._at = {memory_id: i for i, memory_id in enumerate(data.column("id").to_pylist())}

    @classmethod
    def of(cls, version: int, data: pa.Table) -> StatsCopy:
        """``CopyCache``'s builder."""
        return cls(version, data)

    def __len__(self) -> int:
        return len(self._at)

    def rows(self, memory_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The rows of those ids that have statistics, as the table's query would give them."""
        found = [(memory_id, self._at[memory_id]) for memory_id in dict.fromkeys(memory_ids) if memory_id in self._at]
        if not found:
            return {}
        if len(found) <= _SLICED:
            taken = [self._data.slice(i, 1).to_pylist()[0] for _, i in found]
        else:
            taken = self._data.take([i for _, i in found]).to_pylist()
        return {memory_id: row for (memory_id, _), row in zip(found, taken, strict=True)}
