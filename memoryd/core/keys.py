"""API keys and roles as values: the key format, its hash, who may call which method.

A key reads ``mdk_<key id>_<secret>``: the id is public (it names the key in lists, logs and the
audit log), the secret is 256 random bits shown once and stored only as its SHA-256 (a slow hash
buys nothing against a secret that long). Roles are ordered, each including the ones below it:
``agent`` < ``operator`` < ``admin`` < ``system``; only ``system`` spans tenants.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import datetime
from enum import IntEnum, StrEnum

from memoryd.core.errors import PermissionDenied, Unauthenticated

KEY_PREFIX = "mdk_"
KEY_ID_HEX = 16
"""The key id: 64 random bits in hex (names a key, never proves anything)."""


class Role(IntEnum):
    """What a key may do; a higher role includes every lower one."""

    AGENT = 1
    """The archive, profile and conversation RPCs of its tenant, optionally pinned to one agent."""
    OPERATOR = 2
    """Jobs, audits, batch jobs, usage reports and exports of its tenant."""
    ADMIN = 3
    """Keys, tenant-scope writes (those rows are human-authored), erase, retention."""
    SYSTEM = 4
    """An operator over every tenant (batch commands); the tenant comes from ``x-tenant-id``."""

    @property
    def label(self) -> str:
        """The role's name on the wire and in the CLI."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Role:
        """A role from its name (``agent``, ``operator``, ``admin``, ``system``)."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown role {text!r} (agent, operator, admin, system)") from None


class KeyScope(StrEnum):
    """What a key may do within its role: everything, reads only, or nothing that removes or undoes."""

    ALL = "all"
    READ_ONLY = "read_only"
    """No write RPC at all (a dashboard, an auditor, a read replica's client)."""
    NON_DESTRUCTIVE = "non_destructive"
    """Writes, but none that deletes, erases, revokes or applies findings (``DESTRUCTIVE``)."""

    @classmethod
    def parse(cls, text: str) -> KeyScope:
        """A scope from its name (``all``, ``read_only``, ``non_destructive``)."""
        try:
            return cls(text.strip().lower().replace("-", "_"))
        except ValueError:
            raise ValueError(f"unknown key scope {text!r} (all, read_only, non_destructive)") from None

    def allows(self, other: KeyScope) -> bool:
        """Whether a key of this scope may create one of ``other`` (never a wider one)."""
        return self is KeyScope.ALL or other is self or other is KeyScope.READ_ONLY


DESTRUCTIVE = frozenset(
    {
        "MemoryService/Forget",
        "DataService/EraseEndUser",
        "KeyService/RevokeKey",
        "AuditService/ApplyFindings",
        "GraphService/ForgetFact",
        "GraphService/MergeEntities",
        "GraphService/UnmergeEntity",
    }
)
"""The methods a non-destructive key may not call: each deletes, erases, revokes or rewrites many rows."""


class Access(StrEnum):
    """Which rate budget a method spends."""

    READ = "read"
    WRITE = "write"


@dataclass(frozen=True, slots=True)
class Rule:
    """Who may call one method, and which budget it spends."""

    role: Role
    access: Access


_A, _O, _D = Role.AGENT, Role.OPERATOR, Role.ADMIN
_R, _W = Access.READ, Access.WRITE
METHOD_RULES: dict[str, Rule] = {
    "MemoryService/Memorize": Rule(_A, _W),
    "MemoryService/MemorizeBatch": Rule(_A, _W),
    "MemoryService/Recall": Rule(_A, _R),
    "MemoryService/GetMemory": Rule(_A, _R),
    "MemoryService/GetMemoryHistory": Rule(_A, _R),
    "MemoryService/UpdateMemory": Rule(_A, _W),
    "MemoryService/Forget": Rule(_A, _W),
    "MemoryService/ListMemories": Rule(_A, _R),
    "MemoryService/RestoreMemory": Rule(_O, _W),
    "MemoryService/Feedback": Rule(_A, _W),
    "MemoryService/AutoFeedback": Rule(_A, _W),
    "ProfileService/GetProfile": Rule(_A, _R),
    "ProfileService/EditProfile": Rule(_A, _W),
    "ProfileService/ListProfileRevisions": Rule(_A, _R),
    "ProfileService/GetProfileRevision": Rule(_A, _R),
    "ProfileService/RegenerateProfile": Rule(_O, _W),
    "ConversationService/AppendMessages": Rule(_A, _W),
    "ConversationService/GetContext": Rule(_A, _R),
    "ConversationService/Compact": Rule(_A, _W),
    "ConversationService/EndSession": Rule(_A, _W),
    "ConversationService/WatchConversation": Rule(_A, _R),
    "ConversationService/ListConversations": Rule(_A, _R),
    "JobService/GetJob": Rule(_O, _R),
    "JobService/ListJobs": Rule(_O, _R),
    "JobService/WatchJob": Rule(_O, _R),
    "JobService/RetryJob": Rule(_O, _W),
    "AuditService/ReviewMemories": Rule(_A, _W),  # an agent's tool: its own archive (keys pin the agent)
    "AuditService/GetReview": Rule(_A, _R),
    "AuditService/ListReviews": Rule(_A, _R),
    "AuditService/ApplyFindings": Rule(_A, _W),  # agents where review.agents_apply is on (checked by the service)
    "AuditService/RejectFindings": Rule(_O, _W),
    "AuditService/GetUsageReport": Rule(_O, _R),
    "AuditService/ListUsageReports": Rule(_O, _R),
    "AuditService/GetModelUsage": Rule(_O, _R),
    "AuditService/ListAuditEvents": Rule(_D, _R),
    "AuditService/ListServings": Rule(_O, _R),
    "DataService/ExportTenant": Rule(_O, _R),
    "DataService/ExportEndUser": Rule(_O, _R),
    "DataService/EraseEndUser": Rule(_D, _W),
    "KeyService/CreateKey": Rule(_D, _W),
    "KeyService/ListKeys": Rule(_D, _R),
    "KeyService/RevokeKey": Rule(_D, _W),
    "KeyService/WhoAmI": Rule(_A, _R),
    "ConfigService/SetTenantConfig": Rule(_O, _W),
    "ConfigService/SetAgentConfig": Rule(_O, _W),
    "ConfigService/GetEffectiveConfig": Rule(_A, _R),
    "GraphService/SearchGraph": Rule(_A, _R),
    "GraphService/ExplainFact": Rule(_A, _R),
    "GraphService/AssertFact": Rule(_D, _W),
    "GraphService/UpdateFact": Rule(_D, _W),
    "GraphService/MergeEntities": Rule(_D, _W),
    "GraphService/UnmergeEntity": Rule(_D, _W),
    "GraphService/RenameEntity": Rule(_D, _W),
    "GraphService/ForgetFact": Rule(_D, _W),
    "GraphService/ListFacts": Rule(_A, _R),
    "GraphService/ListEntities": Rule(_A, _R),
    "GraphService/ListEpisodes": Rule(_A, _R),
    "GraphService/GetEntity": Rule(_A, _R),
    "GraphService/ListMergeSuggestions": Rule(_A, _R),
    "GraphService/DismissMergeSuggestion": Rule(_D, _W),
    "ReembedService/Reembed": Rule(_O, _W),
    "ReembedService/GetReembedStatus": Rule(_O, _R),
    "ReembedService/SwitchRecallModel": Rule(_O, _W),
}
"""Every memoryd method (``Service/Method``); a method missing here is refused to every key."""


@dataclass(frozen=True, slots=True)
class ApiKey:
    """A stored key: everything but the secret, which is kept as its hash."""

    key_id: str
    tenant_id: str
    """The key's tenant (``system`` keys: the system partition; they name a tenant per call)."""
    role: Role
    agent_id: str
    """Empty: any agent of the tenant; else calls must name this agent."""
    name: str
    """A label for people (``"support-bot prod"``)."""
    secret_hash: str
    created_at: datetime
    last_used_at: datetime | None = None
    revoked_at: datetime | None = None
    scope: KeyScope = KeyScope.ALL

    @property
    def active(self) -> bool:
        """Not revoked."""
        return self.revoked_at is None


@dataclass(frozen=True, slots=True)
class Principal:
    """The verified caller of one RPC."""

    tenant_id: str
    role: Role
    key_id: str = ""
    """Empty in protected mode (no keys: loopback callers are trusted)."""
    agent_id: str = ""
    """The agent the key is pinned to; empty when it is not."""
    scope: KeyScope = KeyScope.ALL


def hash_secret(secret: str) -> str:
    """The stored form of a key's secret."""
    return hashlib.sha256(secret.encode()).hexdigest()


def compose_key(key_id: str, secret: str) -> str:
    """The bearer token handed out once."""
    return f"{KEY_PREFIX}{key_id}_{secret}"


def split_key(token: str) -> tuple[str, str]:
    """(key id, secret) of a bearer token; Unauthenticated when it is not shaped like one."""
    if not token.startswith(KEY_PREFIX):
        raise Unauthenticated("authorization: not a memoryd API key (expected 'Bearer mdk_...')")
    key_id, sep, secret = token[len(KEY_PREFIX) :].partition("_")
    if not sep or len(key_id) != KEY_ID_HEX or not secret:
        raise Unauthenticated("authorization: malformed memoryd API key")
    return key_id, secret


def secret_matches(key: ApiKey, secret: str) -> bool:
    """Constant-time comparison of the presented secret with the stored hash."""
    return hmac.compare_digest(key.secret_hash, hash_secret(secret))


def authorize(principal: Principal, method: str) -> Rule:
    """The method's rule when ``principal`` may call it; PermissionDenied otherwise."""
    rule = METHOD_RULES.get(method)
    if rule is None:
        raise PermissionDenied(f"{method}: no role may call this method")
    if principal.role < rule.role:
        raise PermissionDenied(f"{method} needs the {rule.role.label} role; this key is {principal.role.label}")
    if principal.scope is KeyScope.READ_ONLY and rule.access is Access.WRITE:
        raise PermissionDenied(f"{method} writes; this key is read-only")
    if principal.scope is KeyScope.NON_DESTRUCTIVE and method in DESTRUCTIVE:
        raise PermissionDenied(f"{method} deletes, erases, revokes or applies; this key is non-destructive")
    return rule


def check_agent(principal: Principal, agent_id: str) -> None:
    """A key pinned to one agent may act only as that agent."""
    if principal.agent_id and agent_id != principal.agent_id:
        raise PermissionDenied(f"agent_id: this key is pinned to agent {principal.agent_id!r}")
