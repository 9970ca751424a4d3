"""The tests' visibility oracle: who sees a planted row, written from the rules' text, not memoryd's code.

The property tests (memories, graph facts) plant rows under every scope and check the daemon's
answers against this, so a bug in ``core.visibility`` cannot hide behind a copy of itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from memoryd.rpc.client import pb


@dataclass(frozen=True)
class Planted:
    """Where a row was written: its tenant, its author agent, its contact, its scope."""

    tenant: str
    agent: str
    contact: str
    scope: int


def visible(row: Planted, tenant_id: str, agent: str, contact: str) -> bool:
    """Whether ``agent`` of ``tenant_id``, talking with ``contact`` ("" for none), sees ``row``."""
    if row.tenant != tenant_id:
        return False
    if row.scope in (pb.SCOPE_TENANT, pb.SCOPE_SHARED):
        return True
    if row.scope == pb.SCOPE_PRIVATE:
        return row.agent == agent
    return bool(contact) and row.contact == contact
