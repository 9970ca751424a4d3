"""In-process fakes written against the core ports (no patching anywhere)."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from memoryd.core.agent_config import StoredConfig
from memoryd.core.answer_schemas import AnswerSchema
from memoryd.core.conversation import Conversation, ConversationEvent, Message, Summary
from memoryd.core.embed_roles import EmbedRole
from memoryd.core.errors import Unavailable
from memoryd.core.event_log import EventQuery, LogEvent
from memoryd.core.feedback import STEPS, FeedbackSummary, Signal, bounded
from memoryd.core.job_records import JobEvent, JobKind, JobRecord, JobState
from memoryd.core.keys import ApiKey
from memoryd.core.models import (
    Actor,
    ArmHit,
    FullTextQuery,
    FullTextTier,
    MemoryFilter,
    MemoryRecord,
    MemoryStatus,
    MemoryType,
    Profile,
    Scope,
    Vector,
)
from memoryd.core.query_terms import words
from memoryd.core.ranking import merge_tiers
from memoryd.core.review import Finding, Review
from memoryd.core.usage import UsageReport, gini
from memoryd.core.vectors import cosine
from memoryd.core.visibility import is_visible, matches_filter
from memoryd.testing.provider import hashed_embedding


class FrozenClock:
    """A clock that only moves when told."""

    def __init__(self, start: datetime | None = None) -> None:
        self.current = start or datetime(2026, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        return self.current

    def advance(self, **kw: float) -> None:
        self.current += timedelta(**kw)


class HashEmbedder:
    """Bag-of-words hashing into 64 dims (``memoryd.testing.hashed_embedding``): texts sharing words are similar."""

    model_name = "hash-64"
    dimension = 64

    def __init__(self) -> None:
        self.calls = 0
        self.roles: list[tuple[EmbedRole, tuple[str, ...]]] = []
        """Every call's role and texts, in order."""

    async def embed(self, texts: Sequence[str], role: EmbedRole = EmbedRole.DOCUMENT) -> list[list[float]]:
        self.calls += 1
        self.roles.append((role, tuple(texts)))
        return [hashed_embedding(text, self.dimension) for text in texts]


class FailingEmbedder:
    """The wrapped embedder's name and size, but every call fails as an unreachable embedder does."""

    def __init__(self, like: Any) -> None:
        self.model_name = like.model_name
        self.dimension = like.dimension

    async def embed(self, texts: Sequence[str], role: EmbedRole = EmbedRole.DOCUMENT) -> list[list[float]]:
        raise Unavailable("embedder unreachable (test)")


