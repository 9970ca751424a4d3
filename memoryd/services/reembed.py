"""Re-embedding after an embedder change: a second vector space beside the store's model, per tenant.

The store's model stays complete throughout (every write fills it; dedup and reviews compare in
it), so nothing depends on the new space until a tenant is switched, and switching back is one
record. ``SpaceRouter`` is what requests see: the space a tenant's Recall searches, and the other
space's vectors every new row gets while a re-embed is under way (dual writes). ``Reembed`` is the
batch job: it fills the new space tenant by tenant (only rows still unfilled: a re-run after a
crash resumes), switches each tenant once its rows are all filled, and reports progress.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass

from memoryd.core.calibration import EmbedderCalibration, calibration_for
from memoryd.core.errors import InvalidRequest, NotReady, PreconditionFailed, Unavailable
from memoryd.core.job_records import JobKind, JobRecord, JobResult, JobState
from memoryd.core.ports import Embedder, EmbeddingSpaces, ReembedFinisher, SpaceFiller
from memoryd.services.job_runner import Defer, JobContext
from memoryd.services.job_service import JobService

log = logging.getLogger(__name__)

BATCH = 256
"""Rows embedded per model call and stored per commit."""


@dataclass(frozen=True, slots=True)
class QuerySpace:
    """Where a tenant's Recall searches: the space ("" = the store's model), its embedder and scale."""

    space: str
    embedder: Embedder
    scale: EmbedderCalibration
    floor: float


class SpaceRouter:
    """The tenant's Recall space and the dual writes, from the re-embed's record (re-read every ``refresh``)."""

    def __init__(
        self,
        base: Embedder,
        base_floor: float,
        target: Embedder | None = None,
        spaces: EmbeddingSpaces | None = None,
        refresh_seconds: float = 5.0,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self._base = QuerySpace("", base, calibration_for(base.model_name), base_floor)
        self._target = target
        self._spaces = spaces if target is not None else None
        self._refresh = refresh_seconds
        self._now = now
        self._read_at = float("-inf")
        self._begun = False
        self._switched: dict[str, str] = {}
        self.missed: set[str] = set()
        """Tenants whose new rows went without the new space's vector (its embedder failed): to fill."""
        self._other: QuerySpace | None = None
        if target is not None:
            scale = calibration_for(target.model_name)
            self._other = QuerySpace(target.model_name, target, scale, scale.similarity_floor)

    @property
    def target(self) -> Embedder | None:
        """The embedder of the space being re-embedded to (None: no re-embed configured)."""
        return self._target

    async def _state(self) -> tuple[bool, dict[str, str]]:
        """(a re-embed to the configured target began, tenant → its Recall model), at most ``refresh`` old."""
        if self._spaces is None or self._target is None:
            return False, {}
        if self._now() - self._read_at >= self._refresh:
            target = await self._spaces.target()
            self._begun = target is not None and target == (self._target.model_name, self._target.dimension)
            self._switched = await self._spaces.active()
            self._read_at = self._now()
        return self._begun, self._switched

    async def query_space(self, tenant_id: str) -> QuerySpace:
        """The store's model unless the tenant was switched to the space this process can embed in."""
        _, switched = await self._state()
        if self._other is not None and switched.get(tenant_id) == self._other.space:
            return self._other
        return self._base

    async def extra(self, tenant_id: str, texts: Sequence[str]) -> dict[str, list[list[float]]]:
        """New rows' vectors in the space being re-embedded to ({} when none, or its embedder is down)."""
        begun, _ = await self._state()
        if not begun or not texts or self._target is None:
            return {}
        try:
            return {self._target.model_name: await self._target.embed(list(texts))}
        except Unavailable as exc:  # the write goes on: the row is filled in that space later
            log.warning("re-embed target unreachable; row left to fill", extra={"error": str(exc)})
            self.missed.add(tenant_id)
            return {}


@dataclass(frozen=True, slots=True)
class TenantProgress:
    """One tenant's state in the re-embed (``missing`` rows still without the new space's vector)."""

    tenant_id: str
    missing: int
    total: int
    space: str
    """The model the tenant's Recall searches ("" = the store's model)."""


@dataclass(frozen=True, slots=True)
class Progress:
    """What a batch just did, for progress lines: rows filled so far, rows in all, rate, ETA."""

    tenant_id: str
    filled: int
    """Rows filled so far, over every tenant of the run."""
    total: int
    """Rows to fill, over every tenant of the run."""
    rows_per_second: float
    eta_seconds: float
    """Infinite while no row has been stored yet."""
    tenant_filled: int = 0
    """Of ``tenant_id``'s own rows."""
    tenant_total: int = 0


def reembed_key(model: str) -> str:
    """A tenant's re-embed job to ``model`` (one live job per tenant and model)."""
    return f"reembed:{model}"


