"""GraphService over gRPC against the real daemon: the billing example, history, errors, scopes."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf.timestamp_pb2 import Timestamp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.rpc.client import GraphServiceStub, gr, pb
from tests.conftest import LiveServer, make_settings, tenant
from tests.oracle import Planted, visible

pytestmark = pytest.mark.timeout(120)
T, OTHER = tenant("acme"), tenant("globex")


def _ts(day: datetime) -> Timestamp:
    out = Timestamp()
    out.FromDatetime(day)
    return out


def _billing(name: str, day: datetime, sentence: str) -> gr.AssertFactRequest:
    return gr.AssertFactRequest(
        subject="Acme",
        subject_type=gr.ENTITY_TYPE_ORGANIZATION,
        predicate="Billing contact",
        object=name,
        object_type=gr.ENTITY_TYPE_PERSON,
        fact=sentence,
        valid_from=_ts(day),
        scope=pb.SCOPE_END_USER,
        end_user_id="u1",
    )


def _code(call: Callable[[], object]) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as err:
        call()
    return err.value.code(), str(err.value.details())


def test_the_billing_example_over_grpc(live_server: LiveServer) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as ch:
        graph = GraphServiceStub(ch)
        sep, oct_ = datetime(2026, 9, 1, tzinfo=UTC), datetime(2026, 10, 1, tzinfo=UTC)
        nadia = graph.AssertFact(_billing("Nadia", sep, "Nadia handles billing at Acme."), metadata=T)
        assert nadia.action == "add" and nadia.fact.predicate == "billing_contact"
        omar = graph.AssertFact(_billing("Omar", oct_, "Omar handles billing at Acme from October."), metadata=T)
        assert omar.action == "supersede" and list(omar.invalidated_fact_ids) == [nadia.fact.id]

        ask = gr.SearchGraphRequest(agent_id="a1", end_user_id="u1", query="who handles billing at Acme")
        now = graph.SearchGraph(ask, metadata=T)
        assert [f.object for f in now.facts] == ["Omar"] and now.facts[0].subject == "Acme"
        assert now.block.endswith("- [since 2026-10-01] Omar handles billing at Acme from October.")
        ask.as_of.CopyFrom(_ts(datetime(2026, 9, 16, tzinfo=UTC)))
        then = graph.SearchGraph(ask, metadata=T)
        assert [f.object for f in then.facts] == ["Nadia"]
        assert then.block.startswith("# Memory graph (as of 2026-09-16)\n")

        history = graph.ExplainFact(
            gr.ExplainFactRequest(agent_id="a1", end_user_id="u1", fact_id=nadia.fact.id), metadata=T
        )
        assert history.fact.status == gr.FACT_STATUS_INVALIDATED and history.superseded_by.id == omar.fact.id
        assert history.fact.valid_to.ToDatetime(tzinfo=UTC) == oct_

        # Another contact, another agent without the contact, another tenant: nothing, and ids are not found.
        for metadata, agent, contact in ((T, "a1", "u2"), (T, "a1", ""), (OTHER, "a1", "u1")):
            blind = graph.SearchGraph(
                gr.SearchGraphRequest(agent_id=agent, end_user_id=contact, query="Omar billing Acme"),
                metadata=metadata,
            )
            assert not blind.facts and blind.block == ""
            explain = gr.ExplainFactRequest(agent_id=agent, end_user_id=contact, fact_id=omar.fact.id)
            assert _code(lambda: graph.ExplainFact(explain, metadata=metadata))[0] == grpc.StatusCode.NOT_FOUND  # noqa: B023

        ended = graph.UpdateFact(
            gr.UpdateFactRequest(fact_id=omar.fact.id, valid_to=_ts(datetime(2026, 11, 1, tzinfo=UTC))), metadata=T
        )
        assert ended.fact.valid_to.ToDatetime(tzinfo=UTC) == datetime(2026, 11, 1, tzinfo=UTC)
        ask.ClearField("as_of")
        assert not graph.SearchGraph(ask, metadata=T).facts  # nobody handles billing now
        assert graph.ForgetFact(gr.ForgetFactRequest(fact_id=nadia.fact.id), metadata=T).fact_id == nadia.fact.id


def test_bad_graph_input_is_refused_by_field_and_writes_nothing(live_server: LiveServer) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as ch:
        graph = GraphServiceStub(ch)
        cases = [
            (gr.AssertFactRequest(subject="", predicate="p", object="o", fact="f"), "subject"),
            (gr.AssertFactRequest(subject="s", predicate="!!", object="o", fact="f"), "predicate"),
            (gr.AssertFactRequest(subject="s", predicate="p", object="o", fact="x" * 1001), "fact"),
            (gr.AssertFactRequest(subject="s", predicate="p", object="o", fact="\u200b\u200d"), "fact"),  # unseen
            (
                gr.AssertFactRequest(subject="s", predicate="p", object="o", fact="f", scope=pb.SCOPE_END_USER),
                "end_user_id",
            ),
            (gr.AssertFactRequest(subject="s", predicate="p", object="o", fact="f", subject_type=99), "subject_type"),  # type: ignore[arg-type]  # an unknown wire value
        ]
        for request, field in cases:
            code, message = _code(lambda request=request: graph.AssertFact(request, metadata=T))  # type: ignore[misc]
            assert code == grpc.StatusCode.INVALID_ARGUMENT and field in message, (field, message)
        search = gr.SearchGraphRequest(agent_id="a1", query="s", max_hops=7)
        code, message = _code(lambda: graph.SearchGraph(search, metadata=T))
        assert code == grpc.StatusCode.INVALID_ARGUMENT and "max_hops" in message
        unseen = gr.SearchGraphRequest(agent_id="a1", query="\u200b\ufeff")  # searched for everything
        assert _code(lambda: graph.SearchGraph(unseen, metadata=T)) == (
            grpc.StatusCode.INVALID_ARGUMENT,
            "query: must not be empty",
        )
        assert not graph.SearchGraph(gr.SearchGraphRequest(agent_id="a1", query="s p o f"), metadata=T).facts
        code, _ = _code(lambda: graph.UpdateFact(gr.UpdateFactRequest(fact_id="0" * 32, pinned=True), metadata=T))
        assert code == grpc.StatusCode.NOT_FOUND  # an id of the right form: nothing is there
        malformed: list[tuple[Callable[[], object], str]] = [  # was NOT_FOUND: the caller's mistake, not a gone row
            (lambda: graph.UpdateFact(gr.UpdateFactRequest(fact_id="", pinned=True), metadata=T), "fact_id"),
            (lambda: graph.ForgetFact(gr.ForgetFactRequest(fact_id="nosuch"), metadata=T), "fact_id"),
            (lambda: graph.ExplainFact(gr.ExplainFactRequest(agent_id="a1", fact_id="F" * 32), metadata=T), "fact_id"),
            (lambda: graph.RenameEntity(gr.RenameEntityRequest(entity_id="", name="Bob"), metadata=T), "entity_id"),
            (lambda: graph.UnmergeEntity(gr.UnmergeEntityRequest(entity_id="x" * 300), metadata=T), "entity_id"),
            (
                lambda: graph.MergeEntities(
                    gr.MergeEntitiesRequest(source_entity_id="0" * 32, target_entity_id=""), metadata=T
                ),
                "target_entity_id",
            ),
            (
                lambda: graph.DismissMergeSuggestion(gr.DismissMergeSuggestionRequest(suggestion_id="zz"), metadata=T),
                "suggestion_id",
            ),
        ]
        for call, field in malformed:
            code, message = _code(call)
            assert code == grpc.StatusCode.INVALID_ARGUMENT and message.startswith(f"{field}: must be "), message


GRAPH_TENANTS, GRAPH_AGENTS, GRAPH_CONTACTS = ["g0", "g1"], ["a0", "a1", "a2"], ["u0", "u1"]
_SCOPES = [pb.SCOPE_TENANT, pb.SCOPE_SHARED, pb.SCOPE_PRIVATE, pb.SCOPE_END_USER]


@pytest.fixture(scope="module")
def graph_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, dict[str, Planted]]]:
    settings = make_settings(Path(tmp_path_factory.mktemp("graph-world")) / "data")
    server = LiveServer(settings, OnnxMiniLMEmbedder(threads=2))
    server.start()
    planted: dict[str, Planted] = {}
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        graph = GraphServiceStub(channel)
        n = 0
        for t, scope in itertools.product(GRAPH_TENANTS, _SCOPES):
            for agent, contact in itertools.product(GRAPH_AGENTS, GRAPH_CONTACTS):
                owner = agent if scope == pb.SCOPE_PRIVATE else ""
                who = contact if scope == pb.SCOPE_END_USER else ""
                if (scope == pb.SCOPE_PRIVATE and contact != "u0") or (scope == pb.SCOPE_END_USER and agent != "a0"):
                    continue
                if scope in (pb.SCOPE_TENANT, pb.SCOPE_SHARED) and (agent, contact) != ("a0", "u0"):
                    continue
                n += 1
                request = gr.AssertFactRequest(
                    subject=f"Entity{n}",
                    predicate="secret_of",
                    object=f"holder {n}",
                    fact=f"Entity{n} keeps secret number {n} about billing and travel.",
                    scope=scope,
                    agent_id=owner,
                    end_user_id=who,
                )
                fact = graph.AssertFact(request, metadata=tenant(t)).fact
                planted[fact.id] = Planted(t, owner, who, scope)
        yield graph, planted
    server.stop()


_callers = st.tuples(
    st.sampled_from([*GRAPH_TENANTS, "g9"]),
    st.sampled_from([*GRAPH_AGENTS, "a9"]),
    st.sampled_from([*GRAPH_CONTACTS, "", "u9"]),
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    caller=_callers,
    words=st.sampled_from(["secret billing", "travel", "Entity3 holder", "number 5 about"]),
    pick=st.integers(0, 1000),
)
def test_no_caller_sees_another_scopes_graph_facts(graph_world, caller, words, pick) -> None:
    graph, planted = graph_world
    t, agent, contact = caller
    answer = graph.SearchGraph(
        gr.SearchGraphRequest(agent_id=agent, end_user_id=contact, query=words, limit=100, max_hops=2),
        metadata=tenant(t),
    )
    assert all(visible(planted[f.id], t, agent, contact) for f in answer.facts)
    listed, token = [], ""
    while True:  # ListFacts pages exactly the facts this caller sees, every status
        listing = gr.ListFactsRequest(agent_id=agent, end_user_id=contact, page_size=7, page_token=token)
        page = graph.ListFacts(listing, metadata=tenant(t))
        listed += [f.id for f in page.facts]
        token = page.next_page_token
        if not token:
            break
    assert sorted(listed) == sorted(i for i, p in planted.items() if visible(p, t, agent, contact))
    fact_id = sorted(planted)[pick % len(planted)]
    request = gr.ExplainFactRequest(agent_id=agent, end_user_id=contact, fact_id=fact_id)
    if visible(planted[fact_id], t, agent, contact):
        assert graph.ExplainFact(request, metadata=tenant(t)).fact.id == fact_id
    else:
        code, _ = _code(lambda: graph.ExplainFact(request, metadata=tenant(t)))
        assert code == grpc.StatusCode.NOT_FOUND


def test_a_retried_assertion_with_its_request_id_counts_one_mention(live_server: LiveServer) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as ch:
        graph = GraphServiceStub(ch)
        day = datetime(2026, 9, 1, tzinfo=UTC)
        asked = _billing("Nadia", day, "Nadia handles billing at Acme.")
        asked.request_id = "assert-1"
        first = graph.AssertFact(asked, metadata=T)
        retried = graph.AssertFact(asked, metadata=T)  # the reply was lost: the same request again
        assert first.action == "add" and retried.fact.id == first.fact.id and retried.fact.mention_count == 1
        again = gr.AssertFactRequest()
        again.CopyFrom(asked)
        again.request_id = "assert-2"  # a new request saying the same: a restatement, one more mention
        assert graph.AssertFact(again, metadata=T).fact.mention_count == 2
        unnamed = gr.AssertFactRequest()
        unnamed.CopyFrom(asked)
        unnamed.ClearField("request_id")
        assert graph.AssertFact(unnamed, metadata=T).fact.mention_count == 3
        assert graph.AssertFact(asked, metadata=T).fact.mention_count == 3  # the first request, retried late
        bad = gr.AssertFactRequest()
        bad.CopyFrom(asked)
        bad.request_id = "no spaces allowed"
        code, details = _code(lambda: graph.AssertFact(bad, metadata=T))
        assert code == grpc.StatusCode.INVALID_ARGUMENT and "request_id" in details
        other = _billing("Omar", day, "Omar handles billing at Acme.")
        other.request_id = "assert-1"  # the key of an earlier, different assertion: refused, nothing written
        code, details = _code(lambda: graph.AssertFact(other, metadata=T))
        assert code == grpc.StatusCode.ALREADY_EXISTS and "request_id" in details
        listed = graph.ListFacts(gr.ListFactsRequest(agent_id="a1", end_user_id="u1"), metadata=T).facts
        assert "Omar" not in {f.object for f in listed}


def test_an_unmerge_reaches_its_own_tenant_only_and_says_what_it_moved(live_server: LiveServer) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as ch:
        graph = GraphServiceStub(ch)
        day = datetime(2026, 9, 1, tzinfo=UTC)
        jane = graph.AssertFact(_billing("Jane Smith", day, "Jane Smith handles billing at Acme."), metadata=T).fact
        john = gr.AssertFactRequest(subject="John Smith", predicate="likes", object="tea", fact="John likes tea.")
        john_id = graph.AssertFact(john, metadata=T).fact.subject_id
        code, message = _code(
            lambda: graph.MergeEntities(
                gr.MergeEntitiesRequest(source_entity_id=jane.object_id, target_entity_id=john_id), metadata=T
            )
        )
        assert code == grpc.StatusCode.FAILED_PRECONDITION and "SCOPE_MISMATCH" in message  # contact vs tenant
        plain = gr.AssertFactRequest(subject="Jane Smith", predicate="likes", object="coffee", fact="Jane: coffee.")
        jane_id = graph.AssertFact(plain, metadata=T).fact.subject_id
        graph.MergeEntities(gr.MergeEntitiesRequest(source_entity_id=jane_id, target_entity_id=john_id), metadata=T)
        folded = gr.ListEntitiesRequest(agent_id="a1", merged=True)
        assert [(e.id, e.merged_into) for e in graph.ListEntities(folded, metadata=T).entities] == [(jane_id, john_id)]
        assert not graph.ListEntities(folded, metadata=OTHER).entities
        undo = gr.UnmergeEntityRequest(entity_id=jane_id)
        assert _code(lambda: graph.UnmergeEntity(undo, metadata=OTHER))[0] == grpc.StatusCode.NOT_FOUND
        still = graph.GetEntity(gr.GetEntityRequest(agent_id="a1", entity_id=john_id), metadata=T)
        assert "Jane Smith" in still.entity.aliases  # the other tenant's call changed nothing
        undone = graph.UnmergeEntity(undo, metadata=T)
        assert (undone.entity.name, undone.target.name, undone.facts_moved) == ("Jane Smith", "John Smith", 1)
        assert "Jane Smith" not in undone.target.aliases
        assert not graph.ListEntities(folded, metadata=T).entities
        code, message = _code(lambda: graph.UnmergeEntity(undo, metadata=T))
        assert code == grpc.StatusCode.FAILED_PRECONDITION and "entity_id" in message
