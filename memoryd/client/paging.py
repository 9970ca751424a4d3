"""Following a paged listing to its end, for the blocking client and the asyncio one.

``fetch(token)`` answers one page (the first for ""); the items are the page's ``items`` field, and
its ``next_page_token`` names the next page until it is empty.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any


def pages(fetch: Callable[[str], Any], items: str) -> Iterator[Any]:
    """Every item of every page, fetched as the caller iterates."""
    page = fetch("")
    yield from getattr(page, items)
    while page.next_page_token:
        page = fetch(page.next_page_token)
        yield from getattr(page, items)


async def async_pages(fetch: Callable[[str], Awaitable[Any]], items: str) -> AsyncIterator[Any]:
    """``pages`` for the asyncio client."""
    token: str | None = ""
    while token is not None:
        page = await fetch(token)
        for item in getattr(page, items):
            yield item
        token = page.next_page_token or None
