"""`memoryd keys` on a real store: every role can be created, and the event lands in its log."""

from __future__ import annotations

import io

import pytest

from memoryd.app import build_app
from memoryd.commands.keys import run_keys
from memoryd.config import Settings
from memoryd.core.event_log import Operation
from memoryd.core.job_records import SYSTEM_TENANT


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
