"""ListFacts and ListEntities over gRPC: pending first, by status and entity, paged, within visibility."""

from __future__ import annotations

import functools
from dataclasses import replace
from datetime import UTC, datetime

import grpc

from memoryd.core.graph import FactStatus
from memoryd.core.keys import Role
from memoryd.rpc.client import GraphServiceStub, MemoryServiceStub, bearer, gr, pb
from tests.conftest import LiveServer, tenant
from tests.e2e.test_graph_rpc import _billing, _code, _ts

T, OTHER = tenant("acme"), tenant("globex")


def test_facts_and_entities_are_listed_pending_first_by_status_entity_and_page(live_server: LiveServer) -> None:
    assert live_server.app is not None
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as ch:
        graph = GraphServiceStub(ch)
        sep, oct_ = datetime(2026, 9, 1, tzinfo=UTC), datetime(2026, 10, 1, tzinfo=UTC)
        nadia = graph.AssertFact(_billing("Nadia", sep, "Nadia handles billing at Acme."), metadata=T).fact
        omar = graph.AssertFact(_billing("Omar", oct_, "Omar handles billing at Acme from October."), metadata=T).fact
        office = graph.AssertFact(
            gr.AssertFactRequest(
                subject="Acme", predicate="office in", object="Lisbon", fact="Acme's office is in Lisbon.",
                valid_from=_ts(sep), scope=pb.SCOPE_TENANT,
            ),
            metadata=T,
        ).fact  # fmt: skip
        # An extraction under write approval leaves its facts pending: make the office fact one.
        store = live_server.app.graph._store
        held = live_server.run(store.facts("acme", [office.id]))[office.id]
        vector = live_server.run(store.fact_vectors("acme", [office.id]))[office.id]
        live_server.run(store.put_facts("acme", [(replace(held, status=FactStatus.PENDING), vector)]))

        def listed(**fields: object) -> list[str]:
            request = gr.ListFactsRequest(agent_id="a1", end_user_id="u1", **fields)  # type: ignore[arg-type]
            return [f.id for f in graph.ListFacts(request, metadata=T).facts]

        assert listed() == [office.id, omar.id, nadia.id]  # pending first, then the newest
        assert listed(status=gr.FACT_STATUS_INVALIDATED) == [nadia.id]
        assert listed(status=gr.FACT_STATUS_PENDING) == [office.id]
        assert listed(entity_id=omar.object_id) == [omar.id]
        first = graph.ListFacts(gr.ListFactsRequest(agent_id="a1", end_user_id="u1", page_size=2), metadata=T)
        assert [f.id for f in first.facts] == [office.id, omar.id] and first.facts[1].object == "Omar"
        rest = gr.ListFactsRequest(agent_id="a1", end_user_id="u1", page_size=2, page_token=first.next_page_token)
        last = graph.ListFacts(rest, metadata=T)
        assert [f.id for f in last.facts] == [nadia.id] and not last.next_page_token
        # another contact sees the tenant's fact only; another tenant nothing
        other_contact = graph.ListFacts(gr.ListFactsRequest(agent_id="a1", end_user_id="u2"), metadata=T).facts
        assert [f.id for f in other_contact] == [office.id]
        assert not graph.ListFacts(gr.ListFactsRequest(agent_id="a1", end_user_id="u1"), metadata=OTHER).facts

        entities = graph.ListEntities(gr.ListEntitiesRequest(agent_id="a1", end_user_id="u1"), metadata=T).entities
        names = [e.name for e in entities]
        assert names == sorted(names, key=str.casefold) and {"Acme", "Nadia", "Omar", "Lisbon"} <= set(names)
        blind = graph.ListEntities(gr.ListEntitiesRequest(agent_id="a1", end_user_id="u2"), metadata=T).entities
        assert not {"Nadia", "Omar"} & {e.name for e in blind}

        for request, field in (
            (gr.ListFactsRequest(agent_id="a1", page_token="x"), "page_token"),
            (gr.ListFactsRequest(agent_id="a1", page_size=201), "page_size"),
            (gr.ListFactsRequest(agent_id="a1", status=9), "status"),  # type: ignore[arg-type]
            (gr.ListFactsRequest(agent_id="a1", entity_id="e" * 129), "entity_id"),
        ):
            code, details = _code(functools.partial(graph.ListFacts, request, metadata=T))
            assert code == grpc.StatusCode.INVALID_ARGUMENT and field in details, (field, details)
        for listing, page in (
            (graph.ListEntities, gr.ListEntitiesRequest(agent_id="a1", page_size=201)),
            (graph.ListEpisodes, gr.ListEpisodesRequest(agent_id="a1", page_size=-1)),
            (graph.ListMergeSuggestions, gr.ListMergeSuggestionsRequest(agent_id="a1", page_size=201)),
        ):
            code, details = _code(functools.partial(listing, page, metadata=T))
            assert code == grpc.StatusCode.INVALID_ARGUMENT and "page_size" in details, details