class InMemoryStore:
    """MemoryStore over dicts, applying core.visibility.is_visible."""

    def __init__(self) -> None:
        self.rows: dict[str, tuple[MemoryRecord, list[float]]] = {}
        self.commits = 0
        """Inserts so far (each is one commit in the real store)."""
        self.pending_reads = 0
        """Looks for memories with their embedding pending (each is a scan of a table in the real store)."""

    def _visible(self, actor: Actor, flt: MemoryFilter) -> list[tuple[MemoryRecord, list[float]]]:
        return [(r, v) for r, v in self.rows.values() if is_visible(actor, r) and matches_filter(r, flt)]

    async def insert(
        self,
        tenant_id: str,
        rows: Sequence[tuple[MemoryRecord, Vector]],
        extra: Mapping[str, Sequence[Vector | None]] | None = None,
    ) -> None:
        assert not extra  # one embedding space only: re-embedding is tested on LanceDB
        self.commits += 1
        for record, vector in rows:
            assert record.tenant_id == tenant_id
            self.rows[record.memory_id] = (record, list(vector))

    async def expire(self, tenant_id: str, before: datetime, dry_run: bool) -> list[str]:
        old = sorted(
            m for m, (r, _) in self.rows.items() if r.tenant_id == tenant_id and r.created_at < before and not r.pinned
        )
        if not dry_run:
            for memory_id in old:
                del self.rows[memory_id]
        return old

    async def erase_end_user(self, tenant_id: str, end_user_id: str) -> tuple[list[str], list[str]]:
        gone = sorted(m for m, (r, _) in self.rows.items() if r.tenant_id == tenant_id and r.end_user_id == end_user_id)
        for memory_id in gone:
            del self.rows[memory_id]
        return gone, [f"memories_{tenant_id}"] if gone else []

    async def get(self, actor: Actor, memory_id: str) -> MemoryRecord | None:
        row = self.rows.get(memory_id)
        return row[0] if row and is_visible(actor, row[0]) else None

    async def get_many(
        self, actor: Actor, memory_ids: Sequence[str], *, with_retrievals: bool = True
    ) -> dict[str, MemoryRecord]:
        found = {i: await self.get(actor, i) for i in memory_ids}
        return {i: r for i, r in found.items() if r is not None}

    async def vectors_of(self, actor: Actor, memory_ids: Sequence[str], space: str = "") -> dict[str, Vector]:
        found = (self.rows.get(i) for i in memory_ids)
        return {r.memory_id: v for r, v in (f for f in found if f is not None) if is_visible(actor, r)}

    async def by_request(self, actor: Actor, prefix: str, since: datetime) -> dict[str, MemoryRecord]:
        return {
            r.request_key: r
            for r, _ in self.rows.values()
            if r.tenant_id == actor.tenant_id and r.request_key.startswith(prefix) and r.created_at >= since
        }

    async def nearest_many(
        self, actor: Actor, vectors: Sequence[Vector], flt: MemoryFilter, limit: int, min_similarity: float
    ) -> list[list[ArmHit]]:
        return [await self.nearest(actor, v, flt, limit, min_similarity) for v in vectors]

    async def nearest(
        self, actor: Actor, vector: Vector, flt: MemoryFilter, limit: int, min_similarity: float, space: str = ""
    ) -> list[ArmHit]:
        assert not space
        scored = [ArmHit(r.memory_id, cosine(vector, v), r.occurred_at) for r, v in self._visible(actor, flt)]
        scored = [h for h in scored if h.score >= min_similarity]
        return sorted(scored, key=lambda h: -h.score)[:limit]

    async def full_text(
        self, actor: Actor, query: FullTextQuery, flt: MemoryFilter, limit: int, require_all: bool
    ) -> list[ArmHit]:
        hits = []
        for record, _ in self._visible(actor, flt):
            have = set(words(record.content))
            n = sum(1 for t in query.terms if t in have)
            if n and (not require_all or n == len(query.terms)):
                hits.append(ArmHit(record.memory_id, float(n), record.occurred_at))
        return sorted(hits, key=lambda h: -h.score)[:limit]

    async def full_text_tiers(
        self, actor: Actor, tiers: Sequence[FullTextTier], flt: MemoryFilter, limit: int
    ) -> list[ArmHit]:
        hits: list[ArmHit] = []
        for tier in tiers:  # through ``full_text``: fakes that override it see every tier
            if len(hits) < limit:
                hits = merge_tiers([hits, await self.full_text(actor, tier.query, flt, limit, tier.require_all)], limit)
        return hits

    async def replace(
        self, actor: Actor, record: MemoryRecord, vector: Vector | None, extra: Mapping[str, Vector] | None = None
    ) -> bool:
        assert not extra
        row = self.rows.get(record.memory_id)
        if row is None or not is_visible(actor, row[0]):
            return False
        self.rows[record.memory_id] = (record, list(vector) if vector is not None else row[1])
        return True

    async def delete(self, actor: Actor, memory_id: str) -> bool:
        row = self.rows.get(memory_id)
        if row is None or not is_visible(actor, row[0]):
            return False
        del self.rows[memory_id]
        return True

    async def page(self, actor: Actor, flt: MemoryFilter, after_id: str, limit: int) -> list[MemoryRecord]:
        rows = sorted((r for r, _ in self._visible(actor, flt) if r.memory_id > after_id), key=lambda r: r.memory_id)
        return rows[:limit]

    async def page_ids(self, actor: Actor, flt: MemoryFilter, after_id: str, limit: int) -> list[str]:
        return [r.memory_id for r in await self.page(actor, flt, after_id, limit)]

    async def with_vectors(self, actor: Actor) -> tuple[list[MemoryRecord], Sequence[Vector]]:
        found = sorted(self._visible(actor, MemoryFilter()), key=lambda rv: rv[0].memory_id)
        return [r for r, _ in found], [v for _, v in found]

    async def fingerprint(self, actor: Actor) -> str:
        found = sorted((r.memory_id, r.updated_at.isoformat()) for r, _ in self._visible(actor, MemoryFilter()))
        return hashlib.sha256(repr(found).encode()).hexdigest()[:16]

    async def agents(self) -> list[tuple[str, str]]:
        return sorted({(r.tenant_id, r.agent_id) for r, _ in self.rows.values()})

    async def record_retrievals(
        self, tenant_id: str, recalled: Mapping[str, int], injected: Mapping[str, int], at: datetime
    ) -> None:
        for memory_id, n in recalled.items():
            if memory_id in self.rows:
                record, vector = self.rows[memory_id]
                self.rows[memory_id] = (
                    replace(record, retrieval_count=record.retrieval_count + n, last_retrieved_at=at),
                    vector,
                )
        for memory_id, n in injected.items():
            if memory_id in self.rows:
                record, vector = self.rows[memory_id]
                self.rows[memory_id] = (replace(record, injection_count=record.injection_count + n), vector)

    async def pending_embeddings(self, tenant_id: str, limit: int) -> tuple[list[MemoryRecord], int]:
        self.pending_reads += 1
        pending = sorted(
            (r for r, _ in self.rows.values() if r.tenant_id == tenant_id and r.embedding_pending),
            key=lambda r: r.memory_id,
        )
        return pending[: max(0, limit)], len(pending)

    async def fill_embeddings(self, tenant_id: str, rows: Sequence[tuple[MemoryRecord, Vector]], model: str) -> int:
        filled = 0
        for record, vector in rows:
            stored = self.rows.get(record.memory_id)
            if stored and stored[0].embedding_pending and stored[0].content_hash == record.content_hash:
                self.rows[record.memory_id] = (replace(stored[0], embedding_model=model), list(vector))
                filled += 1
        return filled

    async def record_feedback(self, tenant_id: str, signals: Sequence[tuple[str, Signal]], at: datetime) -> None:
        for memory_id, signal in signals:
            if memory_id in self.rows:
                record, vector = self.rows[memory_id]
                old = record.feedback
                counts = {**old.counts, signal: old.count(signal) + 1}
                summary = FeedbackSummary(counts, bounded(old.salience_shift + STEPS[signal]), at)
                self.rows[memory_id] = (replace(record, feedback=summary), vector)


