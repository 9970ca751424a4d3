"""Leases on Redis/Valkey: exclusive, expiring, re-entrant holds shared by every worker.

A lease keeps two jobs off the same thing (one compaction per conversation at a time). It
expires on its own, so a worker killed while holding one cannot block the thing for longer
than the lease; only its holder can release it early.
"""

from __future__ import annotations

import redis.asyncio as aioredis

from memoryd.adapters.redis.ledger import map_redis_errors

_LOCK = """
local current = redis.call('GET', KEYS[1])
if current == false or current == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""

_UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class RedisLeases:
    """Exclusive leases by name."""

    def __init__(self, client: aioredis.Redis) -> None:
        self._client = client
        self._lock = client.register_script(_LOCK)
        self._unlock = client.register_script(_UNLOCK)

    async def lock(self, name: str, holder: str, seconds: float) -> bool:
        """Take the lease (re-entrant for ``holder``); False while another holder has it."""
        async with map_redis_errors():
            got = await self._lock(keys=[f"memoryd:lock:{name}"], args=[holder, max(1, int(seconds * 1000))])
        return bool(got)

    async def unlock(self, name: str, holder: str) -> None:
        """Release the lease if still ours."""
        async with map_redis_errors():
            await self._unlock(keys=[f"memoryd:lock:{name}"], args=[holder])

    async def is_held(self, name: str) -> bool:
        """Whether the lease exists (its holder renewed it within its time)."""
        async with map_redis_errors():
            return bool(await self._client.exists(f"memoryd:lock:{name}"))
