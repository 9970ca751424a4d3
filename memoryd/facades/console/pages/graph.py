"""The memory graph: facts as an agent serving a contact sees them, pending first, with validity.

Also a search's facts and block, one fact's explanation, and approving or rejecting a pending fact
(admins: UpdateFact). At most three calls a page (ListFacts, ListEntities and ListMergeSuggestions, or
SearchGraph), and for admins the merged entities (ListEntities again): they merge a suggested pair or
dismiss it, and undo a merge.
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime
from typing import Any

from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from memoryd.facades.console import charts
from memoryd.facades.console.daemon import Refused
from memoryd.facades.console.web import Console, View, link, page
from memoryd.rpc.client import gr, pb

STATUSES: dict[str, Any] = {
    "pending": gr.FACT_STATUS_PENDING,
    "active": gr.FACT_STATUS_ACTIVE,
    "invalidated": gr.FACT_STATUS_INVALIDATED,
    "archived": gr.FACT_STATUS_ARCHIVED,
}
DECISIONS: dict[str, tuple[Any, str]] = {
    "approve": (gr.FACT_STATUS_ACTIVE, "approved"),
    "reject": (gr.FACT_STATUS_INVALIDATED, "rejected"),
    "restore": (gr.FACT_STATUS_ACTIVE, "restored"),
    "end": (gr.FACT_STATUS_INVALIDATED, "ended"),
}
"""What each button on a fact asks UpdateFact for, and the note it leaves."""
PINS = {"pin": (True, "pinned"), "unpin": (False, "unpinned")}
"""The pin buttons: kept by retention and the decay pass, or not."""


async def graph(view: View) -> Response:
    """The facts (a page, by status and entity) and the entities; or a search's facts and block."""
    agent, contact, query = view.agent, view.arg("contact"), view.arg("q")
    values: dict[str, Any] = {"agent": agent, "contact": contact, "q": query, "found": None, "facts": []}
    values |= {"entities": [], "statuses": list(STATUSES), "next_link": "", "done": view.arg("done"), "timeline": ""}
    values["undo"] = view.arg("undo")
    values["suggestions"], values["merged"] = [], []
    if agent and query:
        request = gr.SearchGraphRequest(agent_id=agent, end_user_id=contact, query=query)
        values["found"] = await view.call(view.daemon.graph.SearchGraph, request)
    elif agent:
        listing = gr.ListFactsRequest(
            agent_id=agent,
            end_user_id=contact,
            status=view.choice("status", STATUSES, 0),
            entity_id=view.arg("entity"),
            page_token=view.arg("page"),
        )
        graph = view.daemon.graph
        suggested = gr.ListMergeSuggestionsRequest(agent_id=agent, end_user_id=contact, page_size=50)
        calls = [
            view.call(graph.ListFacts, listing),
            view.call(graph.ListEntities, gr.ListEntitiesRequest(agent_id=agent, end_user_id=contact, page_size=200)),
            view.call(graph.ListMergeSuggestions, suggested),
        ]
        if view.caller.may("admin", destroys=True):  # who may undo a merge sees what was merged
            folded = gr.ListEntitiesRequest(agent_id=agent, end_user_id=contact, page_size=200, merged=True)
            calls.append(view.call(graph.ListEntities, folded))
        facts, entities, suggestions, *merged = await asyncio.gather(*calls)  # independent reads: at once
        values["facts"], values["entities"] = list(facts.facts), list(entities.entities)
        values["suggestions"] = list(suggestions.suggestions)
        values["request_id"] = uuid.uuid4().hex  # the assert form's: a double submit asserts once
        into = {e.id: e.name for e in entities.entities}
        values["merged"] = [(e, into.get(e.merged_into, e.merged_into)) for m in merged for e in m.entities]
        values["timeline"] = charts.timeline(
            [
                (
                    f.fact,
                    _when(f.valid_from) or _when(f.created_at),
                    _when(f.valid_to),
                    f.status == gr.FACT_STATUS_ACTIVE,
                    link(f"/graph/facts/{f.id}", agent=agent, contact=contact),
                )
                for f in facts.facts
            ],
            title="each fact's validity",
        )
        if facts.next_page_token:
            values["next_link"] = link("/graph", **{**view.request.query_params, "page": facts.next_page_token})
    return view.render("graph.html", **values)


async def decide(view: View) -> Response:
    """Approve or reject a pending fact; end, pin or unpin an active one; restore an archived or invalidated one."""
    decision, fact_id = view.arg("decision"), view.request.path_params["fact_id"]
    if decision in PINS:
        pinned, done = PINS[decision]
        request = gr.UpdateFactRequest(fact_id=fact_id, pinned=pinned)
    elif decision in DECISIONS:
        status, done = DECISIONS[decision]
        request = gr.UpdateFactRequest(fact_id=fact_id, status=status)
    else:
        raise Refused("INVALID_ARGUMENT", f"decision: {decision!r} is not {', '.join([*DECISIONS, *PINS])}")
    await view.call(view.daemon.graph.UpdateFact, request)
    back = link("/graph", agent=view.arg("agent"), contact=view.arg("contact"), done=done)
    return RedirectResponse(back, 303)