class InMemoryLedger:
    """JobLedger over a dict; events kept in a list per job."""

    def __init__(self) -> None:
        self.records: dict[tuple[str, str], JobRecord] = {}
        self.log: dict[tuple[str, str], list[JobEvent]] = {}
        self.flags: set[str] = set()
        self.batch_parts: dict[str, dict[str, tuple[str, str]]] = {}
        self.reachable = True

    async def claim(self, record: JobRecord, *, redrive: bool) -> tuple[JobRecord, bool]:
        existing = self.records.get((record.tenant_id, record.key))
        if existing is not None and not existing.claimable(redrive=redrive):
            return existing, False
        new = record if existing is None else existing.redriven(record.created_at)
        self._write(new, "queued")
        return new, True

    async def claim_many(self, records: Sequence[JobRecord], *, redrive: bool) -> list[tuple[JobRecord, bool]]:
        return [await self.claim(r, redrive=redrive) for r in records]

    async def get(self, tenant_id: str, key: str) -> JobRecord | None:
        return self.records.get((tenant_id, key))

    async def get_many(self, keys: Sequence[tuple[str, str]]) -> list[JobRecord | None]:
        return [self.records.get(k) for k in keys]

    async def page(
        self, tenant_id: str, kind: JobKind | None, state: JobState | None, agent_id: str, limit: int, before: float
    ) -> list[JobRecord]:
        found = [
            r
            for (t, _), r in self.records.items()
            if t == tenant_id
            and (kind is None or r.kind == kind)
            and (state is None or r.state == state)
            and (not agent_id or r.agent_id == agent_id)
            and (not before or (r.created_at and r.created_at.timestamp() < before))
        ]
        return sorted(found, key=lambda r: r.created_at or datetime.min, reverse=True)[:limit]

    async def update(self, record: JobRecord, message: str) -> None:
        if (record.tenant_id, record.key) in self.records:  # an erased record stays erased
            self._write(record, message)

    def _write(self, record: JobRecord, message: str) -> None:
        self.records[(record.tenant_id, record.key)] = record
        self.log.setdefault((record.tenant_id, record.key), []).append(record.event(message, datetime.now(UTC)))

    async def events(self, tenant_id: str, key: str, after: str, block_seconds: float) -> list[tuple[str, JobEvent]]:
        start = int(after or 0)
        return [(str(i + 1), e) for i, e in enumerate(self.log.get((tenant_id, key), [])) if i >= start]

    async def in_state(self, state: JobState) -> list[JobRecord]:
        return [r for r in self.records.values() if r.state == state]

    async def ping(self) -> None:
        if not self.reachable:
            raise Unavailable("fake ledger unreachable")

    async def flag(self, name: str) -> bool:
        return name in self.flags

    async def set_flag(self, name: str) -> None:
        self.flags.add(name)

    async def keys(self, tenant_id: str) -> list[str]:
        return sorted(k for t, k in self.records if t == tenant_id)

    async def restore(self, record: JobRecord) -> None:
        self.records[(record.tenant_id, record.key)] = record

    async def erase(self, tenant_id: str, keys: Sequence[str]) -> int:
        gone = [self.records.pop((tenant_id, k), None) for k in keys]
        for k in keys:
            self.log.pop((tenant_id, k), None)
        return sum(r is not None for r in gone)

    async def purge_persistence(self, timeout_seconds: float = 60.0) -> bool:
        return True

    async def add_parts(self, batch_key: str, parts: Mapping[str, tuple[str, str]]) -> None:
        self.batch_parts.setdefault(batch_key, {}).update(parts)

    async def parts(self, batch_key: str) -> dict[str, tuple[str, str]]:
        return dict(self.batch_parts.get(batch_key, {}))


