"""JobRunner: the one retry policy every job runs under, whatever it does.

A worker hands the runner a queue message (tenant, key) and the job's body. The
runner reads the ledger, runs the body, and writes the outcome:

- success → ``succeeded`` with the body's summary;
- a MemorydError is judged by its data (``core.errors``), never its class:
  ``retryable`` (provider or storage down, throttled) → ``retrying`` after
  exponential backoff with full jitter, or the error's ``retry_after``; after
  ``max_tries`` attempts → ``dead``. Retryable without ``spends_attempt`` (a lost
  compare-and-swap: the job re-plans) → re-queued at once without spending an
  attempt. Not retryable (bad request, invalid model output) → ``failed``;
- ProviderMissing (no model configured) → ``waiting_for_provider``, parked until
  a worker with a model starts;
- ``Defer`` (circuit open, tenant at its limit, a batch waiting for its parts) →
  re-queued later without spending an attempt;
- anything else is a bug → ``failed`` with the error, logged with its traceback.

It returns how long to wait before the message runs again (None: done), and the
worker turns that into the queue's own retry. Bodies must converge when re-run:
a worker killed mid-job delivers the same message again.
"""

from __future__ import annotations

import asyncio
import logging
import random
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, nullcontext
from dataclasses import replace
from datetime import datetime, timedelta

from memoryd.core.answer_schemas import AnswerSchema
from memoryd.core.errors import MemorydError, ModelOutputInvalid, ProviderMissing, RateLimited, Unavailable
from memoryd.core.job_records import LIVE_STATES, JobRecord, JobResult, JobState, RetryPolicy, retry_delay
from memoryd.core.ports import ChatModel, Clock, Leases, ProviderGate
from memoryd.services.job_service import JobService

log = logging.getLogger(__name__)

_RUNNING_HERE_SECONDS = 1.0
"""A second delivery of a job this process is running is put back for this long (not dropped: the
first run may yet end in a retry, and the queue has one message for both)."""


class Defer(Exception):  # control flow, not an error
    """Run the job again later without spending an attempt."""

    def __init__(self, seconds: float, state: JobState, reason: str) -> None:
        super().__init__(reason)
        self.seconds = seconds
        self.state = state
        self.reason = reason


class JobContext:
    """What a body gets: its record, progress reporting, the guarded model, exclusive leases."""

    def __init__(self, runner: JobRunner, record: JobRecord, chat: GuardedChat, timeout_seconds: float) -> None:
        self._runner = runner
        self.record = record
        self.chat = chat
        self._timeout = timeout_seconds

    @property
    def timeout_seconds(self) -> float:
        """The body's wall time (a long body can Defer itself before it and go on in a new message)."""
        return self._timeout

    @asynccontextmanager
    async def exclusive(self, name: str) -> AsyncIterator[None]:
        """Hold ``name`` for the body's duration, or Defer if another job holds it (no attempt spent)."""
        holder = self.record.message_id
        if not await self._runner.leases.lock(name, holder, self._timeout + 10):
            raise Defer(0.2 + self._runner.rng.uniform(0, 0.3), JobState.QUEUED, f"waiting for {name}")
        try:
            yield
        finally:
            await self._runner.leases.unlock(name, holder)

    def now(self) -> datetime:
        """The runner's clock (a batch paces its checks by it)."""
        return self._runner.clock.now()

    async def progress(self, done: int, total: int, message: str, result: JobResult | None = None) -> None:
        """Record progress (and optionally a partial summary) on the ledger and the event stream."""
        self.record = replace(
            self.record,
            progress_done=done,
            progress_total=total,
            updated_at=self._runner.clock.now(),
            result=result or self.record.result,
        )
        await self._runner.jobs.update(self.record, message)


Body = Callable[[JobContext], Awaitable[JobResult]]


CallObserver = Callable[[str, str, str, int, int], None]
"""Told of every model call a job makes: (tenant, model, outcome, tokens in, tokens out)."""


