"""VersionChecks: a table's latest version, by the binding only when a local disk cannot tell it.

A check through the binding lists the table's ``_versions`` directory (~0.17 ms on a settled table, 0.6 ms
with the ~1,500 versions a minute of one writer keeps), and a Recall's arms and tiers each ask. On a local
disk two things answer instead:

- a directory that still bears the stamp a check saw, when that stamp had settled (``_Stamp``);
- after a check, the next version's manifest name (``LatestVersion``).

Every commit of a Lance table leaves ``_versions/<n>.manifest`` (or, with the V2 naming, ``2**64 - 1 - n``
zero-padded to 20 digits), created whole under its final name, and versions only go up by one. So once
a version is known to be the latest, "is it still?" is whether the next manifest exists: a ``stat``
or two (~2 µs) where the binding lists the whole directory (0.6 ms of every ``Memorize`` with the
~1,500 versions a minute of one writer keeps; ``docs/benchmarks.md``, session 33).
"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

_SETTLED_NS = 100_000_000
"""A ``_versions`` directory last changed this long before it was looked at is trusted to show its
next change: the kernel stamps changes with a coarse clock (one tick, 1-10 ms), so two commits within
one tick can leave the same time behind, but never a commit after the look (``_Stamp``)."""
_LAST_V2 = 2**64 - 1
_PROBES = 16
"""The most commits a look walks over; past them the binding's check answers."""


def manifest_name(version: int, v2: bool) -> str:
    """The file name of a version's manifest under either naming scheme."""
    return f"{_LAST_V2 - version:020d}.manifest" if v2 else f"{version}.manifest"


@dataclass(frozen=True, slots=True)
class LatestVersion:
    """A version seen as a table's latest, and the manifest file that proves it is the same table's."""

    version: int
    v2: bool
    manifest: tuple[int, int]
    """The manifest's inode and modification time: a table dropped and created again has other files."""

    @classmethod
    def of(cls, directory: str, version: int) -> LatestVersion | None:
        """``version``, just found the latest by the binding, if its manifest is in ``directory``."""
        for v2 in (True, False):
            mark = _identity(os.path.join(directory, manifest_name(version, v2)))
            if mark is not None:
                return cls(version, v2, mark)
        return None

    def now(self, directory: str) -> LatestVersion | None:
        """The latest version now: the first one after this one without a manifest, less one.

        None when this version's manifest is gone or another file (the table created again, or
        pruned after later commits) or more than ``_PROBES`` commits came since: then ask the binding.
        """
        if _identity(os.path.join(directory, manifest_name(self.version, self.v2))) != self.manifest:
            return None
        version, manifest = self.version, self.manifest
        for _ in range(_PROBES):
            later = _identity(os.path.join(directory, manifest_name(version + 1, self.v2)))
            if later is None:
                return self if version == self.version else LatestVersion(version, self.v2, manifest)
            version, manifest = version + 1, later
        return None


def _identity(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns


@dataclass(frozen=True, slots=True)
class _Stamp:
    """A directory's identity and last change, as ``stat`` gives them."""

    inode: int
    changed_ns: int

    @classmethod
    def of(cls, directory: str) -> _Stamp | None:
        """The directory's stamp now; None if it cannot be read (the binding's check then decides)."""
        try:
            st = os.stat(directory)
        except OSError:
            return None
        return cls(st.st_ino, st.st_mtime_ns)

    def settled(self, now_ns: int) -> bool:
        """Whether any later change of the directory must show as another stamp (git's "racy clean" rule)."""
        return now_ns - self.changed_ns > _SETTLED_NS


class VersionChecks:
    """The latest versions of one kind of table (one per tenant), as cheaply as they can be known."""

    def __init__(self) -> None:
        self._checks: dict[str, asyncio.Future[int]] = {}
        self._manifests: dict[str, str | None] = {}
        """Each tenant's table's ``_versions`` directory (None: not on a local disk)."""
        self._known: dict[str, tuple[_Stamp, int]] = {}
        """The version each tenant's table had when its directory bore that (settled) stamp."""
        self._latest: dict[str, LatestVersion] = {}
        """The version each tenant's table was last found at (on a local disk), to look for the next one."""

    async def latest(self, tenant_id: str, table: Any) -> int:
        """The table's latest version; calls that overlap share one check.

        A Recall's arms and tiers start together and each asks: the shared answer is at most one check
        older than the call, the same uncertainty a single check has about a commit landing while it runs.
        """
        directory = await self._manifest_directory(tenant_id, table)
        if directory is not None:
            looked, stamp = time.time_ns(), _Stamp.of(directory)
            known = self._known.get(tenant_id)
            if known is not None and stamp == known[0]:
                return known[1]
            latest = self._latest.get(tenant_id)
            if latest is not None and (now := latest.now(directory)) is not None:
                self._latest[tenant_id] = now  # the directory changed: the next manifest's name says how
                if stamp is not None and stamp.settled(looked):  # (taken before the look, as a check's is)
                    self._known[tenant_id] = (stamp, now.version)  # else every call walked the manifests
                return now.version
        check = self._checks.get(tenant_id)
        if check is None:
            check = asyncio.ensure_future(self._checked(tenant_id, table, directory))
            self._checks[tenant_id] = check
            check.add_done_callback(
                lambda done: self._checks.pop(tenant_id, None) if self._checks.get(tenant_id) is done else None
            )
        return int(await asyncio.shield(check))

    async def _checked(self, tenant_id: str, table: Any, directory: str | None) -> int:
        """The binding's check; the directory's stamp taken before it is kept with its answer when settled."""
        now, stamp = time.time_ns(), _Stamp.of(directory) if directory is not None else None
        version = int(await table.version())
        if stamp is not None and stamp.settled(now):
            self._known[tenant_id] = (stamp, version)
        else:
            self._known.pop(tenant_id, None)
        latest = LatestVersion.of(directory, version) if directory is not None else None
        if latest is not None:
            self._latest[tenant_id] = latest
        else:
            self._latest.pop(tenant_id, None)
        return version

    async def _manifest_directory(self, tenant_id: str, table: Any) -> str | None:
        """Where the table's commits leave their manifests, when that is a local directory."""
        if tenant_id not in self._manifests:
            uri = str(await table.uri())
            parsed = urlparse(uri)
            local = parsed.path if parsed.scheme == "file" else uri if not parsed.scheme else None
            self._manifests[tenant_id] = os.path.join(local, "_versions") if local else None
        return self._manifests[tenant_id]
