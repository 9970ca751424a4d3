"""Console sessions: who signed in, kept on the server behind an opaque cookie.

The API key an operator pastes never goes back to the browser: the cookie holds a random session
id (HttpOnly, SameSite=Strict), and the key lives in this process's memory until the session ends
or idles out. Every visitor gets a session before signing in, so the sign-in form carries a CSRF
token like every other form.
"""

from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

COOKIE = "memoryd_console"
IDLE_SECONDS = 8 * 3600.0
"""A session unused this long is forgotten (the operator signs in again)."""
MAX_SESSIONS = 10_000
"""The most sessions kept; past it the least recently used goes first (anonymous visitors make them too)."""


@dataclass(slots=True)
class Caller:
    """Who the daemon says the signed-in credentials are (``WhoAmI``)."""

    tenant_id: str
    role: str
    """``agent``, ``operator``, ``admin`` or ``system``."""
    key_id: str
    agent_id: str
    protected_mode: bool
    scope: str = "all"
    """``all``, ``read_only`` or ``non_destructive`` (the key's narrowing of its role)."""

    def may(self, role: str, *, destroys: bool = False) -> bool:
        """Whether this caller may take an action of ``role`` (the daemon checks again on every call).

        Pages ask before offering an action: a read-only key is offered none, a non-destructive key
        none that ``destroys`` (forget, revoke, apply findings, merge).
        """
        if _RANK[self.role] < _RANK[role]:
            return False
        return self.scope == "all" or (self.scope == "non_destructive" and not destroys)

    def reads(self, role: str) -> bool:
        """Whether this caller's role includes ``role`` (pages it may read)."""
        return _RANK[self.role] >= _RANK[role]


_RANK = {"agent": 1, "operator": 2, "admin": 3, "system": 4}


@dataclass(slots=True)
class Session:
    """One browser's session: its CSRF token and, once signed in, the credentials and the caller."""

    session_id: str
    csrf: str
    token: str = ""
    """The pasted API key (empty in protected mode)."""
    tenant: str = ""
    """The tenant named at sign-in (protected mode, or a system key acting on a tenant)."""
    caller: Caller | None = None
    seen: float = field(default_factory=lambda: time.monotonic())
    shown_once: Any = None
    """A reply to show on the next page and then forget (a created key's token)."""

    def csrf_ok(self, given: str) -> bool:
        """Whether a form's token is this session's (compared in constant time)."""
        return bool(given) and hmac.compare_digest(given.encode(), self.csrf.encode())


class Sessions:
    """The sessions of one console process."""

    def __init__(self, idle_seconds: float = IDLE_SECONDS, max_sessions: int = MAX_SESSIONS) -> None:
        self._idle = idle_seconds
        self._max = max_sessions
        self._by_id: dict[str, Session] = {}

    def get(self, session_id: str | None) -> Session | None:
        """The live session with this id, touched; None when unknown or idled out."""
        found = self._by_id.get(session_id or "")
        if found is None:
            return None
        now = time.monotonic()
        if now - found.seen > self._idle:
            del self._by_id[found.session_id]
            return None
        found.seen = now
        self._by_id[found.session_id] = self._by_id.pop(found.session_id)  # most recently used last
        return found

    def new(self) -> Session:
        """A fresh anonymous session (a new id and CSRF token)."""
        while len(self._by_id) >= self._max:
            del self._by_id[next(iter(self._by_id))]
        made = Session(secrets.token_urlsafe(32), secrets.token_urlsafe(32))
        self._by_id[made.session_id] = made
        return made

    def renew(self, old: Session) -> Session:
        """Sign-in and sign-out change the session id and token (no fixation of a planted id)."""
        self._by_id.pop(old.session_id, None)
        return self.new()