class GuardedChat:
    """The chat model behind the shared circuit breaker and the tenant's call slots."""

    def __init__(
        self,
        chat: ChatModel | None,
        gate: ProviderGate,
        tenant_id: str,
        holder: str,
        policy: RetryPolicy,
        rng: random.Random,
        on_call: CallObserver | None = None,
        calls: asyncio.Semaphore | None = None,
    ) -> None:
        self._calls = calls
        """The worker's model-call slots (None: unbounded here; the queue's job slots bound the calls)."""
        self._on_call = on_call
        self._chat = chat
        self._gate = gate
        self._tenant_id = tenant_id
        self._holder = holder
        self._policy = policy
        self._rng = rng
        self.calls = 0
        self.invalid = 0
        """Answers this job got that were not the JSON asked for (counted per model in the metrics too)."""

    @property
    def model_name(self) -> str:
        """The configured model ("" when none)."""
        return self._chat.model_name if self._chat else ""

    @property
    def available(self) -> bool:
        """Whether a model is configured (jobs with a model-free path take it when not)."""
        return self._chat is not None

    def _observe(self, model: str, outcome: str, tokens_in: int, tokens_out: int) -> None:
        if self._on_call is not None:
            self._on_call(self._tenant_id, model, outcome, tokens_in, tokens_out)

    async def complete_json(
        self,
        system: str,
        user: str,
        model: str = "",
        schema: AnswerSchema | None = None,
        check: Callable[[dict[str, object]], object] | None = None,
    ) -> tuple[dict[str, object], int, int]:
        """One model call, or a Defer / ProviderMissing before any call is made.

        ``check`` validates the answer's shape (``core.model_output``): an answer that fails it counts
        as ``invalid`` with one the server could not make into JSON, and raises ModelOutputInvalid.
        """
        if self._chat is None:
            raise ProviderMissing(
                "no chat model is configured (set [provider] base_url and "
                "MEMORY_EXTRACTION_MODEL); the job waits for one"
            )
        wait = await self._gate.open_for()
        if wait > 0:
            raise Defer(
                wait + self._rng.uniform(0, 1),
                JobState.RETRYING,
                f"circuit open: the provider kept failing; next try in {wait:.1f} s",
            )
        if not await self._gate.acquire(self._tenant_id, self._holder):
            raise Defer(
                self._policy.busy_retry_seconds * self._rng.uniform(0.5, 1.5),
                JobState.QUEUED,
                "the tenant is at its concurrent provider-call limit",
            )
        used = model or self._chat.model_name
        answer: tuple[dict[str, object], int, int] | None = None
        try:
            self.calls += 1
            # The worker's call slot after the tenant's: taken first it cost 0.04 of the bootstrap bench's
            # ratio (the gate's round trips then held a call slot). A job waits here about one call at most
            # (by default no more jobs wait than there are slots), which the tenant slot's lease (the
            # provider timeout + 10 s) covers unless calls run near the timeout; renewing it cost 0.05–0.07.
            async with self._calls or nullcontext():
                answer = await self._chat.complete_json(system, user, model, schema)
            if check is not None:
                check(answer[0])
        except ModelOutputInvalid as exc:
            self.invalid += 1
            spent = (answer[1], answer[2]) if answer is not None else exc.tokens  # a wrong shape, or not JSON
            self._observe(used, "invalid", *spent)
            await self._gate.record(ok=True)  # the provider answered: not an outage
            raise
        except RateLimited:
            self._observe(used, "rate_limited", 0, 0)
            raise  # throttling: the provider is alive; the job waits out Retry-After
        except Unavailable:
            self._observe(used, "unavailable", 0, 0)
            await self._gate.record(ok=False)
            raise
        except MemorydError:
            self._observe(used, "refused", 0, 0)
            raise
        else:
            self._observe(used, "ok", answer[1], answer[2])
            await self._gate.record(ok=True)
            return answer
        finally:
            await self._gate.release(self._tenant_id, self._holder)


def _with_parse_failures(record: JobRecord, chat: GuardedChat, result: JobResult | None = None) -> JobRecord:
    """The record with ``result`` (its own when None) and its attempts' answers that were not the JSON asked for.

    The record carries the earlier attempts' count; this attempt's is the chat's.
    """
    new = dict(record.result if result is None else result)
    failures = int(record.result.get("parse_failures", 0)) + chat.invalid
    if failures:
        new |= {"parse_failures": failures, "parse_failures_model": chat.model_name}
    return replace(record, result=new)


