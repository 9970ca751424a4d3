"""ConversationStore on LanceDB: per tenant, a state row per conversation and one items table.

``conversations_<tenant>`` holds one row per conversation (primary key
``conversation_id``), changed by compare-and-swap on ``revision``.
``conversation_items_<tenant>`` holds messages, summaries, compaction events and
kept model outputs as typed rows with deterministic ids, written insert-if-absent:
a retried append or a re-run compaction finds its rows already there.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

import pyarrow as pa
from lancedb.index import BTree

from memoryd.adapters.lance.commit_batches import CommitBatches
from memoryd.adapters.lance.copies.cache import CopyCache
from memoryd.adapters.lance.copies.keyed import KeyedCopy, swap_rows
from memoryd.adapters.lance.db import LanceDatabase, add_column
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.filters import literal, of_end_user, timestamp
from memoryd.adapters.lance.message_tails import MessageTails
from memoryd.adapters.lance.rows import PRIMARY_KEY, TIMESTAMP, as_utc
from memoryd.adapters.lance.versions import VersionChecks
from memoryd.core.conversation import Conversation, ConversationEvent, Message, Role, Summary
from memoryd.core.errors import Conflict

STATE_SCHEMA = pa.schema(
    [
        pa.field("conversation_id", pa.string(), nullable=False, metadata=PRIMARY_KEY),
        pa.field("agent_id", pa.string(), nullable=False),
        pa.field("end_user_id", pa.string(), nullable=False),
        pa.field("context_window", pa.int64(), nullable=False),
        pa.field("next_seq", pa.int64(), nullable=False),
        pa.field("compacted_through", pa.int64(), nullable=False),
        pa.field("summary_ids", pa.string(), nullable=False),
        pa.field("options", pa.string(), nullable=False),
        pa.field("revision", pa.int64(), nullable=False),
        pa.field("created_at", TIMESTAMP, nullable=False),
        pa.field("updated_at", TIMESTAMP, nullable=False),
        pa.field("filed_through", pa.int64(), nullable=True),
    ]
)
"""``filed_through`` came later: null in an older store's rows, read as ``compacted_through`` (the
store filed at every compaction then)."""

ITEM_SCHEMA = pa.schema(
    [
        pa.field("id", pa.string(), nullable=False, metadata=PRIMARY_KEY),
        pa.field("conversation_id", pa.string(), nullable=False),
        pa.field("kind", pa.string(), nullable=False),
        pa.field("seq", pa.int64(), nullable=False),
        pa.field("to_seq", pa.int64(), nullable=False),
        pa.field("level", pa.int64(), nullable=False),
        pa.field("role", pa.string(), nullable=False),
        pa.field("content", pa.string(), nullable=False),
        pa.field("token_count", pa.int64(), nullable=False),
        pa.field("message_id", pa.string(), nullable=False),
        pa.field("tool_name", pa.string(), nullable=False),
        pa.field("tool_call_id", pa.string(), nullable=False),
        pa.field("at", TIMESTAMP, nullable=False),
        pa.field("first_at", TIMESTAMP, nullable=False),
        pa.field("data", pa.string(), nullable=False),
    ]
)

_BLANK: dict[str, Any] = {
    "seq": 0,
    "to_seq": 0,
    "level": 0,
    "role": "",
    "content": "",
    "token_count": 0,
    "message_id": "",
    "tool_name": "",
    "tool_call_id": "",
    "data": "",
}


async def _upgrade_states(table: Any) -> None:
    """A state table of an older store gains ``filed_through`` (a losing concurrent add leaves it there too)."""
    await add_column(table, pa.field("filed_through", pa.int64(), nullable=True))


def conversation_of(r: dict[str, Any]) -> Conversation:
    """A state row as the service sees it."""
    return Conversation(
        r["conversation_id"],
        r["agent_id"],
        r["end_user_id"],
        r["context_window"],
        r["next_seq"],
        r["compacted_through"],
        tuple(json.loads(r["summary_ids"])),
        json.loads(r["options"]),
        r["revision"],
        as_utc(r["created_at"]),
        as_utc(r["updated_at"]),
        r["compacted_through"] if r.get("filed_through") is None else r["filed_through"],
    )


def message_of(r: dict[str, Any]) -> Message:
    """A message row as the service sees it."""
    return Message(
        r["seq"],
        r["message_id"],
        Role(r["role"]),
        r["content"],
        as_utc(r["at"]),
        r["token_count"],
        r["tool_name"],
        r["tool_call_id"],
    )


def summary_of(r: dict[str, Any]) -> Summary:
    """A conversation item row of kind ``summary``, as the reads parse it."""
    return Summary(
        r["id"],
        r["seq"],
        r["to_seq"],
        as_utc(r["first_at"]),
        as_utc(r["at"]),
        r["content"],
        r["token_count"],
        r["level"],
        bool(r["data"] and json.loads(r["data"]).get("fallback")),
    )


def event_item_of(r: dict[str, Any]) -> ConversationEvent:
    """A conversation item row of kind ``event`` (its kind in ``role``, its figures in ``data``)."""
    d = json.loads(r["data"])
    return ConversationEvent(
        r["id"],
        r["role"],
        d["job_id"],
        r["content"],
        as_utc(r["at"]),
        d["path"],
        d["summarized"],
        d["tokens_in"],
        d["tokens_out"],
    )


ITEM_KINDS: dict[str, Callable[[dict[str, Any]], object]] = {
    "message": message_of,
    "summary": summary_of,
    "event": event_item_of,
    "blob": lambda r: str(r["data"]),  # a model's output, kept as it is
}
"""How the reads parse an item row of each kind."""


def _seq(message: Message) -> int:
    return message.seq


_BUILD = KeyedCopy.builder("conversation_id", conversation_of)
_FOLLOW = KeyedCopy.follower("conversation_id", STATE_SCHEMA.names, conversation_of)
_COPY_MAX_ROWS = 20_000
"""A tenant's conversation states are kept in memory up to this many (a few hundred bytes each); more are queried."""
_COPY_TOTAL_ROWS = 100_000
"""States kept in memory across tenants (the least recently read tenant's go first)."""
_COPY_TENANTS = 256
"""Tenants whose states are kept in memory at most (``_COPY_TOTAL_ROWS`` bounds their memory; past this
many tenants read in turn, each read loads its table again, as profiles did at 64)."""
_BATCH_CALLS = 64
"""Calls on a tenant's conversations (appends, state swaps) committed together at most."""
_WRITE_ATTEMPTS = 3
"""A batch whose commit a concurrent one refused (an erasure's purge dropped the versions its check
needed) is written again this many times in all: both writes are the same whether or not repeated."""


