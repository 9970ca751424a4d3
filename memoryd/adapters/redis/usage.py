"""ModelUsageStore on Redis/Valkey: one hash per tenant and UTC day, counters per model, kept MAX_DAYS.

    memoryd:model_usage:{tenant}:{YYYY-MM-DD}    hash: "{model}<US>{counter}" -> count (US: the unit separator)

Counters are added with HINCRBY in one pipeline per call, so concurrent workers never lose a count.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import redis.asyncio as aioredis

from memoryd.adapters.redis.ledger import map_redis_errors
from memoryd.core.model_usage import MAX_DAYS, ModelUsage

_COUNTERS = ("calls", "failed_calls", "tokens_in", "tokens_out")
_SEP = "\x1f"
"""Between a model's name and the counter's (a unit separator: no model name holds it)."""


def _key(tenant_id: str, day: date) -> str:
    return f"memoryd:model_usage:{tenant_id}:{day.isoformat()}"


class RedisModelUsage:
    """Per-tenant, per-day model usage counters."""

    def __init__(self, client: aioredis.Redis) -> None:
        self._client = client

    async def add(self, tenant_id: str, day: date, model: str, usage: tuple[int, int, int, int]) -> None:
        """Count (calls, failed calls, tokens in, tokens out) to the tenant's model on that day."""
        key = _key(tenant_id, day)
        # ``async with``: a call cancelled while the pipeline hands its connection back (a worker
        # stopped as it starts) gets a second reset, not a connection left to the garbage collector
        async with map_redis_errors(), self._client.pipeline(transaction=False) as pipe:
            for name, amount in zip(_COUNTERS, usage, strict=True):
                if amount:
                    pipe.hincrby(key, f"{model}{_SEP}{name}", amount)
            pipe.expire(key, (MAX_DAYS + 1) * 86_400)
            await pipe.execute()

    async def days(self, tenant_id: str, days: Sequence[date]) -> list[ModelUsage]:
        """The tenant's usage on those days, by day then model."""
        async with map_redis_errors(), self._client.pipeline(transaction=False) as pipe:
            for day in days:
                pipe.hgetall(_key(tenant_id, day))
            hashes = await pipe.execute()
        out = []
        for day, counters in zip(days, hashes, strict=True):
            by_model: dict[str, dict[str, int]] = {}
            for field, value in counters.items():
                model, _, name = (field.decode() if isinstance(field, bytes) else field).rpartition(_SEP)
                by_model.setdefault(model, {})[name] = int(value)
            for model in sorted(by_model):
                c = by_model[model]
                out.append(ModelUsage(day, model, *(c.get(name, 0) for name in _COUNTERS)))
        return out
