"""The memory graph for both clients: assert, search, explain, curate; each request built once here.

``Graph`` waits on the blocking client, ``AsyncGraph`` on the asyncio one. Asserting and curating
need the admin role; searching, explaining and listing an agent's entities, the agent's.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from datetime import datetime
from typing import Any, cast

from google.protobuf.timestamp_pb2 import Timestamp

from memoryd.client.fields import build
from memoryd.client.namespaces import AsyncCaller, Caller
from memoryd.client.paging import async_pages, pages
from memoryd.rpc.client import GraphServiceStub, gr, pb


def _timestamp(when: datetime | None) -> Timestamp | None:
    if when is None:
        return None
    stamp = Timestamp()
    stamp.FromDatetime(when)
    return stamp


def _assertion(
    triple: tuple[str, str, str],
    fact: str,
    valid_from: datetime | None,
    scope: Any,
    agent_id: str,
    end_user_id: str,
    request_id: str,
) -> gr.AssertFactRequest:
    subject, predicate, obj = triple
    fields = {"subject": subject, "predicate": predicate, "object": obj, "fact": fact, "scope": scope}
    return build(
        gr.AssertFactRequest,
        {
            **fields,
            "valid_from": _timestamp(valid_from),
            "agent_id": agent_id,
            "end_user_id": end_user_id,
            "request_id": request_id or uuid.uuid4().hex,  # the client's retries count one mention
        },
    )


def _search(agent_id: str, query: str, end_user_id: str, as_of: datetime | None) -> gr.SearchGraphRequest:
    return gr.SearchGraphRequest(agent_id=agent_id, end_user_id=end_user_id, query=query, as_of=_timestamp(as_of))


def _update(fact_id: str, status: Any, valid_to: datetime | None, fields: dict[str, Any]) -> gr.UpdateFactRequest:
    return build(
        gr.UpdateFactRequest, {"fact_id": fact_id, "status": status, "valid_to": _timestamp(valid_to), **fields}
    )


def _entities(agent_id: str, end_user_id: str, merged: bool, token: str) -> gr.ListEntitiesRequest:
    return gr.ListEntitiesRequest(
        agent_id=agent_id, end_user_id=end_user_id, page_size=200, page_token=token, merged=merged
    )


class Graph:
    """The memory graph: dated facts between entities."""

    def __init__(self, client: Caller) -> None:
        self._client = client

    def _stub(self) -> GraphServiceStub:
        return GraphServiceStub(self._client.channel)

    def assert_fact(
        self,
        subject: str,
        predicate: str,
        object: str,  # noqa: A002  # the proto's own name for the third part of a fact
        fact: str,
        *,
        valid_from: datetime | None = None,
        scope: Any = pb.SCOPE_TENANT,
        agent_id: str = "",
        end_user_id: str = "",
        request_id: str = "",
    ) -> gr.AssertFactResponse:
        """Assert ``subject —predicate→ object`` (admin role); a contradicted earlier fact is invalidated.

        ``request_id`` (default: a fresh one) makes the client's retries count one mention only.
        """
        request = _assertion((subject, predicate, object), fact, valid_from, scope, agent_id, end_user_id, request_id)
        return cast(gr.AssertFactResponse, self._client.call(self._stub().AssertFact, request))

    def search(
        self, agent_id: str, query: str, *, end_user_id: str = "", as_of: datetime | None = None
    ) -> gr.SearchGraphResponse:
        """The facts valid at ``as_of`` (default now), best first, and the block the agent sees."""
        request = _search(agent_id, query, end_user_id, as_of)
        return cast(gr.SearchGraphResponse, self._client.call(self._stub().SearchGraph, request))

    def explain(self, agent_id: str, fact_id: str, *, end_user_id: str = "") -> gr.ExplainFactResponse:
        """A visible fact with its sources, the facts it replaced and the one that replaced it."""
        request = gr.ExplainFactRequest(agent_id=agent_id, end_user_id=end_user_id, fact_id=fact_id)
        return cast(gr.ExplainFactResponse, self._client.call(self._stub().ExplainFact, request))

    def update_fact(
        self, fact_id: str, *, status: Any = gr.FACT_STATUS_UNSPECIFIED, valid_to: datetime | None = None, **fields: Any
    ) -> gr.GraphFact:
        """Approve, end or restore a fact (``gr.FACT_STATUS_*`` or a short name), date its end, pin it (admin)."""
        request = _update(fact_id, status, valid_to, fields)
        return cast(gr.GraphFact, self._client.call(self._stub().UpdateFact, request).fact)

    def merge(self, source_entity_id: str, target_entity_id: str) -> gr.GraphEntity:
        """Fold one entity into another of its scope (admin role); ``unmerge`` undoes it."""
        request = gr.MergeEntitiesRequest(source_entity_id=source_entity_id, target_entity_id=target_entity_id)
        return cast(gr.GraphEntity, self._client.call(self._stub().MergeEntities, request).entity)

    def unmerge(self, entity_id: str) -> gr.UnmergeEntityResponse:
        """Undo the merge that folded ``entity_id`` away: its facts and names go back (admin role)."""
        request = gr.UnmergeEntityRequest(entity_id=entity_id)
        return cast(gr.UnmergeEntityResponse, self._client.call(self._stub().UnmergeEntity, request))

    def entities(self, agent_id: str, *, end_user_id: str = "", merged: bool = False) -> Iterator[gr.GraphEntity]:
        """The entities the agent sees (``merged``: those merges folded away), by name, a page at a time."""
        stub = self._stub()
        return pages(
            lambda token: self._client.call(stub.ListEntities, _entities(agent_id, end_user_id, merged, token)),
            "entities",
        )


class AsyncGraph:
    """The same calls for ``AsyncMemoryClient`` (see ``Graph``)."""

    def __init__(self, client: AsyncCaller) -> None:
        self._client = client

    def _stub(self) -> GraphServiceStub:
        return GraphServiceStub(self._client.channel)

    async def assert_fact(
        self,
        subject: str,
        predicate: str,
        object: str,  # noqa: A002  # the proto's own name for the third part of a fact
        fact: str,
        *,
        valid_from: datetime | None = None,
        scope: Any = pb.SCOPE_TENANT,
        agent_id: str = "",
        end_user_id: str = "",
        request_id: str = "",
    ) -> gr.AssertFactResponse:
        """Assert ``subject —predicate→ object`` (admin role)."""
        request = _assertion((subject, predicate, object), fact, valid_from, scope, agent_id, end_user_id, request_id)
        return cast(gr.AssertFactResponse, await self._client.call(self._stub().AssertFact, request))

    async def search(
        self, agent_id: str, query: str, *, end_user_id: str = "", as_of: datetime | None = None
    ) -> gr.SearchGraphResponse:
        """The facts valid at ``as_of``, best first, and the block the agent sees."""
        request = _search(agent_id, query, end_user_id, as_of)
        return cast(gr.SearchGraphResponse, await self._client.call(self._stub().SearchGraph, request))

    async def explain(self, agent_id: str, fact_id: str, *, end_user_id: str = "") -> gr.ExplainFactResponse:
        """A visible fact with its sources and what it replaced."""
        request = gr.ExplainFactRequest(agent_id=agent_id, end_user_id=end_user_id, fact_id=fact_id)
        return cast(gr.ExplainFactResponse, await self._client.call(self._stub().ExplainFact, request))

    async def update_fact(
        self, fact_id: str, *, status: Any = gr.FACT_STATUS_UNSPECIFIED, valid_to: datetime | None = None, **fields: Any
    ) -> gr.GraphFact:
        """Approve, end or restore a fact, date its end, pin it (admin role)."""
        request = _update(fact_id, status, valid_to, fields)
        return cast(gr.GraphFact, (await self._client.call(self._stub().UpdateFact, request)).fact)

    async def merge(self, source_entity_id: str, target_entity_id: str) -> gr.GraphEntity:
        """Fold one entity into another of its scope (admin role)."""
        request = gr.MergeEntitiesRequest(source_entity_id=source_entity_id, target_entity_id=target_entity_id)
        return cast(gr.GraphEntity, (await self._client.call(self._stub().MergeEntities, request)).entity)

    async def unmerge(self, entity_id: str) -> gr.UnmergeEntityResponse:
        """Undo the merge that folded ``entity_id`` away (admin role)."""
        request = gr.UnmergeEntityRequest(entity_id=entity_id)
        return cast(gr.UnmergeEntityResponse, await self._client.call(self._stub().UnmergeEntity, request))

    def entities(self, agent_id: str, *, end_user_id: str = "", merged: bool = False) -> AsyncIterator[gr.GraphEntity]:
        """The entities the agent sees, by name, a page at a time."""
        stub = self._stub()
        return async_pages(
            lambda token: self._client.call(stub.ListEntities, _entities(agent_id, end_user_id, merged, token)),
            "entities",
        )
