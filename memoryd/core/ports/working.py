"""Working memory and profiles: conversations, profiles, tokens, the chat model."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from memoryd.core.answer_schemas import AnswerSchema
from memoryd.core.conversation import Conversation, ConversationEvent, Message, Summary
from memoryd.core.models import Profile


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

    async def of_agent(self, tenant_id: str, agent_id: str, end_user_id: str | None) -> list[Conversation]:
        """The agent's conversation states with the contact (None: with every contact)."""
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

    async def complete_json(
        self, system: str, user: str, model: str = "", schema: AnswerSchema | None = None
    ) -> tuple[dict[str, object], int, int]:
        """The parsed JSON object, prompt tokens and completion tokens (``model``: another of the provider's models).

        ``schema``: the answer's shape, for servers that can constrain their output to it.

        Raises:
            Unavailable / RateLimited: transient (connection, timeout, 429, 5xx); retry later.
            ModelOutputInvalid: the answer is not a JSON object.
            NotReady: the provider refused the request (4xx other than 429): fix the configuration.

        """
        ...
