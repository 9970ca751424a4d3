"""JobRunner's every branch, on fakes with a frozen clock and a seeded random: milliseconds, no sockets."""

from __future__ import annotations

import asyncio
import random

import pytest

from memoryd.core.errors import (
    Conflict,
    InvalidRequest,
    ModelOutputInvalid,
    NotReady,
    ProviderMissing,
    RateLimited,
    Unavailable,
)
from memoryd.core.job_records import JobKind, JobRecord, JobState, RetryPolicy
from memoryd.services.job_runner import Defer, JobContext, JobRunner
from memoryd.services.job_service import JobService
from tests.fakes import DictLeases, FrozenClock, InMemoryLedger, OpenGate, RecordingQueue, ScriptedChat

KEY = "bootstrap:acme:a1:v1"


@pytest.fixture
def world() -> tuple[JobRunner, InMemoryLedger, OpenGate]:
    ledger, gate = InMemoryLedger(), OpenGate()
    jobs = JobService(ledger, RecordingQueue(), FrozenClock())
    runner = JobRunner(
        jobs,
        gate,
        DictLeases(),
        ScriptedChat(),
        FrozenClock(),
        RetryPolicy(max_tries=3, backoff_base_seconds=2, backoff_cap_seconds=60),
        rng=random.Random(1),
    )
    return runner, ledger, gate


async def _queued(runner: JobRunner) -> JobRecord:
    return await runner.jobs.enqueue(JobKind.BOOTSTRAP, "acme", KEY, "a1")


def _raising(exc: BaseException):
    async def body(ctx: JobContext) -> dict[str, str | int | float | bool]:
        raise exc

    return body


async def calls_the_model(ctx: JobContext) -> dict[str, str | int | float | bool]:
    await ctx.chat.complete_json("s", "u")
    return {}


async def _record(ledger: InMemoryLedger) -> JobRecord:
    record = await ledger.get("acme", KEY)
    assert record is not None
    return record


async def test_success_stores_the_result(world) -> None:
    runner, ledger, _ = world
    await _queued(runner)

    async def body(ctx: JobContext) -> dict[str, str | int | float | bool]:
        return {"outcome": "compiled"}

    assert await runner.run("acme", KEY, body) is None
    done = await _record(ledger)
    assert (done.state, done.attempts, done.result) == (JobState.SUCCEEDED, 1, {"outcome": "compiled"})


async def test_a_retryable_error_backs_off_then_dies_after_max_tries(world) -> None:
    runner, ledger, _ = world
    await _queued(runner)
    delays = [await runner.run("acme", KEY, _raising(Unavailable("provider down"))) for _ in range(3)]
    assert delays[0] is not None and delays[1] is not None and delays[2] is None
    dead = await _record(ledger)
    assert dead.state == JobState.DEAD and dead.attempts == 3 and "gave up after 3 attempts" in dead.last_error


async def test_retry_after_is_honoured(world) -> None:
    runner, ledger, _ = world
    await _queued(runner)
    delay = await runner.run("acme", KEY, _raising(RateLimited("slow down", retry_after=7.0)))
    assert delay is not None and 7.0 <= delay < 7.3
    assert (await _record(ledger)).state == JobState.RETRYING


@pytest.mark.parametrize(
    "error",
    [InvalidRequest("x", "bad"), ModelOutputInvalid("not json"), NotReady("the provider refused the request (401)")],
)
async def test_a_permanent_error_fails_at_once(world, error) -> None:
    runner, ledger, _ = world
    await _queued(runner)
    assert await runner.run("acme", KEY, _raising(error)) is None
    failed = await _record(ledger)
    assert failed.state == JobState.FAILED and failed.attempts == 1 and type(error).__name__ in failed.last_error


async def test_a_lost_compare_and_swap_re_plans_without_spending_an_attempt(world) -> None:
    runner, ledger, _ = world
    await _queued(runner)
    for _ in range(5):  # more re-plans than max_tries: none of them counts
        delay = await runner.run("acme", KEY, _raising(Conflict("compacted concurrently")))
        assert delay is not None and delay < 1
    record = await _record(ledger)
    assert (record.state, record.attempts) == (JobState.QUEUED, 0)


