"""RateBudget: each API key's budgets for reads and writes, checked as a call is admitted.

A key spends from two token buckets (reads, writes) shared through Redis by every replica. A
refusal is ``RateExceeded`` (RESOURCE_EXHAUSTED) with the wait in ``retry_after``, which the status
table sends as ``google.rpc.RetryInfo``. Protected-mode callers (no key) have no budget; when the
buckets cannot be reached, calls pass (a limiter outage must not become a service outage) and the
failure is logged once a minute.
"""

from __future__ import annotations

import logging
import time

from memoryd.core.errors import LimitExceeded, Unavailable
from memoryd.core.keys import Access, Principal, Rule
from memoryd.core.ports import RateLimiter

log = logging.getLogger(__name__)


class RateExceeded(LimitExceeded):
    """A key spent its budget; ``retry_after`` says when a call will pass again."""

    retryable = True

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RateBudget:
    """Per-key budgets."""

    def __init__(self, limiter: RateLimiter, reads_per_second: float, writes_per_second: float, burst_seconds: float):
        self._limiter = limiter
        self._rates = {Access.READ: reads_per_second, Access.WRITE: writes_per_second}
        self._burst_seconds = burst_seconds
        self._last_warning = float("-inf")

    async def spend(self, principal: Principal, rule: Rule) -> None:
        """Take one call from the key's budget for the method's access; RateExceeded when spent."""
        if not principal.key_id:
            return
        rate = self._rates[rule.access]
        try:
            wait = await self._limiter.take(f"{principal.key_id}:{rule.access.value}", rate, rate * self._burst_seconds)
        except Unavailable:
            if time.monotonic() - self._last_warning > 60:
                self._last_warning = time.monotonic()
                log.warning("rate limits unavailable (Redis unreachable): calls pass unlimited meanwhile")
            return
        if wait > 0:
            raise RateExceeded(
                f"key {principal.key_id}: {rule.access.value} budget of {rate:g}/s spent; retry in {wait:.2f} s",
                retry_after=wait,
            )
