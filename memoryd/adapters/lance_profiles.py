"""ProfileStore on LanceDB: a profile row per agent (CAS on revision) and an append-only history.

Tables per tenant, like the archive: ``profiles_<tenant>`` (primary key
``agent_id``), ``profile_revisions_<tenant>`` (primary key ``agent_id:revision``)
and ``profile_failures_<tenant>`` (refused automatic rewrites). History lives
in its own table, not in Lance versions, which are table-wide and pruned.

Current profiles are read from an in-memory copy of the tenant's table at its version
(``lance_keyed_copy``): GetProfile and GetContext read one on every call.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pyarrow as pa

from memoryd.adapters.commit_groups import CommitGroups
from memoryd.adapters.lance_db import LanceDatabase
from memoryd.adapters.lance_errors import map_lance_errors
from memoryd.adapters.lance_filters import literal
from memoryd.adapters.lance_hot_cache import HotCache
from memoryd.adapters.lance_keyed_copy import KeyedCopy, follow
from memoryd.adapters.lance_rows import PRIMARY_KEY, TIMESTAMP, as_utc
from memoryd.core.models import Profile


def _profile_fields(key: str) -> list[pa.Field]:
    return [
        pa.field(key, pa.string(), nullable=False, metadata=PRIMARY_KEY),
        pa.field("agent_id", pa.string(), nullable=False),
        pa.field("document", pa.string(), nullable=False),
        pa.field("token_count", pa.int64(), nullable=False),
        pa.field("budget_tokens", pa.int64(), nullable=False),
        pa.field("revision", pa.int64(), nullable=False),
        pa.field("updated_at", TIMESTAMP, nullable=False),
        pa.field("source", pa.string(), nullable=False),
    ]


PROFILE_SCHEMA = pa.schema(_profile_fields("key"))
REVISION_SCHEMA = PROFILE_SCHEMA  # same row shape; key = "agent:revision" instead of the agent
FAILURE_SCHEMA = pa.schema(
    [
        pa.field("key", pa.string(), nullable=False, metadata=PRIMARY_KEY),
        pa.field("agent_id", pa.string(), nullable=False),
        pa.field("base_revision", pa.int64(), nullable=False),
        pa.field("source", pa.string(), nullable=False),
        pa.field("reason", pa.string(), nullable=False),
        pa.field("at", TIMESTAMP, nullable=False),
    ]
)


def _row(profile: Profile, key: str) -> dict[str, Any]:
    return {
        "key": key,
        "agent_id": profile.agent_id,
        "document": profile.document,
        "token_count": profile.token_count,
        "budget_tokens": profile.budget_tokens,
        "revision": profile.revision,
        "updated_at": profile.updated_at or datetime.now(UTC),
        "source": profile.source,
    }


def _profile(row: dict[str, Any]) -> Profile:
    return Profile(
        row["agent_id"],
        row["document"],
        row["token_count"],
        row["budget_tokens"],
        row["revision"],
        as_utc(row["updated_at"]),
        row["source"],
    )


_COPY_MAX_ROWS = 10_000
"""A tenant's profiles are kept in memory up to this many agents (a document is a few KB); more are queried."""
_COPY_TOTAL_ROWS = 20_000
"""Profiles kept in memory across tenants (the least recently read tenant's go first)."""


_BUILD = KeyedCopy.builder("key", _profile)


