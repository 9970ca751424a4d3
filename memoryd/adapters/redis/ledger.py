"""JobLedger on Redis/Valkey: one JSON record per job, a per-tenant index, an event stream per job.

Keys (every one carries the tenant, so a ledger read cannot cross tenants)::

    memoryd:job:{tenant}:{key}       the record (JSON); terminal records expire after keep_days
    memoryd:jobs:{tenant}            sorted set of keys by creation time (ListJobs)
    memoryd:events:{tenant}:{key}    stream of state changes (WatchJob), capped
    memoryd:jobs:waiting             set of tenant + newline + key, parked for want of a model
    memoryd:jobs:live                set of tenant + newline + key, queued, running or retrying (the reconciler)
    memoryd:flag:{name}              operator-level flags (the bootstrap done flag)
    memoryd:parts:{batch key}        hash of a batch's jobs: part name -> tenant + newline + key

Claiming a key is a WATCH/MULTI transaction, so two callers enqueueing the same
key at once see one record; only a claim creates one, and an update of an erased
record (EraseEndUser) writes nothing. Durability is Redis's: the embedded Valkey runs with
AOF; an external Redis must be configured with persistence by its operator.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError, WatchError
from redis.exceptions import TimeoutError as RedisTimeoutError

from memoryd.core.errors import Unavailable
from memoryd.core.job_records import (
    REDRIVABLE_STATES,
    JobEvent,
    JobKind,
    JobRecord,
    JobState,
    job_from_json,
    job_to_json,
)

_LIVE = "memoryd:jobs:live"
_WAITING = "memoryd:jobs:waiting"
_QUEUE_STATES = frozenset({JobState.QUEUED, JobState.RUNNING, JobState.RETRYING})
"""States in which a job should have a queue message (what the reconciler looks at)."""

log = logging.getLogger(__name__)

_EVENTS_KEPT = 200
_READ_CHUNK = 500
"""Records read by one MGET when scanning a state's index (the heartbeat and the reconciler do)."""


@asynccontextmanager
async def map_redis_errors() -> AsyncIterator[None]:
    """An unreachable Redis is Unavailable (retryable); anything else is a bug and propagates."""
    try:
        yield
    except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
        raise Unavailable(f"job queue (Redis) unavailable: {exc}") from exc


_UPDATE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[2] == '0' then redis.call('SET', KEYS[1], ARGV[1]) else redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) end
if ARGV[4] == '1' then redis.call('SADD', KEYS[2], ARGV[3]) else redis.call('SREM', KEYS[2], ARGV[3]) end
if ARGV[5] == '1' then redis.call('SADD', KEYS[3], ARGV[3]) else redis.call('SREM', KEYS[3], ARGV[3]) end
redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[7], '*', 'event', ARGV[6])
redis.call('EXPIRE', KEYS[4], ARGV[8])
return 1
"""
"""A record's new state, its index memberships and its event, written only if the record exists."""


@dataclass(frozen=True, slots=True)
class _Written:
    name: str
    value: str
    ttl: int
    """Seconds a terminal record is kept (0: no expiry, a live or re-drivable one)."""
    member: str
    waiting: bool
    live: bool
    stream: str
    event: str


def _encode(record: JobRecord) -> str:
    return json.dumps(job_to_json(record), separators=(",", ":"))


def _decode(raw: bytes | str) -> JobRecord:
    return job_from_json(json.loads(raw))


