"""A local table's latest version from its manifests' names, instead of the binding's listing.

Every commit of a Lance table leaves ``_versions/<n>.manifest`` (or, with the V2 naming, ``2**64 - 1 - n``
zero-padded to 20 digits), created whole under its final name, and versions only go up by one. So once
a version is known to be the latest, "is it still?" is whether the next manifest exists: a ``stat``
or two (~2 µs) where the binding lists the whole directory (0.6 ms of every ``Memorize`` with the
~1,500 versions a minute of one writer keeps; ``docs/benchmarks.md``, session 33).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

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
    """The manifest's inode and change time: a table dropped and created again has other files."""

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
