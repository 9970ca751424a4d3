"""memoryd leaves the global ``random`` alone: it is the host program's, seeded by its tests and runtimes.

A call id drawn from it while hypothesis generated a test case in another thread made the tenancy
property test fail as flaky ("Do not use the random module inside strategies").
"""

from __future__ import annotations

import random
from datetime import UTC, datetime

from memoryd.client import MemoryClient
from memoryd.services.provenance import _call_id


def test_call_ids_and_the_clients_backoff_leave_the_global_random_alone() -> None:
    random.seed(5)
    before = random.getstate()
    ids = {_call_id(datetime.now(UTC)) for _ in range(3)}
    with MemoryClient("127.0.0.1:1", tenant="t", retries=3) as client:
        pauses = [pause for _, pause in client._attempts()]
    assert random.getstate() == before
    assert len(ids) == 3 and len(pauses) == 4