class RecordingQueue:
    """JobQueue that records what was submitted (message id, defer)."""

    def __init__(self) -> None:
        self.submitted: list[tuple[str, float]] = []
        self.released: list[str] = []

    async def submit(self, record: JobRecord, defer_seconds: float = 0) -> None:
        if record.message_id not in {m for m, _ in self.submitted}:
            self.submitted.append((record.message_id, defer_seconds))

    async def submit_many(self, records: Sequence[JobRecord]) -> None:
        for record in records:
            await self.submit(record)

    async def forget(self, records: Sequence[JobRecord]) -> None:
        keys = {r.key for r in records}
        self.submitted = [(m, d) for m, d in self.submitted if m.rpartition("#")[0] not in keys]

    async def backlog(self, now: datetime) -> dict[str, tuple[int, float]]:
        return {"queue": (len(self.submitted), 0.0)}

    async def release(self, record: JobRecord) -> None:
        self.released.append(record.message_id)
        await self.submit(record)


class OpenGate:
    """ProviderGate with a scriptable breaker and slots."""

    def __init__(self, open_for: float = 0.0, slots: int = 4) -> None:
        self.open_seconds = open_for
        self.slots = slots
        self.held: set[tuple[str, str]] = set()
        self.outcomes: list[bool] = []

    async def open_for(self) -> float:
        return self.open_seconds

    async def observed_open_for(self) -> float:
        return self.open_seconds

    async def record(self, ok: bool) -> None:
        self.outcomes.append(ok)

    async def acquire(self, tenant_id: str, holder: str) -> bool:
        if sum(1 for t, _ in self.held if t == tenant_id) >= self.slots:
            return False
        self.held.add((tenant_id, holder))
        return True

    async def release(self, tenant_id: str, holder: str) -> None:
        self.held.discard((tenant_id, holder))


class DictLeases:
    """Leases in a dict (no expiry: tests release what they take)."""

    def __init__(self) -> None:
        self.held: dict[str, str] = {}

    async def lock(self, name: str, holder: str, seconds: float) -> bool:
        if self.held.get(name, holder) != holder:
            return False
        self.held[name] = holder
        return True

    async def unlock(self, name: str, holder: str) -> None:
        if self.held.get(name) == holder:
            del self.held[name]

    async def is_held(self, name: str) -> bool:
        return name in self.held