class JobRunner:
    """Runs one delivery of a job message under the retry policy."""

    def __init__(
        self,
        jobs: JobService,
        gate: ProviderGate,
        leases: Leases,
        chat: ChatModel | None,
        clock: Clock,
        policy: RetryPolicy,
        rng: random.Random | None = None,
        on_call: CallObserver | None = None,
        worker_id: str = "",
        model_calls: int = 0,
        on_finish: Callable[[JobRecord], None] | None = None,
    ) -> None:
        self.worker_id = worker_id
        self._on_finish = on_finish
        """Told of every record this process leaves in a final state (metrics, the log)."""
        """This process, written on the records it runs (``JobService.reclaim_orphans``)."""
        self._model_calls = model_calls
        """Model calls this process's jobs make at once (0: as many as run): the worker runs more
        model-bound jobs than this, so a job's reads and writes do not hold a call slot idle."""
        self._calls: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
            weakref.WeakKeyDictionary()
        )
        """Per event loop (a test's loop and a server thread's may share a runner), the call slots."""
        self._on_call = on_call
        self.jobs = jobs
        self.clock = clock
        self.gate = gate
        self.leases = leases
        self._chat = chat
        self._policy = policy
        self.rng = rng or random.Random()
        self._running: set[tuple[str, str]] = set()
        """Jobs this process is running: a queue that lost its in-progress mark (a Redis restart that
        lost its last writes) delivers a running job again, to this very worker as readily as to another."""

    async def run(self, tenant_id: str, key: str, body: Body, timeout_seconds: float = 300.0) -> float | None:
        """Run the body once; the seconds until the message should run again, or None when done.

        A body running past ``timeout_seconds`` is cancelled and retried like an outage (the
        queue's own timeout, a little longer, would otherwise leave the record ``running``).
        """
        if (tenant_id, key) in self._running:
            log.warning("job delivered again while this process runs it; looked at again later", extra={"job": key})
            return _RUNNING_HERE_SECONDS
        self._running.add((tenant_id, key))
        try:
            return await self._run(tenant_id, key, body, timeout_seconds)
        finally:
            self._running.discard((tenant_id, key))

    async def _run(self, tenant_id: str, key: str, body: Body, timeout_seconds: float) -> float | None:
        record = await self.jobs.record(tenant_id, key)
        if record is None or record.state not in LIVE_STATES:
            log.info("dropping stale job message", extra={"job": key})
            return None
        now = self.clock.now()
        running = replace(
            record,
            state=JobState.RUNNING,
            attempts=record.attempts + 1,
            updated_at=now,
            started_at=record.started_at or now,
            next_attempt_at=None,
            worker=self.worker_id,
        )
        await self.jobs.update(running, f"attempt {running.attempts} started")
        ctx = JobContext(
            self,
            running,
            GuardedChat(
                self._chat,
                self.gate,
                tenant_id,
                running.message_id,
                self._policy,
                self.rng,
                self._on_call,
                self._call_slots(),
            ),
            timeout_seconds,
        )
        try:
            try:
                async with asyncio.timeout(timeout_seconds):
                    result = await body(ctx)
            except TimeoutError as exc:
                raise Unavailable(f"the job ran longer than {timeout_seconds:.0f} s") from exc
        except Defer as exc:
            return await self._defer(ctx.record, record.attempts, exc)
        except ProviderMissing as exc:
            await self._finish(replace(ctx.record, attempts=record.attempts), JobState.WAITING_FOR_PROVIDER, str(exc))
            return None
        except MemorydError as exc:
            return await self._after(_with_parse_failures(ctx.record, ctx.chat), record.attempts, exc)
        except Exception as exc:  # a bug in a body must fail its job visibly, not loop it forever
            log.exception("job failed with an unexpected error", extra={"job": key})
            await self._finish(ctx.record, JobState.FAILED, f"internal error: {type(exc).__name__}: {exc}")
            return None
        await self._finish(_with_parse_failures(ctx.record, ctx.chat, result), JobState.SUCCEEDED, "")
        return None

    def _call_slots(self) -> asyncio.Semaphore | None:
        if not self._model_calls:
            return None
        loop = asyncio.get_running_loop()
        slots = self._calls.get(loop)
        if slots is None:
            slots = self._calls[loop] = asyncio.Semaphore(self._model_calls)
        return slots

    async def _defer(self, record: JobRecord, attempts: int, exc: Defer) -> float:
        at = self.clock.now()
        await self.jobs.update(
            replace(
                record,
                state=exc.state,
                attempts=attempts,
                updated_at=at,
                last_error=exc.reason if exc.state == JobState.RETRYING else record.last_error,
            ),
            exc.reason,
        )
        return exc.seconds

    async def _after(self, record: JobRecord, attempts_before: int, exc: MemorydError) -> float | None:
        """Decide from the error's data alone: fail, re-plan (no attempt spent), or retry with backoff."""
        if not exc.retryable:
            await self._finish(record, JobState.FAILED, f"{type(exc).__name__}: {exc}")
            return None
        if not exc.spends_attempt:
            seconds = exc.retry_after if exc.retry_after is not None else self.rng.uniform(0.05, 0.25)
            return await self._defer(record, attempts_before, Defer(seconds, JobState.QUEUED, f"re-planning: {exc}"))
        return await self._retry_or_die(record, exc)

    async def _retry_or_die(self, record: JobRecord, exc: MemorydError) -> float | None:
        reason = f"{type(exc).__name__}: {exc}"
        if record.attempts >= self._policy.max_tries:
            await self._finish(record, JobState.DEAD, f"gave up after {record.attempts} attempts: {reason}")
            return None
        delay = retry_delay(
            record.attempts,
            self._policy.backoff_base_seconds,
            self._policy.backoff_cap_seconds,
            self.rng.random(),
            exc.retry_after,
        )
        now = self.clock.now()
        await self.jobs.update(
            replace(
                record,
                state=JobState.RETRYING,
                last_error=reason,
                updated_at=now,
                next_attempt_at=now + timedelta(seconds=delay),
            ),
            f"attempt {record.attempts} failed ({reason}); retrying in {delay:.1f} s",
        )
        return delay

    async def _finish(self, record: JobRecord, state: JobState, error: str) -> None:
        now = self.clock.now()
        last_error = "" if state == JobState.SUCCEEDED else (error or record.last_error)
        final = replace(
            record,
            state=state,
            last_error=last_error,
            updated_at=now,
            finished_at=now if state not in LIVE_STATES else None,
        )
        await self.jobs.update(final, error or state.value)
        if self._on_finish is not None and state not in LIVE_STATES:
            self._on_finish(final)
