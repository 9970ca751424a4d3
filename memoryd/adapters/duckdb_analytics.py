"""UsageAnalytics with DuckDB reading the Lance tables in place (no export step, no second copy).

The tenant's archive and retrieval side table are opened as Lance datasets (pyarrow datasets,
so DuckDB scans them with projection and filter pushdown); the few columns a report needs are
read once into a temporary table and every figure is one aggregate over it. DuckDB is the
analytics engine, never a system of record: nothing here writes.
"""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import replace
from datetime import datetime
from typing import Any

import duckdb
import lance
import pyarrow as pa

from memoryd.core.errors import Unavailable
from memoryd.core.feedback import Signal
from memoryd.core.usage import (
    AGE_BUCKETS,
    SALIENCE_BUCKETS,
    AgentUsage,
    UsageReport,
    gini_of_histogram,
    lorenz_of_histogram,
)

_EMPTY_STATS = pa.table(
    {"id": pa.array([], pa.string()), "retrieval_count": pa.array([], pa.int64()),
     "injected_count": pa.array([], pa.int64())}
)  # fmt: skip


def _buckets(column: str, buckets: tuple[tuple[str, float, float], ...]) -> str:
    cases = " ".join(
        f"WHEN {column} >= {low} AND {column} < {high if math.isfinite(high) else 1e18} THEN '{label}'"
        for label, low, high in buckets
    )
    return f"CASE {cases} END"


