"""How a process runs: its listener, keys, store, Redis, tracing, logs and metrics."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, SecretStr, model_validator

from memoryd.config.base import HttpUrl, _Section


class ServerSettings(_Section):
    """The gRPC listener."""

    host: str = "127.0.0.1"
    port: int = Field(50051, ge=0, le=65535)
    grace_seconds: float = Field(10.0, ge=0)
    """On SIGTERM, in-flight calls get this long to finish."""
    busy_poll_us: int = Field(300, ge=0, le=100_000)
    """Once every call is answered, the event loop polls this long for the next before it sleeps (0: at once).
    Back-to-back calls skip the wake-up (a Recall of 1,000 visible rows 2.0 → 1.65 ms on a 2-core VM), for
    up to this much CPU per pause between calls."""
    operator_key: SecretStr = SecretStr("")
    """The key of JobService's operator path (``operator_batches``: batch jobs over many tenants); empty: off."""
    tls_cert_file: str = ""
    """PEM certificate chain of the listener; with ``tls_key_file``, the listener speaks TLS only."""
    tls_key_file: str = ""
    tls_client_ca_file: str = ""
    """PEM CA bundle: when set, clients must present a certificate it signed (mutual TLS)."""

    @property
    def tls(self) -> bool:
        """Whether the listener speaks TLS."""
        return bool(self.tls_cert_file and self.tls_key_file)


class AuthSettings(_Section):
    """API keys and protected mode."""

    insecure: bool = False
    """Allow a non-loopback listener without keys or without TLS (a private network you trust)."""
    cache_seconds: float = Field(1.0, gt=0, le=60)
    """A verified key is re-read after this long: the bound on a revocation reaching every replica."""
    reads_per_second: float = Field(200.0, gt=0)
    """Each key's budget for read calls (a token bucket shared through Redis)."""
    writes_per_second: float = Field(50.0, gt=0)
    """Each key's budget for write calls."""
    burst_seconds: float = Field(2.0, gt=0)
    """A bucket holds this many seconds of its rate (bursts up to that size pass)."""
    streams_per_key: int = Field(32, ge=1)
    """Watch streams (WatchConversation, WatchJob) each key may hold open at once on one daemon: a
    runtime watches the conversations and jobs it is serving, a few; each open stream keeps polling,
    so thousands from one key would be a leak or an attack."""


_RENAMED_STORAGE_KEYS = {
    "hot_max_rows": "copy_max_rows",
    "hot_total_rows": "copy_total_rows",
    "hot_tables": "copy_tables",
}
"""Keys renamed when the in-memory copies took one name; the old ones are read, with a warning, until 0.3."""


DEFAULT_STORE_URI = "var/data"
"""The store when neither ``--data`` nor ``storage.uri`` names one (``memoryd up``: its run directory's)."""


def _store_uri(uri: str) -> str:
    scheme, sep, rest = uri.partition("://")
    # lance knows more schemes; memoryd is tested on S3 only, and a directory is a plain path (file://
    # would skip the directory's creation lock and write path)
    if sep and (scheme != "s3" or not rest.strip("/")):
        raise ValueError(f"{uri!r}: give a directory's path or s3://bucket/prefix")
    return uri