Answer = dict[str, object] | Exception | Callable[[str, str], dict[str, object]]


class ScriptedChat:
    """ChatModel answering from a script: a dict is an answer, an exception is raised, a function is asked."""

    def __init__(self, *script: Answer, model: str = "scripted") -> None:
        self.script = list(script)
        self.calls = 0
        self.models: list[str] = []
        """The ``model`` argument of every call ("" = the default)."""
        self.schemas: list[str] = []
        """The name of the answer schema every call asked for ("" = none)."""
        self._model = model

    @property
    def model_name(self) -> str:
        return self._model

    async def complete_json(
        self, system: str, user: str, model: str = "", schema: AnswerSchema | None = None
    ) -> tuple[dict[str, object], int, int]:
        self.calls += 1
        self.models.append(model)
        self.schemas.append(schema.name if schema else "")
        step = self.script.pop(0)
        if isinstance(step, Exception):
            raise step
        answer = step(system, user) if callable(step) else step
        return answer, len(system + user) // 4, 10


class InMemoryAgentConfigs:
    """AgentConfigStore over a dict: one StoredConfig per (tenant, agent id), CAS on version."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, str], StoredConfig] = {}

    async def configs(self, tenant_id: str, agent_ids: Sequence[str]) -> dict[str, StoredConfig]:
        return {a: self.rows[(tenant_id, a)] for a in agent_ids if (tenant_id, a) in self.rows}

    async def swap_config(self, tenant_id: str, agent_id: str, config: StoredConfig, expected_version: int) -> bool:
        current = self.rows.get((tenant_id, agent_id))
        if (current.version if current else 0) != expected_version:
            return False
        self.rows[(tenant_id, agent_id)] = config
        return True


class InMemoryProfiles:
    """ProfileStore over dicts: a current row per agent (CAS on revision) and an append-only history."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, str], Profile] = {}
        self.history: dict[tuple[str, str, int], Profile] = {}
        self.failures: list[tuple[str, str, int, str, str]] = []

    async def current(self, tenant_id: str, agent_id: str) -> Profile | None:
        return self.rows.get((tenant_id, agent_id))

    async def swap(self, tenant_id: str, profile: Profile, expected_revision: int) -> bool:
        if profile.revision != expected_revision + 1:
            raise ValueError(f"revision {profile.revision} does not follow {expected_revision}")
        stored = self.rows.get((tenant_id, profile.agent_id))
        if (stored.revision if stored else 0) != expected_revision:
            return False
        self.rows[(tenant_id, profile.agent_id)] = profile
        return True

    async def log_revision(self, tenant_id: str, profile: Profile) -> None:
        self.history.setdefault((tenant_id, profile.agent_id, profile.revision), profile)

    async def revisions(self, tenant_id: str, agent_id: str, before: int, limit: int) -> list[Profile]:
        found = [p for (t, a, r), p in self.history.items() if t == tenant_id and a == agent_id and r < before]
        return sorted(found, key=lambda p: p.revision, reverse=True)[:limit]

    async def log_failure(self, tenant_id: str, agent_id: str, base_revision: int, source: str, reason: str) -> None:
        self.failures.append((tenant_id, agent_id, base_revision, source, reason))


