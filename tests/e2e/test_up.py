"""`memoryd up` (behind `make run`): embedded Valkey with AOF, the daemon and a worker, stopped by SIGTERM."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import grpc
import pytest
import valkey
from grpc_health.v1 import health_pb2, health_pb2_grpc

from memoryd.commands.bench.daemon import READINESS_CHANNEL_OPTIONS, free_port
from memoryd.commands.up import running_stack
from memoryd.rpc.client import (
    JobServiceStub,
    KeyServiceStub,
    MemoryServiceStub,
    ProfileServiceStub,
    bearer,
    jpb,
    kpb,
    pb,
    ppb,
)

# Slow end to end: an explicit limit of its own instead of the suite's 60 s default.
pytestmark = pytest.mark.timeout(180)

T = (("x-tenant-id", "acme"),)


def wait_job(jobs: JobServiceStub, job_id: str, state: int, timeout: float = 60) -> jpb.Job:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = jobs.GetJob(jpb.GetJobRequest(job_id=job_id), metadata=T).job
        if job.state == state:
            return job
        time.sleep(0.2)
    raise AssertionError(f"{job_id} never reached {state}: {job}")


def wait_serving(address: str, proc: subprocess.Popen[str], timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    with grpc.insecure_channel(address, options=READINESS_CHANNEL_OPTIONS) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            try:
                if stub.Check(health_pb2.HealthCheckRequest(), timeout=1).status == 1:
                    return
            except grpc.RpcError:
                time.sleep(0.05)
    raise TimeoutError(address)


def wait_line(output: list[str], text: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not any(text in line for line in output):
        assert time.monotonic() < deadline, f"never logged {text!r}: {output[-20:]}"
        time.sleep(0.2)


def child_pid(parent: int, needle: str, timeout: float = 60) -> int:
    """The pid of ``parent``'s child whose command line mentions ``needle`` (waiting while it restarts)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == parent and needle in cmdline:
                return int(entry.name)
        time.sleep(0.2)
    raise AssertionError(f"no child of {parent} runs {needle!r}")


