"""ConversationService: append messages, assemble the context, ask for compaction, watch events.

Nothing here calls a model: compaction runs as a job (``services/compaction.py``)
queued when an append crosses the policy's threshold. ``GetContext`` always fits
the window it is given, compaction or not.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from memoryd.core.conversation import (
    CONVERSATION_OPTIONS,
    MAX_WINDOW,
    MIN_WINDOW,
    POLICY_BOUNDS,
    CompactMode,
    ContextAssembly,
    Conversation,
    ConversationEvent,
    Message,
    MessageInput,
    Options,
    Role,
    StorageScope,
    Strategy,
    WorkingPolicy,
    compact_key,
)
from memoryd.core.errors import AlreadyExists, Conflict, InvalidRequest, NotFound, PermissionDenied, Unavailable
from memoryd.core.job_records import JobKind, JobRecord
from memoryd.core.keys import Role as KeyRole
from memoryd.core.models import Actor, MemoryRecord, RecallQuery
from memoryd.core.paging import offset_page
from memoryd.core.ports import Clock, ConversationStore, TokenCounter
from memoryd.core.profile_doc import prompt_block
from memoryd.core.provenance import ServedItem
from memoryd.core.validation import check_actor, check_range
from memoryd.core.working import assemble, plan_compaction
from memoryd.services.agent_config import AgentConfigService
from memoryd.services.graph import GraphService
from memoryd.services.job_service import JobService
from memoryd.services.pii_floor import PiiFloor
from memoryd.services.profile import ProfileService
from memoryd.services.provenance import Provenance
from memoryd.services.recall import RecallService

log = logging.getLogger(__name__)
_ID = re.compile(r"[A-Za-z0-9._:@-]{1,128}")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MAX_MESSAGES = 500
MAX_MESSAGE_BYTES = 256 * 1024
_SWAP_ATTEMPTS = 16
LATE_EVENTS = timedelta(seconds=60)
"""How much earlier than the newest event a watch still reads: an event stamped before it may commit after."""


async def swap_state(
    store: ConversationStore,
    tenant_id: str,
    conv: Conversation,
    change: Callable[[Conversation], Conversation | None],
    *,
    replan_if: Callable[[Conversation, Conversation], bool] = lambda old, fresh: False,
    gave_up: str,
) -> Conversation:
    """Write ``change(conv)`` by compare-and-swap on the state row, re-reading and re-applying on a lost race.

    ``change`` returns None when there is nothing to write (a previous run did it). When the row
    moved in a way ``replan_if`` says the caller's plan cannot survive, this raises Conflict (a
    job re-plans without spending an attempt); after ``_SWAP_ATTEMPTS`` lost races it raises
    Conflict with ``gave_up``.
    """
    for _ in range(_SWAP_ATTEMPTS):
        new = change(conv)
        if new is None:
            return conv
        if await store.swap_state(tenant_id, new, conv.revision):
            return new
        fresh = await store.state(tenant_id, conv.conversation_id)
        if fresh is None:  # state rows are never deleted: only an erase could get here
            raise NotFound(f"conversation {conv.conversation_id!r} disappeared while it was being written")
        if replan_if(conv, fresh):
            raise Conflict(f"conversation {conv.conversation_id!r} changed under this job; re-planning")
        conv = fresh
    raise Conflict(gave_up)


def _differs(stored: Message | MessageInput, given: MessageInput) -> bool:
    """Whether a message under an id already used says something else (a retry repeats it exactly)."""
    return (
        stored.content != given.content
        or (stored.role or Role.USER) != (given.role or Role.USER)
        or stored.tool_name != given.tool_name
        or stored.tool_call_id != given.tool_call_id
        or (given.created_at is not None and stored.created_at != given.created_at)
    )


@dataclass(frozen=True, slots=True)
class AppendResult:
    """What AppendMessages did."""

    conversation: Conversation
    seqs: tuple[int, ...]
    """The seq of every request message, in request order: 0 for one stored by an earlier append; a
    message id repeated within the request gets the seq of its first occurrence."""
    duplicates: int
    compaction: JobRecord | None


class ConversationService:
    """The working-memory use cases."""

    def __init__(
        self,
        store: ConversationStore,
        profile: ProfileService,
        recall: RecallService,
        counter: TokenCounter,
        clock: Clock,
        jobs: JobService | None,
        configs: AgentConfigService,
        default_window: int,
        *,
        pii: PiiFloor,
        graph: GraphService | None = None,
        provenance: Provenance | None = None,
    ) -> None:
        self._provenance = provenance
        """Where the memories and facts a context carries are logged as served."""
        self._graph = graph
        self._store = store
        self._pii = pii
        self._profile = profile
        self._recall = recall
        self._counter = counter
        self._clock = clock
        self._jobs = jobs
        self._configs = configs
        self._default_window = default_window

    async def append(
        self,
        actor: Actor,
        conversation_id: str,
        inputs: Sequence[MessageInput],
        context_window: int = 0,
        options: Options | None = None,
    ) -> AppendResult:
        """Append messages (idempotent per message id); queue a compaction if the threshold is crossed."""
        check_actor(actor)
        _check_conversation_id(conversation_id)
        _check_inputs(inputs)
        inputs = [
            replace(m, content=self._pii.direct(actor.tenant_id, m.content, f"messages[{i}].content"))
            for i, m in enumerate(inputs)
        ]
        if context_window:
            check_range(context_window, "context_window_tokens", MIN_WINDOW, MAX_WINDOW)
        opts = _check_options(options or {})
        unique: dict[str, MessageInput] = {}
        for i, m in enumerate(inputs):
            if _differs(unique.setdefault(m.message_id, m), m):
                raise InvalidRequest(f"messages[{i}].message_id", f"{m.message_id!r} repeats with other content")
        state = await self._store.state(actor.tenant_id, conversation_id)
        conv = None if state else await self._create(actor, conversation_id, context_window, opts, len(unique))
        if conv is not None:  # a new conversation: its seqs were reserved as it was created
            fresh = list(unique.values())
        else:
            state = state or await self._store.state(actor.tenant_id, conversation_id)
            conv = _appendable(actor, conversation_id, state)
            existing = await self._store.existing_messages(actor.tenant_id, conversation_id, list(unique))
            for message_id, stored in existing.items():
                if _differs(stored, unique[message_id]):
                    raise AlreadyExists(
                        f"message_id {message_id!r} holds another message in conversation {conversation_id!r}; "
                        "a retry must repeat it exactly, a new message needs a new id"
                    )
            fresh = [m for message_id, m in unique.items() if message_id not in existing]
            changed = (context_window and context_window != conv.context_window) or any(
                conv.options.get(k) != v for k, v in opts.items()
            )
            if fresh or changed:
                conv = await self._reserve(actor, conv, len(fresh), context_window, opts)
        now = self._clock.now()
        first = conv.next_seq - len(fresh)
        messages = [
            Message(
                first + i,
                m.message_id,
                m.role or Role.USER,
                m.content,
                m.created_at or now,
                self._counter.count(m.content),
                m.tool_name,
                m.tool_call_id,
            )
            for i, m in enumerate(fresh)
        ]
        await self._store.add_messages(actor.tenant_id, conversation_id, messages)
        await self._kept_unless_erased(actor.tenant_id, conv, messages)
        seq_of = {m.message_id: m.seq for m in messages}
        job = await self._maybe_compact(actor, conv)
        return AppendResult(conv, tuple(seq_of.get(m.message_id, 0) for m in inputs), len(inputs) - len(fresh), job)

    async def context(self, actor: Actor, conversation_id: str, window: int) -> ContextAssembly:
        """The context to send the model, within ``window`` tokens."""
        check_actor(actor)
        _check_conversation_id(conversation_id)
        check_range(window, "context_window_tokens", MIN_WINDOW, MAX_WINDOW)
        conv = await self._visible(actor, conversation_id)
        policy = await self._configs.for_conversation(actor.tenant_id, conv)
        raw, summaries, profile = await asyncio.gather(
            self._store.messages(actor.tenant_id, conversation_id, conv.compacted_through),
            self._store.summaries(actor.tenant_id, conversation_id, conv.summary_ids),
            self._profile.get(actor),
        )
        why: list[str] = []
        memories = await self._auto_recall(actor, conversation_id, raw, policy, why) if policy.auto_recall else []
        block, facts = await self._graph_block(actor, conversation_id, raw, why)
        assembly = assemble(
            prompt_block(profile.document), summaries, raw, memories, policy, window, self._counter.count, block
        )
        recalled = len(memories) if policy.auto_recall else None
        done = replace(assembly, degraded="; ".join(why), recalled=recalled, graph_facts=facts)
        if log.isEnabledFor(logging.DEBUG):  # one line a call: off unless asked for
            log.debug(
                "context assembled",
                extra={
                    "tenant": actor.tenant_id, "tokens": done.tokens(), "window": window, "left_out": done.left_out,
                    "auto_recalled": recalled, "graph_facts": facts, "degraded": done.degraded,
                },
            )  # fmt: skip
        return done

    async def listed(
        self, actor: Actor, all_contacts: bool, page_size: int, page_token: str
    ) -> tuple[list[Conversation], str]:
        """The agent's conversations with the actor's contact (operators: every contact's), latest first; next token."""
        check_actor(actor)
        check_range(page_size, "page_size", 1, 200)
        if all_contacts and actor.role < KeyRole.OPERATOR:
            raise PermissionDenied("all_contacts: listing every contact's conversations takes an operator key")
        found = await self._store.of_agent(actor.tenant_id, actor.agent_id, None if all_contacts else actor.end_user_id)
        found.sort(key=lambda c: (c.updated_at or c.created_at or _EPOCH, c.conversation_id), reverse=True)
        return offset_page(found, page_size, page_token)

    async def compact(self, actor: Actor, conversation_id: str) -> JobRecord:
        """Force a compaction now (a job; the same state gives the same job)."""
        check_actor(actor)
        _check_conversation_id(conversation_id)
        conv = await self._visible(actor, conversation_id)
        jobs = self._require_jobs()
        return await jobs.enqueue(
            JobKind.COMPACT,
            actor.tenant_id,
            compact_key(conversation_id, conv.next_seq - 1, mode=CompactMode.FORCE),
            actor.agent_id,
            redrive=True,
        )

    async def end_session(self, actor: Actor, conversation_id: str) -> JobRecord:
        """The session is over: a job compacts the whole tail and files everything not yet filed."""
        check_actor(actor)
        _check_conversation_id(conversation_id)
        conv = await self._visible(actor, conversation_id)
        return await self._require_jobs().enqueue(
            JobKind.COMPACT,
            actor.tenant_id,
            compact_key(conversation_id, conv.next_seq - 1, mode=CompactMode.END),
            actor.agent_id,
            redrive=True,
        )

    async def watch(
        self, actor: Actor, conversation_id: str, from_start: bool, poll_seconds: float = 0.25
    ) -> AsyncIterator[ConversationEvent]:
        """Compaction events, then live ones until the caller goes away."""
        check_actor(actor)
        _check_conversation_id(conversation_id)
        await self._visible(actor, conversation_id)
        after: datetime | None = None if from_start else self._clock.now()
        seen: dict[str, datetime] = {}
        while True:
            for event in await self._store.events(actor.tenant_id, conversation_id, after):
                if event.event_id not in seen:
                    seen[event.event_id] = event.at
                    yield event
            # Read on from a while before the newest event sent: an event stamped earlier may commit
            # later (another worker, another clock), and what is older is never read again.
            floor = max(seen.values()) - LATE_EVENTS if seen else after
            if floor is not None and (after is None or floor > after):
                after, seen = floor, {k: at for k, at in seen.items() if at > floor}
            await asyncio.sleep(poll_seconds)

    # -- helpers ----------------------------------------------------------------

    def _require_jobs(self) -> JobService:
        if self._jobs is None:
            raise Unavailable(
                "compaction runs as a background job and this daemon has no job queue: start it "
                "with REDIS_URL set (or use `memoryd up`)"
            )
        return self._jobs

    async def _visible(self, actor: Actor, conversation_id: str) -> Conversation:
        return _owned(actor, conversation_id, await self._store.state(actor.tenant_id, conversation_id))

    async def _create(
        self, actor: Actor, conversation_id: str, window: int, opts: Options, count: int
    ) -> Conversation | None:
        """Create the state row with seqs 1..count taken; None if another append created it first."""
        now = self._clock.now()
        new = Conversation(
            conversation_id,
            actor.agent_id,
            actor.end_user_id,
            window or self._default_window,
            next_seq=1 + count,
            options=opts,
            revision=1,
            created_at=now,
            updated_at=now,
        )
        return new if await self._store.swap_state(actor.tenant_id, new, 0) else None

    async def _kept_unless_erased(self, tenant_id: str, conv: Conversation, messages: Sequence[Message]) -> None:
        """Take the messages back if the conversation was deleted after their seqs were taken.

        An erasure finds a contact's messages through the state row and deletes that row before the
        messages: ones written after it would be orphans no later erasure finds. Whichever of the
        two commits last, this re-read sees the row gone, or the erasure deletes the messages.
        """
        if not messages:
            return
        now = await self._store.state(tenant_id, conv.conversation_id)
        if now is not None and now.created_at == conv.created_at:
            return
        await self._store.remove_messages(tenant_id, conv.conversation_id, messages)
        raise NotFound(
            f"conversation {conv.conversation_id!r} was deleted (an erasure or retention) while these messages "
            "were being appended; none of them was kept"
        )

    async def _reserve(self, actor: Actor, conv: Conversation, count: int, window: int, opts: Options) -> Conversation:
        """Take ``count`` seqs (and record window/options) by compare-and-swap on the state row."""

        def reserve(current: Conversation) -> Conversation:
            return replace(
                current,
                next_seq=current.next_seq + count,
                context_window=window or current.context_window,
                options={**current.options, **opts},
                revision=current.revision + 1,
                updated_at=self._clock.now(),
            )

        return await swap_state(
            self._store,
            actor.tenant_id,
            conv,
            reserve,
            gave_up=f"conversation {conv.conversation_id!r} is being appended to concurrently; retry",
        )

    async def _maybe_compact(self, actor: Actor, conv: Conversation) -> JobRecord | None:
        if self._jobs is None:
            return None
        policy = await self._configs.for_conversation(actor.tenant_id, conv)
        raw = await self._store.messages(actor.tenant_id, conv.conversation_id, conv.compacted_through)
        summaries = await self._store.summaries(actor.tenant_id, conv.conversation_id, conv.summary_ids)
        if plan_compaction(conv, raw, summaries, policy) is None:
            return None
        return await self._jobs.enqueue(
            JobKind.COMPACT, actor.tenant_id, compact_key(conv.conversation_id, raw[-1].seq), actor.agent_id
        )

    async def _graph_block(
        self, actor: Actor, conversation_id: str, raw: Sequence[Message], why: list[str]
    ) -> tuple[str, int]:
        """The memory-graph block for the last user message and its facts, when the agent's graph is on.

        The graph search needs the embedder; without it the context is assembled without the block.
        """
        last_user = next((m for m in reversed(raw) if m.role == Role.USER and m.content.strip()), None)
        if self._graph is None or last_user is None:
            return "", 0
        settings = await self._configs.values(actor.tenant_id, actor.agent_id)
        if not settings["graph.enabled"]:
            return "", 0
        try:
            answer = await self._graph.search(
                actor,
                last_user.content[:4096],
                max_hops=int(settings["graph.max_hops"]),
                budget_tokens=int(settings["graph.budget_tokens"]),
            )
        except Unavailable as exc:
            why.append(f"graph block left out: {exc}")
            return "", 0
        shown = answer.hits[: answer.block.count("\n")] if answer.block else []  # the best hits, one line each
        if self._provenance is not None and shown:
            self._provenance.served(actor, [(h.fact.fact_id, h.score) for h in shown], ServedItem.FACT, conversation_id)
        return answer.block, len(shown)

    async def _auto_recall(
        self, actor: Actor, conversation_id: str, raw: Sequence[Message], policy: WorkingPolicy, why: list[str]
    ) -> list[tuple[str, datetime]]:
        last_user = next((m for m in reversed(raw) if m.role == Role.USER), None)
        if last_user is None or not last_user.content.strip():
            return []
        answer = await self._recall.answer(
            RecallQuery(actor, last_user.content[:4096], limit=policy.recall_limit, injected=True)
        )
        if answer.degraded:
            why.append(f"auto-recall: {answer.degraded}")
        # Recall's calibrated 0-1 score; serving a contact, not what the agent wrote privately serving
        # another (the row carries their id): injected unasked, it would reach every contact's context.
        hits = [
            h
            for h in answer.hits
            if h.score >= policy.recall_threshold
            and (not actor.end_user_id or h.memory.end_user_id in ("", actor.end_user_id))
        ]
        if self._provenance is not None:
            served = [(h.memory.memory_id, h.score) for h in hits]
            self._provenance.served(actor, served, ServedItem.MEMORY, conversation_id)
        return [(attributed(h.memory, actor), h.memory.occurred_at) for h in hits]


def attributed(memory: MemoryRecord, reader: Actor) -> str:
    """A memory as the reader's model sees it: another agent's shared fact names its author."""
    if memory.agent_id and memory.agent_id != reader.agent_id:
        return f"[shared by {memory.agent_id}] {memory.content}"
    return memory.content


def _owned(actor: Actor, conversation_id: str, conv: Conversation | None) -> Conversation:
    """The conversation if the actor's; another agent's (or contact's) id is not found, so not probeable."""
    if conv is None or conv.agent_id != actor.agent_id or conv.end_user_id != actor.end_user_id:
        raise NotFound(f"conversation {conversation_id!r} not found")
    return conv


def _appendable(actor: Actor, conversation_id: str, conv: Conversation | None) -> Conversation:
    """The conversation an append adds to; an id another agent or contact holds is taken, not missing.

    An append with a fresh id creates the conversation, so the refusal reveals nothing a success would not;
    NOT_FOUND would read as an erasure under way (the proto's meaning) and leave the runtime guessing.
    """
    if conv is not None and (conv.agent_id != actor.agent_id or conv.end_user_id != actor.end_user_id):
        raise AlreadyExists(
            f"conversation_id {conversation_id!r} is another agent's or contact's conversation in this tenant "
            "(conversation ids are unique per tenant): choose another id"
        )
    return _owned(actor, conversation_id, conv)


def _check_conversation_id(conversation_id: str) -> None:
    if not _ID.fullmatch(conversation_id):
        raise InvalidRequest("conversation_id", "must be 1-128 chars of [A-Za-z0-9._:@-]")


def _check_inputs(inputs: Sequence[MessageInput]) -> None:
    if not 1 <= len(inputs) <= MAX_MESSAGES:
        raise InvalidRequest("messages", f"must hold 1-{MAX_MESSAGES} messages, got {len(inputs)}")
    for i, m in enumerate(inputs):
        if not _ID.fullmatch(m.message_id):
            raise InvalidRequest(f"messages[{i}].message_id", "must be 1-128 chars of [A-Za-z0-9._:@-]")
        if m.role is None:
            raise InvalidRequest(f"messages[{i}].role", "is required")
        if len(m.content.encode()) > MAX_MESSAGE_BYTES:
            raise InvalidRequest(f"messages[{i}].content", f"is over {MAX_MESSAGE_BYTES} bytes")
        if m.role == Role.TOOL and not m.tool_name:
            raise InvalidRequest(f"messages[{i}].tool_name", "is required for a tool result")


def _check_options(options: Options) -> Options:
    for key, value in options.items():
        if key not in CONVERSATION_OPTIONS:
            raise InvalidRequest(f"options.{key}", "is not a per-conversation option")
        try:
            if key == "strategy":
                Strategy(str(value))
            elif key == "storage_scope":
                StorageScope(str(value))
            elif key in POLICY_BOUNDS:
                low, high = POLICY_BOUNDS[key]
                check_range(int(value), f"options.{key}", int(low), int(high))
        except ValueError:
            raise InvalidRequest(f"options.{key}", f"invalid value {value!r}") from None
    return options
