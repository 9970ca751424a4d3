"""The review queue: an agent's reviews, a review's findings beside their memories, apply or reject, undo.

Applying never deletes: a merge or an update supersedes, an archive archives. Undo restores the
memories of the chosen applied findings that are no longer active (one RestoreMemory each, at most
``UNDO_LIMIT`` per request).
"""

from __future__ import annotations

from typing import Any

from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from memoryd.facades.console.daemon import Refused
from memoryd.facades.console.web import Console, View, link, page
from memoryd.rpc.client import apb, pb

UNDO_LIMIT = 50
"""Memories one undo restores at most (each is a call; a larger selection is undone in turns)."""


async def reviews(view: View) -> Response:
    """An agent's reviews, newest first."""
    agent = view.agent
    found: list[Any] = []
    if agent:
        reply = await view.call(view.daemon.audit.ListReviews, apb.ListReviewsRequest(agent_id=agent, page_size=50))
        found = list(reply.reviews)
    return view.render("reviews.html", agent=agent, reviews=found)


async def review(view: View) -> Response:
    """One review's findings beside the memories they name."""
    agent, review_id = view.arg("agent"), view.request.path_params["review_id"]
    reply = await view.call(view.daemon.audit.GetReview, apb.GetReviewRequest(agent_id=agent, review_id=review_id))
    memories = {m.id: m for m in reply.memories}
    return view.render(
        "review.html", agent=agent, review=reply.review, findings=list(reply.findings), memories=memories,
        done=view.arg("done"),
    )  # fmt: skip


async def run(view: View) -> Response:
    """Ask for a review of the agent's archive now (a job); its page follows it."""
    agent = view.arg("agent")
    reply = await view.call(view.daemon.audit.ReviewMemories, apb.ReviewMemoriesRequest(agent_id=agent))
    return RedirectResponse(link(f"/jobs/{reply.job_id}", done="review queued"), 303)


async def decide(view: View) -> Response:
    """Apply, reject or undo the findings ticked on the review page."""
    agent, review_id = view.arg("agent"), view.request.path_params["review_id"]
    decision = view.arg("decision")
    form = await view.request.form()
    chosen = [str(v) for v in form.getlist("finding")]
    if not chosen:  # (ApplyFindings with no id applies the whole review: never from a forgotten tick)
        raise Refused("INVALID_ARGUMENT", "finding: choose at least one finding")
    if decision == "apply":
        applying = apb.ApplyFindingsRequest(agent_id=agent, review_id=review_id, finding_ids=chosen)
        await view.call(view.daemon.audit.ApplyFindings, applying)
    elif decision == "reject":
        request = apb.RejectFindingsRequest(
            agent_id=agent, review_id=review_id, finding_ids=chosen, reason=view.arg("reason")
        )
        await view.call(view.daemon.audit.RejectFindings, request)
    elif decision == "undo":
        await _undo(view, agent, review_id, set(chosen))
    else:
        raise Refused("INVALID_ARGUMENT", f"decision: {decision!r} is not apply, reject or undo")
    return RedirectResponse(link(f"/reviews/{review_id}", agent=agent, done=decision), 303)


async def _undo(view: View, agent: str, review_id: str, chosen: set[str]) -> None:
    reply = await view.call(view.daemon.audit.GetReview, apb.GetReviewRequest(agent_id=agent, review_id=review_id))
    status = {m.id: m.status for m in reply.memories}
    undone = [
        memory_id
        for f in reply.findings
        if f.finding_id in chosen and f.status == apb.FINDING_STATUS_APPLIED
        for memory_id in f.memory_ids
        if status.get(memory_id, pb.MEMORY_STATUS_ACTIVE) != pb.MEMORY_STATUS_ACTIVE
    ]
    if not undone:
        raise Refused("FAILED_PRECONDITION", "findings: none of the chosen applied findings left a memory to restore")
    for memory_id in list(dict.fromkeys(undone))[:UNDO_LIMIT]:
        await view.call(view.daemon.memory.RestoreMemory, pb.RestoreMemoryRequest(agent_id=agent, memory_id=memory_id))


def routes(console: Console) -> list[Route]:
    """The routes of the view."""
    return [
        Route("/reviews", page(console, reviews), methods=["GET"]),  # an agent reviews its own archive
        Route("/reviews", page(console, run), methods=["POST"]),
        Route("/reviews/{review_id:path}/decide", page(console, decide, role="operator"), methods=["POST"]),
        Route("/reviews/{review_id:path}", page(console, review), methods=["GET"]),
    ]
