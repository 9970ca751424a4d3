"""Keys and the event log (admins): create a key (its token shown once), revoke one, read the log."""

from __future__ import annotations

from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from memoryd.facades.console.daemon import Refused
from memoryd.facades.console.web import Console, View, link, page
from memoryd.rpc.client import apb, kpb

SCOPES = {
    "all": kpb.KEY_SCOPE_ALL,
    "read_only": kpb.KEY_SCOPE_READ_ONLY,
    "non_destructive": kpb.KEY_SCOPE_NON_DESTRUCTIVE,
}
CREATABLE = {"agent": kpb.KEY_ROLE_AGENT, "operator": kpb.KEY_ROLE_OPERATOR, "admin": kpb.KEY_ROLE_ADMIN}
OPERATIONS = (
    "memorize", "update", "forget", "restore", "profile_edit", "findings_applied", "findings_rejected", "key_create",
    "key_revoke", "erase", "retention_purge", "import_started", "import", "feedback", "config_change", "graph_assert",
    "graph_update", "graph_forget", "graph_merge",
)  # fmt: skip


async def keys(view: View) -> Response:
    """The tenant's keys (and, right after a create, the new token: shown once, then forgotten)."""
    reply = await view.call(view.daemon.keys.ListKeys, kpb.ListKeysRequest())
    made, view.session.shown_once = view.session.shown_once, None
    return view.render("keys.html", keys=list(reply.keys), roles=list(CREATABLE), made=made)


async def create(view: View) -> Response:
    """Create a key of the tenant, at most the caller's role (the daemon checks)."""
    role = CREATABLE.get(view.arg("role"))
    if role is None:
        raise Refused("INVALID_ARGUMENT", f"role: {view.arg('role')!r} is not agent, operator or admin")
    scope = SCOPES.get(view.arg("scope") or "all")
    if scope is None:
        raise Refused("INVALID_ARGUMENT", f"scope: {view.arg('scope')!r} is not all, read_only or non_destructive")
    request = kpb.CreateKeyRequest(role=role, agent_id=view.arg("agent"), name=view.arg("name"), scope=scope)
    # the token is in this reply only: kept for the next page of the list, which shows it once (a reload of
    # that page, unlike a reload of this POST, sends nothing again)
    view.session.shown_once = await view.call(view.daemon.keys.CreateKey, request)
    return RedirectResponse("/keys", 303)


async def revoke(view: View) -> Response:
    """Revoke one key of the tenant."""
    key_id = view.request.path_params["key_id"]
    await view.call(view.daemon.keys.RevokeKey, kpb.RevokeKeyRequest(key_id=key_id))
    return RedirectResponse("/keys", 303)


async def events(view: View) -> Response:
    """The event log, filtered by operation, key, row and days."""
    request = apb.ListAuditEventsRequest(
        operation=view.arg("operation"), key_id=view.arg("key"), row_id=view.arg("row"), page_token=view.arg("page")
    )
    request.page_size = 100
    if since := view.day("since"):
        request.since.FromDatetime(since)
    if until := view.day("until"):
        request.until.FromDatetime(until)
    reply = await view.call(view.daemon.audit.ListAuditEvents, request)
    next_link = (
        link("/events", **{**view.request.query_params, "page": reply.next_page_token}) if reply.next_page_token else ""
    )
    return view.render("events.html", events=list(reply.events), operations=OPERATIONS, next_link=next_link)


def routes(console: Console) -> list[Route]:
    """The routes of the view."""
    return [
        Route("/keys", page(console, keys, role="admin"), methods=["GET"]),
        Route("/keys", page(console, create, role="admin"), methods=["POST"]),
        Route("/keys/{key_id}/revoke", page(console, revoke, role="admin"), methods=["POST"]),
        Route("/events", page(console, events, role="admin"), methods=["GET"]),
    ]