class LanceProfileStore:
    """Profiles on the same LanceDB connection as the archive."""

    def __init__(self, db: LanceDatabase, *, copies: bool = True) -> None:
        self._db = db
        self._copies: HotCache[KeyedCopy[Profile]] = HotCache(_COPY_MAX_ROWS if copies else 0, 64, _COPY_TOTAL_ROWS)
        self._swaps: CommitGroups[tuple[str, bool], Profile, bool] = CommitGroups(self._swap_group)
        """Concurrent swaps by tenant and kind (inserts of new agents; next revisions)."""
        self._logs: CommitGroups[str, Profile, None] = CommitGroups(self._log_group)

    async def current(self, tenant_id: str, agent_id: str) -> Profile | None:
        """The profile row."""
        async with map_lance_errors():
            table = await self._db.table(f"profiles_{tenant_id}", PROFILE_SCHEMA)
            copy = await self._copies.copy(tenant_id, table, PROFILE_SCHEMA.names, _BUILD)
            if copy is not None:
                return copy.get(agent_id)
            rows = (await table.query().where(f"key = {literal(agent_id)}").limit(1).to_arrow()).to_pylist()
        return _profile(rows[0]) if rows else None

    async def swap(self, tenant_id: str, profile: Profile, expected_revision: int) -> bool:
        """Compare-and-swap: update only if the stored revision is ``expected_revision``; insert if 0.

        Concurrent swaps of a tenant's agents are one merge-insert (``CommitGroups``): a bootstrap of
        many agents paid one each.
        """
        if expected_revision and profile.revision != expected_revision + 1:  # not a next revision: alone
            return (await self._swap_rows(tenant_id, [(profile, expected_revision)]))[0]
        return await self._swaps.submit((tenant_id, expected_revision == 0), profile)

    async def _swap_group(self, key: tuple[str, bool], profiles: Sequence[Profile]) -> list[bool]:
        tenant_id, inserts = key
        return await self._swap_rows(tenant_id, [(p, 0 if inserts else p.revision - 1) for p in profiles])

    async def _swap_rows(self, tenant_id: str, swaps: Sequence[tuple[Profile, int]]) -> list[bool]:
        """Each swap's outcome; swaps of one kind (all inserts, or all next revisions) share a merge.

        A merge's source holds each agent once: a later swap of an agent already in it (a job delivered
        twice at once) goes in the next merge, where it finds the first one's row.
        """
        swapped: list[bool] = [False] * len(swaps)
        todo = list(range(len(swaps)))
        async with map_lance_errors():
            table = await self._db.table(f"profiles_{tenant_id}", PROFILE_SCHEMA, write=True)
            while todo:
                now: list[int] = []
                later: list[int] = []
                agents: set[str] = set()
                for i in todo:
                    (later if swaps[i][0].agent_id in agents else now).append(i)
                    agents.add(swaps[i][0].agent_id)
                todo = later
                rows = {i: _row(swaps[i][0], swaps[i][0].agent_id) for i in now}
                merge = table.merge_insert("key")
                if swaps[now[0]][1] == 0:
                    merge = merge.when_not_matched_insert_all()
                elif len(now) == 1:
                    merge = merge.when_matched_update_all(where=f"target.revision = {int(swaps[now[0]][1])}")
                else:  # every one a next revision (``swap``)
                    merge = merge.when_matched_update_all(where="target.revision + 1 = source.revision")
                result = await merge.execute(pa.Table.from_pylist(list(rows.values()), PROFILE_SCHEMA))
                written = result.num_updated_rows + result.num_inserted_rows
                if written in (0, len(now)):
                    took = set(now) if written else set()
                else:  # some lost their race: a row is ours when the merge's version holds it as written
                    took = await self._written(table, result.version, rows)
                for i in took:
                    swapped[i] = True
                follow(self._copies, tenant_id, result.version, {rows[i]["key"]: _profile(rows[i]) for i in took})
        return swapped

    @staticmethod
    async def _written(table: Any, version: int, rows: dict[int, dict[str, Any]]) -> set[int]:
        """Which of ``rows`` the table holds as given at ``version``.

        A row another writer stored identical to ours (same text, revision and time) counts as ours:
        the table then holds what both asked for, and its revision's log is read once.
        """
        keys = ", ".join(literal(r["key"]) for r in rows.values())
        dataset = await table.to_lance()
        found = await asyncio.to_thread(lambda: dataset.checkout_version(version).to_table(filter=f"key IN ({keys})"))
        stored = {r["key"]: r for r in found.to_pylist()}
        return {i for i, row in rows.items() if row["key"] in stored and _profile(stored[row["key"]]) == _profile(row)}

    async def log_revision(self, tenant_id: str, profile: Profile) -> None:
        """Append the revision, keyed by agent and revision.

        A plain append, not an insert-if-absent: only the writer whose compare-and-swap made this
        revision logs it, once (a merge-insert costs about three appends of CPU and a bootstrap
        writes one per agent). Readers keep one row per key all the same. Concurrent ones of a tenant
        are one append.
        """
        await self._logs.submit(tenant_id, profile)

    async def _log_group(self, tenant_id: str, profiles: Sequence[Profile]) -> list[None]:
        rows = [_row(p, f"{p.agent_id}:{p.revision:012d}") for p in profiles]
        async with map_lance_errors():
            table = await self._db.table(f"profile_revisions_{tenant_id}", REVISION_SCHEMA, write=True)
            await table.add(pa.Table.from_pylist(rows, REVISION_SCHEMA))
        return [None] * len(profiles)

    async def revisions(self, tenant_id: str, agent_id: str, before: int, limit: int) -> list[Profile]:
        """Newest first, below ``before``."""
        async with map_lance_errors():
            table = await self._db.table(f"profile_revisions_{tenant_id}", REVISION_SCHEMA)
            where = f"agent_id = {literal(agent_id)} AND revision < {int(before)}"
            rows = (await table.query().where(where).select(["revision"]).to_arrow()).column("revision").to_pylist()
            wanted = sorted(set(rows), reverse=True)[:limit]
            if not wanted:
                return []
            keys = ", ".join(literal(f"{agent_id}:{r:012d}") for r in wanted)
            found = {r["key"]: r for r in (await table.query().where(f"key IN ({keys})").to_arrow()).to_pylist()}
        return sorted((_profile(r) for r in found.values()), key=lambda p: -p.revision)

    async def log_failure(self, tenant_id: str, agent_id: str, base_revision: int, source: str, reason: str) -> None:
        """Append a refused rewrite."""
        row = {
            "key": secrets.token_hex(16),
            "agent_id": agent_id,
            "base_revision": base_revision,
            "source": source,
            "reason": reason,
            "at": datetime.now(UTC),
        }
        async with map_lance_errors():
            table = await self._db.table(f"profile_failures_{tenant_id}", FAILURE_SCHEMA, write=True)
            await table.add(pa.Table.from_pylist([row], FAILURE_SCHEMA))

    async def failures(self, tenant_id: str, agent_id: str) -> list[dict[str, Any]]:
        """Refused rewrites of one agent, oldest first (operators and tests read these)."""
        async with map_lance_errors():
            table = await self._db.table(f"profile_failures_{tenant_id}", FAILURE_SCHEMA)
            rows = (await table.query().where(f"agent_id = {literal(agent_id)}").to_arrow()).to_pylist()
        return sorted(rows, key=lambda r: r["at"])
