"""Paging as values: a page of a list read whole, and the token of the next one."""

from __future__ import annotations

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
