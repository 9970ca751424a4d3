"""StatsCopy: the retrieval statistics of one table version, looked up by id as the table's query would."""

from __future__ import annotations

from datetime import UTC, datetime

import pyarrow as pa

from memoryd.adapters.lance.copies.stats import StatsCopy
from memoryd.adapters.lance.rows import RETRIEVAL_SCHEMA

AT = datetime(2026, 12, 3, 8, 0, tzinfo=UTC)


def _table(counts: dict[str, int]) -> pa.Table:
    rows = [
        {"id": memory_id, "retrieval_count": n, "last_retrieved_at": AT, "injected_count": n * 2}
        for memory_id, n in counts.items()
    ]
    chunks = [pa.Table.from_pylist(rows[i : i + 3], RETRIEVAL_SCHEMA) for i in range(0, len(rows), 3)]
    return pa.concat_tables(chunks)  # several chunks, as a table of many fragments reads


def test_rows_by_id_few_or_many_missing_ones_left_out() -> None:
    counts = {f"{i:032x}": i for i in range(1, 21)}
    copy = StatsCopy.of(7, _table(counts))
    assert copy.version == 7 and len(copy) == 20
    one = copy.rows([f"{5:032x}"])
    assert list(one) == [f"{5:032x}"]
    assert one[f"{5:032x}"]["retrieval_count"] == 5 and one[f"{5:032x}"]["injected_count"] == 10
    assert one[f"{5:032x}"]["last_retrieved_at"] == AT and one[f"{5:032x}"]["fb_useful"] is None
    wanted = [f"{i:032x}" for i in (20, 3, 99, 3, 11, 1, 14, 7)]  # past the sliced few; a repeat and a stranger
    many = copy.rows(wanted)
    assert list(many) == [f"{i:032x}" for i in (20, 3, 11, 1, 14, 7)]
    assert all(
        row["id"] == memory_id and row["retrieval_count"] == int(memory_id, 16) for memory_id, row in many.items()
    )
    assert copy.rows([f"{99:032x}"]) == {} and copy.rows([]) == {}