class StorageSettings(_Section):
    """The LanceDB store."""

    @model_validator(mode="before")
    @classmethod
    def _renamed_keys(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        for old, new in _RENAMED_STORAGE_KEYS.items():
            if old in data:
                warnings.warn(
                    f"storage.{old} is now storage.{new}; the old name goes in 0.3", FutureWarning, stacklevel=2
                )
                data = {k: v for k, v in data.items() if k != old} | {new: data[new] if new in data else data[old]}
        return data

    uri: Annotated[str, AfterValidator(_store_uri)] = DEFAULT_STORE_URI
    """A directory (embedded default) or an object-store URI such as ``s3://bucket/prefix``."""
    s3_endpoint: HttpUrl = ""
    """An S3-compatible server's URL (e.g. ``http://10.0.0.5:8333``); empty: AWS itself."""
    s3_region: str = "us-east-1"
    s3_access_key_id: str = ""
    """Empty: the object store's usual sources (``AWS_ACCESS_KEY_ID``, the instance's role…)."""
    s3_secret_access_key: SecretStr = SecretStr("")
    s3_allow_http: bool = False
    """Allow a plain-HTTP endpoint (a server on a private network or loopback); TLS otherwise."""
    read_consistency_seconds: float | None = Field(None, ge=0)
    """How stale a read may be: the bound on seeing another process's write. Unset: 0 on a directory
    (every query re-checks the latest version, which a local disk answers at once) and 1 s on object
    storage, where each re-check is a request (``memoryd bench recall`` on an S3 server on loopback:
    Recall p50 10.7 ms at 1 s, 84.9 ms at 0)."""
    ann_min_rows: int = Field(25_000, ge=1)
    """A tenant table gets an IVF_HNSW_SQ vector index from this many rows on, and an in-memory copy
    searches approximately from this many visible rows on (``faiss_rows``: ~1 ms a search against ~3 ms
    exact at 30,000 rows, ~8-12 ms at 100,000). Without an index, LanceDB's vector search reads every
    vector each time (a 32,000-row table: 35 ms of CPU a query, against ~8 ms through the index), which
    under 16 mixed clients cost a quarter of the throughput; the build (~19 s of CPU at 32,000 rows, in a
    child process) runs while the copy still answers the table's Recalls, long before the table outgrows
    ``copy_max_rows``."""
    optimize_min_fragments: int = Field(16, ge=1)
    maintenance_enabled: bool = True
    """Run the maintenance loop in this process. With several replicas on one Redis, they take turns
    through a lease (``maintenance_lease_seconds``): one maintains, the others stand by."""
    maintenance_interval_seconds: float = Field(30.0, gt=0)
    """Every table is visited this often (writes of other processes included)."""
    maintenance_written_seconds: float = Field(1.0, gt=0)
    """Tables this process wrote are visited this often (a busy conversation stays merged). Such a pass
    optimizes a table at most every 5 s; in between, an archive too large for the in-memory copy has
    its small fragments merged (every query of it pays for each one)."""
    maintenance_lease_seconds: float = Field(60.0, gt=0)
    """With a shared Redis, one replica maintains at a time, holding a lease renewed on every pass; if
    it dies, another takes over within this long."""
    index_cache_mb: int = Field(1024, ge=1)
    """LanceDB's index cache (shared by every table of the process; Lance's default is gigabytes). It must
    hold the ANN indexes of the tables being searched (about 0.5 GiB per million rows): too small and
    every vector query re-reads index partitions — 260 ms per query at 300k rows with 128 MiB, 3 ms
    with 1 GiB (``docs/benchmarks.md``). It is an upper bound: memory grows only as indexes are read."""
    metadata_cache_mb: int = Field(32, ge=1)
    """LanceDB's metadata cache (manifests, fragment and file metadata of the versions read)."""
    memory_release_seconds: float = Field(30.0, ge=0)
    """Every this often the C allocator's free pages go back to the system (glibc's ``malloc_trim``):
    compactions and reloads of the in-memory copies free large buffers between live ones, which
    otherwise stay in the resident set for good; 0: never."""
    cleanup_older_than_minutes: float = Field(1.0, ge=0.1)
    """Old table versions are pruned after this (never 0: a query or report of any process may be
    reading one). Kept versions are not free on a local disk: every LanceDB operation lists them, and
    each thousand adds about 1 ms to a commit and 0.5 ms to a query (``docs/benchmarks.md``); at the
    old default of an hour, a tenant committing a few times a second kept tens of thousands. A version
    tagged in Lance (a backup point) is kept whatever its age."""
    copy_max_rows: int = Field(120_000, ge=0)
    """Tenant tables up to this many rows are kept in memory for Recall's arms and fetches; 0: off.
    Past it, Recall reads LanceDB: under 16 mixed clients a 12,000-row tenant served 37 req/s that way
    against 148 from memory; at 100,000 rows (one agent) Recall p50 76.6 ms from LanceDB against 9.8 ms
    from memory, side by side, where from ``ann_min_rows`` visible rows the copy's vector search is an in-memory IVF
    index's candidates scored exactly (``docs/benchmarks.md``). A load reads the whole table (~80 ms per
    10k rows idle) after another process's commit the copy cannot follow (a compaction, an index): with
    several replicas on one store, the replicas not maintaining reload a busy tenant's copy after each
    compaction by the one that does (at 100,000 rows ~4 s of CPU each time) — lower it there. A copy
    loaded within the bound is followed through writes up to an eighth past it (a rewrite adds a row to
    a copy until its next load)."""
    copy_total_rows: int = Field(320_000, ge=1)
    """The copies together hold at most this many rows (least recently used go first): the memory bound,
    about 3.5 KiB a row at 384 dimensions (vectors, columns, full-text postings, the IVF index) and
    ~5.5 KiB of the daemon's RSS (a 100,000-row copy: +564 MiB; ``docs/benchmarks.md``, session 21)."""
    copy_tables: int = Field(256, ge=1)
    """How many such tables a process keeps (least recently used go first). ``copy_total_rows`` bounds
    their memory; past this many tenants read in turn, each read of one not held loaded its table and
    pushed out another: 64 tenants of 2,000 rows under 16 mixed clients served 56.5 req/s with 32 copies,
    148.2 with 64 (``docs/benchmarks.md``, session 39). A copy costs ~0.1 MiB beyond its rows (200 copies
    of 100 rows: +124 MiB); one of 10k rows holds its vectors (15 MiB at 384 dimensions) and columns in
    Arrow memory, and ~15 MiB of Python and numpy objects besides (postings and vocabularies of both
    full-text indexes; measured with ``tracemalloc``)."""
    orphan_grace_seconds: float = Field(60.0, ge=1)
    """Files no table version references and older than this are removed (by the hourly purge, and by
    an erasure before it answers): what commits that lost to a concurrent one left (a compaction
    preempted by an update), holding whatever rows they read. Younger ones may be a commit still in
    flight; an erasure waits until the leftovers it found are this old. Lance itself keeps them a week."""
    forget_purge_minutes: float = Field(60.0, ge=1)
    """Tables with forgotten rows get those rows rewritten out of their files this often; the bytes
    then leave the disk with the next cleanup (a forgotten memory is gone within the sum of both)."""

    servings_spool_seconds: float = Field(60.0, ge=0)
    """The served log waits this long in local files before it goes into LanceDB (one append per tenant
    instead of one a second, which cost Recall's p99 a millisecond or more); a crash loses none of it.
    0: append every second. Reads, erasures and exports of a tenant move its files first."""
    servings_spool_dir: str = ""
    """Where those files wait. Empty: beside a directory ``uri`` (``<uri>-spool``); on object storage,
    empty means no spool, as a local disk's files would be seen by this host only."""

    def servings_spool(self) -> Path | None:
        """The spool's directory, or None when servings go into LanceDB every second."""
        if self.servings_spool_seconds <= 0 or not (self.servings_spool_dir or not self.on_object_storage):
            return None
        if self.servings_spool_dir:
            return Path(self.servings_spool_dir)
        store = Path(self.uri).expanduser()
        return store.with_name(store.name + "-spool")

    def read_consistency(self) -> float:
        """``read_consistency_seconds``, or its default for this kind of store."""
        if self.read_consistency_seconds is not None:
            return self.read_consistency_seconds
        return 1.0 if self.on_object_storage else 0.0

    @property
    def on_object_storage(self) -> bool:
        """Whether the store is an object-store URI (``s3://``) rather than a directory."""
        return self.uri.startswith("s3://")

    def storage_options(self) -> dict[str, str] | None:
        """What LanceDB (and DuckDB's Lance scans) need to reach the object store; None for a directory."""
        if not self.on_object_storage:
            return None
        options = {"aws_region": self.s3_region}
        if self.s3_endpoint:
            options["aws_endpoint"] = self.s3_endpoint
        if self.s3_access_key_id:
            options["aws_access_key_id"] = self.s3_access_key_id
            options["aws_secret_access_key"] = self.s3_secret_access_key.get_secret_value()
        if self.s3_allow_http:
            options["allow_http"] = "true"
        return options


class TracingSettings(_Section):
    """OpenTelemetry traces over OTLP/gRPC (the ``tracing`` extra): a span per RPC and per job run.

    A caller's ``traceparent`` (W3C, in the call metadata) makes memoryd's span its child.
    """

    enabled: bool = False
    otlp_endpoint: str = "http://127.0.0.1:4317"
    insecure: bool = True
    """Plain gRPC to the collector (a local agent); false: TLS."""
    service_name: str = "memoryd"


class LogSettings(_Section):
    """Structured logs on stderr."""

    level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    format: Literal["json", "text"] = "json"


class MetricsSettings(_Section):
    """Prometheus ``/metrics`` of ``memoryd serve`` and ``memoryd worker`` (``adapters.prometheus_metrics``)."""

    enabled: bool = True
    host: str = "127.0.0.1"
    """Loopback by default: the series name no tenant, but their rates are still the service's business."""
    port: int = Field(9464, ge=1, le=65535)
    worker_port: int = Field(9465, ge=1, le=65535)
    """``memoryd worker``'s own ``/metrics`` (jobs by kind and state, queue backlog, the breaker)."""
    refresh_seconds: float = Field(15.0, gt=0)
    """How often a worker reads the job gauges from Redis."""
    tenant_label: bool = True
    """Label the provider call and token counters with the tenant (one series per tenant and model:
    turn off when tenants are too many to scrape); no other series names a tenant."""


def _redis_url(dsn: str) -> str:
    if dsn and not dsn.startswith(("redis://", "rediss://", "unix://")):  # else a traceback at first connect
        # (the value is not repeated: a URL may carry a password)
        raise ValueError("must be a redis://, rediss:// or unix:// URL (REDIS_URL sets it)")
    return dsn


class RedisSettings(_Section):
    """The job queue's Redis/Valkey; empty dsn means `memoryd up` starts an embedded Valkey."""

    dsn: Annotated[str, AfterValidator(_redis_url)] = ""
    embedded_port: int = Field(0, ge=0, le=65535)
    """The embedded Valkey's port under `memoryd up`; 0 lets the system pick a free one (logged at start)."""