async def merge(view: View) -> Response:
    """Fold one entity into another of the same scope (admins: MergeEntities; the daemon checks the scope)."""
    source, target = view.arg("source"), view.arg("target")
    if not source or not target or source == target:
        raise Refused("INVALID_ARGUMENT", "source_entity_id: choose two different entities")
    request = gr.MergeEntitiesRequest(source_entity_id=source, target_entity_id=target)
    merged = await view.call(view.daemon.graph.MergeEntities, request)
    done = f"merged into {merged.entity.name}"
    back = link("/graph", agent=view.arg("agent"), contact=view.arg("contact"), done=done, undo=source)
    return RedirectResponse(back, 303)


WHERE: dict[str, Any] = {
    "tenant": pb.SCOPE_TENANT,
    "shared": pb.SCOPE_SHARED,
    "private": pb.SCOPE_PRIVATE,
    "contact": pb.SCOPE_END_USER,
}
"""Where an asserted fact is filed: the tenant, every agent, the page's agent, or the page's contact."""


async def assert_fact(view: View) -> Response:
    """A person's fact (admins: AssertFact), e.g. the right one after ending a wrong one; what it contradicts ends."""
    agent, contact = view.arg("agent"), view.arg("contact")
    scope = view.choice("where", WHERE, pb.SCOPE_TENANT)
    request = gr.AssertFactRequest(
        subject=view.arg("subject"),
        predicate=view.arg("predicate"),
        object=view.arg("object"),
        fact=view.arg("fact"),
        scope=scope,
        agent_id=agent if scope == pb.SCOPE_PRIVATE else "",
        end_user_id=contact if scope == pb.SCOPE_END_USER else "",
        request_id=view.arg("request_id"),  # the form's own: sent twice, counted once
    )
    if since := view.day("valid_from"):
        request.valid_from.FromDatetime(since)
    try:
        asserted = await view.call(view.daemon.graph.AssertFact, request)
    except Refused as refused:
        if refused.code != "ALREADY_EXISTS":
            raise
        # The form's id with another fact: a page the back button brought back, sent again after an edit.
        raise Refused(
            "ALREADY_EXISTS", "this form already asserted another fact: open the graph page again to assert a new one"
        ) from None
    done = f"{asserted.action}: {asserted.fact.fact}"
    return RedirectResponse(link("/graph", agent=agent, contact=contact, done=done), 303)


async def unmerge(view: View) -> Response:
    """Undo the merge that folded an entity away (admins: UnmergeEntity): its facts and names go back."""
    request = gr.UnmergeEntityRequest(entity_id=view.arg("entity"))
    undone = await view.call(view.daemon.graph.UnmergeEntity, request)
    done = f"{undone.entity.name} is apart from {undone.target.name} again (facts moved back: {undone.facts_moved})"
    return RedirectResponse(link("/graph", agent=view.arg("agent"), contact=view.arg("contact"), done=done), 303)


async def dismiss(view: View) -> Response:
    """A person judged a suggested pair two entities (admins: DismissMergeSuggestion)."""
    request = gr.DismissMergeSuggestionRequest(suggestion_id=view.arg("suggestion"))
    await view.call(view.daemon.graph.DismissMergeSuggestion, request)
    back = link("/graph", agent=view.arg("agent"), contact=view.arg("contact"), done="dismissed the suggestion")
    return RedirectResponse(back, 303)


async def fact(view: View) -> Response:
    """One fact with what it superseded and what superseded it."""
    agent, contact = view.agent, view.arg("contact")
    request = gr.ExplainFactRequest(agent_id=agent, end_user_id=contact, fact_id=view.request.path_params["fact_id"])
    explained = await view.call(view.daemon.graph.ExplainFact, request)
    return view.render("fact.html", agent=agent, contact=contact, explained=explained)


def _when(stamp: Any) -> datetime | None:
    """A Timestamp as an aware datetime; None when unset."""
    return stamp.ToDatetime(tzinfo=UTC) if stamp.seconds or stamp.nanos else None


def routes(console: Console) -> list[Route]:
    """The routes of the view."""
    return [
        Route("/graph", page(console, graph), methods=["GET"]),
        Route("/graph/facts/{fact_id}", page(console, fact), methods=["GET"]),
        Route("/graph/facts/{fact_id}", page(console, decide, role="admin"), methods=["POST"]),
        Route("/graph/facts", page(console, assert_fact, role="admin"), methods=["POST"]),
        Route("/graph/merge", page(console, merge, role="admin"), methods=["POST"]),
        Route("/graph/unmerge", page(console, unmerge, role="admin"), methods=["POST"]),
        Route("/graph/dismiss", page(console, dismiss, role="admin"), methods=["POST"]),
    ]
