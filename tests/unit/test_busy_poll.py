"""PollingSelector: polls while the daemon is quiet, waits at once while a call is in flight."""

from __future__ import annotations

import asyncio
import selectors
import socket
import threading
import time
from collections.abc import Iterator

import pytest

from memoryd.runtime.busy_poll import PollingSelector, event_loop_factory


class _Recorded(PollingSelector):
    """Records the timeout of every wait it hands to the platform's selector."""

    def __init__(self, poll_seconds: float, quiet: bool) -> None:
        super().__init__(poll_seconds, lambda: self.quiet)
        self.quiet = quiet
        self.waits: list[float | None] = []

    def _wait(self, timeout: float | None) -> list[tuple[selectors.SelectorKey, int]]:
        self.waits.append(timeout)
        return super()._wait(timeout)


@pytest.fixture
def pair() -> Iterator[tuple[socket.socket, socket.socket]]:
    a, b = socket.socketpair()
    yield a, b
    a.close()
    b.close()


def _write_later(sock: socket.socket, seconds: float) -> threading.Thread:
    def write() -> None:
        time.sleep(seconds)
        sock.send(b"x")

    thread = threading.Thread(target=write)
    thread.start()
    return thread


def _event_after_20_ms(pair: tuple[socket.socket, socket.socket], quiet: bool) -> _Recorded:
    reader, writer = pair
    with _Recorded(poll_seconds=5.0, quiet=quiet) as selector:
        selector.register(reader, selectors.EVENT_READ)
        thread = _write_later(writer, 0.02)
        ready = selector.select(None)
        thread.join()
    assert [key.fileobj for key, _ in ready] == [reader]
    return selector


def test_while_quiet_an_event_within_the_poll_is_found_without_a_wait_that_sleeps(
    pair: tuple[socket.socket, socket.socket],
) -> None:
    waits = _event_after_20_ms(pair, quiet=True).waits
    assert len(waits) > 1 and set(waits) == {0}  # polled, never slept


def test_while_a_call_is_in_flight_it_waits_at_once(pair: tuple[socket.socket, socket.socket]) -> None:
    assert _event_after_20_ms(pair, quiet=False).waits == [None]  # the model's and LanceDB's threads keep the cores


def test_after_the_poll_it_sleeps_for_what_remains_of_the_timeout(pair: tuple[socket.socket, socket.socket]) -> None:
    reader, writer = pair
    with _Recorded(poll_seconds=0.001, quiet=True) as selector:
        selector.register(reader, selectors.EVENT_READ)
        started = time.monotonic()
        assert selector.select(0.05) == []
        elapsed, first = time.monotonic() - started, list(selector.waits)
        thread = _write_later(writer, 0.05)
        ready = selector.select(None)
        thread.join()
    assert 0.045 <= elapsed < 1.0
    assert set(first[:-1]) == {0} and first[-1] is not None and 0 < first[-1] < 0.05  # polled, then slept
    assert selector.waits[-1] is None and [key.fileobj for key, _ in ready] == [reader]


def test_a_timeout_shorter_than_the_poll_is_kept() -> None:
    with _Recorded(poll_seconds=5.0, quiet=True) as selector:
        started = time.monotonic()
        assert selector.select(0.02) == []
        elapsed = time.monotonic() - started
    assert 0.02 <= elapsed < 1.0
    assert selector.waits[:-1] == [0] * (len(selector.waits) - 1)


def test_no_poll_is_asyncios_own_loop_and_a_poll_is_a_polling_one() -> None:
    assert event_loop_factory(0, lambda: True) is asyncio.new_event_loop
    loop = event_loop_factory(300, lambda: True)()
    try:
        assert isinstance(loop, asyncio.SelectorEventLoop)
        assert isinstance(loop._selector, PollingSelector)  # type: ignore[attr-defined]
        assert loop.run_until_complete(asyncio.sleep(0.01, result="ran")) == "ran"
    finally:
        loop.close()


def test_the_loop_does_not_poll_while_work_handed_to_a_thread_is_under_way() -> None:
    calls_quiet = True
    loop = event_loop_factory(300, lambda: calls_quiet)()
    selector: PollingSelector = loop._selector  # type: ignore[attr-defined]
    started, release = threading.Event(), threading.Event()

    def work() -> str:
        started.set()
        release.wait(5)
        return "done"

    async def scenario() -> list[bool]:
        seen = [selector._quiet()]
        running = asyncio.ensure_future(asyncio.to_thread(work))
        await asyncio.to_thread(started.wait, 5)
        seen.append(selector._quiet())  # `work` is running on the default executor
        release.set()
        assert await running == "done"
        seen.append(selector._quiet())
        return seen

    try:
        assert loop.run_until_complete(scenario()) == [True, False, True]
        calls_quiet = False
        assert not selector._quiet()  # a call in flight is enough
    finally:
        loop.close()
