"""ListFacts and ListEntities page in LanceDB by a cursor: every row once, in order, whatever the page size."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from memoryd.app import App
from memoryd.core.errors import InvalidRequest
from memoryd.core.graph import Entity, Fact, FactStatus, GraphScope, normalised_name
from memoryd.core.models import Actor, Scope
from memoryd.services.graph import Assertion

ADMIN = Actor("acme", "ops")
READER = Actor("acme", "a1", "u1")
CONTACT = GraphScope(Scope.END_USER, "", "u1")


async def all_pages(list_page: Callable[[int, str], Awaitable[tuple[Any, str]]], size: int) -> list[Any]:
    rows: list[Any] = []
    token = ""
    while True:
        page, token = await list_page(size, token)
        assert len(page) <= size
        rows += page
        if not token:
            return rows


async def test_facts_and_entities_page_by_cursor_in_the_listing_order(app: App) -> None:
    for i in range(14):  # people with names that sort apart from their ids, each a fact of its own
        claim = Assertion(f"{'ZYXWVUTSRQPONM'[i]}ara {i}", "likes", f"Tea {i % 5}", f"{i} likes tea {i % 5}.")
        await app.graph.assert_human(ADMIN, CONTACT, claim)
    for i in range(5):
        extracted = app.graph.checked_extraction("acme", Assertion(f"Ola {i}", "works_at", "Acme", f"Ola {i} works."))
        await app.graph.assert_fact("acme", CONTACT, extracted, f"episode-{i}", FactStatus.PENDING)
    everything = await app.graph._store.facts_page(READER, None, "", None, 1000)
    order = sorted(everything, key=lambda f: (f.status is not FactStatus.PENDING, -f.created_at.timestamp(), f.fact_id))
    assert len(everything) == 19 and [f.fact_id for f in everything] == [f.fact_id for f in order]
    for size in (1, 4, 7, 50):
        facts: list[Fact] = await all_pages(lambda n, t: app.graph.list_facts(READER, None, "", n, t), size)
        assert [f.fact_id for f in facts] == [f.fact_id for f in order], size
        pending = await all_pages(lambda n, t: app.graph.list_facts(READER, FactStatus.PENDING, "", n, t), size)
        assert [f.fact_id for f in pending] == [f.fact_id for f in order[:5]]
    entities: list[Entity] = await all_pages(lambda n, t: app.graph.list_entities(READER, n, t), 3)
    keys = [(normalised_name(e.name), e.entity_id) for e in entities]
    assert keys == sorted(keys) and len(keys) == len(set(keys)) == 14 + 5 + 5 + 1  # people, teas, Olas, Acme
    with pytest.raises(InvalidRequest, match="page_token"):
        await app.graph.list_facts(READER, None, "", 5, "not-a-token")
    with pytest.raises(InvalidRequest, match="page_token"):
        await app.graph.list_entities(READER, 5, "WzFd")  # well formed, not an entities cursor
