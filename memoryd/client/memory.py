"""MemoryClient and AsyncMemoryClient: the archive's calls, typed, with metadata, deadlines and retries."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from functools import cached_property
from typing import Any, Generic, TypeVar, cast

import grpc

from memoryd.client.archive_requests import (
    Item,
    Where,
    auto_feedback_request,
    batch_request,
    feedback_request,
    line_edit,
    list_request,
    memorize_request,
    recall_request,
    update_request,
)
from memoryd.client.conversations import AsyncConversations, Conversations
from memoryd.client.errors import from_rpc_error
from memoryd.client.graph import AsyncGraph, Graph
from memoryd.client.jobs import AsyncJobs, Jobs
from memoryd.client.paging import async_pages, pages
from memoryd.client.settings import effective_values, set_request
from memoryd.rpc.client import (
    TENANT_METADATA_KEY,
    ConfigServiceStub,
    KeyServiceStub,
    MemoryServiceStub,
    ProfileServiceStub,
    bearer,
    gpb,
    kpb,
    pb,
    ppb,
)
from memoryd.rpc.config_values import Setting

_JITTER = random.Random()
"""Backoff jitter from a generator of its own: a runtime's seeded global ``random`` stays its own."""

RETRIED = frozenset({grpc.StatusCode.UNAVAILABLE})
"""The only status worth retrying as is: the others need the caller to change something."""


class ClientClosed(RuntimeError):
    """A call, or a stub asked for, after the client was closed (outside its ``with`` block)."""


_CLOSED = "the client is closed: make calls inside its `with` block, before close()"

ChannelT = TypeVar("ChannelT", grpc.Channel, grpc.aio.Channel)


class _ClientCore(Generic[ChannelT]):
    """What both clients share; each adds only how it waits.

    The metadata every call carries, its deadline, the retry policy, the channel's life, and the
    requests that need more than their fields.
    """

    def __init__(
        self,
        target: str = "127.0.0.1:50051",
        *,
        tenant: str = "",
        api_key: str = "",
        timeout: float = 10.0,
        retries: int = 3,
        backoff: float = 0.2,
        credentials: grpc.ChannelCredentials | None = None,
    ) -> None:
        if not tenant and not api_key:
            raise ValueError("tenant is required without an api_key (a key names its tenant)")
        self._metadata: tuple[tuple[str, str], ...] = ((TENANT_METADATA_KEY, tenant),) if tenant else ()
        if api_key:
            self._metadata += (bearer(api_key),)
        self._timeout = timeout
        self._retries = retries
        self._backoff = backoff
        self._channel: ChannelT = self._open(target, credentials)
        self._closed = False
        self._stub = MemoryServiceStub(self._channel)

    @staticmethod
    def _open(target: str, credentials: grpc.ChannelCredentials | None) -> ChannelT:
        raise NotImplementedError

    @property
    def channel(self) -> ChannelT:
        """The channel, for the stubs of the other services (ClientClosed once closed).

        A stub made on a closed channel crashes the interpreter in grpcio, so a closed client
        never hands its channel out.
        """
        self._check_open()
        return self._channel

    @property
    def metadata(self) -> tuple[tuple[str, str], ...]:
        """The tenant (and key) metadata every call carries."""
        return self._metadata

    def _check_open(self) -> None:
        if self._closed:
            raise ClientClosed(_CLOSED)

    def _attempts(self) -> Iterator[tuple[bool, float]]:
        """Per attempt: whether it is the last, and the full-jitter backoff to sleep before the next."""
        for attempt in range(self._retries + 1):
            yield attempt == self._retries, _JITTER.uniform(0, self._backoff * 2**attempt)  # jitter, not secrecy

    def _call_options(self) -> dict[str, Any]:
        self._check_open()
        return {"metadata": self._metadata, "timeout": self._timeout}


