"""The gRPC daemon: MemoryService + health checking + reflection, graceful shutdown."""

from __future__ import annotations

import asyncio
import logging
import signal
import ssl
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from memoryd.app import App, build_app
from memoryd.config import ServerSettings, Settings
from memoryd.config.errors import ConfigError
from memoryd.core.errors import MemorydError, NotReady
from memoryd.core.validation import is_loopback
from memoryd.rpc._gen.memoryd.v1 import audit_pb2 as apb
from memoryd.rpc._gen.memoryd.v1 import audit_pb2_grpc as apb_grpc
from memoryd.rpc._gen.memoryd.v1 import config_pb2 as gpb
from memoryd.rpc._gen.memoryd.v1 import config_pb2_grpc as gpb_grpc
from memoryd.rpc._gen.memoryd.v1 import conversation_pb2 as cpb
from memoryd.rpc._gen.memoryd.v1 import conversation_pb2_grpc as cpb_grpc
from memoryd.rpc._gen.memoryd.v1 import data_pb2 as dpb
from memoryd.rpc._gen.memoryd.v1 import data_pb2_grpc as dpb_grpc
from memoryd.rpc._gen.memoryd.v1 import graph_pb2 as gr
from memoryd.rpc._gen.memoryd.v1 import graph_pb2_grpc as gr_grpc
from memoryd.rpc._gen.memoryd.v1 import jobs_pb2 as jpb
from memoryd.rpc._gen.memoryd.v1 import jobs_pb2_grpc as jpb_grpc
from memoryd.rpc._gen.memoryd.v1 import keys_pb2 as kpb
from memoryd.rpc._gen.memoryd.v1 import keys_pb2_grpc as kpb_grpc
from memoryd.rpc._gen.memoryd.v1 import memory_pb2 as pb
from memoryd.rpc._gen.memoryd.v1 import memory_pb2_grpc as pb_grpc
from memoryd.rpc._gen.memoryd.v1 import profile_pb2 as ppb
from memoryd.rpc._gen.memoryd.v1 import profile_pb2_grpc as ppb_grpc
from memoryd.rpc._gen.memoryd.v1 import reembed_pb2 as rpb
from memoryd.rpc._gen.memoryd.v1 import reembed_pb2_grpc as rpb_grpc
from memoryd.rpc.audit_servicer import AuditServicer
from memoryd.rpc.auth import Authenticate
from memoryd.rpc.calls_in_flight import CallsInFlight
from memoryd.rpc.config_servicer import ConfigServicer
from memoryd.rpc.conversation_servicer import ConversationServicer
from memoryd.rpc.data_servicer import DataServicer
from memoryd.rpc.decoding import RejectUndecodable
from memoryd.rpc.graph_servicer import GraphServicer
from memoryd.rpc.job_servicer import JobServicer
from memoryd.rpc.key_servicer import KeyServicer
from memoryd.rpc.memory_servicer import MemoryServicer
from memoryd.rpc.open_streams import OpenStreams
from memoryd.rpc.profile_servicer import ProfileServicer
from memoryd.rpc.reembed_servicer import ReembedServicer
from memoryd.runtime.heap import settled_heap

log = logging.getLogger(__name__)

SERVICE_NAMES = [
    pb.DESCRIPTOR.services_by_name["MemoryService"].full_name,
    ppb.DESCRIPTOR.services_by_name["ProfileService"].full_name,
    jpb.DESCRIPTOR.services_by_name["JobService"].full_name,
    cpb.DESCRIPTOR.services_by_name["ConversationService"].full_name,
    apb.DESCRIPTOR.services_by_name["AuditService"].full_name,
    kpb.DESCRIPTOR.services_by_name["KeyService"].full_name,
    dpb.DESCRIPTOR.services_by_name["DataService"].full_name,
    gpb.DESCRIPTOR.services_by_name["ConfigService"].full_name,
    gr.DESCRIPTOR.services_by_name["GraphService"].full_name,
    rpb.DESCRIPTOR.services_by_name["ReembedService"].full_name,
]
_MAX_MESSAGE_BYTES = 32 * 1024 * 1024
"""A full MemorizeBatch (1,000 × 16 KiB plus embeddings) fits with room to spare."""


