"""`memoryd up`'s embedded Valkey outlives a Ctrl-C (the terminal's SIGINT) until the launcher stops it, last."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from memoryd.commands.bench.daemon import free_port
from memoryd.commands.up import _valkey_child


def _valkey_pids(run_dir: Path) -> list[int]:
    """The Valkey servers working in ``run_dir``'s valkey directory."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                here = Path(os.readlink(entry / "cwd")) == run_dir / "valkey"
                if here and b"valkey" in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:  # gone meanwhile, or not ours to read
                continue
    return found


def test_the_embedded_valkey_ignores_a_ctrl_c_and_stops_when_the_launcher_stops_it(tmp_path: Path) -> None:
    # A Ctrl-C reaches every process of the terminal's group: Valkey stopped with the daemon and the
    # worker, before they could re-queue their jobs and release their lease.
    valkey, _ = _valkey_child(tmp_path, free_port())
    valkey.start()
    try:
        (pid,) = _valkey_pids(tmp_path)
        os.kill(pid, signal.SIGINT)
        time.sleep(1.0)
        assert valkey.alive()
    finally:
        valkey.stop()
    assert not valkey.alive() and not _valkey_pids(tmp_path)
