"""The console's HTTP shell: sessions, CSRF, security headers, templates, and the daemon's refusals as pages.

Every page is a ``Page`` handler wrapped by ``page``: the wrapper finds the browser's session (making an
anonymous one on first sight), sends a visitor who has not signed in to the sign-in page, checks the
CSRF token of every POST, refuses a page above the caller's role before any call, and turns the
daemon's refusal into a page that names its status and message. Handlers only call the daemon
(``View.call``) and render.
"""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar
from urllib.parse import urlencode

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memoryd.facades.console.daemon import Calls, Daemon, Refused
from memoryd.facades.console.sessions import COOKIE, Caller, Session, Sessions
from memoryd.rpc.client import apb, cpb, gr, jpb, kpb, pb, ppb

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
"""Only the console's own files run and load; no inline script or style, no framing, forms post home."""
T = TypeVar("T")
_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
_STATUS = {
    "INVALID_ARGUMENT": 400,
    "FAILED_PRECONDITION": 409,
    "ALREADY_EXISTS": 409,
    "ABORTED": 409,
    "PERMISSION_DENIED": 403,
    "NOT_FOUND": 404,
    "RESOURCE_EXHAUSTED": 429,
    "UNAVAILABLE": 503,
    "DEADLINE_EXCEEDED": 504,
}
"""The daemon's status as the page's HTTP status (others: 502, the daemon failed)."""


LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]"})
"""The names a console listening on loopback answers to unless told more (``--allowed-host``)."""


def host_name(header: str) -> str:
    """The name in a Host header, without its port, lower case (``[::1]:8080`` → ``[::1]``)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[: header.find("]") + 1]
    return header.split(":", 1)[0]


class HostCheck:
    """ASGI middleware: answer only requests naming a host this console serves.

    A web page anywhere can point a name of its own at 127.0.0.1 (DNS rebinding) and then call the
    console from the victim's browser as its own origin: cookies, CSRF tokens and all. On a daemon in
    protected mode that was an admin session for whoever asked. The Host header still carries the
    attacker's name, so a console that knows its own names refuses the request before any page.
    """

    def __init__(self, app: ASGIApp, hosts: frozenset[str]) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse an HTTP request whose Host is not one of ``hosts`` (none given: every host)."""
        if scope["type"] == "http" and self.hosts:
            header = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            if host_name(header) not in self.hosts:
                said = (
                    f"Host {header!r} is not a name this console answers to ({', '.join(sorted(self.hosts))}); "
                    "start it with --allowed-host NAME to add one\n"
                )
                await PlainTextResponse(said, 400)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class SecurityHeaders:
    """ASGI middleware: the security headers on every response, pages and files alike."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; add the headers to the response's start."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


@dataclass
class Console:
    """What every page shares: the daemon, the sessions, the templates, whether cookies need TLS."""

    daemon: Daemon
    sessions: Sessions = field(default_factory=Sessions)
    secure_cookies: bool = False
    hosts: frozenset[str] = LOOPBACK_HOSTS
    """The Host names pages are served for (``HostCheck``); empty: any."""
    templates: Environment = field(
        default_factory=lambda: Environment(
            loader=PackageLoader("memoryd.facades.console", "templates"),
            autoescape=select_autoescape(default=True, default_for_string=True),
        )
    )

    def __post_init__(self) -> None:
        self.templates.globals.update(pb=pb, apb=apb, jpb=jpb, kpb=kpb, gr=gr, ppb=ppb, cpb=cpb)


@dataclass
class View:
    """One request as a handler sees it."""

    request: Request
    console: Console
    session: Session
    calls: Calls
    form: dict[str, Any] = field(default_factory=dict)

    @property
    def caller(self) -> Caller:
        """The signed-in caller (pages that need none are marked ``public``)."""
        assert self.session.caller is not None  # the wrapper sends anonymous visitors to sign in
        return self.session.caller

    @property
    def agent(self) -> str:
        """The agent the page acts as: the key's pinned agent, else the one chosen (``agent``)."""
        return self.caller.agent_id or self.arg("agent")

    @property
    def daemon(self) -> Daemon:
        """The daemon's stubs."""
        return self.console.daemon

    async def call(self, method: Any, request: Any) -> Any:
        """One call to the daemon with the session's credentials (counted)."""
        return await self.calls(method, request)

    async def owns_nothing(self, agent: str, authors: list[str] | None = None) -> bool:
        """Whether ``agent`` has no memory of its own in the tenant (most likely a mistyped id).

        Any agent id is valid and sees what the tenant shares, so a typo showed the tenant's memories
        as that agent's view. A page showing one of the agent's own memories (``authors``) answers
        without a call; otherwise one private memory is looked for (only ever its author's), and only
        an agent without one is counted by an agent-scoped usage report, which scans the tenant
        (operators and admins: a pinned key's agent is its own, and an agent key may not count usage).
        """
        if self.caller.agent_id or agent in (authors or ()) or not self.caller.reads("operator"):
            return False
        private = pb.RecallFilter(scopes=[pb.SCOPE_PRIVATE])
        mine = pb.ListMemoriesRequest(agent_id=agent, page_size=1, filter=private)
        if (await self.call(self.daemon.memory.ListMemories, mine)).memories:
            return False
        try:
            report = await self.call(self.daemon.audit.GetUsageReport, apb.GetUsageReportRequest(agent_id=agent))
        except Refused:
            return False
        return bool(report.report.memories == 0)

    def arg(self, name: str, default: str = "") -> str:
        """A query-string or form value, trimmed."""
        value = self.form.get(name, self.request.query_params.get(name, default))
        return str(value).strip()

    def choice(self, name: str, options: Mapping[str, T], default: T) -> T:
        """One of a menu's ``options`` by name (none chosen: ``default``); any other name is refused, not ignored."""
        value = self.arg(name)
        if not value:
            return default
        if value not in options:
            raise Refused("INVALID_ARGUMENT", f"{name}: {value!r} is not one of {', '.join(options)}")
        return options[value]

    def day(self, name: str) -> datetime | None:
        """A date (YYYY-MM-DD, midnight UTC; none given: None); any other text is refused naming the field."""
        value = self.arg(name)
        if not value:
            return None
        try:
            return datetime.fromisoformat(value).replace(tzinfo=UTC)
        except ValueError:
            raise Refused("INVALID_ARGUMENT", f"{name}: {value!r} is not a date (YYYY-MM-DD)") from None

    def whole(self, name: str, default: int) -> int:
        """A whole number (none given: ``default``); its range is the daemon's to check and name."""
        value = self.arg(name)
        if not value:
            return default
        try:
            number = int(value)
        except ValueError:
            raise Refused("INVALID_ARGUMENT", f"{name}: {value!r} is not a whole number") from None
        if not -(2**31) <= number < 2**31:  # the messages' int32: protobuf would raise, not the daemon refuse
            raise Refused("INVALID_ARGUMENT", f"{name}: {value} is out of range")
        return number

    def render(self, template: str, status: int = 200, **values: Any) -> HTMLResponse:
        """The template with the session's caller, CSRF token and the current path."""
        body = self.console.templates.get_template(template).render(
            caller=self.session.caller,
            csrf=self.session.csrf,
            path=self.request.url.path,
            query=dict(self.request.query_params),
            link=link,
            label=label,
            when=when,
            **values,
        )
        return HTMLResponse(body, status_code=status)


