"""The graph's retention on LanceDB: facts and episodes past a TTL, and the decay pass.

Both run from the daily retention job (``services.retention``). Expiry deletes non-pinned facts and
episodes created before the tenant's ``retention.graph_days``, then the entities as old that no
fact names. Decay deletes nothing: it archives the non-pinned active facts less sure than
``retention.graph_decay_confidence`` that nobody has stated for ``retention.graph_decay_days``
(status ``archived``: not searched, active again when stated again or restored with UpdateFact),
then the entities as old that no fact in force names (``archived_at``: left out of ListEntities and
search; in use again when a fact names them).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.filters import ids_in, timestamp
from memoryd.core.graph import FactStatus

ENTITIES, FACTS, EPISODES = "graph_entities_", "graph_facts_", "graph_episodes_"


class LanceGraphRetention:
    """Expiry and decay of one tenant's graph tables (a part of ``LanceGraphStore``)."""

    _db: LanceDatabase

    async def _graph_table(self, prefix: str, tenant_id: str, *, create: bool = False) -> Any | None:
        raise NotImplementedError  # LanceGraphStore's

    async def expire(self, tenant_id: str, before: datetime, dry_run: bool) -> dict[str, int]:
        """Non-pinned facts and episodes created before ``before``, then entities as old that no fact names.

        Returns the counts (of what would go, when dry). Pinned facts stay, and the entities they name.
        """
        old = f"created_at < {timestamp(before)}"
        gone = f"{old} AND NOT pinned"
        counts = {"graph_facts": 0, "graph_episodes": 0, "graph_entities": 0}
        async with map_lance_errors():
            for prefix, cond, name in ((FACTS, gone, "graph_facts"), (EPISODES, old, "graph_episodes")):
                table = await self._graph_table(prefix, tenant_id)
                if table is not None and (n := int(await table.count_rows(cond))):
                    counts[name] = n
                    if not dry_run:
                        self._db.written.add(prefix + tenant_id)
                        await table.delete(cond)
            entities = await self._graph_table(ENTITIES, tenant_id)
            if entities is None:
                return counts
            aged = (await entities.query().where(old).select(["id"]).to_arrow()).column("id").to_pylist()
            facts = await self._graph_table(FACTS, tenant_id)
            named: set[str] = set()
            if facts is not None and aged:
                kept = facts.query().select(["subject_id", "object_id"])
                rows = (await (kept.where(f"NOT ({gone})") if dry_run else kept).to_arrow()).to_pylist()
                named = {r["subject_id"] for r in rows} | {r["object_id"] for r in rows}
            orphans = [e for e in aged if e not in named]
            counts["graph_entities"] = len(orphans)
            if orphans and not dry_run:
                self._db.written.add(ENTITIES + tenant_id)
                await entities.delete(ids_in(orphans))
        return counts

    async def decay(
        self, tenant_id: str, now: datetime, seen_before: datetime, below: float, dry_run: bool
    ) -> dict[str, int]:
        """Archive (or count) unsure facts nobody stated since ``seen_before``, then the entities left unnamed.

        The facts: non-pinned, active, less sure than ``below`` (one stored before confidences were kept
        counts as sure). The entities: as old, not merged, named by no active or pending fact.
        """
        seen = f"coalesce(last_seen_at, created_at) < {timestamp(seen_before)}"
        cond = f"status = '{FactStatus.ACTIVE.value}' AND NOT pinned AND confidence < {below!r} AND {seen}"
        counts = {"graph_archived": 0, "graph_entities_archived": 0}
        async with map_lance_errors():
            facts = await self._graph_table(FACTS, tenant_id)
            if facts is None:
                return counts
            counts["graph_archived"] = int(await facts.count_rows(cond))
            if counts["graph_archived"] and not dry_run:
                self._db.written.add(FACTS + tenant_id)
                await facts.update(updates={"status": FactStatus.ARCHIVED.value}, where=cond)
            entities = await self._graph_table(ENTITIES, tenant_id)
            if entities is None:
                return counts
            idle = f"archived_at IS NULL AND merged_into = '' AND created_at < {timestamp(seen_before)}"
            aged = (await entities.query().where(idle).select(["id"]).to_arrow()).column("id").to_pylist()
            held = f"status IN ('{FactStatus.ACTIVE.value}', '{FactStatus.PENDING.value}')"
            if dry_run:
                held = f"{held} AND NOT ({cond})"
            rows = (await facts.query().where(held).select(["subject_id", "object_id"]).to_arrow()).to_pylist()
            named = {r["subject_id"] for r in rows} | {r["object_id"] for r in rows}
            orphans = [e for e in aged if e not in named]
            counts["graph_entities_archived"] = len(orphans)
            if orphans and not dry_run:
                self._db.written.add(ENTITIES + tenant_id)
                await entities.update(updates={"archived_at": now}, where=ids_in(orphans))
        return counts
