"""Metrics on prometheus-client: one registry per process, served on ``metrics.port``.

Names follow the OpenTelemetry semantic conventions where they exist (``rpc_server_duration``
with ``rpc_system``, ``rpc_service``, ``rpc_method``, ``rpc_grpc_status_code``), in Prometheus
form (seconds, ``_total`` counters); memoryd's own are prefixed ``memoryd_``. No label holds a
tenant, agent or memory id: the series stay bounded however many tenants a daemon serves.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

from memoryd.core.conversation import CompactionSignal
from memoryd.core.embed_roles import EmbedRole
from memoryd.core.ports import Embedder

_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class PrometheusMetrics:
    """The ``Metrics`` port on its own registry (several daemons in one test process do not collide)."""

    def __init__(self, *, tenant_label: bool = True) -> None:
        self.registry = CollectorRegistry()
        self._tenant_label = tenant_label
        self._provider_calls = Counter(
            "memoryd_provider_calls",
            "Calls to the chat model by jobs, by tenant (when labelled), model and outcome.",
            ["tenant", "model", "outcome"],
            registry=self.registry,
        )
        self._provider_tokens = Counter(
            "memoryd_provider_tokens",
            "Tokens the chat model read (input) and wrote (output) for jobs, by tenant and model.",
            ["tenant", "model", "direction"],
            registry=self.registry,
        )
        self._rpc = Histogram(
            "rpc_server_duration_seconds",
            "Duration of RPCs handled by memoryd, by method and status code.",
            ["rpc_system", "rpc_service", "rpc_method", "rpc_grpc_status_code"],
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )
        self._embed = Histogram(
            "memoryd_embedder_duration_seconds",
            "Duration of calls to the embedding model.",
            ["outcome"],
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )
        self._texts = Counter("memoryd_embedded_texts", "Texts sent to the embedding model.", registry=self.registry)
        self._written = Counter(
            "memoryd_memories_written", "Memories written, as new rows or merged.", ["outcome"], registry=self.registry
        )
        self._hits = Counter("memoryd_recall_hits", "Hits returned by Recall.", registry=self.registry)
        self._recalls = Counter(
            "memoryd_recalls", "Recall answers; degraded: an arm could not run.", ["degraded"], registry=self.registry
        )
        self._jobs = Gauge("memoryd_jobs", "Live jobs by kind and state.", ["kind", "state"], registry=self.registry)
        self._queued = Gauge(
            "memoryd_queue_messages", "Messages held by a job queue.", ["queue"], registry=self.registry
        )
        self._oldest = Gauge(
            "memoryd_queue_oldest_due_seconds",
            "How long the oldest message due on a queue has waited (0: none is due).",
            ["queue"],
            registry=self.registry,
        )
        self._pending = Gauge(
            "memoryd_embeddings_pending",
            "Memories stored while the embedder was unreachable, not embedded yet (as of the last backfill pass).",
            registry=self.registry,
        )
        self._table_rows = Gauge(
            "memoryd_table_rows",
            "Rows by kind of table, summed over tenants (each full maintenance pass).",
            ["kind"],
            registry=self.registry,
        )
        self._table_versions = Gauge(
            "memoryd_table_versions",
            "Current version numbers (commits made) by kind of table, summed over tenants.",
            ["kind"],
            registry=self.registry,
        )
        self._context_fill = Histogram(
            "memoryd_context_fill_ratio",
            "GetContext: the assembled context's tokens over the caller's window.",
            buckets=(0.1, 0.25, 0.5, 0.75, 0.9, 1.0),
            registry=self.registry,
        )
        self._left_out = Counter(
            "memoryd_context_messages_left_out",
            "GetContext: raw messages that did not fit the window (a compaction is due or running).",
            registry=self.registry,
        )
        self._auto_recall = Counter(
            "memoryd_auto_recalls",
            "GetContext auto-recalls: hit (a memory reached the threshold) or miss.",
            ["outcome"],
            registry=self.registry,
        )
        self._auto_recalled = Counter(
            "memoryd_auto_recalled_memories", "Memories auto-recall found above the threshold.", registry=self.registry
        )
        self._graph_blocks = Counter(
            "memoryd_graph_blocks",
            "GetContext graph blocks added, and the facts in them.",
            ["unit"],
            registry=self.registry,
        )
        self._compactions = Counter(
            "memoryd_compactions",
            "Compaction jobs finished, by trigger (auto: threshold; force: Compact; end: EndSession), outcome, path.",
            ["trigger", "outcome", "path"],
            registry=self.registry,
        )
        self._compacted = Counter(
            "memoryd_compaction_items",
            "What compactions did: messages summarised, summaries written, memories filed.",
            ["item"],
            registry=self.registry,
        )
        self._breaker = Gauge(
            "memoryd_provider_breaker_open",
            "1 while the model provider's circuit breaker is open.",
            registry=self.registry,
        )

    def provider_call(self, tenant_id: str, model: str, outcome: str, tokens_in: int, tokens_out: int) -> None:
        """One call to the chat model made by a job (``outcome``: ok, rate_limited, unavailable, refused)."""
        tenant = tenant_id if self._tenant_label else ""
        self._provider_calls.labels(tenant, model, outcome).inc()
        if tokens_in or tokens_out:
            self._provider_tokens.labels(tenant, model, "input").inc(tokens_in)
            self._provider_tokens.labels(tenant, model, "output").inc(tokens_out)

    def tables(self, sizes: dict[str, tuple[int, int]]) -> None:
        """Rows and versions by kind of table, as the last full maintenance pass found them."""
        for kind, (rows, versions) in sizes.items():
            self._table_rows.labels(kind).set(rows)
            self._table_versions.labels(kind).set(versions)

    def serve(self, host: str, port: int) -> None:
        """Expose ``/metrics`` over HTTP on host:port (a daemon thread)."""
        start_http_server(port, addr=host, registry=self.registry)

    def rpc(self, service: str, method: str, code: str, seconds: float) -> None:
        """One finished RPC."""
        self._rpc.labels("grpc", service, method, code).observe(seconds)

    def embedded(self, texts: int, seconds: float, ok: bool) -> None:
        """One call to the embedder."""
        self._embed.labels("ok" if ok else "error").observe(seconds)
        self._texts.inc(texts)

    def memorized(self, stored: int, deduplicated: int) -> None:
        """Rows a write stored and merged."""
        self._written.labels("stored").inc(stored)
        self._written.labels("deduplicated").inc(deduplicated)

    def recalled(self, hits: int, degraded: bool) -> None:
        """One Recall answer."""
        self._hits.inc(hits)
        self._recalls.labels("true" if degraded else "false").inc()

    def context_assembled(
        self, tokens: int, window: int, left_out: int, recalled: int | None, graph_facts: int
    ) -> None:
        """One GetContext answer (``recalled`` None: auto-recall off)."""
        self._context_fill.observe(tokens / window if window else 0.0)
        self._left_out.inc(left_out)
        if recalled is not None:
            self._auto_recall.labels("hit" if recalled else "miss").inc()
            self._auto_recalled.inc(recalled)
        if graph_facts:
            self._graph_blocks.labels("blocks").inc()
            self._graph_blocks.labels("facts").inc(graph_facts)

    def compaction(self, signal: CompactionSignal) -> None:
        """One compaction job finished (in the worker that ran it)."""
        self._compactions.labels(signal.trigger.value, signal.outcome, signal.path).inc()
        self._compacted.labels("messages_summarized").inc(signal.summarized_messages)
        self._compacted.labels("summaries_written").inc(signal.summaries_written)
        self._compacted.labels("memories_filed").inc(signal.filed_memories)

    def embeddings_pending(self, n: int) -> None:
        """Memories waiting for their embedding."""
        self._pending.set(n)

    def jobs(
        self, counts: Mapping[tuple[str, str], int], backlog: Mapping[str, tuple[int, float]], breaker_open: bool
    ) -> None:
        """The job subsystem as last read (a worker refreshes it every few seconds)."""
        self._jobs.clear()  # a (kind, state) with no job left must read 0, not its last value
        for (kind, state), n in counts.items():
            self._jobs.labels(kind, state).set(n)
        for queue, (held, waited) in backlog.items():
            self._queued.labels(queue).set(held)
            self._oldest.labels(queue).set(waited)
        self._breaker.set(1 if breaker_open else 0)


class MeteredEmbedder:
    """An embedder whose calls are timed and counted (errors included, then re-raised)."""

    def __init__(self, inner: Embedder, metrics: PrometheusMetrics) -> None:
        self._inner = inner
        self._metrics = metrics

    @property
    def model_name(self) -> str:
        """The wrapped model's name."""
        return self._inner.model_name

    @property
    def dimension(self) -> int:
        """The wrapped model's dimension."""
        return self._inner.dimension

    async def embed(self, texts: Sequence[str], role: EmbedRole = EmbedRole.DOCUMENT) -> list[list[float]]:
        """Embed through the wrapped model, timing the call."""
        started = time.perf_counter()
        try:
            vectors = await self._inner.embed(texts, role)
        except BaseException:
            self._metrics.embedded(len(texts), time.perf_counter() - started, ok=False)
            raise
        self._metrics.embedded(len(texts), time.perf_counter() - started, ok=True)
        return vectors
