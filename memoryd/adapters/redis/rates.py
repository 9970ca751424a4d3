"""RateLimiter on Redis: one token bucket per key and budget, shared by every replica (a Lua script).

The bucket refills continuously at ``rate`` tokens a second up to ``burst``; a call takes one
token or learns how long until one is there. Time comes from the Redis server (``TIME``), so
replicas with skewed clocks share one bucket fairly. Idle buckets expire.
"""

from __future__ import annotations

from typing import Any

import redis.asyncio as aioredis

from memoryd.adapters.redis.ledger import map_redis_errors

_TAKE = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1000000
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens, at = tonumber(state[1]), tonumber(state[2])
if tokens == nil then tokens, at = burst, t end
tokens = math.min(burst, tokens + (t - at) * rate)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = (1 - tokens) / rate end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(t))
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 60)
return tostring(wait)
"""


class RedisRateLimiter:
    """Token buckets ``memoryd:rate:{bucket}``."""

    def __init__(self, client: aioredis.Redis) -> None:
        self._take: Any = client.register_script(_TAKE)

    async def take(self, bucket: str, rate: float, burst: float) -> float:
        """Take a token: 0 when granted, else the seconds until one is available (nothing taken)."""
        async with map_redis_errors():
            wait = await self._take(keys=[f"memoryd:rate:{bucket}"], args=[rate, max(burst, 1.0)])
        return float(wait)
