"""The memory graph: search facts as an agent serving a contact, with validity; one fact's explanation."""

from __future__ import annotations

from starlette.responses import Response
from starlette.routing import Route

from memoryd.facades.console.web import Console, View, page
from memoryd.rpc.client import gr


async def graph(view: View) -> Response:
    """Search the graph as the chosen agent and contact."""
    agent, contact, query = view.caller.agent_id or view.arg("agent"), view.arg("contact"), view.arg("q")
    found = None
    if agent and query:
        request = gr.SearchGraphRequest(agent_id=agent, end_user_id=contact, query=query)
        found = await view.call(view.daemon.graph.SearchGraph, request)
    return view.render("graph.html", agent=agent, contact=contact, q=query, found=found)


async def fact(view: View) -> Response:
    """One fact with what it superseded and what superseded it."""
    agent, contact = view.caller.agent_id or view.arg("agent"), view.arg("contact")
    request = gr.ExplainFactRequest(agent_id=agent, end_user_id=contact, fact_id=view.request.path_params["fact_id"])
    explained = await view.call(view.daemon.graph.ExplainFact, request)
    return view.render("fact.html", agent=agent, contact=contact, explained=explained)


def routes(console: Console) -> list[Route]:
    """The routes of the view."""
    return [
        Route("/graph", page(console, graph), methods=["GET"]),
        Route("/graph/facts/{fact_id}", page(console, fact), methods=["GET"]),
    ]