def _raise_unless_retried(err: grpc.RpcError, last: bool) -> None:
    """Raise ``err`` as memoryd's error unless it is worth another attempt."""
    if err.code() not in RETRIED or last:
        raise from_rpc_error(err) from None


class MemoryClient(_ClientCore[grpc.Channel]):
    """Blocking calls to memoryd; use as a context manager or call ``close``.

    The archive's, profiles' and settings' calls are methods; ``conversations``, ``jobs`` and
    ``graph`` hold the working memory's, the background jobs' and the memory graph's.
    """

    @staticmethod
    def _open(target: str, credentials: grpc.ChannelCredentials | None) -> grpc.Channel:
        return grpc.secure_channel(target, credentials) if credentials else grpc.insecure_channel(target)

    @cached_property
    def conversations(self) -> Conversations:
        """The working memory: AppendMessages, GetContext, Compact, EndSession, ListConversations, watch."""
        return Conversations(self)

    @cached_property
    def jobs(self) -> Jobs:
        """GetJob, WatchJob, RetryJob."""
        return Jobs(self)

    @cached_property
    def graph(self) -> Graph:
        """AssertFact, SearchGraph, ExplainFact, UpdateFact, MergeEntities, UnmergeEntity, ListEntities."""
        return Graph(self)

    def __enter__(self) -> MemoryClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the channel."""
        self._closed = True
        self._channel.close()

    def _call(self, method: Callable[..., Any], request: Any, *, gone_is_done: bool = False) -> Any:
        options = self._call_options()
        retried = False
        for last, pause in self._attempts():
            try:
                return method(request, **options)
            except grpc.RpcError as err:
                if gone_is_done and retried and err.code() == grpc.StatusCode.NOT_FOUND:
                    return None
                _raise_unless_retried(err, last)
            retried = True
            time.sleep(pause)
        raise AssertionError("unreachable")  # pragma: no cover

    def memorize(
        self, agent_id: str, content: str, *, end_user_id: str = "", request_id: str = "", **fields: Any
    ) -> pb.MemorizeResponse:
        """Store one memory (``fields``: MemoryInput's other fields, e.g. tags, scope, salience, source_id)."""
        request = memorize_request(agent_id, content, end_user_id, request_id, fields)
        return cast(pb.MemorizeResponse, self._call(self._stub.Memorize, request))

    def memorize_batch(
        self,
        agent_id: str,
        items: Sequence[Item],
        *,
        end_user_id: str = "",
        skip_deduplication: bool = False,
        request_id: str = "",
    ) -> list[pb.MemorizeResponse]:
        """Store up to 1,000 memories (MemoryInput messages or their fields), all or nothing; one result per item."""
        request = batch_request(agent_id, items, end_user_id, skip_deduplication, request_id)
        return list(self._call(self._stub.MemorizeBatch, request).results)

    def recall(self, agent_id: str, query: str, *, limit: int = 0, **fields: Any) -> list[pb.RecallHit]:
        """The best hits, best first (``fields``: RecallRequest's others, e.g. end_user_id, filter, min_score).

        ``limit`` 0 and an unset ``min_score`` take the agent's settings (``effective_config``).
        """
        return list(self._call(self._stub.Recall, recall_request(agent_id, query, limit, fields)).hits)

    def get(self, agent_id: str, memory_id: str, *, end_user_id: str = "") -> pb.Memory:
        """One visible memory."""
        request = pb.GetMemoryRequest(agent_id=agent_id, end_user_id=end_user_id, memory_id=memory_id)
        return cast(pb.Memory, self._call(self._stub.GetMemory, request).memory)

    def update(self, agent_id: str, memory_id: str, *, end_user_id: str = "", **fields: Any) -> pb.Memory:
        """Change the given fields (content, category, subject, scope, salience, collection, pinned, tags)."""
        request = update_request(agent_id, memory_id, end_user_id, fields)
        return cast(pb.Memory, self._call(self._stub.UpdateMemory, request).memory)

    def forget(self, agent_id: str, memory_id: str, *, end_user_id: str = "") -> str:
        """Delete one memory for good; its id.

        A retry that finds the memory gone is the first attempt's success whose reply was lost.
        """
        request = pb.ForgetRequest(agent_id=agent_id, end_user_id=end_user_id, memory_id=memory_id)
        self._call(self._stub.Forget, request, gone_is_done=True)
        return memory_id

    def restore(self, agent_id: str, memory_id: str, *, end_user_id: str = "") -> pb.Memory:
        """Make an archived or superseded memory active again (operator keys): the undo of a review or correction."""
        request = pb.RestoreMemoryRequest(agent_id=agent_id, end_user_id=end_user_id, memory_id=memory_id)
        return cast(pb.Memory, self._call(self._stub.RestoreMemory, request).memory)

    def history(self, agent_id: str, memory_id: str, *, end_user_id: str = "") -> pb.GetMemoryHistoryResponse:
        """Every event on one visible memory in order (created, merged, updated, superseded…, its latest servings)."""
        request = pb.GetMemoryHistoryRequest(agent_id=agent_id, end_user_id=end_user_id, memory_id=memory_id)
        return cast(pb.GetMemoryHistoryResponse, self._call(self._stub.GetMemoryHistory, request))

    def feedback(
        self,
        agent_id: str,
        memory_id: str,
        signal: Any,
        *,
        correction: str = "",
        end_user_id: str = "",
        request_id: str = "",
    ) -> pb.FeedbackResponse:
        """One feedback signal (``pb.FEEDBACK_SIGNAL_*``); a correction needs its text.

        ``end_user_id``: the contact served (a contact's memories are seen only serving them). A request
        id is sent (a new one unless given), so a retry after a lost reply counts once.
        """
        request = feedback_request(agent_id, memory_id, signal, correction, end_user_id, request_id)
        return cast(pb.FeedbackResponse, self._call(self._stub.Feedback, request))

    def auto_feedback(
        self, agent_id: str, used: Mapping[str, bool], *, end_user_id: str = "", request_id: str = ""
    ) -> int:
        """Which recalled memories (id → used) the runtime used; how many signals were recorded (once)."""
        request = auto_feedback_request(agent_id, used, end_user_id, request_id)
        return int(self._call(self._stub.AutoFeedback, request).recorded)

    def call(self, method: Callable[..., Any], request: Any) -> Any:
        """One call with this client's metadata, deadline and retries (the namespaces' calls go through it)."""
        return self._call(method, request)

    def get_profile(self, agent_id: str) -> ppb.Profile:
        """The agent's current profile (document, revision, token count, the prompt block to cache)."""
        stub = ProfileServiceStub(self.channel)
        return cast(ppb.Profile, self._call(stub.GetProfile, ppb.GetProfileRequest(agent_id=agent_id)).profile)

    def edit_profile(
        self,
        agent_id: str,
        line: str,
        *,
        section: str = "Notes",
        pinned: bool = False,
        remove: bool = False,
        expected_revision: int | None = None,
    ) -> ppb.Profile:
        """Append a line to a section (or ``## Pinned``), or remove one; the profile after the edit.

        Edits are compare-and-swap on the revision: without ``expected_revision`` the current one
        is read first; a concurrent edit in between raises ``Aborted`` (read again and retry).
        """
        return self._edit_profile(agent_id, expected_revision, **line_edit(line, section, pinned, remove))

    def replace_section(
        self, agent_id: str, section: str, content: str, *, pinned: bool = False, expected_revision: int | None = None
    ) -> ppb.Profile:
        """Replace a section's body (or ``## Pinned``'s); compare-and-swap on the revision as ``edit_profile``."""
        replaced = ppb.ReplaceSection(section=section, content=content, pinned=pinned)
        return self._edit_profile(agent_id, expected_revision, replace_section=replaced)

    def restore_profile(self, agent_id: str, revision: int, *, expected_revision: int | None = None) -> ppb.Profile:
        """Make an earlier revision's document current again (a new revision); compare-and-swap as ``edit_profile``."""
        return self._edit_profile(agent_id, expected_revision, restore_revision=ppb.RestoreRevision(revision=revision))

    def _edit_profile(self, agent_id: str, expected_revision: int | None, **edit: Any) -> ppb.Profile:
        """One EditProfile at ``expected_revision`` (the current one, read first, when None)."""
        if expected_revision is None:
            expected_revision = self.get_profile(agent_id).revision
        request = ppb.EditProfileRequest(agent_id=agent_id, expected_revision=expected_revision, **edit)
        return cast(ppb.Profile, self._call(ProfileServiceStub(self.channel).EditProfile, request).profile)

    def regenerate_profile(self, agent_id: str) -> str:
        """Queue the job that compiles the agent's archive into a new profile (``## Pinned`` kept); its job id."""
        stub = ProfileServiceStub(self.channel)
        return str(self._call(stub.RegenerateProfile, ppb.RegenerateProfileRequest(agent_id=agent_id)).job_id)

    def who_am_i(self) -> kpb.WhoAmIResponse:
        """The tenant, role, key id, pinned agent and scope the daemon sees these calls as (a start-up check)."""
        return cast(kpb.WhoAmIResponse, self._call(KeyServiceStub(self.channel).WhoAmI, kpb.WhoAmIRequest()))

    def effective_config(self, agent_id: str = "") -> dict[str, tuple[Setting, str]]:
        """What the agent runs with (no agent: the tenant level): each key's value and the level it came from."""
        stub = ConfigServiceStub(self.channel)
        return effective_values(self._call(stub.GetEffectiveConfig, gpb.GetEffectiveConfigRequest(agent_id=agent_id)))

    def set_config(
        self,
        agent_id: str,
        values: dict[str, Setting],
        *,
        unset: tuple[str, ...] = (),
        expected_version: int | None = None,
    ) -> int:
        """Store settings for one agent (``agent_id`` "": the tenant); the new version (operator role).

        Compare-and-swap: without ``expected_version`` the current one is read first; a concurrent
        change in between raises ``Aborted``. A tighten-only key looser than the tenant's raises
        ``FailedPrecondition``.
        """
        stub = ConfigServiceStub(self.channel)
        if expected_version is None:
            reply = self._call(stub.GetEffectiveConfig, gpb.GetEffectiveConfigRequest(agent_id=agent_id))
            expected_version = reply.agent_version if agent_id else reply.tenant_version
        method = stub.SetAgentConfig if agent_id else stub.SetTenantConfig
        return int(self._call(method, set_request(agent_id, values, unset, expected_version)).config.version)

    def list(
        self, agent_id: str, *, end_user_id: str = "", page_size: int = 100, where: Where = None
    ) -> Iterator[pb.Memory]:
        """Every visible memory, oldest first, fetched a page at a time (``where``: a RecallFilter or its fields)."""
        return pages(
            lambda token: self._call(
                self._stub.ListMemories, list_request(agent_id, end_user_id, page_size, token, where)
            ),
            "memories",
        )


class AsyncMemoryClient(_ClientCore[grpc.aio.Channel]):
    """A runtime's calls on ``grpc.aio``; ``async with`` it, or ``await close()``.

    The archive's, the profile's reads and edits, the effective settings, and the ``conversations``,
    ``jobs`` and ``graph`` namespaces, as ``MemoryClient`` has them; an operator's profile restores,
    regenerations and settings changes are the blocking client's.
    """

    @staticmethod
    def _open(target: str, credentials: grpc.ChannelCredentials | None) -> grpc.aio.Channel:
        return grpc.aio.secure_channel(target, credentials) if credentials else grpc.aio.insecure_channel(target)

    async def __aenter__(self) -> AsyncMemoryClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the channel."""
        self._closed = True
        await self._channel.close(None)

    @cached_property
    def graph(self) -> AsyncGraph:
        """The memory graph's calls, awaited (see ``MemoryClient.graph``)."""
        return AsyncGraph(self)

    @cached_property
    def jobs(self) -> AsyncJobs:
        """GetJob, WatchJob, RetryJob, awaited (``Compact`` and ``EndSession`` answer with a job's id)."""
        return AsyncJobs(self)

    @cached_property
    def conversations(self) -> AsyncConversations:
        """The working memory (see ``MemoryClient.conversations``)."""
        return AsyncConversations(self)

    async def call(self, method: Callable[..., Awaitable[Any]], request: Any) -> Any:
        """One call with this client's metadata, deadline and retries (``conversations`` goes through it)."""
        return await self._call(method, request)

    async def _call(self, method: Callable[..., Awaitable[Any]], request: Any, *, gone_is_done: bool = False) -> Any:
        options = self._call_options()
        retried = False
        for last, pause in self._attempts():
            try:
                return await method(request, **options)
            except grpc.RpcError as err:
                if gone_is_done and retried and err.code() == grpc.StatusCode.NOT_FOUND:
                    return None
                _raise_unless_retried(err, last)
            retried = True
            await asyncio.sleep(pause)
        raise AssertionError("unreachable")  # pragma: no cover

    async def memorize(
        self, agent_id: str, content: str, *, end_user_id: str = "", request_id: str = "", **fields: Any
    ) -> pb.MemorizeResponse:
        """Store one memory (see ``MemoryClient.memorize``)."""
        request = memorize_request(agent_id, content, end_user_id, request_id, fields)
        return cast(pb.MemorizeResponse, await self._call(self._stub.Memorize, request))

    async def memorize_batch(
        self,
        agent_id: str,
        items: Sequence[Item],
        *,
        end_user_id: str = "",
        skip_deduplication: bool = False,
        request_id: str = "",
    ) -> list[pb.MemorizeResponse]:
        """Store up to 1,000 memories, all or nothing (see ``MemoryClient.memorize_batch``)."""
        request = batch_request(agent_id, items, end_user_id, skip_deduplication, request_id)
        return list((await self._call(self._stub.MemorizeBatch, request)).results)

    async def auto_feedback(
        self, agent_id: str, used: Mapping[str, bool], *, end_user_id: str = "", request_id: str = ""
    ) -> int:
        """Which recalled memories the runtime used; how many signals were recorded (once)."""
        request = auto_feedback_request(agent_id, used, end_user_id, request_id)
        return int((await self._call(self._stub.AutoFeedback, request)).recorded)

    async def get_profile(self, agent_id: str) -> ppb.Profile:
        """The agent's current profile."""
        stub = ProfileServiceStub(self.channel)
        return cast(ppb.Profile, (await self._call(stub.GetProfile, ppb.GetProfileRequest(agent_id=agent_id))).profile)

    async def edit_profile(
        self,
        agent_id: str,
        line: str,
        *,
        section: str = "Notes",
        pinned: bool = False,
        remove: bool = False,
        expected_revision: int | None = None,
    ) -> ppb.Profile:
        """Append or remove a line, compare-and-swap on the revision (see ``MemoryClient.edit_profile``)."""
        return await self._edit_profile(agent_id, expected_revision, **line_edit(line, section, pinned, remove))

    async def replace_section(
        self, agent_id: str, section: str, content: str, *, pinned: bool = False, expected_revision: int | None = None
    ) -> ppb.Profile:
        """Replace a section's body; compare-and-swap on the revision."""
        replaced = ppb.ReplaceSection(section=section, content=content, pinned=pinned)
        return await self._edit_profile(agent_id, expected_revision, replace_section=replaced)

    async def _edit_profile(self, agent_id: str, expected_revision: int | None, **edit: Any) -> ppb.Profile:
        if expected_revision is None:
            expected_revision = (await self.get_profile(agent_id)).revision
        request = ppb.EditProfileRequest(agent_id=agent_id, expected_revision=expected_revision, **edit)
        return cast(ppb.Profile, (await self._call(ProfileServiceStub(self.channel).EditProfile, request)).profile)

    async def recall(self, agent_id: str, query: str, *, limit: int = 0, **fields: Any) -> list[pb.RecallHit]:
        """The best hits, best first."""
        request = recall_request(agent_id, query, limit, fields)
        return list((await self._call(self._stub.Recall, request)).hits)

    async def get(self, agent_id: str, memory_id: str, *, end_user_id: str = "") -> pb.Memory:
        """One visible memory."""
        request = pb.GetMemoryRequest(agent_id=agent_id, end_user_id=end_user_id, memory_id=memory_id)
        return cast(pb.Memory, (await self._call(self._stub.GetMemory, request)).memory)

    async def update(self, agent_id: str, memory_id: str, *, end_user_id: str = "", **fields: Any) -> pb.Memory:
        """Change the given fields (see ``MemoryClient.update``)."""
        request = update_request(agent_id, memory_id, end_user_id, fields)
        return cast(pb.Memory, (await self._call(self._stub.UpdateMemory, request)).memory)

    async def feedback(
        self,
        agent_id: str,
        memory_id: str,
        signal: Any,
        *,
        correction: str = "",
        end_user_id: str = "",
        request_id: str = "",
    ) -> pb.FeedbackResponse:
        """One feedback signal (see ``MemoryClient.feedback``)."""
        request = feedback_request(agent_id, memory_id, signal, correction, end_user_id, request_id)
        return cast(pb.FeedbackResponse, await self._call(self._stub.Feedback, request))

    async def forget(self, agent_id: str, memory_id: str, *, end_user_id: str = "") -> str:
        """Delete one memory for good; its id (a retry finding it gone is the lost reply's success)."""
        request = pb.ForgetRequest(agent_id=agent_id, end_user_id=end_user_id, memory_id=memory_id)
        await self._call(self._stub.Forget, request, gone_is_done=True)
        return memory_id

    async def restore(self, agent_id: str, memory_id: str, *, end_user_id: str = "") -> pb.Memory:
        """Make an archived or superseded memory active again (see ``MemoryClient.restore``)."""
        request = pb.RestoreMemoryRequest(agent_id=agent_id, end_user_id=end_user_id, memory_id=memory_id)
        return cast(pb.Memory, (await self._call(self._stub.RestoreMemory, request)).memory)

    async def history(self, agent_id: str, memory_id: str, *, end_user_id: str = "") -> pb.GetMemoryHistoryResponse:
        """Every event on one visible memory in order (see ``MemoryClient.history``)."""
        request = pb.GetMemoryHistoryRequest(agent_id=agent_id, end_user_id=end_user_id, memory_id=memory_id)
        return cast(pb.GetMemoryHistoryResponse, await self._call(self._stub.GetMemoryHistory, request))

    async def who_am_i(self) -> kpb.WhoAmIResponse:
        """The tenant, role, key id, pinned agent and scope the daemon sees these calls as."""
        return cast(kpb.WhoAmIResponse, await self._call(KeyServiceStub(self.channel).WhoAmI, kpb.WhoAmIRequest()))

    async def effective_config(self, agent_id: str = "") -> dict[str, tuple[Setting, str]]:
        """What the agent runs with (see ``MemoryClient.effective_config``)."""
        stub = ConfigServiceStub(self.channel)
        request = gpb.GetEffectiveConfigRequest(agent_id=agent_id)
        return effective_values(await self._call(stub.GetEffectiveConfig, request))

    def list(
        self, agent_id: str, *, end_user_id: str = "", page_size: int = 100, where: Where = None
    ) -> AsyncIterator[pb.Memory]:
        """Every visible memory, oldest first, a page at a time."""
        return async_pages(
            lambda token: self._call(
                self._stub.ListMemories, list_request(agent_id, end_user_id, page_size, token, where)
            ),
            "memories",
        )
