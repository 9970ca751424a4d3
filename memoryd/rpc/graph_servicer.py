"""GraphService over gRPC: decode, one service call, encode."""

from __future__ import annotations

from memoryd.app import App
from memoryd.core.errors import InvalidRequest
from memoryd.core.graph import GraphScope
from memoryd.core.models import Scope
from memoryd.core.provenance import ServedItem
from memoryd.core.validation import check_text
from memoryd.rpc import convert
from memoryd.rpc._gen.memoryd.v1 import graph_pb2 as gr
from memoryd.rpc._gen.memoryd.v1 import graph_pb2_grpc as gr_grpc
from memoryd.rpc.convert import graph as wire
from memoryd.rpc.identity import Ctx, actor, caller
from memoryd.rpc.status import translated
from memoryd.services.graph import Assertion


class GraphServicer(gr_grpc.GraphServiceServicer):
    """Thin shell over ``App.graph``."""

    def __init__(self, app: App) -> None:
        self._app = app

    @translated
    async def SearchGraph(self, request: gr.SearchGraphRequest, context: Ctx) -> gr.SearchGraphResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        settings = await self._app.working.configs.values(who.tenant_id, who.agent_id)
        answer = await self._app.graph.search(
            who,
            request.query,
            as_of=convert.to_datetime(request.as_of, "as_of") if request.HasField("as_of") else None,
            max_hops=request.max_hops if request.HasField("max_hops") else int(settings["graph.max_hops"]),
            budget_tokens=(
                request.budget_tokens if request.HasField("budget_tokens") else int(settings["graph.budget_tokens"])
            ),
            limit=request.limit or 20,
        )
        if self._app.admin.provenance is not None:  # the served log: every fact returned, best first
            self._app.admin.provenance.served(who, [(h.fact.fact_id, h.score) for h in answer.hits], ServedItem.FACT)
        names = {h.fact.subject_id: h.subject for h in answer.hits} | {h.fact.object_id: h.object for h in answer.hits}
        return gr.SearchGraphResponse(
            facts=[wire.graph_fact(h.fact, names, h.hop, h.score) for h in answer.hits],
            block=answer.block,
            tokens=answer.tokens,
            as_of=convert.to_timestamp(answer.as_of),
        )

    @translated
    async def ExplainFact(self, request: gr.ExplainFactRequest, context: Ctx) -> gr.ExplainFactResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        fact, superseded, by = await self._app.graph.explain(who, request.fact_id)
        names = await self._app.graph.names(who.tenant_id, [fact, *superseded, *([by] if by else [])])
        reply = gr.ExplainFactResponse(
            fact=wire.graph_fact(fact, names), superseded=[wire.graph_fact(f, names) for f in superseded]
        )
        if by is not None:
            reply.superseded_by.CopyFrom(wire.graph_fact(by, names))
        return reply

    @translated
    async def AssertFact(self, request: gr.AssertFactRequest, context: Ctx) -> gr.AssertFactResponse:
        """See the proto."""
        scope = convert.SCOPES.get(request.scope, Scope.TENANT) if request.scope else Scope.TENANT
        where = GraphScope(scope, request.agent_id if scope is Scope.PRIVATE else "", request.end_user_id)
        claim = Assertion(
            request.subject,
            request.predicate,
            request.object,
            request.fact,
            wire.entity_type(request.subject_type, "subject_type"),
            wire.entity_type(request.object_type, "object_type"),
            convert.to_datetime(request.valid_from, "valid_from") if request.HasField("valid_from") else None,
        )
        done = await self._app.graph.assert_human(caller(context), where, claim, request.request_id)
        names = await self._app.graph.names(caller(context).tenant_id, [done.fact])
        return gr.AssertFactResponse(
            fact=wire.graph_fact(done.fact, names),
            action=done.action.value,
            invalidated_fact_ids=list(done.invalidated),
            possible_duplicates=[gr.EntityPair(entity_id=a, similar_entity_id=b) for a, b in done.possible_duplicates],
        )

    @translated
    async def UpdateFact(self, request: gr.UpdateFactRequest, context: Ctx) -> gr.UpdateFactResponse:
        """See the proto."""
        status = wire.STATUSES.get(request.status) if request.status else None
        if request.status and status is None:
            raise InvalidRequest("status", f"unknown status {request.status}")
        by = caller(context)
        fact = await self._app.graph.update_fact(
            by,
            request.fact_id,
            valid_to=convert.to_datetime(request.valid_to, "valid_to") if request.HasField("valid_to") else None,
            status=status,
            pinned=request.pinned if request.HasField("pinned") else None,
        )
        return gr.UpdateFactResponse(fact=wire.graph_fact(fact, await self._app.graph.names(by.tenant_id, [fact])))

    @translated
    async def MergeEntities(self, request: gr.MergeEntitiesRequest, context: Ctx) -> gr.MergeEntitiesResponse:
        """See the proto."""
        merged = await self._app.graph.merge_entities(
            caller(context), request.source_entity_id, request.target_entity_id
        )
        return gr.MergeEntitiesResponse(entity=wire.entity(merged))

    @translated
    async def UnmergeEntity(self, request: gr.UnmergeEntityRequest, context: Ctx) -> gr.UnmergeEntityResponse:
        """See the proto."""
        undone = await self._app.graph.unmerge_entity(caller(context), request.entity_id)
        return gr.UnmergeEntityResponse(
            entity=wire.entity(undone.entity), target=wire.entity(undone.target), facts_moved=undone.facts_moved
        )

    @translated
    async def RenameEntity(self, request: gr.RenameEntityRequest, context: Ctx) -> gr.RenameEntityResponse:
        """See the proto."""
        renamed = await self._app.graph.rename_entity(caller(context), request.entity_id, request.name)
        return gr.RenameEntityResponse(entity=wire.entity(renamed))

    @translated
    async def ForgetFact(self, request: gr.ForgetFactRequest, context: Ctx) -> gr.ForgetFactResponse:
        """See the proto."""
        return gr.ForgetFactResponse(fact_id=await self._app.graph.forget_fact(caller(context), request.fact_id))

    @translated
    async def ListFacts(self, request: gr.ListFactsRequest, context: Ctx) -> gr.ListFactsResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        size = request.page_size or 50
        if request.status and request.status not in wire.STATUSES:
            raise InvalidRequest("status", f"unknown fact status {request.status}")
        status = wire.STATUSES.get(request.status)
        facts, token = await self._app.graph.list_facts(who, status, request.entity_id, size, request.page_token)
        names = await self._app.graph.names(who.tenant_id, facts)
        return gr.ListFactsResponse(facts=[wire.graph_fact(f, names) for f in facts], next_page_token=token)

    @translated
    async def ListEntities(self, request: gr.ListEntitiesRequest, context: Ctx) -> gr.ListEntitiesResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        size = request.page_size or 50
        entities, token = await self._app.graph.list_entities(who, size, request.page_token, merged=request.merged)
        return gr.ListEntitiesResponse(entities=[wire.entity(e) for e in entities], next_page_token=token)

    @translated
    async def GetEntity(self, request: gr.GetEntityRequest, context: Ctx) -> gr.GetEntityResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        found = await self._app.graph.visible_entity(who, check_text(request.entity_id, "entity_id", 64))
        annotated = await self._app.memory.archive.annotated_by(who, found.entity_id)
        return gr.GetEntityResponse(entity=wire.entity(found), annotated_by=annotated)

    @translated
    async def ListEpisodes(self, request: gr.ListEpisodesRequest, context: Ctx) -> gr.ListEpisodesResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        size = request.page_size or 50
        episodes, token = await self._app.graph.list_episodes(who, size, request.page_token)
        return gr.ListEpisodesResponse(episodes=[wire.episode(e) for e in episodes], next_page_token=token)

    @translated
    async def ListMergeSuggestions(
        self, request: gr.ListMergeSuggestionsRequest, context: Ctx
    ) -> gr.ListMergeSuggestionsResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        size = request.page_size or 50
        found, token = await self._app.graph.list_suggestions(who, size, request.page_token)
        return gr.ListMergeSuggestionsResponse(
            suggestions=[wire.suggestion(s, a, b) for s, a, b in found], next_page_token=token
        )

    @translated
    async def DismissMergeSuggestion(
        self, request: gr.DismissMergeSuggestionRequest, context: Ctx
    ) -> gr.DismissMergeSuggestionResponse:
        """See the proto."""
        await self._app.graph.dismiss_suggestion(
            caller(context), check_text(request.suggestion_id, "suggestion_id", 64)
        )
        return gr.DismissMergeSuggestionResponse()