Handler = Callable[[View], Awaitable[Response]]


def link(path: str, **params: Any) -> str:
    """A URL with the non-empty parameters in its query string (templates build filters with it)."""
    kept = {k: v for k, v in params.items() if v not in ("", None, False)}
    return f"{path}?{urlencode(kept)}" if kept else path


def label(enum: Any, value: int) -> str:
    """An enum value's name without its type's prefix, lower case (``Scope`` ``SCOPE_END_USER`` → ``end_user``)."""
    prefix = re.sub(r"(?<!^)(?=[A-Z])", "_", enum.DESCRIPTOR.name).upper() + "_"
    name: str = enum.Name(value)
    return name.removeprefix(prefix).lower()


def when(stamp: Any) -> str:
    """A Timestamp as ``YYYY-MM-DD HH:MM UTC``; an unset one as a dash."""
    if not stamp.seconds and not stamp.nanos:
        return "—"
    return datetime.fromtimestamp(stamp.seconds, UTC).strftime("%Y-%m-%d %H:%M UTC")


def page(console: Console, handler: Handler, *, role: str = "agent", public: bool = False) -> Callable[..., Any]:
    """The Starlette endpoint around ``handler``: session, sign-in, CSRF, role and the daemon's refusals."""

    async def endpoint(request: Request) -> Response:
        started = time.perf_counter()
        found = console.sessions.get(request.cookies.get(COOKIE))
        session = found or console.sessions.new()
        calls = Calls(console.daemon, session.token, session.tenant)
        view = View(request, console, session, calls)
        response = await _answer(view, handler, role=role, public=public)
        if found is None or view.session is not session:  # a new visitor, or a sign-in / sign-out renewed it
            set_cookie(response, view.session, console.secure_cookies)
        response.headers["cache-control"] = "no-store"
        # the page's time in the console and its calls to the daemon (browsers' tools show it; the bench reads it)
        elapsed = (time.perf_counter() - started) * 1000
        response.headers["server-timing"] = f'page;dur={elapsed:.1f}, rpc;desc="{calls.count} calls"'
        return response

    return endpoint


async def _answer(view: View, handler: Handler, *, role: str, public: bool) -> Response:
    if view.request.method == "POST":
        view.form = dict(await view.request.form())
        if not view.session.csrf_ok(str(view.form.get("csrf", ""))):
            return view.render("error.html", 403, title="Refused", message=_FORGED)
    if not public and view.session.caller is None:
        back = view.request.url.path + (f"?{view.request.url.query}" if view.request.url.query else "")
        return RedirectResponse(link("/signin", next=back), 303)
    if not public and not view.caller.reads(role):
        message = f"this page needs the {role} role; your key is {view.caller.role}"
        return view.render("error.html", 403, title="Not for your role", message=message)
    try:
        return await handler(view)
    except Refused as refused:
        if refused.code == "UNAUTHENTICATED":  # revoked meanwhile, or protected mode ended: sign in again
            view.session = view.console.sessions.renew(view.session)
            return RedirectResponse(link("/signin", note="Your key was refused; sign in again."), 303)
        status = _STATUS.get(refused.code, 502)
        return view.render("error.html", status, title=refused.code, message=refused.message)


_FORGED = "The form's security token did not match your session (a forged request, or a page from an earlier session)."


def set_cookie(response: Response, session: Session, secure: bool) -> None:
    """The session cookie: HttpOnly, SameSite=Strict, the whole console; Secure behind TLS."""
    response.set_cookie(COOKIE, session.session_id, httponly=True, samesite="strict", secure=secure, path="/")