class Reembed:
    """The re-embed job: fill, switch, switch back, status. Resumable by construction (fills only nulls)."""

    def __init__(
        self,
        store: SpaceFiller,
        spaces: EmbeddingSpaces,
        target: Embedder,
        now: Callable[[], float] = time.monotonic,
        finisher: ReembedFinisher | None = None,
    ) -> None:
        self._store = store
        self._finisher = finisher
        self._spaces = spaces
        self._target = target
        self._now = now

    async def run(
        self,
        model: str,
        tenants: Sequence[str] = (),
        *,
        switch: bool = True,
        batch: int = BATCH,
        on_progress: Callable[[Progress], None] | None = None,
    ) -> list[TenantProgress]:
        """Fill every (named) tenant's rows in ``model``'s space, switching each tenant when it is complete."""
        self._check_model(model)
        if not 1 <= batch <= 2048:
            raise InvalidRequest("batch", f"must be in [1, 2048], got {batch}")
        chosen = await self._tenants(tenants)
        # Every table gets the column first: from then on, daemons' new rows carry the space's vector.
        await self._prepare(model, chosen)
        missing = {t: (await self._store.space_progress(t, model))[0] for t in chosen}
        todo, done, started = sum(missing.values()), 0, self._now()
        for tenant_id in chosen:
            mine = 0
            async for rows in self._filled(tenant_id, model, batch):
                done, mine = done + rows, mine + rows
                if on_progress is not None:
                    rate = done / max(self._now() - started, 1e-6)
                    eta = max(todo - done, 0) / rate if rate else math.inf  # nothing stored yet: unknown
                    on_progress(Progress(tenant_id, done, todo, rate, eta, mine, missing[tenant_id]))
            if switch:
                await self._switch_if_complete(tenant_id, model)  # left unswitched (status shows it) if not
        return await self.status(model, chosen)

    async def start(self, jobs: JobService, tenant_id: str, model: str) -> JobRecord:
        """Queue the tenant's re-embed job (a live one is returned as it is: calling again is safe)."""
        self._check_model(model, "model")
        if tenant_id not in await self._store.tenants():
            raise PreconditionFailed(f"tenant {tenant_id!r} has no memories to re-embed")
        await self._prepare(model, [tenant_id])
        return await jobs.enqueue(JobKind.REEMBED, tenant_id, reembed_key(model), redrive=True)

    async def job(self, ctx: JobContext) -> JobResult:
        """The REEMBED body: fill for half the job's time, then continue in a new message (no attempt spent).

        Done when no row is missing: the tenant's Recall is switched and the counts are the result.
        """
        tenant_id, model = ctx.record.tenant_id, ctx.record.key.removeprefix("reembed:")
        self._check_model(model)
        await self._prepare(model, [tenant_id])
        started = self._now()
        until = started + ctx.timeout_seconds / 2
        missing, total = await self._store.space_progress(tenant_id, model)
        done, batch_began = total - missing, self._now()
        async for rows in self._filled(tenant_id, model, BATCH):
            done += rows
            await ctx.progress(min(done, total), total, f"{min(done, total)}/{total} rows in {model}")
            now = self._now()
            # Half the job's time, or earlier when another batch as long as this one would pass three
            # quarters of it: a batch cut by the wall timeout costs an attempt (seen on a slow machine).
            last, batch_began = now - batch_began, now
            if now >= until or now + last >= started + ctx.timeout_seconds * 0.75:
                missing, total = await self._store.space_progress(tenant_id, model)
                if missing:
                    raise Defer(0.0, JobState.QUEUED, f"{missing} rows left; continuing")
        if not await self._switch_if_complete(tenant_id, model):  # rows changed under the last pass
            raise Defer(1.0, JobState.QUEUED, "rows changed while they were filled; continuing")
        _, total = await self._store.space_progress(tenant_id, model)
        return {"model": model, "rows": total, "switched": True}

    async def switch(self, model: str, tenants: Sequence[str] = ()) -> list[TenantProgress]:
        """Switch complete tenants' Recall to ``model`` ("" = back to the store's model) without filling.

        A tenant with rows still missing in the space is refused (FAILED_PRECONDITION naming it):
        switching it would make those rows unreachable by Recall's vector arm.
        """
        chosen = await self._tenants(tenants)
        if model:
            self._check_model(model)
            for tenant_id in chosen:
                missing, _ = await self._store.space_progress(tenant_id, model)
                if missing:
                    raise PreconditionFailed(
                        f"tenant {tenant_id!r} has {missing} rows without a {model!r} vector; run the re-embed first"
                    )
        for tenant_id in chosen:
            if model:
                await self._store.add_space(tenant_id, model, self._target.dimension)  # new rows get it too
            await self._spaces.switch(tenant_id, model)
        return await self.status(model or self._target.model_name, chosen)

    async def switch_tenant(self, tenant_id: str, back: bool) -> TenantProgress:
        """One tenant's switch (the RPC's: a tenant with no memories yet can only stay on the store's model)."""
        if not back and tenant_id not in await self._store.tenants():
            raise PreconditionFailed(f"tenant {tenant_id!r} has no memories in {self._target.model_name!r} yet")
        if back:
            await self._spaces.switch(tenant_id, "")
        else:
            await self.switch(self._target.model_name, [tenant_id])
        return await self.tenant_status(tenant_id)

    async def tenant_status(self, tenant_id: str) -> TenantProgress:
        """One tenant's status in the configured model's space (zeros for a tenant with no memories yet)."""
        if tenant_id not in await self._store.tenants():
            return TenantProgress(tenant_id, 0, 0, (await self._spaces.active()).get(tenant_id, ""))
        (progress,) = await self.status(self._target.model_name, [tenant_id])
        return progress

    async def status(self, model: str, tenants: Sequence[str] = ()) -> list[TenantProgress]:
        """Per tenant: rows missing in ``model``'s space, rows in all, and the space its Recall searches."""
        self._check_model(model)  # another model has no space here: its zeros would say nothing
        switched = await self._spaces.active()
        out = []
        for tenant_id in await self._tenants(tenants):
            missing, total = await self._store.space_progress(tenant_id, model)
            out.append(TenantProgress(tenant_id, missing, total, switched.get(tenant_id, "")))
        return out

    async def _prepare(self, model: str, tenants: Sequence[str]) -> None:
        """Record the re-embed and give the tenants' tables the space's column (both idempotent)."""
        await self._spaces.begin(model, self._target.dimension)
        for tenant_id in tenants:
            await self._store.add_space(tenant_id, model, self._target.dimension)

    async def _switch_if_complete(self, tenant_id: str, model: str) -> bool:
        """Switch the tenant when none of its rows lacks the space's vector; whether it did."""
        missing, _ = await self._store.space_progress(tenant_id, model)
        if missing:
            return False
        await self._spaces.switch(tenant_id, model)
        return True

    async def fill_missed(self, model: str, tenants: Sequence[str]) -> int:
        """Fill rows that went without the space's vector (its embedder was down at write time)."""
        filled = 0
        for tenant_id in tenants:
            async for rows in self._filled(tenant_id, model, BATCH):
                filled += rows
        return filled

    async def _filled(self, tenant_id: str, model: str, batch: int) -> AsyncIterator[int]:
        """Fill the tenant's rows missing in the space, a batch at a time; yields the rows each batch filled.

        Pages on by id, then reads once more from the start (rows a page skipped, rows written
        without the vector meanwhile); ends when that read finds none, or finds only rows that
        changed under it twice in a row (the next pass takes them).
        """
        after, idle = "", 0
        while True:
            rows = await self._store.missing_in_space(tenant_id, model, batch, after)
            if not rows:
                if not after:
                    return
                after = ""
                continue
            vectors = await self._target.embed([r.content for r in rows])
            stored = await self._store.fill_space(tenant_id, model, list(zip(rows, vectors, strict=True)))
            idle = 0 if stored or after else idle + 1
            if idle >= 2:
                return
            after = max(r.memory_id for r in rows)
            yield stored  # rows changed or filled by another process meanwhile are not counted as filled here

    async def finish(self, model: str) -> dict[str, int]:
        """Drop the store's model: ``model`` becomes the store's own (run with every daemon and worker stopped).

        Refused while a tenant still searches the store's model (switch it, or every tenant, first):
        after this there is nothing to switch back to.
        """
        self._check_model(model)
        if self._finisher is None:
            raise NotReady("this process cannot finish a re-embed (no store access)")
        if await self._spaces.target() is not None:
            behind = [p.tenant_id for p in await self.status(model) if p.space != model]
            if behind:
                raise PreconditionFailed(
                    f"tenant {behind[0]!r} (and {len(behind) - 1} more) still searches the store's model: "
                    "switch every tenant first (memoryd reembed --to MODEL --switch)"
                )
        return await self._finisher.finish(model, self._target.dimension, self._target.embed)

    def _check_model(self, model: str, field: str = "to") -> None:
        if model != self._target.model_name:
            raise InvalidRequest(
                field, f"this process is configured to re-embed to {self._target.model_name!r}, not {model!r}"
            )

    async def _tenants(self, tenants: Sequence[str]) -> list[str]:
        known = await self._store.tenants()
        unknown = sorted(set(tenants) - set(known))
        if unknown:
            raise InvalidRequest("tenants", f"no archive for tenant {unknown[0]!r}")
        return sorted(tenants) if tenants else known
