"""`memoryd keys` on a real store: every role can be created, and the event lands in its log."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import lancedb
import pyarrow as pa
import pytest

from memoryd.adapters.lance.keys import KEY_SCHEMA, KEYS_TABLE
from memoryd.app import build_app
from memoryd.commands.keys import run_keys
from memoryd.config import Settings
from memoryd.core.errors import InvalidRequest, NotFound
from memoryd.core.event_log import Operation
from memoryd.core.job_records import SYSTEM_TENANT
from memoryd.core.keys import KeyScope
from memoryd.core.models import Actor, MemoryDraft


@pytest.mark.timeout(60)
async def test_a_system_key_is_created_listed_and_its_event_logged(settings: Settings) -> None:
    out = io.StringIO()
    assert await run_keys(settings, "create", role="system", name="ops", out=out) == 0
    token = out.getvalue().rsplit("store it now): ", 1)[1].strip()
    key_id = token.split("_")[1]
    listing = io.StringIO()
    assert await run_keys(settings, "list", out=listing) == 0
    assert key_id in listing.getvalue() and "system" in listing.getvalue()
    async with build_app(settings.without_maintenance()) as app:
        page = await app.admin.trail.page(SYSTEM_TENANT, None, None, Operation.KEY_CREATE, 10, "")
        assert [e.ids for e in page.events] == [(key_id,)]
        assert (await app.admin.keys.verify(token, "acme")).tenant_id == "acme"


@pytest.mark.timeout(60)
async def test_a_scoped_key_from_the_command_line_and_keys_of_an_older_store(settings: Settings) -> None:
    # A store from before key scopes: its keys table has no scope column; its keys read as "all".
    db = await lancedb.connect_async(settings.storage.uri)
    old = pa.schema([f for f in KEY_SCHEMA if f.name != "scope"])
    now = datetime.now(UTC)
    row = {"key_id": "0" * 16, "tenant_id": "acme", "role": "admin", "agent_id": "", "name": "old"}
    rows = [{**row, "secret_hash": "x", "created_at": now, "last_used_at": None, "revoked_at": None}]
    await db.create_table(KEYS_TABLE, pa.Table.from_pylist(rows, schema=old))
    out = io.StringIO()
    assert await run_keys(settings, "create", tenant_id="acme", role="agent", scope="read_only", out=out) == 0
    assert "read_only" in out.getvalue()
    token = out.getvalue().rsplit("store it now): ", 1)[1].strip()
    async with build_app(settings.without_maintenance()) as app:
        assert (await app.admin.keys.verify(token, "acme")).scope is KeyScope.READ_ONLY
        older = {k.key_id: k for k in await app.admin.keys.list("acme")}["0" * 16]
        assert older.scope is KeyScope.ALL and older.name == "old"


@pytest.mark.timeout(60)
async def test_listing_the_keys_of_a_tenant_the_store_does_not_know_is_an_error(settings: Settings) -> None:
    assert await run_keys(settings, "create", tenant_id="acme", role="agent", out=io.StringIO()) == 0
    with pytest.raises(NotFound, match=r"--tenant 'acne' is not a tenant of this store"):
        await run_keys(settings, "list", tenant_id="acne", out=io.StringIO())
    async with build_app(settings.without_maintenance()) as app:  # a tenant with memories and no key yet
        await app.memory.memorize.memorize(Actor("globex", "b1"), MemoryDraft("The build server is in Frankfurt"))
    listing = io.StringIO()
    assert await run_keys(settings, "list", tenant_id="globex", out=listing) == 0
    assert listing.getvalue().startswith("key id") and "acme" not in listing.getvalue()


@pytest.mark.timeout(60)
async def test_a_key_created_with_a_bad_option_names_the_option(settings: Settings) -> None:
    for options, says in (
        ({"role": "agent"}, "--tenant: must be 1-64 chars"),  # said "x-tenant-id", the RPC metadata key
        ({"tenant_id": "acme", "agent_id": "bad agent"}, "--agent: "),
        ({"tenant_id": "acme", "name": "x" * 500}, "--name: is 500 chars"),
    ):
        with pytest.raises(InvalidRequest, match=f"^{says}"):
            await run_keys(settings, "create", out=io.StringIO(), **options)
    async with build_app(settings.without_maintenance()) as app:
        assert await app.admin.keys.list(None) == []  # nothing stored
