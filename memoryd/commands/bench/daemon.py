"""A throwaway daemon for benchmarks: a child `memoryd serve` on a free port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

# A channel that failed to connect waits out a reconnect backoff (1 s, growing 1.6× per failure)
# before it tries again: polled from before the daemon listens, readiness was seen ~4 s late.
READINESS_CHANNEL_OPTIONS = [
    ("grpc.initial_reconnect_backoff_ms", 50),
    ("grpc.min_reconnect_backoff_ms", 50),
    ("grpc.max_reconnect_backoff_ms", 200),
]


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Daemon:
    """`memoryd serve --listen 127.0.0.1:<port> --data <dir>` as a child process.

    ``source``: a checkout whose ``memoryd`` package the child runs instead of this one (``bench paired``
    runs two builds side by side); it goes first on the child's path and is its working directory.
    """

    def __init__(
        self, data_dir: Path | str, env: dict[str, str] | None = None, port: int = 0, source: Path | None = None
    ) -> None:
        self.port = port or free_port()
        self.address = f"127.0.0.1:{self.port}"
        child_env = {**os.environ, "LANCEDB_LOG": "error", "MEMORYD_LOG__LEVEL": "WARNING", **(env or {})}
        if source is not None:
            child_env["PYTHONPATH"] = os.pathsep.join([str(source), *filter(None, [os.environ.get("PYTHONPATH")])])
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "memoryd", "serve", "--listen", self.address, "--data", str(data_dir)],
            env=child_env,
            cwd=source,
        )

    def __enter__(self) -> Daemon:
        self.wait_serving()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def wait_serving(self, timeout: float = 120.0) -> None:
        """Block until the health check says SERVING."""
        deadline = time.monotonic() + timeout
        with grpc.insecure_channel(self.address, options=READINESS_CHANNEL_OPTIONS) as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            while time.monotonic() < deadline:
                if self._proc.poll() is not None:
                    raise RuntimeError(f"memoryd serve exited with {self._proc.returncode}")
                try:
                    if stub.Check(health_pb2.HealthCheckRequest(), timeout=1).status == 1:
                        return
                except grpc.RpcError:
                    time.sleep(0.05)
        raise TimeoutError("memoryd did not become healthy")

    def peak_rss_mb(self) -> float:
        """The daemon's peak resident set (VmHWM), in MiB."""
        return self._status_mb("VmHWM:")

    def rss_mb(self) -> float:
        """The daemon's resident set now (VmRSS), in MiB."""
        return self._status_mb("VmRSS:")

    def cpu_seconds(self) -> float:
        """CPU time the daemon has used so far (user + system, every thread)."""
        fields = Path(f"/proc/{self._proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def _status_mb(self, key: str) -> float:
        for line in Path(f"/proc/{self._proc.pid}/status").read_text().splitlines():
            if line.startswith(key):
                return int(line.split()[1]) / 1024
        return float("nan")

    def pause(self, timeout: float = 5.0) -> None:
        """SIGSTOP: every thread stops (its timers come due on ``resume``), so it takes no CPU from another.

        Returns once the kernel says the process is stopped: a signal is delivered a moment after it is sent.
        """
        self._proc.send_signal(signal.SIGSTOP)
        deadline = time.monotonic() + timeout
        while self.state() not in ("T", "t"):
            if time.monotonic() > deadline:
                raise TimeoutError(f"memoryd serve (pid {self._proc.pid}) did not stop")
            time.sleep(0.001)

    def resume(self) -> None:
        """SIGCONT after ``pause``."""
        self._proc.send_signal(signal.SIGCONT)

    def state(self) -> str:
        """The process state letter from ``/proc`` (``T``: stopped)."""
        return Path(f"/proc/{self._proc.pid}/stat").read_text().rsplit(")", 1)[1].split()[0]

    @property
    def returncode(self) -> int | None:
        """The exit status once the process has ended (negative: the signal that ended it)."""
        return self._proc.poll()

    def kill(self) -> None:
        """SIGKILL: no shutdown at all (the fault benchmark's crash)."""
        self._proc.kill()
        self._proc.wait(timeout=30)

    def stop(self) -> None:
        """SIGTERM, then wait for the graceful shutdown."""
        if self._proc.poll() is None:
            self.resume()  # a stopped process keeps SIGTERM pending
            self._proc.send_signal(signal.SIGTERM)
            try:
                self._proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self._proc.kill()
