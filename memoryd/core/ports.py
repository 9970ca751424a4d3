"""Ports: what the services need from the outside world, as Protocols.

Each has one real adapter in ``memoryd.adapters`` and a fake in ``tests/fakes.py``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from typing import Any, Protocol

from memoryd.core.agent_config import StoredConfig
from memoryd.core.audit import Finding, Review
from memoryd.core.audit_log import AuditEvent, Operation
from memoryd.core.conversation import Conversation, ConversationEvent, Message, Summary
from memoryd.core.data_rights import TableFile
from memoryd.core.feedback import Signal
from memoryd.core.graph import Entity, Episode, Fact, GraphScope
from memoryd.core.job_records import JobEvent, JobKind, JobRecord, JobState
from memoryd.core.keys import ApiKey
from memoryd.core.models import (
    Actor,
    ArmHit,
    FullTextQuery,
    FullTextTier,
    MemoryFilter,
    MemoryRecord,
    Profile,
    Vector,
)
from memoryd.core.usage import UsageReport

Row = dict[str, Any]
"""A stored row as plain JSON values (export and import)."""


class MemoryStore(Protocol):
    """The archive. Every method applies the actor's tenant and visibility itself.

    Rows live in per-tenant partitions, so a query cannot reach another tenant
    even if a filter is forgotten; within the partition every read and write
    adds the actor's visibility rule (``core.visibility``).
    """

    async def insert(
        self,
        tenant_id: str,
        rows: Sequence[tuple[MemoryRecord, Vector]],
        extra: Mapping[str, Sequence[Vector | None]] | None = None,
    ) -> None:
        """Durably add rows (all or none) to the tenant's partition.

        ``rows`` carry the store's model's vectors; ``extra`` the same rows' vectors in another
        embedding space (by model; a re-embed in progress), where the tenant's table has one.
        """
        ...

    async def get(self, actor: Actor, memory_id: str) -> MemoryRecord | None:
        """The row if it exists and the actor sees it."""
        ...

    async def get_many(
        self, actor: Actor, memory_ids: Sequence[str], *, with_retrievals: bool = True
    ) -> dict[str, MemoryRecord]:
        """The visible rows among ``memory_ids``, by id (missing or invisible ids are absent).

        ``with_retrievals=False`` skips the retrieval statistics (left at 0 / unset): Recall
        uses it so that counting retrievals never costs Recall a lookup.
        """
        ...

    async def by_request(self, actor: Actor, prefix: str, since: datetime) -> dict[str, MemoryRecord]:
        """The actor's tenant's rows created at or after ``since`` whose ``request_key`` starts with ``prefix``.

        Visible or not (another contact's row): the caller only compares them with a retry, and
        answers with a row only when the retry matches it, contact included.
        """
        ...

    async def nearest(
        self, actor: Actor, vector: Vector, flt: MemoryFilter, limit: int, min_similarity: float, space: str = ""
    ) -> list[ArmHit]:
        """Visible ids by cosine similarity, best first, at or above the floor.

        ``space``: the model whose vectors to search ("" = the store's model, always complete).
        """
        ...

    async def nearest_many(
        self, actor: Actor, vectors: Sequence[Vector], flt: MemoryFilter, limit: int, min_similarity: float
    ) -> list[list[ArmHit]]:
        """``nearest`` for each of several vectors under one filter (a write group's dedup lookups)."""
        ...

    async def full_text(
        self, actor: Actor, query: FullTextQuery, flt: MemoryFilter, limit: int, require_all: bool
    ) -> list[ArmHit]:
        """Visible ids by BM25; ``require_all`` ANDs the terms, otherwise ORs them."""
        ...

    async def full_text_tiers(
        self, actor: Actor, tiers: Sequence[FullTextTier], flt: MemoryFilter, limit: int
    ) -> list[ArmHit]:
        """``full_text`` of each tier, merged (``core.ranking.merge_tiers``).

        Each tier fills the places the ones before it left; a tier is searched only while places remain.
        """
        ...

    async def replace(
        self, actor: Actor, record: MemoryRecord, vector: Vector | None, extra: Mapping[str, Vector] | None = None
    ) -> bool:
        """Overwrite a visible row (new vector optional); False if it is gone or invisible.

        Without a new vector every stored vector is kept; with one, the row's vectors in other
        spaces are ``extra``'s, or left to be filled again (the text changed).
        """
        ...

    async def expire(self, tenant_id: str, before: datetime, dry_run: bool) -> list[str]:
        """Delete memories created before ``before`` (retention); their ids (nothing deleted when dry)."""
        ...

    async def erase_end_user(self, tenant_id: str, end_user_id: str) -> tuple[list[str], list[str]]:
        """Delete every memory of a contact, any scope or author (an erasure); (ids, tables touched)."""
        ...

    async def delete(self, actor: Actor, memory_id: str) -> bool:
        """Delete a visible row; False if it was not there."""
        ...

    async def page(self, actor: Actor, flt: MemoryFilter, after_id: str, limit: int) -> list[MemoryRecord]:
        """Visible rows with id > after_id, in id (creation) order."""
        ...

    async def page_ids(self, actor: Actor, flt: MemoryFilter, after_id: str, limit: int) -> list[str]:
        """The ids of the same page as ``page``, without reading the rows."""
        ...

    async def record_retrievals(
        self, tenant_id: str, recalled: Mapping[str, int], injected: Mapping[str, int], at: datetime
    ) -> None:
        """Add to retrieval_count (Recall) and injection_count (auto-recall); set last_retrieved_at on recalls."""
        ...

    async def pending_embeddings(self, tenant_id: str, limit: int) -> tuple[list[MemoryRecord], int]:
        """Up to ``limit`` memories stored with their embedding pending, and how many are pending in all."""
        ...

    async def fill_embeddings(self, tenant_id: str, rows: Sequence[tuple[MemoryRecord, Vector]], model: str) -> int:
        """Store the vectors of pending memories whose text is unchanged; how many were filled."""
        ...

    async def record_feedback(self, tenant_id: str, signals: Sequence[tuple[str, Signal]], at: datetime) -> None:
        """Count each (memory id, signal) once and move its salience shift (``core.feedback``); durable on return."""
        ...


class EmbeddingSpaces(Protocol):
    """A second embedding space beside the store's model, per tenant (re-embedding after a model change).

    The store's model stays the space every write fills and dedup and reviews compare in; a
    tenant's Recall moves to the other space when it is switched (and back, while both are kept).
    """

    async def target(self) -> tuple[str, int] | None:
        """The model (and dimension) being re-embedded to, if a re-embed began."""
        ...

    async def begin(self, model: str, dimension: int) -> None:
        """Record the re-embed (idempotent); PreconditionFailed when another model's is under way."""
        ...

    async def active(self) -> dict[str, str]:
        """Tenant → the model its Recall searches, for every tenant switched off the store's model."""
        ...

    async def switch(self, tenant_id: str, model: str) -> None:
        """Make ``model`` the tenant's Recall space ("" = back to the store's model), in one commit."""
        ...


class SpaceFiller(Protocol):
    """The archive's rows in a second embedding space: made, counted, filled (the re-embed job's store)."""

    async def tenants(self) -> list[str]:
        """Every tenant with an archive."""
        ...

    async def add_space(self, tenant_id: str, model: str, dimension: int) -> None:
        """Give the tenant's table the space's column (idempotent, safe against a concurrent adder)."""
        ...

    async def space_progress(self, tenant_id: str, model: str) -> tuple[int, int]:
        """(rows still without a vector in the space, rows in all)."""
        ...

    async def missing_in_space(self, tenant_id: str, model: str, limit: int, after_id: str = "") -> list[MemoryRecord]:
        """Up to ``limit`` rows without a vector in the space (ids above ``after_id``), in id order."""
        ...

    async def fill_space(self, tenant_id: str, model: str, rows: Sequence[tuple[MemoryRecord, Vector]]) -> int:
        """Store the space's vectors over rows whose text is unchanged and still unfilled; how many."""
        ...


class ReembedFinisher(Protocol):
    """The end of a re-embed: every table moved to the new model, the old vectors dropped (offline)."""

    async def finish(
        self, model: str, dimension: int, embed: Callable[[Sequence[str]], Awaitable[list[list[float]]]]
    ) -> dict[str, int]:
        """Make ``model`` the store's own (resumable; PreconditionFailed when no re-embed to it is under way)."""
        ...


class ArchiveSnapshot(Protocol):
    """Whole visible archives at once, for background jobs (reviews, never a request path)."""

    async def with_vectors(self, actor: Actor) -> tuple[list[MemoryRecord], Sequence[Vector]]:
        """Every active memory the actor sees (retrieval counts included) and its vector, in the same order."""
        ...

    async def fingerprint(self, actor: Actor) -> str:
        """A digest of the actor's visible active set (ids, update times): equal exactly when nothing changed."""
        ...


class NeighbourSearch(Protocol):
    """Exact nearest neighbours among a set of unit vectors (CPU work: callers run it off the event loop)."""

    def neighbours(self, vectors: Sequence[Vector], k: int, min_similarity: float) -> list[list[tuple[int, float]]]:
        """For each vector, up to ``k`` other indices with cosine at least ``min_similarity``, best first."""
        ...


class ReviewStore(Protocol):
    """Reviews and their findings, per tenant; writes are upserts on deterministic ids."""

    async def put_review(self, tenant_id: str, review: Review) -> None:
        """Insert or replace the review row."""
        ...

    async def review(self, tenant_id: str, review_id: str) -> Review | None:
        """One review, or None."""
        ...

    async def reviews(self, tenant_id: str, agent_id: str, limit: int) -> list[Review]:
        """The agent's reviews, newest first."""
        ...

    async def put_findings(self, tenant_id: str, findings: Sequence[Finding]) -> None:
        """Insert or replace findings by id."""
        ...

    async def findings(self, tenant_id: str, review_id: str) -> list[Finding]:
        """A review's findings, in a stable order."""
        ...

    async def erase_findings(self, tenant_id: str, memory_ids: Sequence[str]) -> tuple[int, list[str]]:
        """Delete findings naming any of these memories; (findings deleted, tables touched)."""
        ...

    async def put_report(self, tenant_id: str, report_id: str, report: UsageReport) -> None:
        """Keep a usage report (an audit batch's), replacing one with the same id."""
        ...

    async def reports(self, tenant_id: str, limit: int) -> list[tuple[str, UsageReport]]:
        """Kept usage reports with their ids, newest first."""
        ...


class UsageAnalytics(Protocol):
    """Analytics over the store's tables (reads only)."""

    async def report(self, tenant_id: str, agent_id: str, since: datetime | None, now: datetime) -> UsageReport:
        """The usage report of the tenant (``agent_id`` empty) or of one agent's memories, since a time."""
        ...


class StoreMaintenance(Protocol):
    """Background upkeep of the store, run off the request path."""

    async def maintain(self, *, full: bool = True) -> None:
        """Compact small fragments, fold new rows into indexes, build ANN indexes where large.

        ``full`` visits every table; otherwise only those this process wrote since the last pass.
        """
        ...

    async def purge(self, names: Sequence[str]) -> int:
        """Take deleted rows off the disk now (every version and index file that held them); versions removed."""
        ...

    async def settled(self) -> None:
        """Wait for the work that passes leave running beside them (an ANN index build)."""
        ...

    def paused(self) -> AbstractAsyncContextManager[None]:
        """No pass of this process runs meanwhile (one under way finishes first; index builds stop)."""
        ...

    async def unreferenced(self, names: Sequence[str]) -> list[TableFile]:
        """The files of these tables that no version references: what commits that lost left behind."""
        ...

    async def remove(self, files: Sequence[TableFile], older_than: timedelta) -> int:
        """Delete those of ``files`` older than ``older_than`` (by the store's clock) that no version references now."""
        ...

    async def close(self) -> None:
        """Stop that work (shutdown)."""
        ...


class Embedder(Protocol):
    """Text to L2-normalised vectors."""

    @property
    def model_name(self) -> str:
        """The name recorded on every row it embeds."""
        ...

    @property
    def dimension(self) -> int:
        """Vector length."""
        ...

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order."""
        ...


class Clock(Protocol):
    """The time source (a frozen clock in tests)."""

    def now(self) -> datetime:
        """The current UTC time."""
        ...


class ProfileStore(Protocol):
    """Profiles (one row per agent, compare-and-swap on revision) and their append-only history."""

    async def current(self, tenant_id: str, agent_id: str) -> Profile | None:
        """The current revision, or None if never written."""
        ...

    async def swap(self, tenant_id: str, profile: Profile, expected_revision: int) -> bool:
        """Write ``profile`` if the stored revision still equals ``expected_revision`` (0: absent).

        ``profile.revision`` is ``expected_revision + 1`` (ValueError otherwise): revisions count writes.
        """
        ...

    async def log_revision(self, tenant_id: str, profile: Profile) -> None:
        """Append a revision to the history (idempotent per agent and revision)."""
        ...

    async def revisions(self, tenant_id: str, agent_id: str, before: int, limit: int) -> list[Profile]:
        """Logged revisions older than ``before``, newest first."""
        ...

    async def log_failure(self, tenant_id: str, agent_id: str, base_revision: int, source: str, reason: str) -> None:
        """Record an automatic rewrite that was refused (the profile stayed as it was)."""
        ...


class AgentConfigStore(Protocol):
    """Stored settings: one row for a tenant (agent id "") and one per agent, compare-and-swap on version."""

    async def configs(self, tenant_id: str, agent_ids: Sequence[str]) -> dict[str, StoredConfig]:
        """The rows of ``agent_ids`` ("" for the tenant) that exist, by agent id."""
        ...

    async def swap_config(self, tenant_id: str, agent_id: str, config: StoredConfig, expected_version: int) -> bool:
        """Write ``config`` if the stored version still equals ``expected_version`` (0: absent)."""
        ...


class GraphStore(Protocol):
    """The memory graph's rows, per tenant; reads named ``visible_*`` or taking an actor apply the scope rule."""

    async def put_entities(self, tenant_id: str, rows: Sequence[tuple[Entity, Vector]]) -> None:
        """Upsert entities (with their name embeddings) by id."""
        ...

    async def entities(self, tenant_id: str, entity_ids: Sequence[str]) -> dict[str, Entity]:
        """Entities by id (the caller checks visibility)."""
        ...

    async def entity_vectors(self, tenant_id: str, entity_ids: Sequence[str]) -> dict[str, Vector]:
        """Stored name embeddings."""
        ...

    async def entities_named(self, tenant_id: str, where: GraphScope, names: Sequence[str]) -> list[Entity]:
        """Entities of exactly this scope whose normalised name or an alias is one of ``names``."""
        ...

    async def nearest_entities(self, tenant_id: str, where: GraphScope, vector: Vector, limit: int) -> list[ArmHit]:
        """The closest entities of exactly this scope by name embedding (score: cosine similarity)."""
        ...

    async def put_facts(self, tenant_id: str, rows: Sequence[tuple[Fact, Vector]]) -> None:
        """Upsert facts (with their sentence embeddings) by id, in one commit."""
        ...

    async def fact_vectors(self, tenant_id: str, fact_ids: Sequence[str]) -> dict[str, Vector]:
        """Stored sentence embeddings."""
        ...

    async def facts(self, tenant_id: str, fact_ids: Sequence[str]) -> dict[str, Fact]:
        """Facts by id (the caller checks visibility)."""
        ...

    async def facts_of(self, tenant_id: str, where: GraphScope, subject_id: str) -> list[Fact]:
        """Every fact of one subject in exactly this scope."""
        ...

    async def facts_touching(self, tenant_id: str, entity_ids: Sequence[str]) -> list[Fact]:
        """Every fact whose subject or object is one of ``entity_ids`` (merges, erasure)."""
        ...

    async def visible_facts_touching(self, actor: Actor, entity_ids: Sequence[str], limit: int) -> list[Fact]:
        """Facts the actor sees whose subject or object is one of ``entity_ids``."""
        ...

    async def fact_seeds(
        self, actor: Actor, vector: Vector, words: Sequence[str], limit: int
    ) -> tuple[list[tuple[Fact, float]], list[tuple[Fact, float]]]:
        """Visible facts nearest the vector, and those matching the words, with their arm scores, best first."""
        ...

    async def entity_seeds(self, actor: Actor, words: Sequence[str], limit: int) -> list[str]:
        """Visible, unmerged entities whose names match the words, best first."""
        ...

    async def delete_facts(self, tenant_id: str, fact_ids: Sequence[str]) -> None:
        """Delete facts by id."""
        ...

    async def put_episode(self, tenant_id: str, episode: Episode) -> None:
        """Insert an episode once."""
        ...

    async def erase_end_user(self, tenant_id: str, end_user_id: str) -> tuple[dict[str, int], list[str]]:
        """Delete a contact's entities, facts and episodes and every fact naming its entities; (counts, tables)."""
        ...


class TokenCounter(Protocol):
    """Exact token counts in one encoding."""

    @property
    def encoding(self) -> str:
        """The encoding name, e.g. "o200k_base"."""
        ...

    def count(self, text: str) -> int:
        """Number of tokens in ``text`` (special-token text counts as plain text)."""
        ...


class ChatModel(Protocol):
    """A chat model that answers with one JSON object (jobs validate its shape)."""

    @property
    def model_name(self) -> str:
        """The provider's model name, recorded with what it produced."""
        ...

    async def complete_json(self, system: str, user: str, model: str = "") -> tuple[dict[str, object], int, int]:
        """The parsed JSON object, prompt tokens and completion tokens (``model``: another of the provider's models).

        Raises:
            Unavailable / RateLimited: transient (connection, timeout, 429, 5xx); retry later.
            ModelOutputInvalid: the answer is not a JSON object.
            NotReady: the provider refused the request (4xx other than 429): fix the configuration.

        """
        ...


class AgentDirectory(Protocol):
    """Operator-level enumeration of who has memories (batch jobs only, never a request path)."""

    async def agents(self) -> list[tuple[str, str]]:
        """Every (tenant, agent) that authored at least one memory."""
        ...


class ArchiveStore(MemoryStore, AgentDirectory, ArchiveSnapshot, Protocol):
    """The archive adapter: request-path reads and writes, the agent directory and whole-archive snapshots."""


class JobLedger(Protocol):
    """The durable records of jobs, partitioned by tenant, with an event stream per job."""

    async def claim(self, record: JobRecord, *, redrive: bool) -> tuple[JobRecord, bool]:
        """Create the record, or return the existing one; True when this call (re)started a run.

        A live record is returned as it is. A failed or dead one is re-driven (new run,
        state queued) when ``redrive``; a succeeded one is returned as it is.
        """
        ...

    async def claim_many(self, records: Sequence[JobRecord], *, redrive: bool) -> list[tuple[JobRecord, bool]]:
        """``claim`` of each record (distinct keys), in order, in a few round trips for all (a batch's fan-out)."""
        ...

    async def get(self, tenant_id: str, key: str) -> JobRecord | None:
        """The record, or None."""
        ...

    async def get_many(self, keys: Sequence[tuple[str, str]]) -> list[JobRecord | None]:
        """Records of (tenant, key) pairs in one round trip, None where absent."""
        ...

    async def page(
        self, tenant_id: str, kind: JobKind | None, state: JobState | None, agent_id: str, limit: int, before: float
    ) -> list[JobRecord]:
        """Newest first, created before the ``before`` timestamp (0: from the newest)."""
        ...

    async def update(self, record: JobRecord, message: str) -> None:
        """Write the record's new state and append an event (one atomic step); nothing if it was erased."""
        ...

    async def events(self, tenant_id: str, key: str, after: str, block_seconds: float) -> list[tuple[str, JobEvent]]:
        """Events after the cursor ``after`` ("" from the start), waiting up to ``block_seconds``."""
        ...

    async def in_state(self, state: JobState) -> list[JobRecord]:
        """Every record in a live ``state`` across tenants (re-queueing parked jobs, the reconciler)."""
        ...

    async def ping(self) -> None:
        """One round trip to the ledger's server; Unavailable if it does not answer."""
        ...

    async def flag(self, name: str) -> bool:
        """Whether an operator-level flag is set."""
        ...

    async def set_flag(self, name: str) -> None:
        """Set an operator-level flag (durably)."""
        ...

    async def add_parts(self, batch_key: str, parts: Mapping[str, tuple[str, str]]) -> None:
        """Remember a batch's jobs: part name (e.g. tenant and agent) → (tenant, job key).

        A name set again points at its new job.
        """
        ...

    async def keys(self, tenant_id: str) -> list[str]:
        """Every job key of the tenant."""
        ...

    async def restore(self, record: JobRecord) -> None:
        """Write a record as it was (an import restores history; nothing is queued)."""
        ...

    async def erase(self, tenant_id: str, keys: Sequence[str]) -> int:
        """Delete these jobs' records and events; the number of records deleted."""
        ...

    async def purge_persistence(self, timeout_seconds: float = 60.0) -> bool:
        """Make deleted keys leave the server's persistence files; False when it cannot."""
        ...

    async def parts(self, batch_key: str) -> dict[str, tuple[str, str]]:
        """The jobs a batch remembered, by part name."""
        ...


class JobQueue(Protocol):
    """Delivers a job's key to a worker, at least once."""

    async def submit(self, record: JobRecord, defer_seconds: float = 0) -> None:
        """Queue the record's current run (a second submit of the same run is a no-op)."""
        ...

    async def submit_many(self, records: Sequence[JobRecord]) -> None:
        """``submit`` of each record's current run, due now; the workers woken once, not once per record."""
        ...

    async def forget(self, records: Sequence[JobRecord]) -> None:
        """Drop every message of these jobs, all runs (an erasure)."""
        ...

    async def backlog(self, now: datetime) -> dict[str, tuple[int, float]]:
        """Per queue: messages held, and how long the oldest one due by ``now`` has waited (s; 0 if none)."""
        ...

    async def release(self, record: JobRecord) -> None:
        """Free the record's current message from a dead worker's hold, so the next poll delivers it again."""
        ...


class ProviderGate(Protocol):
    """Shared across every worker: a circuit breaker on the provider and per-tenant call slots."""

    async def open_for(self) -> float:
        """Seconds the circuit stays open (0: closed, calls may go). Half-open, a 0 makes the caller the probe."""
        ...

    async def observed_open_for(self) -> float:
        """``open_for`` as an observer sees it (gauges, benchmarks): never taking the half-open probe."""
        ...

    async def record(self, ok: bool) -> None:
        """Count a call's outcome; enough consecutive failures open the circuit."""
        ...

    async def acquire(self, tenant_id: str, holder: str) -> bool:
        """Take one of the tenant's concurrent provider slots; False when all are taken."""
        ...

    async def release(self, tenant_id: str, holder: str) -> None:
        """Give the slot back."""
        ...


class Leases(Protocol):
    """Exclusive, expiring holds by name, shared by every worker (one compaction per conversation)."""

    async def lock(self, name: str, holder: str, seconds: float) -> bool:
        """Take the lease on ``name`` (re-entrant for ``holder``; expires after ``seconds``)."""
        ...

    async def unlock(self, name: str, holder: str) -> None:
        """Give the lease back if ``holder`` still has it."""
        ...

    async def is_held(self, name: str) -> bool:
        """Whether anyone holds ``name`` now (a heartbeat: a worker is alive while its lease is)."""
        ...


class ConversationStore(Protocol):
    """Conversations of one tenant: a state row (CAS on revision) and append-only items."""

    async def state(self, tenant_id: str, conversation_id: str) -> Conversation | None:
        """The state row, or None for a new conversation."""
        ...

    async def swap_state(self, tenant_id: str, conv: Conversation, expected_revision: int) -> bool:
        """Write ``conv`` if the stored revision is ``expected_revision`` (0: create).

        ``conv.revision`` is ``expected_revision + 1`` (ValueError otherwise): revisions count writes.
        """
        ...

    async def existing_messages(
        self, tenant_id: str, conversation_id: str, message_ids: Sequence[str]
    ) -> dict[str, Message]:
        """The messages the conversation already holds under these client message ids, by id."""
        ...

    async def add_messages(self, tenant_id: str, conversation_id: str, messages: Sequence[Message]) -> None:
        """Insert-if-absent by client message id (a retried append never doubles)."""
        ...

    async def remove_messages(self, tenant_id: str, conversation_id: str, messages: Sequence[Message]) -> None:
        """Delete these messages (by message id and seq): an append's own, when its conversation was erased under it."""
        ...

    async def messages(self, tenant_id: str, conversation_id: str, after_seq: int) -> list[Message]:
        """Messages with seq > ``after_seq``, in order."""
        ...

    async def put_summary(self, tenant_id: str, conversation_id: str, summary: Summary) -> None:
        """Insert-if-absent by summary id."""
        ...

    async def summaries(self, tenant_id: str, conversation_id: str, summary_ids: Sequence[str]) -> list[Summary]:
        """These summaries, in the order given."""
        ...

    async def add_event(self, tenant_id: str, conversation_id: str, event: ConversationEvent) -> None:
        """Insert-if-absent by event id."""
        ...

    async def events(self, tenant_id: str, conversation_id: str, after: datetime | None) -> list[ConversationEvent]:
        """Events after ``after`` (None: all), oldest first."""
        ...

    async def idle(self, tenant_id: str, before: datetime) -> list[str]:
        """The ids of the conversations untouched since ``before`` (retention's candidates)."""
        ...

    async def expire(
        self, tenant_id: str, conversations: Sequence[str], before: datetime, dry_run: bool
    ) -> tuple[list[str], int]:
        """Delete those of ``conversations`` still untouched since ``before``, with every item; (ids, items).

        ``dry_run``: count them instead.
        """
        ...

    async def of_end_user(self, tenant_id: str, end_user_id: str) -> list[str]:
        """The ids of a contact's conversations."""
        ...

    async def erase_end_user(self, tenant_id: str, end_user_id: str) -> tuple[list[str], int, list[str]]:
        """Delete a contact's conversations and all their items; (conversation ids, items, tables touched)."""
        ...

    async def put_blob(self, tenant_id: str, conversation_id: str, blob_id: str, data: str) -> None:
        """Keep a validated model output (insert-if-absent) so a re-run reuses it."""
        ...

    async def blob(self, tenant_id: str, conversation_id: str, blob_id: str) -> str | None:
        """A kept output, or None."""
        ...


class KeyStore(Protocol):
    """API keys of every tenant (only hashes of their secrets); writes are upserts on the key id."""

    async def put_key(self, key: ApiKey) -> None:
        """Insert or replace a key."""
        ...

    async def key(self, key_id: str) -> ApiKey | None:
        """One key, or None."""
        ...

    async def keys(self, tenant_id: str | None) -> list[ApiKey]:
        """A tenant's keys, or every key with None; oldest first."""
        ...

    async def touch_key(self, key_id: str, at: datetime) -> None:
        """Set ``last_used_at`` only (a concurrent revocation must survive it)."""
        ...

    async def any_active(self) -> bool:
        """Whether any key is not revoked."""
        ...


class AuditEventStore(Protocol):
    """The audit log, per tenant; appends are upserts on the event id (a retried flush converges)."""

    async def append_events(self, tenant_id: str, events: Sequence[AuditEvent]) -> None:
        """Store events (one commit)."""
        ...

    async def events(
        self, tenant_id: str, since: datetime | None, until: datetime | None, operation: Operation | None
    ) -> list[AuditEvent]:
        """The tenant's events in [since, until), oldest first."""
        ...


class TenantArchive(Protocol):
    """Every stored row of a tenant as JSON-ready rows, by kind, and back (export and import)."""

    def rows(self, tenant_id: str, end_user_id: str | None, with_vectors: bool) -> AsyncIterator[tuple[str, Row]]:
        """(kind, row) of every row, or of the rows that concern one contact; stable order."""
        ...

    async def is_empty(self, tenant_id: str) -> bool:
        """Whether the tenant has nothing stored."""
        ...

    async def tenants(self) -> list[str]:
        """Every tenant with anything stored, sorted."""
        ...

    async def import_rows(
        self,
        tenant_id: str,
        kind: str,
        rows: Sequence[Row],
        embed: Callable[[list[str]], Awaitable[list[list[float]]]],
        model_name: str,
    ) -> int:
        """Write rows of one kind; memory rows lacking a vector of ``model_name`` are embedded."""
        ...


class RateLimiter(Protocol):
    """Token buckets shared by every replica."""

    async def take(self, bucket: str, rate: float, burst: float) -> float:
        """Take one token: 0 when granted, else the seconds until one is there (nothing taken)."""
        ...
