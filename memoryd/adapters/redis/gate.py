"""ProviderGate on Redis/Valkey: a circuit breaker, per-tenant call slots and leases for every worker.

The breaker counts consecutive failed provider calls across all workers; at
``threshold`` it opens for ``cooldown`` seconds, during which no worker calls the
provider. Then one caller is let through as a probe: success closes the circuit,
failure reopens it. Slots are a sorted set per tenant whose members expire, so a
worker killed while holding one cannot leak it. All decisions are Lua scripts
using the server's clock: atomic, and fair between machines. (Exclusive leases,
which keep two jobs off one conversation, are ``redis_leases``.)
"""

from __future__ import annotations

import redis.asyncio as aioredis

from memoryd.adapters.redis.ledger import map_redis_errors

_OPEN_OR_CLOSED = """
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then return ttl end
local failures = tonumber(redis.call('GET', KEYS[2]) or '0')
if failures < tonumber(ARGV[1]) then return 0 end
"""
"""Open (its time left) or closed (0); past it the circuit is half-open. Shared by the two reads below."""

_OPEN_FOR = (
    _OPEN_OR_CLOSED
    + """
if redis.call('SET', KEYS[3], '1', 'NX', 'PX', ARGV[2]) then return 0 end
return tonumber(ARGV[3])
"""
)

_OBSERVED_OPEN_FOR = (
    _OPEN_OR_CLOSED
    + """
local probe = redis.call('PTTL', KEYS[3])
if probe > 0 then return math.min(probe, tonumber(ARGV[2])) end
return 0
"""
)

_RECORD_FAILURE = """
local failures = redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('DEL', KEYS[3])
if failures >= tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[2]) end
return failures
"""

_ACQUIRE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[3]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return 1
end
return 0
"""

_OPEN, _FAILURES, _PROBE = "memoryd:breaker:open", "memoryd:breaker:failures", "memoryd:breaker:probe"


class RedisProviderGate:
    """Breaker and slots; ``slot_seconds`` must exceed the longest provider call."""

    def __init__(
        self, client: aioredis.Redis, *, threshold: int, cooldown_seconds: float, tenant_slots: int, slot_seconds: float
    ) -> None:
        self._r = client
        self._threshold = threshold
        self._cooldown_ms = max(1, int(cooldown_seconds * 1000))
        self._tenant_slots = tenant_slots
        self._slot_ms = max(1, int(slot_seconds * 1000))
        self._open_for = client.register_script(_OPEN_FOR)
        self._observed_open_for = client.register_script(_OBSERVED_OPEN_FOR)
        self._failure = client.register_script(_RECORD_FAILURE)
        self._acquire = client.register_script(_ACQUIRE)

    async def open_for(self) -> float:
        """Seconds until the next call may go (0: now). Half-open lets exactly one probe through."""
        async with map_redis_errors():
            ms = await self._open_for(
                keys=[_OPEN, _FAILURES, _PROBE], args=[self._threshold, self._slot_ms, min(self._cooldown_ms, 1000)]
            )
        return int(ms) / 1000

    async def observed_open_for(self) -> float:
        """Seconds the circuit stays open, a probe in flight counting as open; the probe is left to the workers.

        The worker's breaker gauge read ``open_for``, so when a cooldown ended the gauge's refresh took
        the half-open probe, and every job waited out the probe's lease (the provider timeout plus 10 s)
        instead of one of them probing.
        """
        async with map_redis_errors():
            ms = await self._observed_open_for(
                keys=[_OPEN, _FAILURES, _PROBE], args=[self._threshold, min(self._cooldown_ms, 1000)]
            )
        return int(ms) / 1000

    async def record(self, ok: bool) -> None:
        """A success closes the circuit; a failure counts toward opening it."""
        async with map_redis_errors():
            if ok:
                await self._r.delete(_FAILURES, _PROBE, _OPEN)
            else:
                # The failure count lives as long as a few cooldowns: old failures do not add up.
                await self._failure(
                    keys=[_OPEN, _FAILURES, _PROBE], args=[self._threshold, self._cooldown_ms, self._cooldown_ms * 10]
                )

    async def acquire(self, tenant_id: str, holder: str) -> bool:
        """One of the tenant's slots (re-entrant for the same holder)."""
        async with map_redis_errors():
            got = await self._acquire(
                keys=[f"memoryd:slots:{tenant_id}"], args=[self._slot_ms, self._tenant_slots, holder]
            )
        return bool(got)

    async def release(self, tenant_id: str, holder: str) -> None:
        """Give the slot back."""
        async with map_redis_errors():
            await self._r.zrem(f"memoryd:slots:{tenant_id}", holder)
