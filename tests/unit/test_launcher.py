"""`memoryd up`'s supervision, on fake children and a fake clock: restart with backoff, give up on a crash loop."""

from __future__ import annotations

import itertools

from memoryd.launcher import Child, supervise


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
