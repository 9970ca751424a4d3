"""The start-up heap is set aside from full collections while a process serves, and garbage still goes."""

from __future__ import annotations

import gc
import weakref

from memoryd.runtime.heap import settled_heap


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def _cycle() -> weakref.ref[_Node]:
    """A two-object cycle nobody holds (only the cyclic collector can free it); a weak reference to it."""
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_the_start_up_heap_is_skipped_by_collections_while_serving_and_garbage_is_still_collected() -> None:
    kept = [_Node() for _ in range(100)]  # alive at start-up, as the imported stack is
    before = _cycle()
    assert before() is not None
    with settled_heap():
        assert before() is None  # garbage of start-up was collected, not frozen forever
        walked = {id(o) for o in gc.get_objects()}
        assert gc.get_freeze_count() > 0
        assert not any(id(node) in walked for node in kept)  # full collections no longer traverse them
        during = _cycle()
        gc.collect()
        assert during() is None  # what is made while serving is collected as usual
    assert gc.get_freeze_count() == 0
    assert any(o is kept[0] for o in gc.get_objects())  # unfrozen: a later server's process collects them again