def credentials(settings: ServerSettings) -> grpc.ServerCredentials | None:
    """TLS credentials from the configured PEM files (client certificates required with a CA); None: plaintext."""
    if not settings.tls:
        return None
    key, chain = _pem(settings.tls_key_file, "tls_key_file"), _pem(settings.tls_cert_file, "tls_cert_file")
    roots = _pem(settings.tls_client_ca_file, "tls_client_ca_file") if settings.tls_client_ca_file else None
    # grpc takes any bytes and fails at bind, which reads as "address in use": check them with ssl first
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        tls.load_cert_chain(settings.tls_cert_file, settings.tls_key_file)
    except ssl.SSLError as exc:
        raise ConfigError(f"server.tls_cert_file, tls_key_file: not a certificate chain and its key ({exc})") from None
    try:
        if roots is not None:
            tls.load_verify_locations(cadata=roots.decode("ascii", "replace"))
    except ssl.SSLError as exc:
        raise ConfigError(f"server.tls_client_ca_file: not PEM certificates ({exc})") from None
    return grpc.ssl_server_credentials([(key, chain)], root_certificates=roots, require_client_auth=roots is not None)


def _pem(path: str, key: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:  # said before serving, as one line naming the setting
        raise ConfigError(f"server.{key} {path!r}: {exc.strerror or exc}") from None


def check_listener(settings: Settings, keys_required: bool) -> None:
    """Refuse to expose memoryd beyond loopback without keys or TLS, unless ``auth.insecure`` says so."""
    host = settings.server.host
    if not is_loopback(host) and not settings.auth.insecure:
        if not keys_required:
            raise SystemExit(
                f"memoryd: refusing to listen on {host} without API keys; create one with `memoryd keys create`, "
                "listen on 127.0.0.1, or set auth.insecure = true"
            )
        if not settings.server.tls:
            raise SystemExit(
                f"memoryd: refusing to listen on {host} without TLS (server.tls_cert_file, server.tls_key_file); "
                "or set auth.insecure = true"
            )
    if not keys_required:
        log.warning("protected mode: no API keys exist, every caller on %s is trusted as its tenant's admin", host)


@asynccontextmanager
async def serving(
    app: App,
    host: str,
    port: int,
    grace_seconds: float,
    tls: grpc.ServerCredentials | None = None,
    calls: CallsInFlight | None = None,
) -> AsyncIterator[int]:
    """Serve ``app`` on host:port (0 picks a free port) and yield the bound port.

    ``calls``: counts the calls in flight (the daemon's event loop polls only while there are none).
    """
    trust = is_loopback(host) or app.settings.auth.insecure
    server = grpc.aio.server(
        interceptors=[
            *([calls] if calls is not None else []),
            RejectUndecodable(),
            Authenticate(
                app.admin.keys, trust_without_keys=trust, after=app.admin.rates.spend if app.admin.rates else None
            ),
        ],
        options=[
            ("grpc.max_receive_message_length", _MAX_MESSAGE_BYTES),
            ("grpc.max_send_message_length", _MAX_MESSAGE_BYTES),
            # gRPC binds with SO_REUSEPORT by default: a second daemon on a port in use started "serving"
            # beside the first, and the kernel split the clients' connections between two stores.
            ("grpc.so_reuseport", 0),
        ],
    )
    pb_grpc.add_MemoryServiceServicer_to_server(MemoryServicer(app), server)  # type: ignore[no-untyped-call]
    ppb_grpc.add_ProfileServiceServicer_to_server(ProfileServicer(app), server)  # type: ignore[no-untyped-call]
    streams = OpenStreams(app.settings.auth.streams_per_key)
    jpb_grpc.add_JobServiceServicer_to_server(JobServicer(app, streams), server)  # type: ignore[no-untyped-call]
    cpb_grpc.add_ConversationServiceServicer_to_server(  # type: ignore[no-untyped-call]
        ConversationServicer(app, streams), server
    )
    apb_grpc.add_AuditServiceServicer_to_server(AuditServicer(app), server)  # type: ignore[no-untyped-call]
    kpb_grpc.add_KeyServiceServicer_to_server(KeyServicer(app), server)  # type: ignore[no-untyped-call]
    dpb_grpc.add_DataServiceServicer_to_server(DataServicer(app), server)  # type: ignore[no-untyped-call]
    gpb_grpc.add_ConfigServiceServicer_to_server(ConfigServicer(app), server)  # type: ignore[no-untyped-call]
    gr_grpc.add_GraphServiceServicer_to_server(GraphServicer(app), server)  # type: ignore[no-untyped-call]
    rpb_grpc.add_ReembedServiceServicer_to_server(ReembedServicer(app), server)  # type: ignore[no-untyped-call]
    health_servicer = health.aio.HealthServicer()  # type: ignore[attr-defined]  # aio is re-exported untyped
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection([*SERVICE_NAMES, health.SERVICE_NAME, reflection.SERVICE_NAME], server)
    address = f"{host}:{port}"
    try:
        bound = server.add_secure_port(address, tls) if tls is not None else server.add_insecure_port(address)
    except RuntimeError:  # grpcio's "Failed to bind to address"
        bound = 0
    if bound == 0:
        raise NotReady(f"cannot listen on {address}: in use (another memoryd?) or not an address of this machine")
    await server.start()
    for name in ("", *SERVICE_NAMES):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    watch = asyncio.create_task(_watch_job_queue(app, health_servicer))
    try:
        yield bound
    finally:
        watch.cancel()
        # Report NOT_SERVING first so load balancers drain us, then let in-flight calls finish.
        await health_servicer.enter_graceful_shutdown()
        await server.stop(grace_seconds)


_JOB_HEALTH_SECONDS = 2.0


async def _watch_job_queue(app: App, health_servicer: Any) -> None:
    """Report the job subsystem on the health service (``memoryd.v1.JobService``) as Redis comes and goes.

    The archive, profiles and conversations keep serving without Redis; the job RPCs answer
    UNAVAILABLE meanwhile, and the health service says so instead of leaving it to be found out.
    """
    name = jpb.DESCRIPTOR.services_by_name["JobService"].full_name
    if app.job_parts is None:  # no queue configured at all: not an outage, a deployment without jobs
        await health_servicer.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
        return
    serving = True
    while True:
        ok = await app.job_parts.service.reachable()
        if ok != serving:
            serving = ok
            status = health_pb2.HealthCheckResponse.SERVING if ok else health_pb2.HealthCheckResponse.NOT_SERVING
            await health_servicer.set(name, status)
            if ok:
                log.info("job queue reachable again", extra={"health": name})
            else:
                log.warning(
                    "job queue unreachable: job RPCs answer UNAVAILABLE until it returns", extra={"health": name}
                )
        await asyncio.sleep(_JOB_HEALTH_SECONDS)


async def serve(settings: Settings, calls: CallsInFlight | None = None) -> None:
    """Run until SIGTERM/SIGINT, then shut down gracefully (``calls``: see ``serving``)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    srv = settings.server
    async with build_app(settings) as app:
        check_listener(settings, await app.admin.keys.keys_required())
        if settings.metrics.enabled:
            _serve_metrics(app, settings)
        async with serving(app, srv.host, srv.port, srv.grace_seconds, credentials(srv), calls) as port:
            with settled_heap():
                await _serve_until(app, settings, port, stop)


def _serve_metrics(app: App, settings: Settings) -> None:
    """Expose ``/metrics``; a taken port is logged, not fatal (metrics must never take the archive down)."""
    where = f"{settings.metrics.host}:{settings.metrics.port}"
    try:
        app.metrics.serve(settings.metrics.host, settings.metrics.port)
    except OSError as exc:
        log.error("metrics endpoint not started", extra={"address": where, "error": str(exc)})
    else:
        log.info("metrics on /metrics", extra={"address": where})


async def _serve_until(app: App, settings: Settings, port: int, stop: asyncio.Event) -> None:
    """Log the address, queue the start-up bootstrap, wait for the stop signal."""
    srv = settings.server
    log.info(
        "memoryd serving",
        extra={
            "address": f"{srv.host}:{port}",
            "data": settings.storage.uri,
            "embedding_model": app.embedder.model_name,
        },
    )
    kickoff = asyncio.create_task(_queue_bootstrap(app)) if settings.jobs.bootstrap_at_start else None
    await stop.wait()
    if kickoff is not None:
        kickoff.cancel()
    log.info("shutting down", extra={"grace_seconds": srv.grace_seconds})


async def _queue_bootstrap(app: App) -> None:
    """Queue the bootstrap batch when this profile-schema version is not done; never blocks start-up."""
    if app.job_parts is None:
        return
    try:
        job = await app.job_parts.bootstrap.start_batch(defer_seconds=2.0)
    except MemorydError:
        log.warning("could not queue the profile bootstrap batch; it is retried at the next start", exc_info=True)
        return
    if job is not None:
        log.info("profile bootstrap batch queued", extra={"job": job.key, "state": job.state.value})