def test_merge_suggestions_and_episodes_over_grpc_with_the_roles(live_server: LiveServer) -> None:
    _, agent = live_server.key("acme", Role.AGENT, "a1", "a1")
    _, admin = live_server.key("acme", Role.ADMIN, "", "ops")
    as_agent, as_admin = [bearer(agent)], [bearer(admin)]
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as ch:
        graph = GraphServiceStub(ch)
        for name in ("Keeper232", "Keeper23"):
            claim = gr.AssertFactRequest(
                subject=name, predicate="keeps", object=f"Item{name[6:]}", fact=f"{name} keeps Item{name[6:]}.",
                scope=pb.SCOPE_SHARED,
            )  # fmt: skip
            graph.AssertFact(claim, metadata=as_admin)
        listed = graph.ListMergeSuggestions(gr.ListMergeSuggestionsRequest(agent_id="a1"), metadata=as_agent)
        names = {(s.entity.name, s.similar_entity.name) for s in listed.suggestions}
        assert ("Keeper23", "Keeper232") in names and all(s.evidence for s in listed.suggestions)
        episodes = graph.ListEpisodes(gr.ListEpisodesRequest(agent_id="a1", page_size=1), metadata=as_agent)
        assert len(episodes.episodes) == 1 and episodes.episodes[0].kind == "human" and episodes.next_page_token
        pick = gr.DismissMergeSuggestionRequest(suggestion_id=listed.suggestions[0].suggestion_id)
        assert _code(functools.partial(graph.DismissMergeSuggestion, pick, metadata=as_agent))[0] == (
            grpc.StatusCode.PERMISSION_DENIED
        )
        graph.DismissMergeSuggestion(pick, metadata=as_admin)
        after = graph.ListMergeSuggestions(gr.ListMergeSuggestionsRequest(agent_id="a1"), metadata=as_agent)
        assert pick.suggestion_id not in {s.suggestion_id for s in after.suggestions}
        unknown = gr.DismissMergeSuggestionRequest(suggestion_id="0" * 32)
        code, details = _code(functools.partial(graph.DismissMergeSuggestion, unknown, metadata=as_admin))
        assert code == grpc.StatusCode.NOT_FOUND and "suggestion_id" in details


def test_get_entity_lists_the_memories_annotating_it(live_server: LiveServer) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as ch:
        graph, memory = GraphServiceStub(ch), MemoryServiceStub(ch)
        sep = datetime(2026, 9, 1, tzinfo=UTC)
        nadia = graph.AssertFact(_billing("Nadia", sep, "Nadia handles billing at Acme."), metadata=T).fact.object_id
        note = pb.MemoryInput(content="Nadia prefers invoices by post", source_id=nadia)
        stored = memory.Memorize(pb.MemorizeRequest(agent_id="a1", end_user_id="u1", memory=note), metadata=T).memory
        got = graph.GetEntity(gr.GetEntityRequest(agent_id="a1", end_user_id="u1", entity_id=nadia), metadata=T)
        assert got.entity.name == "Nadia" and list(got.annotated_by) == [stored.id]
        elsewhere = gr.GetEntityRequest(agent_id="a1", end_user_id="u2", entity_id=nadia)
        assert _code(functools.partial(graph.GetEntity, elsewhere, metadata=T))[0] == grpc.StatusCode.NOT_FOUND
        assert _code(functools.partial(graph.GetEntity, elsewhere, metadata=OTHER))[0] == grpc.StatusCode.NOT_FOUND