class InMemoryConversations:
    """ConversationStore over dicts (insert-if-absent by id everywhere, CAS on the state row)."""

    def __init__(self) -> None:
        self.states: dict[tuple[str, str], Conversation] = {}
        self.messages_by: dict[tuple[str, str], dict[str, Message]] = {}
        self.summaries_by: dict[tuple[str, str], dict[str, Summary]] = {}
        self.events_by: dict[tuple[str, str], dict[str, ConversationEvent]] = {}
        self.blobs: dict[tuple[str, str, str], str] = {}

    async def state(self, tenant_id: str, conversation_id: str) -> Conversation | None:
        return self.states.get((tenant_id, conversation_id))

    async def idle(self, tenant_id: str, before: datetime) -> list[str]:
        return sorted(
            c
            for (t, c), s in self.states.items()
            if t == tenant_id and (s.updated_at or s.created_at or before) < before
        )

    async def expire(
        self, tenant_id: str, conversations: Sequence[str], before: datetime, dry_run: bool
    ) -> tuple[list[str], int]:
        old = sorted(set(conversations) & set(await self.idle(tenant_id, before)))
        items = sum(len(book.get((tenant_id, c), {})) for c in old for book in (self.messages_by, self.summaries_by))
        if not dry_run:
            for c in old:
                del self.states[(tenant_id, c)]
                for book in (self.messages_by, self.summaries_by, self.events_by):
                    book.pop((tenant_id, c), None)
        return old, items

    async def of_agent(self, tenant_id: str, agent_id: str, end_user_id: str | None) -> list[Conversation]:
        return [
            s
            for (t, _), s in self.states.items()
            if t == tenant_id and s.agent_id == agent_id and end_user_id in (None, s.end_user_id)
        ]

    async def of_end_user(self, tenant_id: str, end_user_id: str) -> list[str]:
        return sorted(c for (t, c), s in self.states.items() if t == tenant_id and s.end_user_id == end_user_id)

    async def erase_end_user(self, tenant_id: str, end_user_id: str) -> tuple[list[str], int, list[str]]:
        gone = await self.of_end_user(tenant_id, end_user_id)
        items = 0
        for c in gone:
            del self.states[(tenant_id, c)]
            for book in (self.messages_by, self.summaries_by, self.events_by):
                items += len(book.pop((tenant_id, c), {}))
            for blob in [b for b in self.blobs if b[:2] == (tenant_id, c)]:
                del self.blobs[blob]
                items += 1
        return gone, items, [f"conversations_{tenant_id}"] if gone else []

    async def swap_state(self, tenant_id: str, conv: Conversation, expected_revision: int) -> bool:
        if conv.revision != expected_revision + 1:
            raise ValueError(f"revision {conv.revision} does not follow {expected_revision}")
        stored = self.states.get((tenant_id, conv.conversation_id))
        if (stored.revision if stored else 0) != expected_revision:
            return False
        self.states[(tenant_id, conv.conversation_id)] = conv
        return True

    async def existing_messages(
        self, tenant_id: str, conversation_id: str, message_ids: Sequence[str]
    ) -> dict[str, Message]:
        have = self.messages_by.get((tenant_id, conversation_id), {})
        return {m: have[m] for m in message_ids if m in have}

    async def add_messages(self, tenant_id: str, conversation_id: str, messages: Sequence[Message]) -> None:
        have = self.messages_by.setdefault((tenant_id, conversation_id), {})
        for m in messages:
            have.setdefault(m.message_id, m)

    async def remove_messages(self, tenant_id: str, conversation_id: str, messages: Sequence[Message]) -> None:
        have = self.messages_by.get((tenant_id, conversation_id), {})
        for m in messages:
            if (stored := have.get(m.message_id)) is not None and stored.seq == m.seq:
                del have[m.message_id]

    async def messages(self, tenant_id: str, conversation_id: str, after_seq: int) -> list[Message]:
        found = self.messages_by.get((tenant_id, conversation_id), {}).values()
        return sorted((m for m in found if m.seq > after_seq), key=lambda m: m.seq)

    async def put_summary(self, tenant_id: str, conversation_id: str, summary: Summary) -> None:
        self.summaries_by.setdefault((tenant_id, conversation_id), {}).setdefault(summary.summary_id, summary)

    async def summaries(self, tenant_id: str, conversation_id: str, summary_ids: Sequence[str]) -> list[Summary]:
        have = self.summaries_by.get((tenant_id, conversation_id), {})
        return [have[i] for i in summary_ids if i in have]

    async def add_event(self, tenant_id: str, conversation_id: str, event: ConversationEvent) -> None:
        self.events_by.setdefault((tenant_id, conversation_id), {}).setdefault(event.event_id, event)

    async def events(self, tenant_id: str, conversation_id: str, after: datetime | None) -> list[ConversationEvent]:
        found = self.events_by.get((tenant_id, conversation_id), {}).values()
        return sorted((e for e in found if after is None or e.at > after), key=lambda e: e.at)

    async def put_blob(self, tenant_id: str, conversation_id: str, blob_id: str, data: str) -> None:
        self.blobs.setdefault((tenant_id, conversation_id, blob_id), data)

    async def blob(self, tenant_id: str, conversation_id: str, blob_id: str) -> str | None:
        return self.blobs.get((tenant_id, conversation_id, blob_id))


