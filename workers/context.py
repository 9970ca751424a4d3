"""The typed context every arq function gets: the App's job parts and the timeouts, never string keys."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memoryd.app import App, JobParts

_KEY = "memoryd"


@dataclass(frozen=True)
class WorkerContext:
    """What a job function needs."""

    app: App
    jobs: JobParts
    model_timeout: float
    """Seconds a model-bound job may run before it is retried like an outage."""
    short_timeout: float


def install(ctx: dict[str, Any], context: WorkerContext) -> dict[str, Any]:
    """Put ``context`` into arq's untyped ctx (the only key memoryd uses there)."""
    ctx[_KEY] = context
    return ctx


def context_of(ctx: dict[str, Any]) -> WorkerContext:
    """The typed context arq hands back to a job function."""
    found = ctx[_KEY]
    assert isinstance(found, WorkerContext)  # installed by build_workers: anything else is a bug
    return found
