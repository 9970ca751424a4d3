"""Who sees what: the rules every store query must implement.

A request sees exactly: tenant rows, its own agent's private rows, every shared
row, and the end_user rows of the one contact it serves — all within its own
tenant. The store adapter renders ``visible_scopes`` into its query language in
one place; ``is_visible`` is the same rule as a predicate, used by the
in-memory fake and by the property tests that try to break the adapter.
"""

from __future__ import annotations

from memoryd.core.models import Actor, MemoryRecord, Scope


def is_visible(actor: Actor, record: MemoryRecord) -> bool:
    """Whether ``actor`` may see ``record``."""
    if record.tenant_id != actor.tenant_id:
        return False
    if record.scope in (Scope.TENANT, Scope.SHARED):
        return True
    if record.scope is Scope.PRIVATE:
        return record.agent_id == actor.agent_id
    return bool(actor.end_user_id) and record.end_user_id == actor.end_user_id


def may_modify(actor: Actor, record: MemoryRecord) -> bool:
    """Whether ``actor`` may update or forget a record it can see.

    Private and shared memories belong to their author. Tenant and end_user
    memories are common property of the agents that see them (role-based
    restrictions come with API keys); who sees them is not: see ``may_rescope``.
    """
    if not is_visible(actor, record):
        return False
    if record.scope in (Scope.PRIVATE, Scope.SHARED):
        return record.agent_id == actor.agent_id
    return True


def rescope_refusal(actor: Actor, record: MemoryRecord, scope: Scope) -> str:
    """Why ``actor`` may not move ``record`` to ``scope``; empty when it may.

    A scope change decides who sees a memory, so it belongs to the author alone (an admin
    too, once keys exist); and a contact's memory never becomes visible outside that
    contact, so an end_user memory stays an end_user memory.
    """
    if scope is record.scope:
        return ""
    if record.agent_id != actor.agent_id:
        return f"only its author agent {record.agent_id!r} may change the scope of memory {record.memory_id!r}"
    if record.scope is Scope.END_USER:
        return (
            f"memory {record.memory_id!r} belongs to a contact and stays SCOPE_END_USER: "
            "write a new memory to share what it says"
        )
    return ""
