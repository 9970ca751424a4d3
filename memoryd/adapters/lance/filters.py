"""The one place that turns an actor and a filter into a LanceDB predicate.

Every store read and write in ``lance_store`` opens the actor's own tenant
table (the partition) and filters with ``visible_where``: the visibility rule
of ``core.visibility``, then the caller's filter. The tenant is not repeated in
the predicate: the table already is the tenant, and an unindexed string
comparison over every row cost 2-3 ms per arm at 100k rows. Values are always
rendered as SQL string literals with quotes doubled (the only escape in
DataFusion's standard strings), so no filter value can close the literal and
add SQL.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from memoryd.core.models import ALL_STATUSES, Actor, MemoryFilter, Scope, TagMode


def literal(value: str) -> str:
    """A SQL string literal; quotes doubled, NUL rejected upstream by validation."""
    return "'" + value.replace("'", "''") + "'"


def timestamp(value: datetime) -> str:
    """A UTC microsecond timestamp literal matching the table's column type."""
    iso = value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return f"arrow_cast({literal(iso)}, 'Timestamp(Microsecond, Some(\"UTC\"))')"


def _list(values: Iterable[str]) -> str:
    return "[" + ", ".join(literal(v) for v in values) + "]"


def _scope_clauses(actor: Actor, col: str) -> dict[Scope, str]:
    clauses = {
        Scope.TENANT: f"{col}scope = 'tenant'",
        Scope.SHARED: f"{col}scope = 'shared'",
        Scope.PRIVATE: f"({col}scope = 'private' AND {col}agent_id = {literal(actor.agent_id)})",
    }
    if actor.end_user_id:
        clauses[Scope.END_USER] = f"({col}scope = 'end_user' AND {col}end_user_id = {literal(actor.end_user_id)})"
    return clauses


def visible_where(actor: Actor, flt: MemoryFilter | None = None, *, col: str = "") -> str:
    """The predicate for rows ``actor`` may see that also match ``flt``.

    ``col`` prefixes column names (``"target."`` inside merge_insert).
    """
    flt = flt or MemoryFilter()
    clauses = _scope_clauses(actor, col)
    wanted = [clauses[s] for s in Scope if s in clauses and (not flt.scopes or s in flt.scopes)]
    if not wanted:
        return "false"
    parts = ["(" + " OR ".join(wanted) + ")"]
    if flt.statuses != ALL_STATUSES:
        if not flt.statuses:
            return "false"
        parts.append(f"{col}status IN (" + ", ".join(literal(s.value) for s in sorted(flt.statuses)) + ")")
    return " AND ".join([*parts, *_conditions(flt, col)])


def _conditions(flt: MemoryFilter, col: str) -> list[str]:
    """The filter's conditions beyond visibility and status, one predicate each."""
    equal = {
        "subject": flt.subject,
        "category": flt.category,
        "memory_type": flt.memory_type.value if flt.memory_type is not None else "",
        "source_id": flt.source_id,
        "collection": flt.collection,
    }
    parts = [f"{col}{name} = {literal(value)}" for name, value in equal.items() if value]
    if flt.since is not None:
        parts.append(f"{col}occurred_at >= {timestamp(flt.since)}")
    if flt.min_salience:
        parts.append(f"{col}salience >= {float(flt.min_salience)!r}")
    if flt.pinned_only:  # null (a row from before pins) is not pinned
        parts.append(f"{col}pinned = true")
    if flt.tags:
        fn = "array_has_all" if flt.tag_mode is TagMode.ALL else "array_has_any"
        parts.append(f"{fn}({col}tags, {_list(flt.tags)})")
    return parts


def ids_in(ids: Iterable[str]) -> str:
    """``id IN (...)`` for server-issued ids."""
    return "id IN (" + ", ".join(literal(i) for i in ids) + ")"


def of_end_user(end_user_id: str) -> str:
    """Every row of one contact, whatever its scope or author: the erasure of a data subject.

    The only predicate that ignores agent visibility; callers are admin operations over one
    tenant's own table.
    """
    return f"end_user_id = {literal(end_user_id)}"
