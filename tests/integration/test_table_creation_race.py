"""Processes opening a new store and creating one table at the same instant: every append lands.

LanceDB alone commits the slower of two creations as an Overwrite at the next version: appends
made on the first creation then fail (or, committed in between, vanish). Six connections (as six
processes would) race here on a fresh directory, many times over.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pyarrow as pa
import redis.asyncio as aioredis

from memoryd.adapters.lance.creation import CreationLock, LeaseCreationLock
from memoryd.adapters.lance.db import LanceDatabase
from memoryd.adapters.lance.rows import PRIMARY_KEY
from memoryd.adapters.redis.leases import RedisLeases

SCHEMA = pa.schema([pa.field("id", pa.string(), nullable=False, metadata=PRIMARY_KEY)])
TRIALS = 15
CREATORS = 6
APPENDS = 3


async def _race(folder: Path, lock: Callable[[], CreationLock | None]) -> tuple[list[str], set[str]]:
    """Every creator opens the store, creates the table and appends; the failures and what the table holds."""
    dbs = await asyncio.gather(*(LanceDatabase.open(str(folder), "m", 8, creation=lock()) for _ in range(CREATORS)))
    failures: list[str] = []
    acknowledged: list[str] = []

    async def create_and_append(n: int, db: LanceDatabase) -> None:
        try:
            table = await db.table("race", SCHEMA, write=True)
            for k in range(APPENDS):
                await table.add(pa.table({"id": [f"{n}-{k}"]}, schema=SCHEMA))
                acknowledged.append(f"{n}-{k}")
        except Exception as exc:  # noqa: BLE001 - every failure is the finding
            failures.append(str(exc)[:200])

    await asyncio.gather(*(create_and_append(n, db) for n, db in enumerate(dbs)))
    held = set((await (await dbs[0].open_existing("race")).query().to_arrow()).column("id").to_pylist())
    lost = [row for row in acknowledged if row not in held]
    for db in dbs:
        db.close()
    return failures + [f"acknowledged but missing: {row}" for row in lost], held


async def test_six_processes_creating_one_table_in_a_directory_keep_every_append(tmp_path: Path) -> None:
    for trial in range(TRIALS):
        failures, held = await _race(tmp_path / str(trial), lambda: None)  # a directory: the file lock
        assert failures == [], f"trial {trial}"
        assert len(held) == CREATORS * APPENDS


async def test_replicas_creating_one_table_under_the_redis_lease_keep_every_append(
    tmp_path: Path, redis_url: str
) -> None:
    client = aioredis.Redis.from_url(redis_url)
    leases = RedisLeases(client)
    try:
        for trial in range(TRIALS):
            folder = tmp_path / str(trial)
            failures, held = await _race(folder, partial(LeaseCreationLock, leases, str(folder)))
            assert failures == [], f"trial {trial}"
            assert len(held) == CREATORS * APPENDS
            assert not await leases.is_held(f"lance-create:{folder}")
    finally:
        await client.aclose()