class DuckDBAnalytics:
    """Usage reports over a LanceDB directory or object-store URI."""

    def __init__(self, uri: str, storage_options: dict[str, str] | None = None) -> None:
        self._uri = uri.rstrip("/")
        self._storage_options = storage_options

    def _dataset(self, name: str) -> Any | None:
        try:
            return lance.dataset(f"{self._uri}/{name}.lance", storage_options=self._storage_options)
        except (ValueError, FileNotFoundError, OSError):  # no such table (yet)
            return None

    async def report(self, tenant_id: str, agent_id: str, since: datetime | None, now: datetime) -> UsageReport:
        """The report; ``agent_id`` empty covers the tenant (with a per-agent breakdown)."""
        try:
            return await asyncio.to_thread(self._report, tenant_id, agent_id, since, now)
        except duckdb.IOException as exc:
            raise Unavailable(f"analytics could not read the store: {exc}") from exc

    def _report(self, tenant_id: str, agent_id: str, since: datetime | None, now: datetime) -> UsageReport:
        started = time.perf_counter()
        memories = self._dataset(f"memories_{tenant_id}")
        if memories is None:
            return _empty(now, time.perf_counter() - started)
        stats = self._dataset(f"retrievals_{tenant_id}")
        con = duckdb.connect()
        try:
            con.register("memories", memories)
            con.register("stats", stats if stats is not None else _EMPTY_STATS)
            injected = "s.injected_count" if stats is None or "injected_count" in stats.schema.names else "0"
            signals = _feedback_columns(set(stats.schema.names) if stats is not None else set())
            where = ["TRUE"]
            params: dict[str, Any] = {}
            if agent_id:
                where.append("m.agent_id = $agent")
                params["agent"] = agent_id
            if since is not None:
                where.append("m.created_at >= $since")
                params["since"] = since
            con.execute(
                "CREATE TEMP TABLE m AS SELECT m.id, m.agent_id, m.scope, m.memory_type, m.status, m.content_hash, "
                "m.salience, m.created_at, coalesce(m.collection, '') AS collection, "
                "coalesce(s.retrieval_count, 0) AS r, "
                f"coalesce({injected}, 0) AS inj{signals} FROM memories m LEFT JOIN stats s ON s.id = m.id "
                f"WHERE {' AND '.join(where)}",
                params,
            ).fetchall()
            con.execute("CREATE TEMP VIEW a AS SELECT * FROM m WHERE status = 'active'").fetchall()
            report = self._figures(con, now, bool(agent_id))
            return replace(report, seconds=time.perf_counter() - started)
        finally:
            con.close()

    def _figures(self, con: Any, now: datetime, one_agent: bool) -> UsageReport:
        def rows(sql: str, params: dict[str, Any] | None = None) -> list[tuple[Any, ...]]:
            return list(con.execute(sql, params or {}).fetchall())

        def scalar(sql: str, params: dict[str, Any] | None = None) -> Any:
            return rows(sql, params)[0][0]

        total = int(scalar("SELECT count(*) FROM m"))
        active = int(scalar("SELECT count(*) FROM a"))
        retrievals = int(scalar("SELECT coalesce(sum(r), 0) FROM a"))
        top_k = max(1, math.ceil(active * 0.01))
        top1 = scalar(f"SELECT coalesce(sum(r), 0) FROM (SELECT r FROM a ORDER BY r DESC LIMIT {top_k})")
        top10 = scalar("SELECT coalesce(sum(r), 0) FROM (SELECT r FROM a ORDER BY r DESC LIMIT 10)")
        # Retrieval counts as a histogram (a few thousand distinct values at most): the Gini
        # coefficient and the Lorenz curve follow from it exactly, without sorting a million rows.
        histogram = [(int(v), int(c)) for v, c in rows("SELECT r, count(*) FROM a GROUP BY r ORDER BY r")]
        age = _buckets("age", AGE_BUCKETS)
        agents: tuple[AgentUsage, ...] = ()
        if not one_agent:
            agents = tuple(
                AgentUsage(agent, int(n), int(r), float(never))
                for agent, n, r, never in rows(
                    "SELECT agent_id, count(*), coalesce(sum(r), 0), avg(CASE WHEN r = 0 THEN 1.0 ELSE 0.0 END) "
                    "FROM a GROUP BY agent_id ORDER BY agent_id"
                )
            )
        return UsageReport(
            memories=total,
            by_scope=dict(rows("SELECT scope, count(*) FROM m GROUP BY scope ORDER BY scope")),
            by_type=dict(rows("SELECT memory_type, count(*) FROM m GROUP BY memory_type ORDER BY memory_type")),
            by_status=dict(rows("SELECT status, count(*) FROM m GROUP BY status ORDER BY status")),
            by_collection=tuple(
                (str(c), int(n))
                for c, n in rows("SELECT collection, count(*) AS n FROM m GROUP BY 1 ORDER BY n DESC, collection")
            ),
            growth=tuple(
                (str(day), int(n))
                for day, n in rows(
                    "SELECT strftime(created_at AT TIME ZONE 'UTC', '%Y-%m-%d') AS d, count(*) FROM m "
                    "GROUP BY d ORDER BY d"
                )
            ),
            never_retrieved_share=float(
                scalar("SELECT coalesce(avg(CASE WHEN r = 0 THEN 1.0 ELSE 0.0 END), 0) FROM a")
            ),
            retrievals=retrievals,
            injections=int(scalar("SELECT coalesce(sum(inj), 0) FROM a")),
            top1pct_share=float(top1) / retrievals if retrievals else 0.0,
            top10_share=float(top10) / retrievals if retrievals else 0.0,
            gini=gini_of_histogram(histogram),
            age_days=_ordered(
                rows(
                    f"SELECT {age} AS b, count(*) FROM (SELECT date_diff('second', created_at, $now::TIMESTAMPTZ) "
                    "/ 86400.0 AS age FROM a) GROUP BY b",
                    {"now": now},
                ),
                AGE_BUCKETS,
            ),
            salience=_ordered(
                rows(f"SELECT {_buckets('salience', SALIENCE_BUCKETS)} AS b, count(*) FROM a GROUP BY b"),
                SALIENCE_BUCKETS,
            ),
            duplicate_share=float(
                scalar(
                    "SELECT coalesce(avg(CASE WHEN content_hash IN (SELECT content_hash FROM a GROUP BY 1 "
                    "HAVING count(*) > 1) THEN 1.0 ELSE 0.0 END), 0) FROM a"
                )
            ),
            agents=agents,
            computed_at=now,
            seconds=0.0,
            lorenz=lorenz_of_histogram(histogram),
            feedback=tuple(
                (s.value, int(n))
                for s in Signal
                if (n := scalar(f"SELECT coalesce(sum(fb_{s.value}), 0) FROM m"))  # enum names
            ),
        )


def _feedback_columns(present: set[str]) -> str:
    """``, coalesce(s.fb_useful, 0) AS fb_useful, ...``; 0 for columns an older side table lacks."""
    out = []
    for signal in Signal:
        column = f"fb_{signal.value}"
        out.append(f", coalesce(s.{column}, 0) AS {column}" if column in present else f", 0 AS {column}")
    return "".join(out)


def _ordered(
    found: list[tuple[Any, ...]], buckets: tuple[tuple[str, float, float], ...]
) -> tuple[tuple[str, int], ...]:
    counts = {str(label): int(n) for label, n in found if label is not None}
    return tuple((label, counts.get(label, 0)) for label, _, _ in buckets)


def _empty(now: datetime, elapsed: float) -> UsageReport:
    return UsageReport(
        0, {}, {}, {}, (), 0.0, 0, 0, 0.0, 0.0, 0.0,
        tuple((label, 0) for label, _, _ in AGE_BUCKETS),
        tuple((label, 0) for label, _, _ in SALIENCE_BUCKETS),
        0.0, (), now, elapsed,
    )  # fmt: skip
