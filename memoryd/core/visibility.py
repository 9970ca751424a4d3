"""Who sees what: the rules every store query must implement.

A request sees exactly: tenant rows, its own agent's private rows, every shared
row, and the end_user rows of the one contact it serves — all within its own
tenant. The store adapter renders ``visible_scopes`` into its query language in
one place; ``is_visible`` is the same rule as a predicate, used by the
in-memory fake and by the property tests that try to break the adapter.
"""

from __future__ import annotations

from memoryd.core.keys import Role
from memoryd.core.models import Actor, MemoryFilter, MemoryRecord, Scope, TagMode


def is_visible(actor: Actor, record: MemoryRecord) -> bool:
    """Whether ``actor`` may see ``record``."""
    if record.tenant_id != actor.tenant_id:
        return False
    if record.scope in (Scope.TENANT, Scope.SHARED):
        return True
    if record.scope is Scope.PRIVATE:
        return record.agent_id == actor.agent_id
    return bool(actor.end_user_id) and record.end_user_id == actor.end_user_id


def sees(actor: Actor, scope: Scope, agent_id: str, end_user_id: str) -> bool:
    """The same rule for any row of the actor's tenant that carries a scope (the memory graph's rows)."""
    if scope in (Scope.TENANT, Scope.SHARED):
        return True
    if scope is Scope.PRIVATE:
        return agent_id == actor.agent_id
    return bool(actor.end_user_id) and end_user_id == actor.end_user_id


def matches_filter(record: MemoryRecord, flt: MemoryFilter) -> bool:
    """Whether a visible ``record`` meets ``flt`` (the store renders the same conditions as a predicate)."""
    if flt.scopes and record.scope not in flt.scopes:
        return False
    if record.status not in flt.statuses:
        return False
    if flt.subject and record.subject != flt.subject:
        return False
    if flt.category and record.category != flt.category:
        return False
    if flt.memory_type is not None and record.memory_type is not flt.memory_type:
        return False
    if flt.since is not None and record.occurred_at < flt.since:
        return False
    if flt.min_salience and record.salience < flt.min_salience:
        return False
    if flt.source_id and record.source_id != flt.source_id:
        return False
    if flt.collection and record.collection != flt.collection:
        return False
    if flt.pinned_only and not record.pinned:
        return False
    if flt.tags:
        have = set(record.tags)
        return set(flt.tags) <= have if flt.tag_mode is TagMode.ALL else bool(have & set(flt.tags))
    return True


def may_modify(actor: Actor, record: MemoryRecord) -> bool:
    """Whether ``actor`` may update or forget a record it can see.

    Private and shared memories belong to their author. End_user memories are
    common property of the agents serving that contact; tenant memories are
    human-authored workspace facts, changed by admins only. Who sees a memory is
    another question: see ``rescope_refusal``.
    """
    if not is_visible(actor, record):
        return False
    if record.scope in (Scope.PRIVATE, Scope.SHARED):
        return record.agent_id == actor.agent_id
    if record.scope is Scope.TENANT:
        return actor.role >= Role.ADMIN
    return True


def modify_refusal(actor: Actor, record: MemoryRecord) -> str:
    """Why ``actor`` may not update, forget or restore ``record`` (which it sees); empty when it may."""
    if may_modify(actor, record):
        return ""
    if record.scope is Scope.TENANT:
        return f"memory {record.memory_id!r} is a SCOPE_TENANT memory: only admin keys change it"
    return f"memory {record.memory_id!r} belongs to agent {record.agent_id!r}"


def scope_refusal(actor: Actor, scope: Scope) -> str:
    """Why ``actor`` may not write a memory in ``scope``; empty when it may."""
    if scope is Scope.TENANT and actor.role < Role.ADMIN:
        return "scope: SCOPE_TENANT memories are written by admin keys only (workspace facts are human-authored)"
    return ""


def rescope_refusal(actor: Actor, record: MemoryRecord, scope: Scope) -> str:
    """Why ``actor`` may not move ``record`` to ``scope``; empty when it may.

    A scope change decides who sees a memory, so it belongs to the author alone; and a
    contact's memory never becomes visible outside that contact, so an end_user memory stays
    an end_user memory. Moving a memory into the tenant scope takes an admin.
    """
    if scope is record.scope:
        return ""
    if scope_refusal(actor, scope):
        return scope_refusal(actor, scope)
    if record.agent_id != actor.agent_id:
        return f"only its author agent {record.agent_id!r} may change the scope of memory {record.memory_id!r}"
    if record.scope is Scope.END_USER:
        return (
            f"memory {record.memory_id!r} belongs to a contact and stays SCOPE_END_USER: "
            "write a new memory to share what it says"
        )
    return ""