class WordCounter:
    """TokenCounter: one token per whitespace-separated word (budgets in tests stay readable)."""

    @property
    def encoding(self) -> str:
        return "words"

    def count(self, text: str) -> int:
        return len(text.split())


def memory_record(memory_id: str = "0" * 32, content: str = "a memory", **fields: object) -> MemoryRecord:
    """A MemoryRecord with plain defaults (tenant t1, agent a1, private, episodic); ``fields`` override any."""
    at = datetime(2026, 3, 1, tzinfo=UTC)
    base = MemoryRecord(
        memory_id,
        "t1",
        "a1",
        "",
        Scope.PRIVATE,
        content,
        MemoryType.EPISODIC,
        "",
        "",
        (),
        0.3,
        0.02,
        "",
        "",
        "h",
        "m",
        at,
        at,
        at,
    )
    return replace(base, **fields)  # type: ignore[arg-type]  # keys are MemoryRecord fields


class StoreAnalytics:
    """UsageAnalytics over an InMemoryStore: the counts and retrieval figures (histograms left empty)."""

    def __init__(self, store: InMemoryStore) -> None:
        self._store = store

    async def report(self, tenant_id: str, agent_id: str, since: datetime | None, now: datetime) -> UsageReport:
        rows = [
            r
            for r, _ in self._store.rows.values()
            if r.tenant_id == tenant_id
            and (not agent_id or r.agent_id == agent_id)
            and (since is None or r.created_at >= since)
        ]
        active = [r for r in rows if r.status is MemoryStatus.ACTIVE]
        counts = sorted((r.retrieval_count for r in active), reverse=True)
        total = sum(counts)
        top = max(1, -(-len(active) // 100))
        return UsageReport(
            memories=len(rows),
            by_scope={}, by_type={}, by_status={},
            growth=(),
            never_retrieved_share=sum(1 for n in counts if n == 0) / len(active) if active else 0.0,
            retrievals=total,
            injections=sum(r.injection_count for r in active),
            top1pct_share=sum(counts[:top]) / total if total else 0.0,
            top10_share=sum(counts[:10]) / total if total else 0.0,
            gini=gini(counts),
            age_days=(), salience=(), duplicate_share=0.0, agents=(),
            computed_at=now, seconds=0.0,
        )  # fmt: skip


class InMemoryKeys:
    """KeyStore over a dict."""

    def __init__(self) -> None:
        self.by_id: dict[str, ApiKey] = {}

    async def put_key(self, key: ApiKey) -> None:
        self.by_id[key.key_id] = key

    async def key(self, key_id: str) -> ApiKey | None:
        return self.by_id.get(key_id)

    async def keys(self, tenant_id: str | None) -> list[ApiKey]:
        found = [k for k in self.by_id.values() if tenant_id is None or k.tenant_id == tenant_id]
        return sorted(found, key=lambda k: (k.created_at, k.key_id))

    async def touch_key(self, key_id: str, at: datetime) -> None:
        if key_id in self.by_id:
            self.by_id[key_id] = replace(self.by_id[key_id], last_used_at=at)

    async def any_key(self) -> bool:
        return bool(self.by_id)


class InMemoryEventLog:
    """EventLogStore over a dict."""

    def __init__(self) -> None:
        self.by_tenant: dict[str, dict[str, LogEvent]] = {}

    async def append_events(self, tenant_id: str, events: Sequence[LogEvent]) -> None:
        self.by_tenant.setdefault(tenant_id, {}).update({e.event_id: e for e in events})

    async def events(self, tenant_id: str, query: EventQuery) -> list[LogEvent]:
        found = sorted(
            (e for e in self.by_tenant.get(tenant_id, {}).values() if query.matches(e)), key=lambda e: e.event_id
        )
        return found[: query.limit] if query.limit else found


class InMemoryArchive:
    """TenantArchive over a list of (tenant, kind, row): what was imported is what is exported."""

    def __init__(self) -> None:
        self.stored: list[tuple[str, str, dict[str, Any]]] = []

    async def rows(
        self, tenant_id: str, end_user_id: str | None, with_vectors: bool
    ) -> AsyncIterator[tuple[str, dict[str, Any]]]:
        for tenant, kind, row in list(self.stored):
            if tenant == tenant_id and (end_user_id is None or row.get("end_user_id") == end_user_id):
                yield kind, row

    async def is_empty(self, tenant_id: str) -> bool:
        return not any(t == tenant_id for t, _, _ in self.stored)

    async def tenants(self) -> list[str]:
        return sorted({t for t, _, _ in self.stored})

    def misfit(self, kind: str, rows: Sequence[dict[str, Any]], model_name: str) -> tuple[int, str] | None:
        return next(((i, "no 'id'") for i, r in enumerate(rows) if not r.get("id")), None)

    async def import_rows(
        self,
        tenant_id: str,
        kind: str,
        rows: Sequence[dict[str, Any]],
        embed: Callable[[list[str]], Awaitable[list[list[float]]]],
        model_name: str,
        *,
        resume: bool = False,
    ) -> int:
        held = {r.get("id") for t, k, r in self.stored if (t, k) == (tenant_id, kind)} if resume else set()
        fresh = [dict(r) for r in rows if not resume or r.get("id") not in held]
        self.stored += [(tenant_id, kind, r) for r in fresh]
        return len(fresh)


class InMemoryReviews:
    """ReviewStore over dicts."""

    def __init__(self) -> None:
        self.reviews_by: dict[tuple[str, str], Review] = {}
        self.findings_by: dict[tuple[str, str], Finding] = {}
        self.reports_by: dict[tuple[str, str], UsageReport] = {}

    async def put_review(self, tenant_id: str, review: Review) -> None:
        self.reviews_by[(tenant_id, review.review_id)] = review

    async def erase_findings(self, tenant_id: str, memory_ids: Sequence[str]) -> tuple[int, list[str]]:
        doomed = [k for k, f in self.findings_by.items() if k[0] == tenant_id and set(f.memory_ids) & set(memory_ids)]
        for k in doomed:
            del self.findings_by[k]
        return len(doomed), [f"review_findings_{tenant_id}"] if doomed else []

    async def review(self, tenant_id: str, review_id: str) -> Review | None:
        return self.reviews_by.get((tenant_id, review_id))

    async def reviews(self, tenant_id: str, agent_id: str, limit: int) -> list[Review]:
        found = [r for (t, _), r in self.reviews_by.items() if t == tenant_id and r.agent_id == agent_id]
        return sorted(
            found, key=lambda r: (r.created_at or datetime.min.replace(tzinfo=UTC), r.review_id), reverse=True
        )[:limit]

    async def put_findings(self, tenant_id: str, findings: Sequence[Finding]) -> None:
        for f in findings:
            self.findings_by[(tenant_id, f.finding_id)] = f

    async def findings(self, tenant_id: str, review_id: str) -> list[Finding]:
        found = [f for (t, _), f in self.findings_by.items() if t == tenant_id and f.review_id == review_id]
        return sorted(found, key=lambda f: (f.kind.value, f.finding_id))

    async def put_report(self, tenant_id: str, report_id: str, report: UsageReport) -> None:
        self.reports_by[(tenant_id, report_id)] = report

    async def reports(self, tenant_id: str, limit: int) -> list[tuple[str, UsageReport]]:
        found = [(i, r) for (t, i), r in self.reports_by.items() if t == tenant_id]
        return sorted(found, key=lambda p: (p[1].computed_at, p[0]), reverse=True)[:limit]


class PairwiseNeighbours:
    """NeighbourSearch by comparing every pair (small sets only)."""

    def neighbours(self, vectors: Sequence[Vector], k: int, min_similarity: float) -> list[list[tuple[int, float]]]:
        out = []
        for i, v in enumerate(vectors):
            scored = [(j, cosine(v, w)) for j, w in enumerate(vectors) if j != i]
            out.append(sorted((p for p in scored if p[1] >= min_similarity), key=lambda p: -p[1])[:k])
        return out
