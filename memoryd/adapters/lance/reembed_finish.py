"""The end of a re-embed: the new model becomes the store's own, the old vectors are dropped.

Offline by design (every daemon and worker stopped): each table's ``vector`` column is replaced by
the new space's, which needs a moment when the table has no ``vector`` at all. Per table, in order:
fill every row still without a vector in the new space (archive rows by content, graph entities
by name, facts by sentence; a table made after the re-embed began gets the column here), drop
``vector``, rename the space's column to ``vector`` (its ANN index goes with it), mark the table
done in ``store_meta``. A crash anywhere is resumed by running it again: a done table is skipped,
and a table caught between the drop and the rename is recognised by its missing ``vector``.
Last, ``store_meta`` records the new model as the store's and forgets the re-embed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import pyarrow as pa

from memoryd.adapters.lance.archive_tables import ARCHIVE_PREFIX
from memoryd.adapters.lance.db import META_TABLE, LanceDatabase, add_column
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.filters import ids_in, literal
from memoryd.adapters.lance.graph import ENTITIES, FACTS
from memoryd.adapters.lance.rows import KEEP_NULL_VECTORS, space_column, space_field
from memoryd.core.errors import PreconditionFailed
from memoryd.core.models import PENDING_MODEL

Embed = Callable[[Sequence[str]], Awaitable[list[list[float]]]]
_TEXT = {ARCHIVE_PREFIX: "content", ENTITIES: "name", FACTS: "sentence"}
"""The tables with vectors, and the text each row's vector embeds."""
_DONE = "finished:"
_BATCH = 256


class LanceReembedFinish:
    """Makes a re-embed's model the store's own (``memoryd reembed --finish``)."""

    def __init__(self, db: LanceDatabase) -> None:
        self._db = db

    async def finish(self, model: str, dimension: int, embed: Embed) -> dict[str, int]:
        """Every table moved to ``model``; the rows embedded here, by kind of table."""
        async with map_lance_errors():
            meta = await self._db.open_existing(META_TABLE)
            rows = {r["key"]: r for r in (await meta.query().to_arrow()).to_pylist()}
            if (rows["embedding"]["model"], rows["embedding"]["dimension"]) == (model, dimension):
                await _forget_reembed(meta, list(rows))  # finished before; a crash left the bookkeeping
                return {}
            target = rows.get("reembed")
            if target is None or (target["model"], target["dimension"]) != (model, dimension):
                raise PreconditionFailed(f"no re-embed to {model!r} ({dimension} dims) is under way in this store")
            embedded: dict[str, int] = {}
            for name in sorted([n async for n in self._db.names()]):
                prefix = next((p for p in _TEXT if name.startswith(p)), None)
                if prefix is None or _DONE + name in rows:
                    continue
                table = await self._db.open_existing(name)
                n = await _move(table, model, dimension, _TEXT[prefix], embed)
                if prefix == ARCHIVE_PREFIX:
                    await table.update(
                        updates_sql={"embedding_model": literal(model)},
                        where=f"embedding_model != {literal(PENDING_MODEL)}",
                    )
                embedded[prefix.rstrip("_")] = embedded.get(prefix.rstrip("_"), 0) + n
                await _put(meta, _DONE + name, "", 0)
            await _put(meta, "embedding", model, dimension)
            await _forget_reembed(meta, (await meta.query().select(["key"]).to_arrow()).column("key").to_pylist())
        return embedded


async def _forget_reembed(meta: Any, keys: Sequence[str]) -> None:
    """Drop the re-embed's rows (target, switches, tables done): the store has one model again."""
    stale = [k for k in keys if k == "reembed" or k.startswith(("space:", _DONE))]
    if stale:
        await meta.delete(f"key IN ({', '.join(literal(k) for k in stale)})")


async def _move(table: Any, model: str, dimension: int, text: str, embed: Embed) -> int:
    """Fill, drop, rename one table; the rows it embedded."""
    column = space_column(model)
    names = (await table.schema()).names
    if "vector" not in names:  # a crash between the drop and the rename
        await table.alter_columns({"path": column, "rename": "vector"})
        return 0
    await add_column(table, space_field(model, dimension))
    embedded = 0
    while True:
        batch = (
            await table.query().where(f"{column} IS NULL").select(["id", text]).limit(_BATCH).to_arrow()
        ).to_pylist()
        if not batch:
            break
        vectors = dict(zip([r["id"] for r in batch], await embed([r[text] for r in batch]), strict=True))
        # Whole rows: a merge of fewer columns than the table's panics in Lance on an optimized table.
        stored = await table.query().where(ids_in(list(vectors))).to_arrow()
        at, field = stored.schema.get_field_index(column), stored.schema.field(column)
        filled = pa.array([vectors[i] for i in stored.column("id").to_pylist()], field.type)
        merge = table.merge_insert("id").when_matched_update_all()
        await merge.execute(stored.set_column(at, field, filled), on_bad_vectors=KEEP_NULL_VECTORS)
        embedded += len(batch)
        if await table.count_rows(f"{column} IS NULL AND {ids_in([r['id'] for r in batch])}"):
            raise RuntimeError(f"rows of {table.name!r} were not filled")  # never loop forever
    await table.drop_columns(["vector"])
    await table.alter_columns({"path": column, "rename": "vector"})
    return embedded


async def _put(meta: Any, key: str, model: str, dimension: int) -> None:
    row = pa.Table.from_pylist([{"key": key, "model": model, "dimension": dimension}], await meta.schema())
    await meta.merge_insert("key").when_matched_update_all().when_not_matched_insert_all().execute(row)
