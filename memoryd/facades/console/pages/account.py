"""Sign-in and sign-out: a pasted API key (or, in protected mode, a tenant) checked with ``WhoAmI``."""

from __future__ import annotations

from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from memoryd.core.validation import is_loopback
from memoryd.facades.console.daemon import Calls, Refused
from memoryd.facades.console.sessions import Caller
from memoryd.facades.console.web import Console, View, page
from memoryd.rpc.client import kpb

ROLES = {kpb.KEY_ROLE_AGENT: "agent", kpb.KEY_ROLE_OPERATOR: "operator", kpb.KEY_ROLE_ADMIN: "admin"}
ROLES[kpb.KEY_ROLE_SYSTEM] = "system"
SCOPES = {kpb.KEY_SCOPE_READ_ONLY: "read_only", kpb.KEY_SCOPE_NON_DESTRUCTIVE: "non_destructive"}


def _next(value: str) -> str:
    """Where to go after signing in: a path of this console only (never another site)."""
    return value if value.startswith("/") and not value.startswith("//") and "\\" not in value else "/"


async def signin_form(view: View) -> Response:
    """The sign-in form (``next``: where to go after)."""
    return view.render("signin.html", next=_next(view.arg("next")), note=view.arg("note"), error="")


async def signin(view: View) -> Response:
    """Check the pasted key (or the named tenant) with WhoAmI; a new session once it answers."""
    token, tenant, target = view.arg("key"), view.arg("tenant"), _next(view.arg("next"))
    if not token and not tenant:
        return view.render("signin.html", 400, next=target, note="", error="Paste an API key (or name a tenant).")
    if not token and not is_loopback(view.request.client.host if view.request.client else ""):
        # Naming a tenant works only in protected mode, which trusts callers on the daemon's machine: the
        # console is one, so it extends that trust to browsers on this machine only, not to its listeners.
        error = "Naming a tenant signs in only from this machine (protected mode); paste an API key."
        return view.render("signin.html", 403, next=target, note="", error=error)
    probe = Calls(view.daemon, token, tenant)
    try:
        who = await probe(view.daemon.keys.WhoAmI, kpb.WhoAmIRequest())
    except Refused as refused:  # a refused key is 401; a daemon that cannot be reached is the console's 503
        status = 503 if refused.code in ("UNAVAILABLE", "DEADLINE_EXCEEDED") else 401
        return view.render("signin.html", status, next=target, note="", error=f"{refused.code}: {refused.message}")
    session = view.console.sessions.renew(view.session)  # a new id once signed in (no fixation)
    session.token, session.tenant = token, tenant if who.role == kpb.KEY_ROLE_SYSTEM or not token else ""
    scope = SCOPES.get(who.scope, "all")
    session.caller = Caller(who.tenant_id, ROLES[who.role], who.key_id, who.agent_id, who.protected_mode, scope)
    view.session = session
    return RedirectResponse(target, 303)


async def signout(view: View) -> Response:
    """Forget the credentials: a new anonymous session."""
    view.session = view.console.sessions.renew(view.session)
    return RedirectResponse("/signin", 303)


def routes(console: Console) -> list[Route]:
    """The routes of the view."""
    return [
        Route("/signin", page(console, signin_form, public=True), methods=["GET"]),
        Route("/signin", page(console, signin, public=True), methods=["POST"]),
        Route("/signout", page(console, signout, public=True), methods=["POST"]),
    ]
