"""WriteCompany: the group after a shared one waits for its writers, briefly, and never for a lone writer."""

from __future__ import annotations

import asyncio
import time

from memoryd.services.write_company import WriteCompany


class _Waiting:
    """A tenant's queue length, as the memorize lane reports it."""

    def __init__(self, company: WriteCompany, n: int = 0) -> None:
        self.company, self.n = company, n

    def arrive(self) -> None:
        self.n += 1
        self.company.arrived("t", self.n)


async def _turns(n: int = 20) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


async def test_the_next_group_waits_for_the_last_groups_calls_and_those_already_waiting() -> None:
    company = WriteCompany(linger=10.0)
    company.ended("t", calls=4, waiting=4)  # two halves of eight writers: one written, one waiting
    queue = _Waiting(company, 4)
    gathering = asyncio.create_task(company.gather("t", lambda: queue.n))
    for _ in range(3):
        queue.arrive()
        await _turns()
        assert not gathering.done()
    queue.arrive()  # the eighth
    await asyncio.wait_for(gathering, timeout=1)


async def test_a_group_after_a_group_of_one_or_after_the_window_does_not_wait() -> None:
    company = WriteCompany(linger=10.0)
    company.ended("t", calls=1, waiting=0)
    await asyncio.wait_for(company.gather("t", lambda: 0), timeout=1)
    now = [0.0]
    later = WriteCompany(linger=10.0, clock=lambda: now[0])
    later.ended("t", calls=8, waiting=0)
    now[0] = 1.0  # the writers did not come back within the window: another series
    await asyncio.wait_for(later.gather("t", lambda: 0), timeout=1)


async def test_a_wait_ends_when_nobody_arrives_within_a_third_of_the_linger() -> None:
    company = WriteCompany(linger=0.3)
    company.ended("t", calls=8, waiting=0)
    started = time.monotonic()
    await asyncio.wait_for(company.gather("t", lambda: 1), timeout=5)
    assert 0.09 <= time.monotonic() - started < 0.25  # the writers are not on their way: no whole linger


async def test_a_wait_that_calls_keep_joining_ends_at_the_linger() -> None:
    company = WriteCompany(linger=0.3)
    company.ended("t", calls=100, waiting=0)
    queue = _Waiting(company, 1)
    started = time.monotonic()
    gathering = asyncio.create_task(company.gather("t", lambda: queue.n))
    while not gathering.done():
        queue.arrive()  # never a hundred, each within the gap
        await asyncio.sleep(0.02)
    assert time.monotonic() - started >= 0.29


async def test_a_linger_of_zero_never_waits() -> None:
    company = WriteCompany(linger=0.0)
    company.ended("t", calls=8, waiting=0)
    await asyncio.wait_for(company.gather("t", lambda: 0), timeout=1)