class RedisJobLedger:
    """The ledger; ``now`` is injected so records carry the service clock's time."""

    def __init__(self, client: aioredis.Redis, keep_days: float = 30.0) -> None:
        self._r = client
        self._keep_seconds = int(keep_days * 86400)
        self._update = client.register_script(_UPDATE)

    @staticmethod
    def _job(tenant_id: str, key: str) -> str:
        return f"memoryd:job:{tenant_id}:{key}"

    @staticmethod
    def _index(tenant_id: str) -> str:
        return f"memoryd:jobs:{tenant_id}"

    @staticmethod
    def _stream(tenant_id: str, key: str) -> str:
        return f"memoryd:events:{tenant_id}:{key}"

    async def claim(self, record: JobRecord, *, redrive: bool) -> tuple[JobRecord, bool]:
        """Create, re-drive, or return the existing record (see ``JobLedger.claim``)."""
        return (await self.claim_many([record], redrive=redrive))[0]

    async def claim_many(self, records: Sequence[JobRecord], *, redrive: bool) -> list[tuple[JobRecord, bool]]:
        """``claim`` of each record in three round trips: WATCH, MGET, one MULTI (again if one changed)."""
        if not records:
            return []
        names = [self._job(r.tenant_id, r.key) for r in records]
        async with map_redis_errors():
            while True:
                async with self._r.pipeline(transaction=True) as pipe:
                    try:
                        await pipe.watch(*names)
                        raws = await pipe.mget(names)
                        claimed = []
                        pipe.multi()  # type: ignore[no-untyped-call]  # redis-py leaves it unannotated
                        for record, raw in zip(records, raws, strict=True):
                            existing = _decode(raw) if raw else None
                            if existing is not None and not existing.claimable(redrive=redrive):
                                claimed.append((existing, False))
                                continue
                            new = record if existing is None else existing.redriven(record.created_at)
                            self._write(pipe, new, "queued" if existing is None else f"re-driven (run {new.run})")
                            if existing is None:
                                pipe.zadd(
                                    self._index(new.tenant_id),
                                    {new.key: (new.created_at or datetime.now(UTC)).timestamp()},
                                )
                            claimed.append((new, True))
                        await pipe.execute()
                        return claimed
                    except WatchError:
                        continue

    async def get(self, tenant_id: str, key: str) -> JobRecord | None:
        """The record, or None."""
        async with map_redis_errors():
            raw = await self._r.get(self._job(tenant_id, key))
        return _decode(raw) if raw else None

    async def get_many(self, keys: Sequence[tuple[str, str]]) -> list[JobRecord | None]:
        """One MGET for many records."""
        if not keys:
            return []
        async with map_redis_errors():
            raws = await self._r.mget([self._job(tenant_id, key) for tenant_id, key in keys])
        return [_decode(raw) if raw else None for raw in raws]

    async def page(
        self, tenant_id: str, kind: JobKind | None, state: JobState | None, agent_id: str, limit: int, before: float
    ) -> list[JobRecord]:
        """Newest first; filters apply while paging through the index, so a page is always full if it can be."""
        out: list[JobRecord] = []
        upper: float | str = f"({before}" if before else "+inf"
        async with map_redis_errors():
            while len(out) < limit:
                keys = await self._r.zrevrangebyscore(
                    self._index(tenant_id), upper, "-inf", start=0, num=max(limit * 4, 50), withscores=True
                )
                if not keys:
                    break
                raws = await self._r.mget([self._job(tenant_id, k.decode()) for k, _ in keys])
                for raw in raws:
                    if not raw:
                        continue  # expired terminal record; its index entry is trimmed lazily
                    rec = _decode(raw)
                    if (
                        (kind is None or rec.kind == kind)
                        and (state is None or rec.state == state)
                        and (not agent_id or rec.agent_id == agent_id)
                    ):
                        out.append(rec)
                upper = f"({keys[-1][1]}"
        return out[:limit]

    async def keys(self, tenant_id: str) -> list[str]:
        """Every job key of the tenant's index (an erasure looks for the jobs of a contact's conversations)."""
        async with map_redis_errors():
            return [k.decode() for k in await self._r.zrange(self._index(tenant_id), 0, -1)]

    async def erase(self, tenant_id: str, keys: Sequence[str]) -> int:
        """Delete these jobs: records, event streams, index and waiting-set entries; the number deleted."""
        if not keys:
            return 0
        async with map_redis_errors(), self._r.pipeline(transaction=True) as pipe:
            for key in keys:
                pipe.delete(self._job(tenant_id, key), self._stream(tenant_id, key))
                pipe.zrem(self._index(tenant_id), key)
                pipe.srem(_WAITING, f"{tenant_id}\n{key}")
                pipe.srem(_LIVE, f"{tenant_id}\n{key}")
            done = await pipe.execute()
        return sum(1 for n in done[0::4] if n)  # four commands per key; the first deletes the record

    async def purge_persistence(self, timeout_seconds: float = 60.0) -> bool:
        """Rewrite the append-only file and the snapshot so deleted keys leave the disk too.

        Returns False when the server refuses (managed services often disable these commands) or
        does not finish in time; the keys are deleted either way.
        """
        try:
            async with map_redis_errors():
                for start, flag in (
                    (self._r.bgrewriteaof, "aof_rewrite_in_progress"),
                    (self._r.bgsave, "rdb_bgsave_in_progress"),
                ):
                    await self._wait_idle(timeout_seconds)
                    await start()
                    await self._wait_idle(timeout_seconds, flag)
        except (ResponseError, TimeoutError) as exc:
            log.warning("could not rewrite the Redis persistence files after an erasure: %s", exc)
            return False
        return True

    async def _wait_idle(self, timeout_seconds: float, flag: str = "") -> None:
        deadline = asyncio.get_running_loop().time() + timeout_seconds
        flags = [flag] if flag else ["aof_rewrite_in_progress", "rdb_bgsave_in_progress", "aof_rewrite_scheduled"]
        while True:
            info = await self._r.info("persistence")
            if not any(int(info.get(f, 0)) for f in flags):
                return
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError("Redis is still writing its persistence files")
            await asyncio.sleep(0.05)

    async def restore(self, record: JobRecord) -> None:
        """Write a record as it was (an import): the record, its index entry, one event."""
        async with map_redis_errors(), self._r.pipeline(transaction=True) as pipe:
            self._write(pipe, record, "imported")
            pipe.zadd(self._index(record.tenant_id), {record.key: (record.created_at or datetime.now(UTC)).timestamp()})
            await pipe.execute()

    async def update(self, record: JobRecord, message: str) -> None:
        """Write the record and append its event in one step, if the record still exists.

        A record erased meanwhile (EraseEndUser deletes the jobs of a contact's conversations;
        its key names the conversation) stays erased: a worker still holding the job writes nothing.
        """
        w = self._written(record, message)
        async with map_redis_errors():
            await self._update(
                keys=[w.name, _WAITING, _LIVE, w.stream],
                args=[w.value, w.ttl, w.member, int(w.waiting), int(w.live), w.event, _EVENTS_KEPT, self._keep_seconds],
            )

    def _write(self, pipe: Any, record: JobRecord, message: str) -> None:
        w = self._written(record, message)
        if w.ttl:
            pipe.set(w.name, w.value, ex=w.ttl)
        else:
            pipe.set(w.name, w.value)
        if w.waiting:
            pipe.sadd(_WAITING, w.member)
        else:
            pipe.srem(_WAITING, w.member)
        if w.live:
            pipe.sadd(_LIVE, w.member)
        else:
            pipe.srem(_LIVE, w.member)
        pipe.xadd(w.stream, {"event": w.event}, maxlen=_EVENTS_KEPT, approximate=True)
        pipe.expire(w.stream, self._keep_seconds)

    def _written(self, record: JobRecord, message: str) -> _Written:
        """What writing the record's state sets: the record, its index memberships, its event."""
        event = record.event(message, datetime.now(UTC))
        return _Written(
            name=self._job(record.tenant_id, record.key),
            value=_encode(record),
            ttl=0 if record.live or record.state in REDRIVABLE_STATES else self._keep_seconds,
            member=f"{record.tenant_id}\n{record.key}",
            waiting=record.state == JobState.WAITING_FOR_PROVIDER,
            live=record.state in _QUEUE_STATES,
            stream=self._stream(record.tenant_id, record.key),
            event=json.dumps({**asdict(event), "at": event.at.isoformat()}),
        )

    async def events(self, tenant_id: str, key: str, after: str, block_seconds: float) -> list[tuple[str, JobEvent]]:
        """Events after the cursor, blocking up to ``block_seconds`` for new ones."""
        async with map_redis_errors():
            found = await self._r.xread(
                {self._stream(tenant_id, key): after or "0-0"}, count=100, block=int(block_seconds * 1000) or None
            )
        out: list[tuple[str, JobEvent]] = []
        for _stream, entries in found or []:
            for entry_id, fields in entries:
                data = json.loads(fields[b"event"])
                out.append(
                    (
                        entry_id.decode(),
                        JobEvent(
                            data["key"],
                            JobState(data["state"]),
                            data["message"],
                            data["attempts"],
                            data["progress_done"],
                            data["progress_total"],
                            datetime.fromisoformat(data["at"]),
                        ),
                    )
                )
        return out

    async def in_state(self, state: JobState) -> list[JobRecord]:
        """Records in a live state (parked ones, and queued, running or retrying ones), from their index sets."""
        if state == JobState.WAITING_FOR_PROVIDER:
            index = _WAITING
        elif state in _QUEUE_STATES:
            index = _LIVE
        else:
            raise ValueError(f"{state.value} records are not indexed by state")
        async with map_redis_errors():
            members = await self._r.smembers(index)  # type: ignore[misc]  # sync/async union
        pairs = [(tenant_id, key) for tenant_id, _, key in (m.decode().partition("\n") for m in members)]
        out: list[JobRecord] = []
        for start in range(0, len(pairs), _READ_CHUNK):  # one MGET a chunk: a batch keeps thousands live
            records = await self.get_many(pairs[start : start + _READ_CHUNK])
            out.extend(rec for rec in records if rec is not None and rec.state == state)
        return out

    async def ping(self) -> None:
        """One round trip (Unavailable if Redis does not answer)."""
        async with map_redis_errors():
            await self._r.ping()

    async def flag(self, name: str) -> bool:
        """Whether the flag is set."""
        async with map_redis_errors():
            return bool(await self._r.exists(f"memoryd:flag:{name}"))

    async def set_flag(self, name: str) -> None:
        """Set the flag."""
        async with map_redis_errors():
            await self._r.set(f"memoryd:flag:{name}", datetime.now(UTC).isoformat())

    async def add_parts(self, batch_key: str, parts: Mapping[str, tuple[str, str]]) -> None:
        """HSET in one round trip; the hash lives as long as a terminal record would."""
        if not parts:
            return
        name = f"memoryd:parts:{batch_key}"
        async with map_redis_errors(), self._r.pipeline(transaction=True) as pipe:
            pipe.hset(name, mapping={part: f"{tenant}\n{key}" for part, (tenant, key) in parts.items()})
            pipe.expire(name, self._keep_seconds)
            await pipe.execute()

    async def parts(self, batch_key: str) -> dict[str, tuple[str, str]]:
        """The batch's hash."""
        async with map_redis_errors():
            raw = await self._r.hgetall(f"memoryd:parts:{batch_key}")  # type: ignore[misc]  # sync/async union
        out = {}
        for part, value in raw.items():
            tenant, _, key = value.decode().partition("\n")
            out[part.decode()] = (tenant, key)
        return out
