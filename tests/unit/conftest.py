"""Unit-tier fixtures: the whole App built on fakes (no sockets, no disk)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from memoryd.app import App, build_app
from memoryd.config import load_settings
from memoryd.core.job_records import RetryPolicy
from memoryd.services.job_runner import JobRunner
from tests.fakes import (
    DictLeases,
    FrozenClock,
    HashEmbedder,
    InMemoryAgentConfigs,
    InMemoryArchive,
    InMemoryConversations,
    InMemoryEventLog,
    InMemoryKeys,
    InMemoryLedger,
    InMemoryProfiles,
    InMemoryReviews,
    InMemoryStore,
    OpenGate,
    PairwiseNeighbours,
    RecordingQueue,
    ScriptedChat,
    StoreAnalytics,
    WordCounter,
)


@dataclass
class World:
    """An App on fakes, and the fakes behind it."""

    app: App
    ledger: InMemoryLedger
    queue: RecordingQueue
    chat: ScriptedChat
    profiles: InMemoryProfiles
    store: InMemoryStore
    reviews: InMemoryReviews
    clock: FrozenClock
    embedder: HashEmbedder


@asynccontextmanager
async def fake_world(*, with_jobs: bool = True, **settings: Any) -> AsyncIterator[World]:
    """An App whose every port is a fake; ``settings`` are config sections to override.

    ``with_jobs=False``: no job ports at all (ledger, queue, gate, leases, chat), as without Valkey.
    """
    store, ledger, queue, chat = InMemoryStore(), InMemoryLedger(), RecordingQueue(), ScriptedChat()
    profiles, reviews, clock, embedder = InMemoryProfiles(), InMemoryReviews(), FrozenClock(), HashEmbedder()
    job_ports = {"ledger": ledger, "queue": queue, "gate": OpenGate(), "leases": DictLeases(), "chat": chat}
    async with build_app(
        load_settings(None, jobs={"bootstrap_at_start": False}, **settings),
        store=store,
        reviews=reviews,
        keys=InMemoryKeys(),
        audit_log=InMemoryEventLog(),
        archive=InMemoryArchive(),
        agent_configs=InMemoryAgentConfigs(),
        neighbours=PairwiseNeighbours(),
        analytics=StoreAnalytics(store),
        profiles=profiles,
        conversations=InMemoryConversations(),
        embedder=embedder,
        clock=clock,
        counter=WordCounter(),
        **(job_ports if with_jobs else {}),
    ) as app:
        yield World(app, ledger, queue, chat, profiles, store, reviews, clock, embedder)


@pytest.fixture
async def world() -> AsyncIterator[World]:
    async with fake_world() as w:
        yield w


def runner(w: World, *, with_model: bool = True) -> JobRunner:
    """A runner over the world's job service, with a seeded random (reproducible delays)."""
    return JobRunner(
        w.app.jobs.service,
        OpenGate(),
        DictLeases(),
        w.chat if with_model else None,
        w.app.clock,
        RetryPolicy(),
        rng=random.Random(3),
    )
