"""The graph's calls, as a namespace of ``MemoryClient`` (the working memory's: ``conversations``; jobs': ``jobs``).

Each goes through its client's ``call`` (metadata, deadline, retries on UNAVAILABLE only) and asks
for the channel at each call, so a closed client raises ``ClientClosed`` instead of making a stub
on a closed channel.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any, Protocol, cast

import grpc
from google.protobuf.timestamp_pb2 import Timestamp

from memoryd.client.fields import build
from memoryd.client.paging import pages
from memoryd.rpc.client import GraphServiceStub, gr, pb


class Caller(Protocol):
    """What a namespace needs of its blocking client."""

    @property
    def channel(self) -> grpc.Channel:
        """The open channel (ClientClosed once closed)."""

    @property
    def metadata(self) -> tuple[tuple[str, str], ...]:
        """What every call carries: the tenant, the key."""

    def call(self, method: Callable[..., Any], request: Any) -> Any:
        """One call with the client's metadata, deadline and retries."""


def _timestamp(when: datetime | None) -> Timestamp | None:
    if when is None:
        return None
    stamp = Timestamp()
    stamp.FromDatetime(when)
    return stamp


class Graph:
    """The memory graph: dated facts between entities."""

    def __init__(self, client: Caller) -> None:
        self._client = client

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
        request = build(
            gr.AssertFactRequest,
            {
                "subject": subject,
                "predicate": predicate,
                "object": object,
                "fact": fact,
                "valid_from": _timestamp(valid_from),
                "scope": scope,
                "agent_id": agent_id,
                "end_user_id": end_user_id,
                "request_id": request_id or uuid.uuid4().hex,
            },
        )
        stub = GraphServiceStub(self._client.channel)
        return cast(gr.AssertFactResponse, self._client.call(stub.AssertFact, request))

    def search(
        self, agent_id: str, query: str, *, end_user_id: str = "", as_of: datetime | None = None
    ) -> gr.SearchGraphResponse:
        """The facts valid at ``as_of`` (default now), best first, and the block the agent sees."""
        request = gr.SearchGraphRequest(
            agent_id=agent_id, end_user_id=end_user_id, query=query, as_of=_timestamp(as_of)
        )
        stub = GraphServiceStub(self._client.channel)
        return cast(gr.SearchGraphResponse, self._client.call(stub.SearchGraph, request))

    def explain(self, agent_id: str, fact_id: str, *, end_user_id: str = "") -> gr.ExplainFactResponse:
        """A visible fact with its sources, the facts it replaced and the one that replaced it."""
        request = gr.ExplainFactRequest(agent_id=agent_id, end_user_id=end_user_id, fact_id=fact_id)
        stub = GraphServiceStub(self._client.channel)
        return cast(gr.ExplainFactResponse, self._client.call(stub.ExplainFact, request))

    def update_fact(
        self, fact_id: str, *, status: Any = gr.FACT_STATUS_UNSPECIFIED, valid_to: datetime | None = None, **fields: Any
    ) -> gr.GraphFact:
        """Approve, end or restore a fact (``gr.FACT_STATUS_*``), date its end, pin it (admin role)."""
        request = build(
            gr.UpdateFactRequest, {"fact_id": fact_id, "status": status, "valid_to": _timestamp(valid_to), **fields}
        )
        stub = GraphServiceStub(self._client.channel)
        return cast(gr.GraphFact, self._client.call(stub.UpdateFact, request).fact)

    def merge(self, source_entity_id: str, target_entity_id: str) -> gr.GraphEntity:
        """Fold one entity into another of its scope (admin role); ``unmerge`` undoes it."""
        request = gr.MergeEntitiesRequest(source_entity_id=source_entity_id, target_entity_id=target_entity_id)
        stub = GraphServiceStub(self._client.channel)
        return cast(gr.GraphEntity, self._client.call(stub.MergeEntities, request).entity)

    def unmerge(self, entity_id: str) -> gr.UnmergeEntityResponse:
        """Undo the merge that folded ``entity_id`` away: its facts and names go back (admin role)."""
        request = gr.UnmergeEntityRequest(entity_id=entity_id)
        stub = GraphServiceStub(self._client.channel)
        return cast(gr.UnmergeEntityResponse, self._client.call(stub.UnmergeEntity, request))

    def entities(self, agent_id: str, *, end_user_id: str = "", merged: bool = False) -> Iterator[gr.GraphEntity]:
        """The entities the agent sees (``merged``: those merges folded away), by name, a page at a time."""
        stub = GraphServiceStub(self._client.channel)
        return pages(
            lambda token: self._client.call(
                stub.ListEntities,
                gr.ListEntitiesRequest(
                    agent_id=agent_id, end_user_id=end_user_id, page_size=200, page_token=token, merged=merged
                ),
            ),
            "entities",
        )
