"""OpenStreams: the Watch streams each caller holds open on this daemon, capped.

A Watch stream works for as long as it stays open (WatchConversation reads the conversation's events
four times a second), so one key opening thousands of them costs the daemon what thousands of callers
would, past every per-call rate budget. Each key (each tenant for protected-mode callers, who have
none) may hold ``auth.streams_per_key`` at once on one daemon; one more is RESOURCE_EXHAUSTED naming
the setting, and a stream's place is given back however it ends.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from memoryd.core.errors import LimitExceeded
from memoryd.rpc.identity import principal


class OpenStreams:
    """Counts of open Watch streams by caller, in this process."""

    def __init__(self, per_key: int) -> None:
        self._per_key = per_key
        self._open: Counter[str] = Counter()

    @contextmanager
    def held(self) -> Iterator[None]:
        """One place for the running call's stream while it is open; LimitExceeded when the caller has none left."""
        who = principal()
        name = f"key {who.key_id}" if who.key_id else f"tenant {who.tenant_id!r} (no key)"
        if self._open[name] >= self._per_key:
            raise LimitExceeded(
                f"{name} holds {self._open[name]} Watch streams open on this daemon, the most one key may "
                "(auth.streams_per_key): close one first"
            )
        self._open[name] += 1
        try:
            yield
        finally:
            self._open[name] -= 1
            if not self._open[name]:
                del self._open[name]