def _state_row(conv: Conversation, now: datetime) -> dict[str, Any]:
    return {
        "conversation_id": conv.conversation_id,
        "agent_id": conv.agent_id,
        "end_user_id": conv.end_user_id,
        "context_window": conv.context_window,
        "next_seq": conv.next_seq,
        "compacted_through": conv.compacted_through,
        "summary_ids": json.dumps(list(conv.summary_ids)),
        "options": json.dumps(conv.options),
        "revision": conv.revision,
        "created_at": conv.created_at or now,
        "updated_at": conv.updated_at or now,
        "filed_through": conv.filed_through,
    }


class LanceConversationStore:
    """Conversations on the archive's LanceDB connection."""

    def __init__(self, db: LanceDatabase, *, copies: bool = True) -> None:
        self._db = db
        self._copies: CopyCache[KeyedCopy[Conversation]] = CopyCache(
            _COPY_MAX_ROWS if copies else 0, _COPY_TENANTS, _COPY_TOTAL_ROWS
        )
        """The state tables by tenant (``lance_keyed_copy``)."""
        self._tails = MessageTails(enabled=copies)
        self._item_versions = VersionChecks()
        """The items tables' versions, which the tails are kept at (a check per read, two per GetContext)."""
        self._appends: CommitBatches[str, tuple[str, list[dict[str, Any]]], None] = CommitBatches(
            self._add_together, _BATCH_CALLS, apart=lambda call: call[0]
        )
        """Concurrent appends of a tenant's conversations, one insert-if-absent (one conversation's apart:
        a retry racing its original must meet the rows committed, not insert them beside)."""
        self._swaps: CommitBatches[str, Conversation, bool] = CommitBatches(
            self._swap_together, _BATCH_CALLS, apart=lambda conv: conv.conversation_id
        )

    # Every read names one conversation (and upserts join on the key): both are indexed, so a
    # tenant with many conversations does not scan all their items per call.
    async def _items(self, tenant_id: str, *, write: bool = False) -> Any:
        return await self._db.table(
            f"conversation_items_{tenant_id}", ITEM_SCHEMA, [("id", BTree()), ("conversation_id", BTree())], write=write
        )

    async def _states(self, tenant_id: str, *, write: bool = False) -> Any:
        return await self._db.table(
            f"conversations_{tenant_id}",
            STATE_SCHEMA,
            [("conversation_id", BTree())],
            write=write,
            upgrade=_upgrade_states,
        )

    async def of_agent(self, tenant_id: str, agent_id: str, end_user_id: str | None) -> list[Conversation]:
        """The agent's conversation states with the contact (None: with every contact), from the table."""
        where = f"agent_id = {literal(agent_id)}"
        if end_user_id is not None:
            where += f" AND {of_end_user(end_user_id)}"
        async with map_lance_errors():
            states = await self._db.table_if_exists(f"conversations_{tenant_id}")
            if states is None:
                return []
            rows = (await states.query().where(where).to_arrow()).to_pylist()
        return [conversation_of(r) for r in rows]

    async def of_end_user(self, tenant_id: str, end_user_id: str) -> list[str]:
        """The ids of the contact's conversations (from the table: an erasure must not miss one)."""
        async with map_lance_errors():
            states = await self._db.table_if_exists(f"conversations_{tenant_id}")
            if states is None:
                return []
            found = await states.query().where(of_end_user(end_user_id)).select(["conversation_id"]).to_arrow()
        return sorted(found.column("conversation_id").to_pylist())

    async def erase_end_user(self, tenant_id: str, end_user_id: str) -> tuple[list[str], int, list[str]]:
        """Delete the contact's conversations and every item; (conversation ids, items deleted, tables touched).

        Items are messages, summaries, events and the model outputs kept with them.
        """
        async with map_lance_errors():
            states = await self._db.table_if_exists(f"conversations_{tenant_id}")
            if states is None:
                return [], 0, []
            conversations = await self.of_end_user(tenant_id, end_user_id)
            if not conversations:
                return [], 0, []
            # The state rows first: an append that writes its messages after this sees its conversation
            # gone and takes them back (ConversationService.append); one created after the read above is
            # a new conversation, left to a later erasure.
            self._db.written.add(f"conversations_{tenant_id}")
            items = await self._items(tenant_id, write=True)
            for chunk in _of_conversations(conversations):
                await states.delete(f"{of_end_user(end_user_id)} AND {chunk}")
            deleted = 0
            for chunk in _of_conversations(conversations):
                deleted += (await items.delete(chunk)).num_deleted_rows
        self._forget_copies(tenant_id)  # not served after the version moved, but not kept in memory either
        return conversations, deleted, [f"conversations_{tenant_id}", f"conversation_items_{tenant_id}"]

    async def idle(self, tenant_id: str, before: datetime) -> list[str]:
        """The ids of the conversations untouched since ``before``."""
        async with map_lance_errors():
            states = await self._db.table_if_exists(f"conversations_{tenant_id}")
            if states is None:
                return []
            found = await states.query().where(_idle(before)).select(["conversation_id"]).to_arrow()
        return sorted(found.column("conversation_id").to_pylist())

    async def expire(
        self, tenant_id: str, conversations: Sequence[str], before: datetime, dry_run: bool
    ) -> tuple[list[str], int]:
        """Delete those of ``conversations`` still untouched since ``before`` with every item; (ids, items)."""
        async with map_lance_errors():
            states = await self._db.table_if_exists(f"conversations_{tenant_id}")
            if states is None or not conversations:
                return [], 0
            conversations = sorted(conversations)
            if not dry_run:  # the state rows first, and only those still idle: see _delete_idle_states
                conversations = await self._delete_idle_states(states, conversations, _idle(before))
            items = await self._items(tenant_id, write=not dry_run)
            counted = 0
            for chunk in _of_conversations(conversations):
                if dry_run:
                    counted += await items.count_rows(chunk)
                else:
                    counted += (await items.delete(chunk)).num_deleted_rows
            if not dry_run:
                self._forget_copies(tenant_id)
        return conversations, counted

    @staticmethod
    async def _delete_idle_states(states: Any, conversations: list[str], idle: str) -> list[str]:
        """Delete the state rows of these conversations still matching ``idle``; the ids deleted.

        An append may land between the read that picked a conversation and this delete: its state
        row is newer then, so it stays with all its messages (the append was acknowledged). One
        landing after this finds its row gone: its seqs are refused or its messages taken back
        (ConversationService.append).
        """
        kept: set[str] = set()
        for chunk in _of_conversations(conversations):
            await states.delete(f"{idle} AND {chunk}")
            found = await states.query().where(chunk).select(["conversation_id"]).to_arrow()
            kept.update(found.column("conversation_id").to_pylist())
        return [c for c in conversations if c not in kept]

    def _forget_copies(self, tenant_id: str) -> None:
        """Drop the tenant's states and tails from memory (after deleting conversations)."""
        self._copies.pop(tenant_id)
        self._tails.drop(tenant_id)

    async def _insert_items(self, tenant_id: str, rows: list[dict[str, Any]]) -> None:
        if not rows:
            return
        async with map_lance_errors():
            table = await self._items(tenant_id, write=True)
            await (
                table.merge_insert("id").when_not_matched_insert_all().execute(pa.Table.from_pylist(rows, ITEM_SCHEMA))
            )

    async def _query_items(self, tenant_id: str, where: str) -> list[dict[str, Any]]:
        async with map_lance_errors():
            table = await self._items(tenant_id)
            return list((await table.query().where(where).to_arrow()).to_pylist())

    # -- state ------------------------------------------------------------------

    async def state(self, tenant_id: str, conversation_id: str) -> Conversation | None:
        """The state row (from the tenant's in-memory copy when it has one: every append and GetContext reads it)."""
        async with map_lance_errors():
            table = await self._states(tenant_id)
            copy = await self._copies.copy(tenant_id, table, STATE_SCHEMA.names, _BUILD, follow=_FOLLOW)
            if copy is not None:
                return copy.get(conversation_id)
            rows = (
                await table.query().where(f"conversation_id = {literal(conversation_id)}").limit(1).to_arrow()
            ).to_pylist()
        return conversation_of(rows[0]) if rows else None

    async def swap_state(self, tenant_id: str, conv: Conversation, expected_revision: int) -> bool:
        """Compare-and-swap on revision (insert when ``expected_revision`` is 0); ``conv.revision`` follows it.

        Concurrent swaps of a tenant's conversations commit together (``CommitBatches``), each row
        still its own compare: every append reserves its sequence numbers by one.
        """
        if conv.revision != expected_revision + 1:
            raise ValueError(f"revision {conv.revision} does not follow {expected_revision}")
        return await self._swaps.submit(tenant_id, conv)

    async def _swap_together(self, tenant_id: str, convs: list[Conversation]) -> list[bool]:
        """One merge-insert for the new states, one for the updates; which rows each wrote."""
        now = datetime.now(UTC)
        rows = [_state_row(c, now) for c in convs]  # one per conversation: ``apart`` keeps a second write out
        # a write the copy follows: a read meeting its version waits for it instead of loading the table
        for attempt in range(_WRITE_ATTEMPTS):
            try:
                async with self._copies.writing(tenant_id), map_lance_errors():
                    table = await self._states(tenant_id, write=True)
                    swapped = await swap_rows(
                        self._copies, tenant_id, table, rows, STATE_SCHEMA, "conversation_id", conversation_of
                    )
                return [c.conversation_id in swapped for c in convs]
            except Conflict:  # nothing committed: the same compare-and-swap again is the same write
                if attempt == _WRITE_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    # -- messages ---------------------------------------------------------------

    async def existing_messages(
        self, tenant_id: str, conversation_id: str, message_ids: Sequence[str]
    ) -> dict[str, Message]:
        """The messages the conversation holds under these client ids, by id."""
        if not message_ids:
            return {}
        ids = ", ".join(literal(_message_row_id(conversation_id, m)) for m in message_ids)
        rows = await self._query_items(tenant_id, f"id IN ({ids})")
        return {r["message_id"]: message_of(r) for r in rows}

    async def add_messages(self, tenant_id: str, conversation_id: str, messages: Sequence[Message]) -> None:
        """Insert-if-absent by client message id (the tails read from this table follow: ``MessageTails``)."""
        rows = [
            {
                **_BLANK,
                "id": _message_row_id(conversation_id, m.message_id),
                "conversation_id": conversation_id,
                "kind": "message",
                "seq": m.seq,
                "role": m.role.value,
                "content": m.content,
                "token_count": m.token_count,
                "message_id": m.message_id,
                "tool_name": m.tool_name,
                "tool_call_id": m.tool_call_id,
                "at": m.created_at,
                "first_at": m.created_at,
            }
            for m in messages
        ]
        if rows:
            await self._appends.submit(tenant_id, (conversation_id, rows))

    async def _add_together(self, tenant_id: str, calls: list[tuple[str, list[dict[str, Any]]]]) -> list[None]:
        rows = [row for _, part in calls for row in part]
        for attempt in range(_WRITE_ATTEMPTS):
            try:
                async with map_lance_errors():
                    table = await self._items(tenant_id, write=True)
                    merge = table.merge_insert("id").when_not_matched_insert_all()
                    result = await merge.execute(pa.Table.from_pylist(rows, ITEM_SCHEMA))
                break
            except Conflict:  # nothing committed: inserting the absent rows again is the same write
                if attempt == _WRITE_ATTEMPTS - 1:
                    raise
        if result.num_inserted_rows == len(rows):
            self._tails.added(tenant_id, result.version, {c: [message_of(r) for r in part] for c, part in calls})
        else:  # some were there already (a concurrent retry): which rows the table kept is not known here
            self._tails.drop(tenant_id)
        return [None] * len(calls)

    async def remove_messages(self, tenant_id: str, conversation_id: str, messages: Sequence[Message]) -> None:
        """Delete these messages (matched by id and seq), written after their conversation was erased."""
        if not messages:
            return
        ids = ", ".join(literal(_message_row_id(conversation_id, m.message_id)) for m in messages)
        seqs = ", ".join(str(int(m.seq)) for m in messages)
        async with map_lance_errors():
            table = await self._items(tenant_id, write=True)
            await table.delete(f"id IN ({ids}) AND seq IN ({seqs})")
        self._tails.drop(tenant_id)

    async def messages(self, tenant_id: str, conversation_id: str, after_seq: int) -> list[Message]:
        """The tail after ``after_seq``, in order (a tail read at the table's version answers again)."""
        where = f"conversation_id = {literal(conversation_id)} AND kind = 'message' AND seq > {int(after_seq)}"
        async with map_lance_errors():
            table = await self._items(tenant_id)
            version = await self._item_versions.latest(tenant_id, table)
            cached = self._tails.get(tenant_id, version, conversation_id, after_seq)
            if cached is not None:
                return cached
            found = sorted(map(message_of, (await table.query().where(where).to_arrow()).to_pylist()), key=_seq)
            if await self._item_versions.latest(tenant_id, table) == version:  # nothing committed during the read
                self._tails.put(tenant_id, version, conversation_id, after_seq, found)
        return found

    # -- summaries, events, blobs -------------------------------------------------

    async def put_summary(self, tenant_id: str, conversation_id: str, summary: Summary) -> None:
        """Insert-if-absent by summary id."""
        await self._insert_items(
            tenant_id,
            [
                {
                    **_BLANK,
                    "id": summary.summary_id,
                    "conversation_id": conversation_id,
                    "kind": "summary",
                    "seq": summary.from_seq,
                    "to_seq": summary.to_seq,
                    "level": summary.level,
                    "content": summary.text,
                    "token_count": summary.token_count,
                    "at": summary.last_at,
                    "first_at": summary.first_at,
                    "data": json.dumps({"fallback": True}) if summary.fallback else "",
                }
            ],
        )

    async def summaries(self, tenant_id: str, conversation_id: str, summary_ids: Sequence[str]) -> list[Summary]:
        """In the order given."""
        if not summary_ids:
            return []
        ids = ", ".join(literal(s) for s in summary_ids)
        rows = {r["id"]: r for r in await self._query_items(tenant_id, f"id IN ({ids})")}
        return [summary_of(r) for s in summary_ids if (r := rows.get(s)) is not None]

    async def add_event(self, tenant_id: str, conversation_id: str, event: ConversationEvent) -> None:
        """Insert-if-absent by event id."""
        data = json.dumps(
            {
                "job_id": event.job_id,
                "path": event.path,
                "summarized": event.summarized_messages,
                "tokens_in": event.tokens_in,
                "tokens_out": event.tokens_out,
            }
        )
        await self._insert_items(
            tenant_id,
            [
                {
                    **_BLANK,
                    "id": event.event_id,
                    "conversation_id": conversation_id,
                    "kind": "event",
                    "role": event.kind,
                    "content": event.message,
                    "at": event.at,
                    "first_at": event.at,
                    "data": data,
                }
            ],
        )

    async def events(self, tenant_id: str, conversation_id: str, after: datetime | None) -> list[ConversationEvent]:
        """Oldest first (those stamped after ``after``: a watch's polls read what is new, not the whole log)."""
        where = f"conversation_id = {literal(conversation_id)} AND kind = 'event'"
        if after is not None:
            where += f" AND at > {timestamp(after)}"
        rows = await self._query_items(tenant_id, where)
        return [event_item_of(r) for r in sorted(rows, key=lambda r: (r["at"], r["id"]))]

    async def put_blob(self, tenant_id: str, conversation_id: str, blob_id: str, data: str) -> None:
        """Insert-if-absent."""
        now = datetime.now(UTC)
        await self._insert_items(
            tenant_id,
            [
                {
                    **_BLANK,
                    "id": blob_id,
                    "conversation_id": conversation_id,
                    "kind": "blob",
                    "data": data,
                    "at": now,
                    "first_at": now,
                }
            ],
        )

    async def blob(self, tenant_id: str, conversation_id: str, blob_id: str) -> str | None:
        """The kept output."""
        rows = await self._query_items(tenant_id, f"id = {literal(blob_id)}")
        return str(rows[0]["data"]) if rows else None


def _of_conversations(conversations: Sequence[str]) -> Iterator[str]:
    """``conversation_id IN (...)`` over the ids, 500 at a time (a predicate stays a reasonable size)."""
    for start in range(0, len(conversations), 500):
        yield f"conversation_id IN ({', '.join(literal(c) for c in conversations[start : start + 500])})"


def _idle(before: datetime) -> str:
    return f"updated_at < {timestamp(before)}"


def _message_row_id(conversation_id: str, message_id: str) -> str:
    return f"{conversation_id}:message:{message_id}"