async def test_no_model_parks_the_job_without_spending_an_attempt(world) -> None:
    runner, ledger, _ = world
    await _queued(runner)
    assert await runner.run("acme", KEY, _raising(ProviderMissing("no chat model"))) is None
    parked = await _record(ledger)
    assert (parked.state, parked.attempts) == (JobState.WAITING_FOR_PROVIDER, 0)


async def test_a_deferral_spends_no_attempt(world) -> None:
    runner, ledger, _ = world
    await _queued(runner)
    delay = await runner.run("acme", KEY, _raising(Defer(3.0, JobState.QUEUED, "waiting for a lease")))
    assert delay == 3.0 and (await _record(ledger)).attempts == 0


async def test_a_bug_fails_the_job_visibly(world) -> None:
    runner, ledger, _ = world
    await _queued(runner)
    assert await runner.run("acme", KEY, _raising(KeyError("oops"))) is None
    failed = await _record(ledger)
    assert failed.state == JobState.FAILED and "internal error: KeyError" in failed.last_error


async def test_a_body_past_its_timeout_is_retried_like_an_outage(world) -> None:
    runner, ledger, _ = world
    await _queued(runner)

    async def slow(ctx: JobContext) -> dict[str, str | int | float | bool]:
        await asyncio.sleep(10)
        return {}

    assert await runner.run("acme", KEY, slow, timeout_seconds=0.01) is not None
    assert "ran longer than" in (await _record(ledger)).last_error


async def test_a_stale_message_is_dropped(world) -> None:
    runner, _, _ = world
    assert await runner.run("acme", "bootstrap:acme:nobody:v1", _raising(AssertionError("never runs"))) is None


async def test_a_second_delivery_while_this_process_runs_the_job_is_put_back(world) -> None:
    runner, ledger, _ = world
    await _queued(runner)
    release, runs = asyncio.Event(), []

    async def body(ctx: JobContext) -> dict[str, str | int | float | bool]:
        runs.append(ctx.record.attempts)
        await release.wait()
        return {"outcome": "compiled"}

    first = asyncio.create_task(runner.run("acme", KEY, body))
    await asyncio.sleep(0.01)
    again = await runner.run("acme", KEY, body)  # the queue lost its in-progress mark
    assert again is not None and again > 0 and runs == [1]
    assert (await _record(ledger)).state is JobState.RUNNING  # the duplicate wrote nothing
    release.set()
    assert await first is None and (await _record(ledger)).state is JobState.SUCCEEDED
    assert await runner.run("acme", KEY, body) is None and runs == [1]  # then dropped as finished


async def test_an_open_circuit_defers_before_any_call(world) -> None:
    runner, ledger, gate = world
    gate.open_seconds = 12.0
    await _queued(runner)

    delay = await runner.run("acme", KEY, calls_the_model)
    assert delay is not None and delay >= 12.0
    record = await _record(ledger)
    assert record.state == JobState.RETRYING and record.attempts == 0 and "circuit open" in record.last_error


async def test_a_full_tenant_defers_and_a_held_lease_defers(world) -> None:
    runner, ledger, gate = world
    gate.slots = 0
    await _queued(runner)

    assert await runner.run("acme", KEY, calls_the_model) is not None
    assert (await _record(ledger)).attempts == 0
    assert isinstance(runner.leases, DictLeases)
    runner.leases.held["conversation:c1"] = "someone else"

    async def needs_the_lease(ctx: JobContext) -> dict[str, str | int | float | bool]:
        async with ctx.exclusive("conversation:c1"):
            return {}

    assert await runner.run("acme", KEY, needs_the_lease) is not None
    assert (await _record(ledger)).state == JobState.QUEUED


async def test_provider_failures_feed_the_breaker_but_throttling_does_not(world) -> None:
    _, ledger, gate = world
    runner = JobRunner(
        JobService(ledger, RecordingQueue(), FrozenClock()),
        gate,
        DictLeases(),
        ScriptedChat(Unavailable("503"), RateLimited("429"), {"ok": True}),
        FrozenClock(),
        RetryPolicy(),
        rng=random.Random(2),
    )
    await _queued(runner)

    for _ in range(3):
        await runner.run("acme", KEY, calls_the_model)
    assert gate.outcomes == [False, True] and not gate.held
    assert (await _record(ledger)).state == JobState.SUCCEEDED
