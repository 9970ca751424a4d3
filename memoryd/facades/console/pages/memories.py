"""The memory browser: filter and page an agent's view of the archive, search it, open a memory, act on it.

A page lists what the chosen agent sees (serving the chosen contact), as the API does: the console
has no view of the archive the daemon would not give that agent. One ListMemories (or one Recall
for a search) per list page; a memory's page is GetMemory and the event-log page on it (admins).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from memoryd.facades.console.daemon import Refused
from memoryd.facades.console.web import Console, View, link, page
from memoryd.rpc.client import apb, pb

PAGE_SIZE = 50
SCOPES = {"private": pb.SCOPE_PRIVATE, "end_user": pb.SCOPE_END_USER, "tenant": pb.SCOPE_TENANT}
STATUSES = {
    "active": pb.MEMORY_STATUS_ACTIVE,
    "archived": pb.MEMORY_STATUS_ARCHIVED,
    "superseded": pb.MEMORY_STATUS_SUPERSEDED,
}


_STATUS_CHOICES = {**{name: (status,) for name, status in STATUSES.items()}, "all": tuple(STATUSES.values())}


def _filter(view: View) -> pb.RecallFilter:
    flt = pb.RecallFilter(collection=view.arg("collection"), pinned_only=view.choice("pinned", {"1": True}, False))
    if (scope := view.choice("scope", SCOPES, None)) is not None:
        flt.scopes.append(scope)
    flt.statuses.extend(view.choice("status", _STATUS_CHOICES, ()))
    if tag := view.arg("tag"):
        flt.tags.append(tag)
    if since := view.arg("since"):
        try:
            flt.since.FromDatetime(datetime.fromisoformat(since).replace(tzinfo=UTC))
        except ValueError:
            raise Refused("INVALID_ARGUMENT", f"since: {since!r} is not a date (YYYY-MM-DD)") from None
    return flt


async def browse(view: View) -> Response:
    """A page of the agent's view of the archive, filtered; or a search's hits."""
    agent, contact, query = view.agent, view.arg("contact"), view.arg("q")
    values: dict[str, Any] = {"agent": agent, "contact": contact, "q": query, "memories": [], "scores": {}}
    values |= {"scopes": list(SCOPES), "statuses": [*STATUSES, "all"], "next_link": ""}
    if not agent:
        return view.render("memories.html", **values)
    flt = _filter(view)
    if query:
        search = pb.RecallRequest(
            agent_id=agent, end_user_id=contact, query=query, limit=PAGE_SIZE, filter=flt, min_score=0
        )
        reply = await view.call(view.daemon.memory.Recall, search)
        values["memories"] = [h.memory for h in reply.hits]
        values["scores"] = {h.memory.id: h.score for h in reply.hits}
    else:
        request = pb.ListMemoriesRequest(
            agent_id=agent, end_user_id=contact, filter=flt, page_size=PAGE_SIZE, page_token=view.arg("page")
        )
        reply = await view.call(view.daemon.memory.ListMemories, request)
        values["memories"] = list(reply.memories)
        if reply.next_page_token:
            values["next_link"] = link("/memories", **{**view.request.query_params, "page": reply.next_page_token})
    values["stranger"] = await view.owns_nothing(agent, [m.agent_id for m in values["memories"]])
    return view.render("memories.html", **values)


async def memory(view: View) -> Response:
    """One memory with its provenance, counts, status, its history and (admins) the events naming it."""
    agent, contact = view.agent, view.arg("contact")
    memory_id = view.request.path_params["memory_id"]
    got = await view.call(
        view.daemon.memory.GetMemory, pb.GetMemoryRequest(agent_id=agent, end_user_id=contact, memory_id=memory_id)
    )
    history = await view.call(
        view.daemon.memory.GetMemoryHistory,
        pb.GetMemoryHistoryRequest(agent_id=agent, end_user_id=contact, memory_id=memory_id),
    )
    events: list[Any] = []
    if view.caller.may("admin"):
        reply = await view.call(
            view.daemon.audit.ListAuditEvents, apb.ListAuditEventsRequest(row_id=memory_id, page_size=100)
        )
        events = list(reply.events)
    return view.render(
        "memory.html",
        m=got.memory,
        annotated_by=list(got.annotated_by),
        history=list(history.events),
        servings_total=history.servings_total,
        events=events,
        agent=agent,
        contact=contact,
        action=view.arg("action"),
        done=view.arg("done"),
    )


async def act(view: View) -> Response:
    """Forget, restore, edit, pin or unpin one memory (the form says which; forgetting was confirmed first)."""
    agent, contact = view.agent, view.arg("contact")
    memory_id, action = view.request.path_params["memory_id"], view.arg("action")
    if action == "forget":
        await view.call(
            view.daemon.memory.Forget, pb.ForgetRequest(agent_id=agent, end_user_id=contact, memory_id=memory_id)
        )
    elif action == "restore":
        await view.call(
            view.daemon.memory.RestoreMemory,
            pb.RestoreMemoryRequest(agent_id=agent, end_user_id=contact, memory_id=memory_id),
        )
    elif action == "edit":
        request = pb.UpdateMemoryRequest(
            agent_id=agent, end_user_id=contact, memory_id=memory_id, content=view.arg("content")
        )
        await view.call(view.daemon.memory.UpdateMemory, request)
    elif action in ("pin", "unpin"):
        pin = action == "pin"
        pinning = pb.UpdateMemoryRequest(agent_id=agent, end_user_id=contact, memory_id=memory_id, pinned=pin)
        await view.call(view.daemon.memory.UpdateMemory, pinning)
    else:
        raise Refused("INVALID_ARGUMENT", f"action: {action!r} is not forget, restore, edit, pin or unpin")
    target = link(f"/memories/{memory_id}", agent=agent, contact=contact, done=action)
    return RedirectResponse(target, 303)


def routes(console: Console) -> list[Route]:
    """The routes of the view."""
    return [
        Route("/memories", page(console, browse), methods=["GET"]),
        Route("/memories/{memory_id}", page(console, memory), methods=["GET"]),
        Route("/memories/{memory_id}", page(console, act), methods=["POST"]),
    ]
