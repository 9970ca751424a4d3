"""Table creation that cannot race across processes: one creator at a time per store.

LanceDB's create (with ``exist_ok`` or without) checks that the table is missing, then commits;
a second process that checked before the first committed does not fail: Lance commits its creation
as an **Overwrite at the next version**. Appends based on the first creation then fail, and one
that committed in between would be replaced by the empty table. So every process of a store
creates tables under one lock, and looks again for the table once it holds it:

- a directory: an advisory ``flock`` on a file in it (every process on the host; the kernel drops
  it when a holder dies);
- object storage: a Redis lease (replicas on several hosts share the jobs' Redis; it expires when
  a holder dies). With no Redis configured there is no lock, as before.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Protocol

from memoryd.core.errors import Unavailable
from memoryd.core.ports import Leases

LOCK_FILE = ".memoryd-create.lock"
_POLL_SECONDS = 0.01
_WAIT_SECONDS = 60.0
_LEASE_SECONDS = 30.0


class CreationLock(Protocol):
    """Held while a table of the store is looked up once more and, if still missing, created."""

    def hold(self, name: str) -> AbstractAsyncContextManager[None]:
        """Wait for the lock (Unavailable after a minute)."""
        ...


class NoCreationLock:
    """Object storage without Redis: creation is not serialised (two replicas may still race)."""

    @asynccontextmanager
    async def hold(self, name: str) -> AsyncIterator[None]:
        """Nothing to wait for."""
        yield


class FileCreationLock:
    """An exclusive ``flock`` on a file in the store's directory (``FileLock``)."""

    def __init__(self, directory: str) -> None:
        self._lock = FileLock(Path(directory) / LOCK_FILE, "table-creation lock")

    @asynccontextmanager
    async def hold(self, name: str) -> AsyncIterator[None]:
        """One lock for the store's every table: creations are rare and take milliseconds."""
        async with self._lock.hold():
            yield


class FileLock:
    """An exclusive ``flock`` on one file for every process on the host, polled: a cancelled wait leaks nothing."""

    def __init__(self, path: Path, what: str) -> None:
        self._path = path
        self._what = what
        """What the lock guards, for the error of a wait that lasted a minute."""

    @asynccontextmanager
    async def hold(self) -> AsyncIterator[None]:
        """Wait for the lock (Unavailable after a minute); the kernel drops it when a holder dies."""
        self._path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o644)

        async def take() -> bool:
            return _try_flock(fd)

        try:
            await _until(take, f"another process held the {self._what} {self._path}")
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)


class LeaseCreationLock:
    """A Redis lease per store, shared by the replicas of an object-storage store."""

    def __init__(self, leases: Leases, uri: str) -> None:
        self._leases = leases
        self._name = f"lance-create:{uri}"

    @asynccontextmanager
    async def hold(self, name: str) -> AsyncIterator[None]:
        """Take the store's lease (a holder that dies loses it after 30 s), give it back after."""
        holder = uuid.uuid4().hex

        async def take() -> bool:
            return await self._leases.lock(self._name, holder, _LEASE_SECONDS)

        await _until(take, f"another replica held the table-creation lease {self._name}")
        try:
            yield
        finally:
            await self._leases.unlock(self._name, holder)


async def _until(take: Callable[[], Awaitable[bool]], holder: str) -> None:
    """Try ``take`` every few milliseconds until it succeeds (Unavailable after a minute)."""
    deadline = time.monotonic() + _WAIT_SECONDS
    while not await take():
        if time.monotonic() > deadline:
            raise Unavailable(f"{holder} for a minute")
        await asyncio.sleep(_POLL_SECONDS)


def _try_flock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True
