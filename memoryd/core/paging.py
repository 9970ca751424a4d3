"""Paging as values: a page of a list read whole, a store's cursor, and the token of the next page."""

from __future__ import annotations

import base64
import binascii
import json
from typing import TypeVar

from memoryd.core.errors import InvalidRequest

T = TypeVar("T")


def offset_page(rows: list[T], size: int, page_token: str) -> tuple[list[T], str]:
    """Rows ``[offset, offset + size)`` and the next offset as a token ("" on the last page).

    For lists a store reads whole (graph listings); large ones page by a cursor in the store instead.
    """
    if page_token and not (page_token.isascii() and page_token.isdigit() and len(page_token) < 10):
        raise InvalidRequest("page_token", "is not a token this server issued")
    start = int(page_token or 0)
    end = start + size
    return rows[start:end], str(end) if end < len(rows) else ""


def cursor_token(*parts: str | int) -> str:
    """An opaque token for a store's cursor (the sort key of a page's last row)."""
    return base64.urlsafe_b64encode(json.dumps(parts, separators=(",", ":")).encode()).decode().rstrip("=")


def cursor_parts(token: str, kinds: tuple[type, ...]) -> tuple[str | int, ...] | None:
    """The cursor in ``token`` (None for the first page); InvalidRequest for one this server did not issue."""
    if not token:
        return None
    try:
        parts = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        parts = None
    if not isinstance(parts, list) or [type(p) for p in parts] != list(kinds):
        raise InvalidRequest("page_token", "is not a token this server issued")
    return tuple(parts)
