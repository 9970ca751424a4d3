"""`memoryd up`: supervision on fake children and a fake clock (restarts, crash loops); one per run directory."""

from __future__ import annotations

import argparse
import fcntl
import itertools
import socket
from pathlib import Path

import pytest

from memoryd.commands.up import Child, run_up, supervise
from memoryd.core.errors import NotReady
from tests.conftest import make_settings


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def sleep(self, seconds: float) -> None:
        self.t += seconds

    def now(self) -> float:
        return self.t


def test_a_dead_child_is_restarted_after_a_backoff() -> None:
    clock, alive, starts = Clock(), [False], []

    def start() -> None:
        alive[0] = True
        starts.append(clock.t)

    child = Child("worker", start, lambda: alive[0], lambda: None)
    assert supervise([child], lambda: clock.t > 10, sleep=clock.sleep, clock=clock.now) == 0
    assert starts == [1.0]  # found dead at 0, restarted 1 s later, then left alone


def test_a_crash_loop_stops_everything_with_a_failure() -> None:
    clock, starts = Clock(), list[float]()
    child = Child("worker", lambda: starts.append(clock.t), lambda: False, lambda: None)
    assert supervise([child], lambda: clock.t > 600, sleep=clock.sleep, clock=clock.now) == 1
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert len(starts) == 4 and gaps == sorted(gaps) and gaps[0] < gaps[-1]  # backoff grows
    assert clock.t < 60  # five exits within the window


def test_exits_far_apart_are_not_a_crash_loop() -> None:
    clock, state = Clock(), [True]

    def alive() -> bool:
        if clock.t % 100 < 0.5:  # dies once every 100 s
            state[0] = False
        return state[0]

    def start() -> None:
        state[0] = True

    child = Child("daemon", start, alive, lambda: None)
    assert supervise([child], lambda: clock.t > 1000, sleep=clock.sleep, clock=clock.now) == 0


def test_a_second_launcher_on_one_run_directory_refuses_to_start(tmp_path: Path) -> None:
    # Two would run two Valkeys on the same AOF files.
    held = (tmp_path / "up.lock").open("ab")
    fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a running `memoryd up` holds it
    args = argparse.Namespace(run_dir=tmp_path, data=None, listen="127.0.0.1:0", config=None)
    try:
        with pytest.raises(NotReady, match="another `memoryd up` runs in"):
            run_up(args, make_settings(tmp_path / "data"))
        assert not (tmp_path / "valkey").exists()  # nothing started
    finally:
        held.close()


def test_a_second_launcher_on_one_store_with_its_own_valkey_refuses_to_start(tmp_path: Path) -> None:
    # Two embedded Valkeys over one store are two job queues: maintenance twice, each blind to the other's leases.
    data = tmp_path / "data"
    data.mkdir()
    held = (data / ".memoryd-up.lock").open("ab")
    fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a `memoryd up` with another run directory holds it
    second = tmp_path / "second"
    taken = socket.create_server(("127.0.0.1", 0))  # the first launcher's daemon: said after the store
    args = argparse.Namespace(run_dir=second, data=str(data), listen=taken.getsockname()[:2], config=None)
    try:
        with pytest.raises(NotReady, match=f"another `memoryd up` serves {data} with its own Valkey"):
            run_up(args, make_settings(data))
        assert not (second / "valkey").exists()  # nothing started
    finally:
        held.close()
        taken.close()
