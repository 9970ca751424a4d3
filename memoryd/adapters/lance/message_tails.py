"""MessageTails: conversations' message tails recently read, per tenant, at one version of its items table.

GetContext reads a conversation's tail (the messages after its last compaction) on every call, and an
agent calls it every turn, right after AppendMessages: a LanceDB query of the tenant's items table, ~10
ms for a tail of 200 messages. A tail read at the table's version answers again while the version
stays; this process's own AppendMessages commit carries every tail of the tenant over to the new
version (only the appended conversation's tail changes, by the rows it inserted); any other commit
(another process, a compaction's summaries, an erasure) leaves the tails at an old version, and the
next read of the table's version drops them. The tail is exactly the query's answer: messages are
never taken from anywhere but a read at a known version or this process's own committed rows.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping

from memoryd.core.conversation import Message

_TENANTS = 64
_CONVERSATIONS = 256
"""Tails kept per tenant (the least recently read go first)."""
_MESSAGES = 2_000
"""A longer tail (a conversation nobody compacts) is read from LanceDB each time."""
_TOTAL = 100_000
"""Messages kept across every tenant (~50-100 MB with their texts); the least recently read tails go first."""


class _Tails:
    """One tenant's tails at one version: for each conversation, the seq they start after and the messages by id."""

    def __init__(self, version: int) -> None:
        self.version = version
        self.by_conversation: OrderedDict[str, tuple[int, dict[str, Message]]] = OrderedDict()
        self.held = 0
        """Messages in all of them."""


class MessageTails:
    """The tails of every tenant (``enabled`` False: none kept, every read queries)."""

    def __init__(self, *, enabled: bool = True, total: int = _TOTAL) -> None:
        self._enabled = enabled
        self._total = total
        self._tenants: OrderedDict[str, _Tails] = OrderedDict()
        self.held = 0
        """Messages kept across every tenant."""

    def get(self, tenant_id: str, version: int, conversation_id: str, after_seq: int) -> list[Message] | None:
        """The messages after ``after_seq`` in seq order, if a tail read at ``version`` covers them (else None)."""
        tails = self._tenants.get(tenant_id)
        if tails is None or tails.version != version:
            return None
        entry = tails.by_conversation.get(conversation_id)
        if entry is None or entry[0] > after_seq:
            return None
        tails.by_conversation.move_to_end(conversation_id)
        self._tenants.move_to_end(tenant_id)
        return sorted((m for m in entry[1].values() if m.seq > after_seq), key=lambda m: m.seq)

    def put(self, tenant_id: str, version: int, conversation_id: str, after_seq: int, found: list[Message]) -> None:
        """Keep what a read of the table at ``version`` found after ``after_seq``."""
        if not self._enabled or len(found) > _MESSAGES:
            return
        tails = self._tenants.get(tenant_id)
        if tails is not None and tails.version > version:
            return  # an older read finishing after a newer one
        if tails is None or tails.version < version:
            self.drop(tenant_id)
            tails = self._tenants[tenant_id] = _Tails(version)
        self._forget(tails, conversation_id)
        tails.by_conversation[conversation_id] = (after_seq, {m.message_id: m for m in found})
        tails.held += len(found)
        self.held += len(found)
        self._tenants.move_to_end(tenant_id)
        while len(tails.by_conversation) > _CONVERSATIONS:
            self._forget(tails, next(iter(tails.by_conversation)))
        while len(self._tenants) > _TENANTS:
            self.drop(next(iter(self._tenants)))
        self._trim()

    def drop(self, tenant_id: str) -> None:
        """Forget the tenant's tails (a commit of this process they cannot follow)."""
        tails = self._tenants.pop(tenant_id, None)
        if tails is not None:
            self.held -= tails.held

    def added(self, tenant_id: str, version: int, inserted: Mapping[str, list[Message]]) -> None:
        """Carry the tenant's tails over this process's commit ``version``, which inserted exactly these messages.

        ``inserted``: by conversation. Only tails of the version just before can be carried (nothing
        else was committed in between); others stay behind and the next read drops them.
        """
        tails = self._tenants.get(tenant_id)
        if tails is None or tails.version != version - 1:
            return
        tails.version = version
        for conversation_id, messages in inserted.items():
            self._extend(tails, conversation_id, messages)
        self._trim()

    def _extend(self, tails: _Tails, conversation_id: str, inserted: list[Message]) -> None:
        entry = tails.by_conversation.get(conversation_id)
        if entry is None:
            return
        start, messages = entry
        before = len(messages)
        for message in inserted:
            if message.seq > start:
                messages.setdefault(message.message_id, message)  # a row already there stays as it was
        tails.held += len(messages) - before
        self.held += len(messages) - before
        if len(messages) > _MESSAGES:
            self._forget(tails, conversation_id)

    def _forget(self, tails: _Tails, conversation_id: str) -> None:
        entry = tails.by_conversation.pop(conversation_id, None)
        if entry is not None:
            tails.held -= len(entry[1])
            self.held -= len(entry[1])

    def _trim(self) -> None:
        """Forget the least recently read tails until every tenant's fit in ``total`` messages."""
        while self.held > self._total and self._tenants:
            tenant_id, tails = next(iter(self._tenants.items()))
            if tails.by_conversation:
                self._forget(tails, next(iter(tails.by_conversation)))
            else:
                self.drop(tenant_id)
