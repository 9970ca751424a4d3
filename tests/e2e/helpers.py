"""Helpers for end-to-end tests: read the store directly to prove what changed."""

from __future__ import annotations

from typing import Any

import lancedb


def snapshot(uri: str, tenant_id: str) -> list[dict[str, Any]]:
    """Every row of a tenant's table (vector and all), sorted by id; [] if the table is absent."""
    db = lancedb.connect(uri)
    try:
        table = db.open_table(f"memories_{tenant_id}")
    except ValueError:
        return []
    rows = table.to_arrow().to_pylist()
    return sorted(rows, key=lambda r: r["id"])
