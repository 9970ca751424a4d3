"""The recall debugger: run a Recall as an agent serving a contact and show how it was ranked.

Operators get the daemon's trace (``RecallRequest.explain``): every candidate of both arms with its
ranks, raw scores, fused sum, evidence, final score and outcome, and, for ``explain``, what became of
that memory (not visible, filtered out, found by neither arm, below the cut, under min_score). An
agent key sees its hits' score parts. One Recall per page.
"""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import Route

from memoryd.facades.console.daemon import Refused
from memoryd.facades.console.web import Console, View, page
from memoryd.rpc.client import pb

ARMS: dict[str, Any] = {
    "both": pb.RECALL_ARMS_BOTH,
    "vector": pb.RECALL_ARMS_VECTOR,
    "full_text": pb.RECALL_ARMS_FULL_TEXT,
}


async def recall(view: View) -> Response:
    """Run a Recall and show each hit's score parts."""
    agent, contact, query = view.agent, view.arg("contact"), view.arg("q")
    limit = view.whole("limit", 10)
    floor = view.arg("min_score")
    values: dict[str, Any] = {"agent": agent, "contact": contact, "q": query, "limit": limit, "arms": list(ARMS)}
    values |= {"hits": None, "trace": None, "explain": view.arg("explain"), "explained": "", "min_score": floor}
    if agent and query:
        request = pb.RecallRequest(
            agent_id=agent, end_user_id=contact, query=query, limit=limit, arms=view.choice("arm", ARMS, 0)
        )
        if floor:
            try:
                request.min_score = float(floor)  # its range is the daemon's to check and name
            except ValueError:  # said as typed: a stand-in value made the daemon name a number nobody gave
                raise Refused("INVALID_ARGUMENT", f"min_score: {floor!r} is not a number") from None
        if view.caller.may("operator"):  # the daemon's trace: every candidate and its end
            request.explain = True
            if values["explain"]:
                request.explain_ids.append(values["explain"])
        reply = await view.call(view.daemon.memory.Recall, request)
        values["hits"] = list(reply.hits)
        values["trace"] = reply.trace if reply.HasField("trace") else None
        values["explained"] = reply.trace.explained[0].outcome if reply.trace.explained else ""
        values["stranger"] = await view.owns_nothing(agent, [h.memory.agent_id for h in reply.hits])

    return view.render("recall.html", **values)


def routes(console: Console) -> list[Route]:
    """The routes of the view."""
    return [Route("/recall", page(console, recall), methods=["GET"])]
