"""The composition root: the only package that knows both services and adapters.

``async with build_app(settings) as app`` opens every client (store, embedder, Redis), wires the
services (``wiring``), starts the background loops (``runtime.loops``) and closes everything in
reverse order. The gRPC servicers, the workers and the commands call the same ``App``; tests swap
an adapter by passing it in, never by patching.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sys
import uuid
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import replace
from typing import Any, TypeVar

from memoryd.adapters.arq_queue import connect
from memoryd.adapters.clock import SystemClock
from memoryd.adapters.duckdb_analytics import DuckDBAnalytics
from memoryd.adapters.numpy_neighbours import NumpyNeighbours
from memoryd.adapters.prometheus_metrics import MeteredEmbedder, PrometheusMetrics
from memoryd.adapters.redis.rates import RedisRateLimiter
from memoryd.adapters.tiktoken_counter import TiktokenCounter
from memoryd.app.parts import NO_JOB_QUEUE, AdminParts, App, JobParts, MemoryParts, WorkingParts
from memoryd.app.providers import build_chat, build_embedder, concrete_embedding, embedders, store_exists
from memoryd.app.stores import GivenStores, JobPorts, Stores, open_stores
from memoryd.app.wiring import Providers, wire
from memoryd.config import Settings
from memoryd.config.errors import ConfigError
from memoryd.core.errors import MemorydError
from memoryd.runtime.loops import Step, every, maintain_forever, release_free_memory_step, stop_upkeep
from memoryd.services.maintenance_loop import MaintenanceLoop

__all__ = [
    "NO_JOB_QUEUE",
    "AdminParts",
    "App",
    "JobParts",
    "MemoryParts",
    "WorkingParts",
    "build_app",
    "build_chat",
    "build_embedder",
    "command_app",
]

log = logging.getLogger(__name__)

_AUDIT_FLUSH_SECONDS = 1.0
"""Buffered audit events are written this often (a crash loses at most this much of the log)."""


@asynccontextmanager
async def build_app(settings: Settings, **given: Any) -> AsyncIterator[App]:
    """Open what was not passed in, start the background loops, yield the App; close in reverse order.

    ``given`` may pass any port: the stores (``store`` … ``agent_configs``, all or none; ``graph``),
    the job ports (``ledger``, ``queue``, ``gate``, ``leases``, all or none), and ``neighbours``,
    ``analytics``, ``chat``, ``embedder``, ``clock``, ``counter``, ``rates``, ``reembed_target``.
    A port passed in stays its caller's to close.
    """
    async with AsyncExitStack() as stack:
        metrics = PrometheusMetrics(tenant_label=settings.metrics.tenant_label)
        if "embedder" not in given:
            settings = await concrete_embedding(settings)
        model = given.pop("embedder", None) or _owned(stack, build_embedder(settings.embedding))
        embedder, queries, reads = embedders(model, settings, metrics)
        target = given.pop("reembed_target", None)
        if target is None and settings.reembed.enabled:
            target = _owned(stack, build_embedder(settings.reembed))
        jobs, redis = JobPorts.given(*(given.pop(k, None) for k in ("ledger", "queue", "gate", "leases"))), None
        if jobs is None and settings.redis.dsn:
            redis = await connect(settings.redis.dsn)
            stack.push_async_callback(redis.aclose)
            jobs = JobPorts.on_redis(settings, redis)
        rates = given.pop("rates", None) or (RedisRateLimiter(redis) if redis is not None else None)
        stores_given = GivenStores(**{k: given.pop(k) for k in list(given) if k in GivenStores.__dataclass_fields__})
        stores = await open_stores(settings, embedder, stores_given, metrics, jobs.leases if jobs else None)
        stack.callback(stores.close)
        providers = Providers(
            embedder=embedder,
            queries=queries,
            reads=reads,
            target=MeteredEmbedder(target, metrics) if target is not None else None,
            chat=given.pop("chat", None) or _owned(stack, build_chat(settings.provider)),
            counter=given.pop("counter", None) or TiktokenCounter(settings.profile.encoding),
            clock=given.pop("clock", None) or SystemClock(),
            neighbours=given.pop("neighbours", None) or NumpyNeighbours(),
            analytics=given.pop("analytics", None)
            or DuckDBAnalytics(settings.storage.uri, settings.storage.storage_options()),
            metrics=metrics,
        )
        if given:
            raise TypeError(f"build_app() got unexpected ports: {', '.join(sorted(given))}")
        app = wire(settings, stores, providers, jobs, rates)
        async with _running(settings, app, stores, jobs) as running:
            yield running


@asynccontextmanager
async def _running(settings: Settings, app: App, stores: Stores, jobs: JobPorts | None) -> AsyncIterator[App]:
    """The App with its background loops running; at the end, the loops stopped and the buffers written."""
    tasks = [asyncio.create_task(every(*step)) for step in _periodic(settings, app)]
    st, stop, upkeep_task = settings.storage, asyncio.Event(), None
    if st.maintenance_enabled and stores.maintenance is not None:
        holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        upkeep = MaintenanceLoop(
            stores.maintenance, jobs.leases if jobs else None, holder, st.maintenance_lease_seconds
        )
        app = replace(app, maintenance_loop=upkeep)
        upkeep_task = asyncio.create_task(
            maintain_forever(upkeep, st.maintenance_written_seconds, st.maintenance_interval_seconds, stop)
        )
    try:
        yield app
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await stop_upkeep(upkeep_task, stop, settings.server.grace_seconds)
        if stores.maintenance is not None:
            await stores.maintenance.close()
        await _flush_buffers(app)


async def _flush_buffers(app: App) -> None:
    """What the loops write behind, written one last time (a failure is logged: shutdown goes on)."""
    try:
        await app.memory.retrievals.flush()
    except MemorydError:
        log.warning("could not flush retrieval counts at shutdown", exc_info=True)
    if app.admin.provenance is not None:
        try:
            await app.admin.provenance.settle()  # a spool left behind is moved by the next process to start
        except MemorydError:
            log.warning("could not write %d history events and served calls at shutdown", app.admin.provenance.pending)
    try:
        await app.admin.trail.flush()
    except MemorydError:
        log.error("could not write %d audit events at shutdown", app.admin.trail.pending, exc_info=True)
    usage = app.job_parts.model_usage if app.job_parts is not None else None
    if usage is not None:  # the last jobs' model calls, counted behind them
        try:
            await usage.flush()
        except MemorydError:
            log.warning("could not count the last model calls at shutdown", exc_info=True)


@asynccontextmanager
async def command_app(settings: Settings, *, create: bool = False) -> AsyncIterator[App]:
    """``build_app`` for an operator's one-shot command: no maintenance loops, over an existing store.

    Opening a store creates it, so a mistyped ``--data`` was made into an empty store and answered
    as one with nothing in it ("no memories yet", an empty key table). Only a command that sets a
    store up (``create``: a first key, an import) may begin one, and says so on stderr: a key made
    from another directory than the daemon's went into a new store the daemon never reads.
    """
    exists = await store_exists(settings)
    if not create and not exists:
        raise ConfigError(
            f"--data / storage.uri {settings.storage.uri!r} holds no memoryd store "
            "(`memoryd serve` or `memoryd up` creates one there)"
        )
    async with build_app(settings.without_maintenance()) as app:
        if not exists:
            print(
                f"memoryd: began a new store at {settings.storage.uri!r} (none was there); "
                "a daemon must use it as --data / storage.uri",
                file=sys.stderr,
            )
        yield app


def _periodic(settings: Settings, app: App) -> list[Step]:
    """The process's periodic steps."""
    steps: list[Step] = [
        (settings.recall.retrieval_flush_seconds, app.memory.retrievals.flush, "retrieval flush"),
        (_AUDIT_FLUSH_SECONDS, app.admin.trail.flush, "audit log flush"),
        (settings.embedding.backfill_seconds, app.backfill_pass, "embedding backfill"),
    ]
    if app.admin.provenance is not None:
        steps.append((_AUDIT_FLUSH_SECONDS, app.admin.provenance.flush, "history and servings flush"))
    if settings.storage.memory_release_seconds > 0:
        steps.append((settings.storage.memory_release_seconds, release_free_memory_step, "free memory release"))
    return steps


_Port = TypeVar("_Port")


def _owned(stack: AsyncExitStack, port: _Port) -> _Port:
    """``port``, built here: closed with the App (the provider clients' kept-alive connections)."""
    close = getattr(port, "aclose", None)
    if close is not None:

        async def closing() -> None:
            try:
                await close()
            except Exception:  # closing is best effort: the process may be ending anyway
                log.warning("could not close %s", type(port).__name__, exc_info=True)

        stack.push_async_callback(closing)
    return port