def test_a_stack_file_no_launcher_holds_is_ignored_and_commands_say_how_to_find_the_queue(tmp_path: Path) -> None:
    (tmp_path / "up.json").write_text('{"redis_url": "redis://127.0.0.1:1"}')
    assert running_stack(tmp_path) is None  # left by a launcher killed with -9: its lock went with it
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    done = subprocess.run(
        [sys.executable, "-m", "memoryd", "audit", "--run-dir", str(tmp_path), "--data", str(tmp_path / "d")],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode != 0 and "memoryd up" in done.stderr and "Traceback" not in done.stderr


def test_up_starts_valkey_daemon_and_worker_and_stops_them(tmp_path: Path) -> None:
    address, console = f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"} | {"LANCEDB_LOG": "error"}
    command = [sys.executable, "-m", "memoryd", "up", "--run-dir", str(tmp_path / "run"), "--listen", address]
    proc = subprocess.Popen(
        [*command, "--console", console],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        banner = proc.stdout.readline()
        assert "embedded Valkey at" in banner
        output: list[str] = []  # keep draining: a full pipe would block the children's logging
        stdout = proc.stdout
        threading.Thread(target=lambda: output.extend(iter(stdout.readline, "")), daemon=True).start()
        url = banner.split(" at ", 1)[1].split(" ", 1)[0]
        wait_serving(address, proc)
        client: Any = valkey.Valkey.from_url(url)  # the sync client (its stubs also type the async one)
        assert client.ping() and client.config_get("appendonly")["appendonly"] == "yes"
        assert (tmp_path / "run" / "data" / "store_meta.lance").exists()
        assert running_stack(tmp_path / "run") == {
            "redis_url": url,
            "data": str(tmp_path / "run" / "data"),
            "listen": address,
            "console": f"http://{console}/",
        }
        wait_line(output, f"console at http://{console}/")
        deadline = time.monotonic() + 30  # the console answers, and signs a tenant in while no key exists
        while True:
            try:
                with urllib.request.urlopen(f"http://{console}/signin", timeout=2) as page:
                    assert page.status == 200 and b"Sign in" in page.read()
                    break
            except OSError:
                assert time.monotonic() < deadline, "the console never answered"
                time.sleep(0.2)
        # Commands run with the same run directory find the embedded Valkey and its store (no REDIS_URL, no
        # --data), from any working directory.
        run_dir = ("--run-dir", str(tmp_path / "run"))
        elsewhere = tmp_path / "elsewhere"
        (elsewhere / "var" / "data").mkdir(parents=True)  # a stale store where the default --data points
        dry = subprocess.run(
            [sys.executable, "-m", "memoryd", "audit", "--dry-run", *run_dir],
            capture_output=True,
            text=True,
            env=env,
            cwd=elsewhere,
        )
        assert dry.returncode == 0 and "dry run over" in dry.stdout, dry.stderr
        boot = subprocess.run(
            [sys.executable, "-m", "memoryd", "bootstrap", "--all", "--no-worker", *run_dir],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert boot.returncode == 0, boot.stderr
        deadline = time.monotonic() + 60  # the daemon queued the bootstrap batch at start; the worker ran it
        while not client.exists("memoryd:flag:bootstrap_done:v1"):
            assert time.monotonic() < deadline, "the bootstrap batch never completed"
            time.sleep(0.2)
        with grpc.insecure_channel(address) as channel:
            jobs, profiles = JobServiceStub(channel), ProfileServiceStub(channel)
            empty = profiles.RegenerateProfile(ppb.RegenerateProfileRequest(agent_id="new"), metadata=T).job_id
            assert wait_job(jobs, empty, jpb.JOB_STATE_SUCCEEDED).result["outcome"] == "nothing_to_compile"
            MemoryServiceStub(channel).Memorize(
                pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="a1 likes tea")), metadata=T
            )
            needs_model = profiles.RegenerateProfile(ppb.RegenerateProfileRequest(agent_id="a1"), metadata=T).job_id
            parked = wait_job(jobs, needs_model, jpb.JOB_STATE_WAITING_FOR_PROVIDER)
            assert "no chat model" in parked.last_error  # the embedded default has no model: it waits

            # Supervision: kill -9 Valkey, then the worker; both come back and jobs run again.
            os.kill(int(client.info()["process_id"]), signal.SIGKILL)
            wait_line(output, "valkey restarted")
            os.kill(child_pid(proc.pid, "worker"), signal.SIGKILL)
            wait_line(output, "worker restarted")
            again = profiles.RegenerateProfile(ppb.RegenerateProfileRequest(agent_id="later"), metadata=T).job_id
            assert wait_job(jobs, again, jpb.JOB_STATE_SUCCEEDED).result["outcome"] == "nothing_to_compile"

            # A key made from another directory goes to the store the daemon serves; another store is refused.
            key = [sys.executable, "-m", "memoryd", "keys", "create", "--tenant", "acme", "--role", "admin", *run_dir]
            made = subprocess.run(key, capture_output=True, text=True, env=env, cwd=elsewhere, timeout=120)
            assert made.returncode == 0 and made.stderr == "", made.stderr
            token = made.stdout.strip().rsplit(" ", 1)[1]
            me = KeyServiceStub(channel).WhoAmI(kpb.WhoAmIRequest(), metadata=(bearer(token),))
            assert (me.tenant_id, me.role) == ("acme", kpb.KEY_ROLE_ADMIN)
            other = subprocess.run(
                [*key[:4], "list", *run_dir, "--data", "var/data"],
                capture_output=True,
                text=True,
                env=env,
                cwd=elsewhere,
                timeout=120,
            )
            assert other.returncode == 2 and other.stderr.strip() == (
                f"memoryd: --data / storage.uri 'var/data' is not the store of the `memoryd up` in "
                f"{str(tmp_path / 'run')!r} ({str(tmp_path / 'run' / 'data')!r}): name that store, or another --run-dir"
            )
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
        if proc.stdout is not None:
            proc.stdout.close()
    assert running_stack(tmp_path / "run") is None and not (tmp_path / "run" / "up.json").exists()
    try:
        valkey.Valkey.from_url(url, socket_connect_timeout=1).ping()
        raise AssertionError("valkey still running after memoryd up stopped")
    except valkey.ConnectionError:
        pass


def test_up_on_a_port_in_use_fails_at_once_instead_of_restarting_the_daemon(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        command = [sys.executable, "-m", "memoryd", "up", "--run-dir", str(tmp_path), "--listen", f"127.0.0.1:{port}"]
        done = subprocess.run(
            [*command, "--console", "off"],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
    assert done.returncode == 1 and f"cannot listen on 127.0.0.1:{port}" in done.stderr, done
    assert "restarting" not in done.stdout and not (tmp_path / "up.json").exists()


@pytest.mark.parametrize(
    ("console", "why"),
    [
        ("127.0.0.1:99999", "is not HOST:PORT"),  # was bind()'s OverflowError, after Valkey had started
        ("0.0.0.0:8080", "on loopback only"),  # the console child refused it, restarted until up gave up
    ],
)
def test_up_refuses_a_console_address_it_cannot_serve_before_starting_anything(
    tmp_path: Path, console: str, why: str
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    done = subprocess.run(
        [sys.executable, "-m", "memoryd", "up", "--run-dir", str(tmp_path), "--console", console],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 1 and done.stderr.strip().splitlines() == [done.stderr.strip()], done
    assert f"--console {console!r}" in done.stderr and why in done.stderr
    assert done.stdout == "" and not (tmp_path / "up.json").exists()  # nothing was started


def test_up_serves_the_store_its_configuration_names(tmp_path: Path) -> None:
    configured = tmp_path / "configured-store"
    config = tmp_path / "memoryd.toml"
    config.write_text(f'[storage]\nuri = "{configured}"\n')  # was replaced by the run directory's data, unsaid
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    with socket.create_server(("127.0.0.1", 0)) as taken:  # up holds its store, then stops at the port
        port = taken.getsockname()[1]
        command = ["up", "--run-dir", str(tmp_path / "run"), "--config", str(config), "--listen", f"127.0.0.1:{port}"]
        done = subprocess.run(
            [sys.executable, "-m", "memoryd", *command, "--console", "off"],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
    assert done.returncode == 1 and f"cannot listen on 127.0.0.1:{port}" in done.stderr, done
    assert (configured / ".memoryd-up.lock").exists() and not (tmp_path / "run" / "data").exists()
