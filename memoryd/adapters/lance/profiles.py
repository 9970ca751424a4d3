"""ProfileStore on LanceDB: a profile row per agent (CAS on revision) and an append-only history.

Tables per tenant, like the archive: ``profiles_<tenant>`` (primary key
``agent_id``), ``profile_revisions_<tenant>`` (primary key ``agent_id:revision``)
and ``profile_failures_<tenant>`` (refused automatic rewrites). History lives
in its own table, not in Lance versions, which are table-wide and pruned.

Current profiles are read from an in-memory copy of the tenant's table at its version
(``lance_keyed_copy``): GetProfile and GetContext read one on every call.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

import pyarrow as pa

from memoryd.adapters.lance.commit_batches import CommitBatches
from memoryd.adapters.lance.copies.cache import CopyCache
from memoryd.adapters.lance.copies.keyed import KeyedCopy, swap_rows
from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.filters import literal
from memoryd.adapters.lance.rows import PRIMARY_KEY, TIMESTAMP, as_utc, record_of, row_of
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
    return row_of(profile, key=key, updated_at=profile.updated_at or datetime.now(UTC))


def profile_of(row: dict[str, Any]) -> Profile:
    """A profile (or revision) row as the reads parse it."""
    return record_of(Profile, row, updated_at=as_utc(row["updated_at"]))


_COPY_MAX_ROWS = 10_000
"""A tenant's profiles are kept in memory up to this many agents (a document is a few KB); more are queried."""
_COPY_TOTAL_ROWS = 20_000
"""Profiles kept in memory across tenants (the least recently read tenant's go first)."""
_COPY_TENANTS = 256
"""Tenants whose profiles are kept in memory at most (``_COPY_TOTAL_ROWS`` bounds their memory). With
64, a hundred tenants read in turn each loaded its table again: 3.7 ms a read against 0.01 held
(``docs/benchmarks.md``, session 39)."""


_BUILD = KeyedCopy.builder("key", profile_of)
_FOLLOW = KeyedCopy.follower("key", PROFILE_SCHEMA.names, profile_of)
_BATCH_ROWS = 64
"""Profiles of a tenant committed together at most (a bootstrap runs a few dozen jobs at once)."""


class LanceProfileStore:
    """Profiles on the same LanceDB connection as the archive."""

    def __init__(self, db: LanceDatabase, *, copies: bool = True) -> None:
        self._db = db
        self._copies: CopyCache[KeyedCopy[Profile]] = CopyCache(
            _COPY_MAX_ROWS if copies else 0, _COPY_TENANTS, _COPY_TOTAL_ROWS
        )
        self._swaps: CommitBatches[str, Profile, bool] = CommitBatches(
            self._swap_together, _BATCH_ROWS, apart=lambda p: p.agent_id
        )
        self._logs: CommitBatches[str, Profile, None] = CommitBatches(self._log_together, _BATCH_ROWS)

    async def current(self, tenant_id: str, agent_id: str) -> Profile | None:
        """The profile row."""
        async with map_lance_errors():
            table = await self._db.table(f"profiles_{tenant_id}", PROFILE_SCHEMA)
            copy = await self._copies.copy(tenant_id, table, PROFILE_SCHEMA.names, _BUILD, follow=_FOLLOW)
            if copy is not None:
                return copy.get(agent_id)
            rows = (await table.query().where(f"key = {literal(agent_id)}").limit(1).to_arrow()).to_pylist()
        return profile_of(rows[0]) if rows else None

    async def swap(self, tenant_id: str, profile: Profile, expected_revision: int) -> bool:
        """Compare-and-swap: update only if the stored revision is ``expected_revision``; insert if 0.

        Concurrent swaps of a tenant commit together (``CommitBatches``): a bootstrap of its agents
        paid a merge-insert each, 12-28 ms of CPU with its log's append, where one of sixteen rows
        costs about as much as one.
        """
        if profile.revision != expected_revision + 1:
            raise ValueError(f"revision {profile.revision} does not follow {expected_revision}")
        return await self._swaps.submit(tenant_id, profile)

    async def _swap_together(self, tenant_id: str, profiles: list[Profile]) -> list[bool]:
        """One merge-insert for the new profiles, one for the updates; which rows each wrote."""
        rows = [_row(p, p.agent_id) for p in profiles]  # one per agent: ``apart`` keeps a second write out
        # a write the copy follows: a read meeting its version waits for it instead of loading the table
        # (16 concurrent bootstraps of one tenant made every read's load fail on the next swap: ~0.5 s a read)
        async with self._copies.writing(tenant_id), map_lance_errors():
            table = await self._db.table(f"profiles_{tenant_id}", PROFILE_SCHEMA, write=True)
            swapped = await swap_rows(self._copies, tenant_id, table, rows, PROFILE_SCHEMA, "key", profile_of)
        return [p.agent_id in swapped for p in profiles]

    async def log_revision(self, tenant_id: str, profile: Profile) -> None:
        """Append the revision, keyed by agent and revision.

        A plain append, not an insert-if-absent: only the writer whose compare-and-swap made this
        revision logs it, once (a merge-insert costs about three appends of CPU and a bootstrap
        writes one per agent). Readers keep one row per key all the same. Concurrent logs of a
        tenant are one append.
        """
        await self._logs.submit(tenant_id, profile)

    async def _log_together(self, tenant_id: str, profiles: list[Profile]) -> list[None]:
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
        return sorted((profile_of(r) for r in found.values()), key=lambda p: -p.revision)

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
