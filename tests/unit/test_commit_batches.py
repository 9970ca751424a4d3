"""CommitBatches: a key's concurrent writes committed together, each caller answered by its own commit."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable

import pytest

from memoryd.adapters.lance.commit_batches import CommitBatches


class Recorder:
    """A flush that records its batches and holds each until released."""

    def __init__(self) -> None:
        self.batches: list[tuple[str, list[str]]] = []
        self.gate = asyncio.Event()
        self.fail_on: str | None = None

    async def flush(self, key: str, items: list[str]) -> list[str]:
        self.batches.append((key, list(items)))
        await self.gate.wait()
        if self.fail_on in items:
            raise RuntimeError(f"commit of {self.fail_on} failed")
        return [f"{key}:{item}" for item in items]


async def started(recorder: Recorder, count: int) -> None:
    while len(recorder.batches) < count:
        await asyncio.sleep(0)


async def committing(
    first: str, max_items: int = 10, apart: Callable[[str], Hashable] = id
) -> tuple[Recorder, CommitBatches[str, str, str], asyncio.Task[str]]:
    """A recorder, its batches, and a first write to key "t" whose commit is under way (held by the gate)."""
    recorder = Recorder()
    batches: CommitBatches[str, str, str] = CommitBatches(recorder.flush, max_items, apart)
    task = asyncio.create_task(batches.submit("t", first))
    await started(recorder, 1)
    return recorder, batches, task


async def test_writes_arriving_during_a_commit_share_the_next_and_each_gets_its_own_result() -> None:
    recorder = Recorder()
    batches: CommitBatches[str, str, str] = CommitBatches(recorder.flush, max_items=10)
    first = asyncio.create_task(batches.submit("t1", "a"))
    await started(recorder, 1)
    later = [asyncio.create_task(batches.submit("t1", item)) for item in ("b", "c", "d")]
    other = asyncio.create_task(batches.submit("t2", "x"))  # another key does not wait for t1's commit
    await started(recorder, 2)
    recorder.gate.set()
    assert await first == "t1:a"
    assert [await task for task in later] == ["t1:b", "t1:c", "t1:d"]
    assert await other == "t2:x"
    assert recorder.batches == [("t1", ["a"]), ("t2", ["x"]), ("t1", ["b", "c", "d"])]


async def test_a_batch_holds_at_most_max_items_and_never_two_writes_of_one_row() -> None:
    recorder, batches, first = await committing("a0", max_items=3, apart=lambda s: s[0])
    items = ["a1", "b1", "a2", "c1", "d1", "e1"]
    tasks = [asyncio.create_task(batches.submit("t", item)) for item in items]
    await asyncio.sleep(0)
    recorder.gate.set()
    await asyncio.gather(first, *tasks)
    # arrival order kept; "a2" waits for the commit after "a1"'s, the fourth item for the next batch
    assert [b for _, b in recorder.batches] == [["a0"], ["a1", "b1", "c1"], ["a2", "d1", "e1"]]


async def test_a_failed_commit_fails_its_callers_only_and_the_queue_goes_on() -> None:
    recorder, batches, first = await committing("a", max_items=2)
    recorder.fail_on = "b"
    tasks = [asyncio.create_task(batches.submit("t", item)) for item in ("b", "c", "d")]
    await asyncio.sleep(0)
    recorder.gate.set()
    assert await first == "t:a"
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    assert [str(o) for o in outcomes] == ["commit of b failed", "commit of b failed", "t:d"]


async def test_a_caller_gone_before_its_commit_is_not_written_and_an_idle_key_is_forgotten() -> None:
    recorder, batches, first = await committing("a")
    gone = asyncio.create_task(batches.submit("t", "b"))
    kept = asyncio.create_task(batches.submit("t", "c"))
    await asyncio.sleep(0)
    gone.cancel()
    recorder.gate.set()
    assert await first == "t:a" and await kept == "t:c"
    with pytest.raises(asyncio.CancelledError):
        await gone
    assert recorder.batches == [("t", ["a"]), ("t", ["c"])]
    assert not batches._queues  # nothing left behind per key


async def test_a_cancelled_first_writer_still_hands_the_waiting_ones_their_commit() -> None:
    recorder, batches, first = await committing("a")
    waiting = asyncio.create_task(batches.submit("t", "b"))
    await asyncio.sleep(0)
    first.cancel()
    await asyncio.sleep(0)
    recorder.gate.set()
    assert await waiting == "t:b"
