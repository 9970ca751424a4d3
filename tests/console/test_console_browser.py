"""The console in a real browser: sign-in, the memory browser, roles, escaping, CSRF, keys, jobs."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from memoryd.core.conversation import MessageInput
from memoryd.core.conversation import Role as ChatRole
from memoryd.core.graph import FactStatus, GraphScope
from memoryd.core.keys import KeyScope, Role
from memoryd.core.models import Actor, EditKind, ProfileEdit, Scope
from memoryd.services.graph import Assertion
from tests.console.conftest import SCRIPT_MEMORY, Stack, sign_in

pytestmark = pytest.mark.timeout(120)


async def test_sign_in_then_find_a_contacts_memories_and_open_one(browser: Browser, stack: Stack, shots: Path) -> None:
    page = await sign_in(browser, stack, "admin")
    await expect(page.locator("header .role")).to_have_text("admin")
    await page.screenshot(path=shots / "overview.png", full_page=True)
    await page.click("header nav >> text=Memories")
    await page.fill("input[name=agent]", "a1")
    await page.fill("input[name=contact]", "c-maria")
    await page.click("form.filters button")
    rows = page.locator("table.memories tbody tr")
    await expect(rows).to_have_count(4)  # the contact's two, the tenant's one, a1's own; never a2's
    await expect(page.locator("table.memories")).not_to_contain_text("release checklist")
    await page.screenshot(path=shots / "memories.png", full_page=True)
    await page.click("text=Maria prefers email over phone calls")
    await expect(page.locator("#content")).to_have_text("Maria prefers email over phone calls")
    await expect(page.locator("dd.status")).to_have_text("active")
    await expect(page.locator("table").last).to_contain_text("memorize")  # the event log on this memory
    await expect(page.locator("#history tr[data-kind='created']")).to_have_count(1)  # and its history
    await page.screenshot(path=shots / "memory.png", full_page=True)
    # a search runs a Recall as the agent serving the contact
    await page.goto(f"{stack.url}/memories?agent=a1&contact=c-maria&q=invoice+address")
    await expect(page.locator("table.memories tbody tr").first).to_contain_text("Hauptstrasse 5")
    await page.locator("table.memories tbody tr").first.locator("a").first.click()  # its history shows the search
    served = page.locator("#history tr[data-kind='served']")
    await expect(served).to_have_count(1)
    await expect(served).to_contain_text("MemoryService/Recall")


async def test_a_memory_holding_markup_is_shown_as_text(browser: Browser, stack: Stack) -> None:
    page = await sign_in(browser, stack, "admin")
    await page.goto(f"{stack.url}/memories?agent=a1")
    await expect(page.locator("table.memories")).to_contain_text("<script>document.title='pwned'</script>")
    await page.goto(f"{stack.url}/memories/{stack.ids['script']}?agent=a1")
    await expect(page.locator("#content")).to_have_text(SCRIPT_MEMORY)
    assert await page.title() != "pwned" and await page.locator("#content img").count() == 0
    listed = await page.request.get(f"{stack.url}/memories?agent=a1")
    csp = listed.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert 'rpc;desc="1 calls"' in listed.headers["server-timing"]  # one ListMemories, timed by the console


async def test_an_agent_key_sees_no_admin_action(browser: Browser, stack: Stack) -> None:
    page = await sign_in(browser, stack, "agent")
    await expect(page.locator("header .role")).to_have_text("agent")
    nav = page.locator("header nav")
    await expect(nav).to_contain_text("Memories")
    await expect(nav).to_contain_text("Reviews")  # an agent reviews its own archive
    for admin_only in ("Keys", "Event log", "Jobs"):
        await expect(nav).not_to_contain_text(admin_only)
    response = await page.goto(f"{stack.url}/keys")
    assert response is not None and response.status == 403
    await expect(page.locator(".error")).to_contain_text("needs the admin role")
    # the pinned key browses its own agent only; the event log of a memory is not offered
    await page.goto(f"{stack.url}/memories?agent=a2")
    await expect(page.locator("table.memories")).not_to_contain_text("release checklist")
    await page.goto(f"{stack.url}/memories/{stack.ids['office']}")
    await expect(page.locator("#content")).to_have_text("The office closes at 18:00 on Fridays")
    await expect(page.locator("main")).not_to_contain_text("Event log on this memory")
    # an action the daemon refuses shows its status, not a traceback
    response = await page.goto(f"{stack.url}/memories/{stack.ids['other']}")
    assert response is not None and response.status == 404
    await expect(page.locator("h1")).to_have_text("NOT_FOUND")


async def test_a_filter_the_menus_do_not_offer_is_refused_not_ignored(browser: Browser, stack: Stack) -> None:
    # Each of these used to show an unfiltered page (or the default limit) as if the filter held.
    page = await sign_in(browser, stack, "admin")
    for path, says in (
        ("/memories?agent=a1&status=actve", "status: 'actve' is not one of active, archived, superseded, all"),
        ("/memories?agent=a1&scope=everyone", "scope: 'everyone' is not one of"),
        ("/graph?agent=a1&status=bogus", "status: 'bogus' is not one of pending, active, invalidated, archived"),
        ("/jobs?state=stuck", "state: 'stuck' is not one of"),
        ("/recall?agent=a1&q=email&arm=both-ish", "arm: 'both-ish' is not one of both, vector, full_text"),
        ("/recall?agent=a1&q=email&limit=-1", "limit: must be in [1, 100], got -1"),
        ("/recall?agent=a1&q=email&limit=ten", "limit: 'ten' is not a whole number"),
        ("/recall?agent=a1&q=email&limit=99999999999", "limit: 99999999999 is out of range"),
        ("/?days=week", "days: 'week' is not a whole number"),
        ("/recall?agent=a1&q=email&min_score=high", "min_score: 'high' is not a number"),  # was "got -1.0"
        ("/profiles?agent=a1&from=1&to=latest", "to: 'latest' is not a whole number"),  # was no diff, unsaid
    ):
        response = await page.goto(stack.url + path)
        assert response is not None and response.status == 400, path
        await expect(page.locator(".error")).to_contain_text(says)
    await page.goto(f"{stack.url}/memories?agent=a1&status=all&scope=tenant")  # what the menus offer still works
    await expect(page.locator("table.memories tbody tr")).to_have_count(1)


async def test_a_mistyped_agent_is_named_not_shown_the_tenants_memories_as_its_own(
    browser: Browser, stack: Stack
) -> None:
    page = await sign_in(browser, stack, "operator")
    await page.goto(f"{stack.url}/memories?agent=a11")  # a1 mistyped: it still sees what the tenant shares
    await expect(page.locator("table.memories")).to_contain_text("The office closes at 18:00 on Fridays")
    await expect(page.locator(".error")).to_have_text(re.compile(r"Agent a11 has no memories of its own"))
    await page.goto(f"{stack.url}/memories?agent=a11&scope=private")
    await expect(page.locator(".error")).to_contain_text("Agent a11 has no memories of its own in this tenant")
    await page.goto(f"{stack.url}/recall?agent=a11&q=office+hours")  # the Recall debugger says so too
    await expect(page.locator("table.hits")).to_contain_text("The office closes at 18:00 on Fridays")
    await expect(page.locator(".error")).to_contain_text("Agent a11 has no memories of its own")
    await page.goto(f"{stack.url}/profiles?agent=a11")  # not an empty revision 0 shown as its profile
    await expect(page.locator(".error")).to_contain_text("Agent a11 has no memories of its own in this tenant and no")
    await expect(page.locator("pre.document")).to_have_count(0)
    await page.goto(f"{stack.url}/conversations?agent=a11")
    await expect(page.locator(".error")).to_contain_text("Agent a11 has no memories of its own")
    await page.goto(f"{stack.url}/profiles?agent=a1")  # known, no profile written yet
    await expect(page.locator(".empty")).to_have_text(
        "No profile yet: a bootstrap, a compaction or an edit writes revision 1."
    )
    await page.goto(f"{stack.url}/memories?agent=a1&scope=end_user")  # a1 is known: nothing of that scope
    await expect(page.locator(".empty")).to_have_text("No memory matches.")
    await page.goto(f"{stack.url}/memories?agent=a1")
    await expect(page.locator("table.memories tbody tr").first).to_be_visible()
    assert await page.locator(".error").count() == 0


async def test_a_forged_csrf_token_is_refused_and_changes_nothing(browser: Browser, stack: Stack) -> None:
    page = await sign_in(browser, stack, "admin")
    await page.goto(f"{stack.url}/keys")
    before = await page.locator("table.keys tbody tr").count()
    forged = await page.request.post(f"{stack.url}/keys", form={"csrf": "forged", "role": "admin", "name": "x"})
    assert forged.status == 403 and "security token" in await forged.text()
    missing = await page.request.post(f"{stack.url}/keys", form={"role": "admin", "name": "x"})
    assert missing.status == 403
    await page.reload()
    await expect(page.locator("table.keys tbody tr")).to_have_count(before)


async def test_an_admin_creates_a_key_sees_its_token_once_and_revokes_it(
    browser: Browser, stack: Stack, shots: Path
) -> None:
    page = await sign_in(browser, stack, "admin")
    await page.goto(f"{stack.url}/keys")
    await page.select_option("select[name=role]", "operator")
    await page.fill("input[name=name]", "night audits")
    await page.click("form[action='/keys'] button")
    token = await page.locator("#new-token").inner_text()
    assert token.startswith("mdk_")
    await page.screenshot(path=shots / "keys.png", full_page=True)
    await page.reload()  # shown once: a reload of the list does not show it again
    assert await page.locator("#new-token").count() == 0 and token not in await page.content()
    key_id = token.split("_")[1]
    row = page.locator(f"tr[data-key='{key_id}']")
    await expect(row).to_contain_text("night audits")
    await row.locator("button", has_text="Revoke").click()
    await expect(page.locator(f"tr[data-key='{key_id}'] button")).to_have_count(0)
    await page.goto(f"{stack.url}/events?operation=key_revoke")
    await expect(page.locator("table.events")).to_contain_text(key_id[:12])  # rows show their first 12 chars
    await page.screenshot(path=shots / "events.png", full_page=True)


async def test_forget_asks_first_then_the_memory_is_gone_and_logged(browser: Browser, stack: Stack) -> None:
    page = await sign_in(browser, stack, "admin")
    memory = f"{stack.url}/memories/{stack.ids['office']}?agent=a1"
    await page.goto(memory)
    await page.click("a.button.danger")  # Forget: a confirmation first, nothing done yet
    await expect(page.locator("form.confirm")).to_contain_text("Forget this memory?")
    assert stack.daemon.app is not None
    still = stack.daemon.run(stack.daemon.app.memory.archive.get(Actor("acme", "a1"), stack.ids["office"]))
    assert still.content == "The office closes at 18:00 on Fridays"
    await page.click("form.confirm button.danger")
    response = await page.goto(memory)
    assert response is not None and response.status == 404
    await page.goto(f"{stack.url}/events?row={stack.ids['office']}")
    forgotten = page.locator("table.events tbody tr", has_text="forget")
    await expect(forgotten).to_have_count(1)
    await expect(forgotten).to_contain_text("admin")  # by the admin's key, through the console


async def test_an_agent_pins_a_memory_and_unpins_it(browser: Browser, stack: Stack) -> None:
    page = await sign_in(browser, stack, "agent")
    await page.goto(f"{stack.url}/memories/{stack.ids['script']}")
    await expect(page.locator("dd.pinned")).to_have_text("no")
    await page.click("button:text-is('Pin')")
    await expect(page.locator("dd.pinned")).to_contain_text("yes: kept by retention and reviews")
    assert stack.daemon.app is not None
    stored = stack.daemon.run(stack.daemon.app.memory.archive.get(Actor("acme", "a1"), stack.ids["script"]))
    assert stored.pinned
    await page.goto(f"{stack.url}/memories")  # the list marks it
    row = page.locator("table.memories tbody tr", has_text="is a test")
    await expect(row.locator(".tag.pinned")).to_have_text("pinned")
    await page.check("input[name=pinned]")
    await page.click("form.filters button")  # and lists the pinned ones alone
    await expect(page.locator("table.memories tbody tr")).to_have_count(1)
    await page.goto(f"{stack.url}/memories/{stack.ids['script']}")
    await page.click("button:text-is('Unpin')")
    await expect(page.locator("dd.pinned")).to_have_text("no")


async def test_the_recall_debugger_explains_a_hit_and_a_memory_left_out(
    browser: Browser, stack: Stack, shots: Path
) -> None:
    page = await sign_in(browser, stack, "operator")
    query = "q=How+should+we+contact+Maria&agent=a1&contact=c-maria&limit=1"
    await page.goto(f"{stack.url}/recall?{query}&explain={stack.ids['email']}")
    await expect(page.locator("table.hits tbody tr")).to_have_count(1)
    await expect(page.locator("table.hits")).to_contain_text("Maria prefers email over phone calls")
    await expect(page.locator(".explain")).to_contain_text("hit (place 1")
    trace = page.locator("table.trace tbody tr")
    await expect(trace.first).to_have_attribute("data-outcome", "hit")
    await expect(page.locator("table.trace tr[data-outcome='below the cut']").first).to_be_visible()
    await page.screenshot(path=shots / "recall.png", full_page=True)
    # another agent's private memory: never a candidate, and the page says why
    await page.goto(f"{stack.url}/recall?{query}&explain={stack.ids['other']}")
    await expect(page.locator(".explain")).to_contain_text("not visible to this agent")
    # an agent key sees its hits' parts, not the trace (operators only)
    agent = await sign_in(browser, stack, "agent")
    await agent.goto(f"{stack.url}/recall?{query}")
    await expect(agent.locator("table.hits tbody tr")).to_have_count(1)
    assert await agent.locator("table.trace").count() == 0


async def test_a_pending_fact_is_listed_first_and_approved(browser: Browser, stack: Stack, shots: Path) -> None:
    app = stack.daemon.app
    assert app is not None
    claim = Assertion("Acme", "office in", "Lisbon", "Acme's office is in Lisbon.")
    admin = Actor("acme", "", "", Role.ADMIN)
    fact = stack.daemon.run(app.graph.assert_human(admin, GraphScope(Scope.TENANT), claim)).fact
    vector = stack.daemon.run(app.graph._store.fact_vectors("acme", [fact.fact_id]))[fact.fact_id]
    stack.daemon.run(app.graph._store.put_facts("acme", [(replace(fact, status=FactStatus.PENDING), vector)]))
    page = await sign_in(browser, stack, "admin")
    await page.goto(f"{stack.url}/graph?agent=a1")
    pending = page.locator(f"tr[data-fact='{fact.fact_id}']")
    await expect(pending).to_have_attribute("data-status", "pending")
    await expect(page.locator("table.facts-table tbody tr").first).to_have_attribute("data-fact", fact.fact_id)
    await expect(page.locator(".entities")).to_contain_text("Lisbon")
    await page.screenshot(path=shots / "graph.png", full_page=True)
    await pending.locator("button[value=approve]").click()
    await expect(page.locator(".note")).to_contain_text("approved")
    await expect(page.locator(f"tr[data-fact='{fact.fact_id}']")).to_have_attribute("data-status", "active")
    # each fact's validity drawn on a timeline, current facts filled; a bar opens its fact's page
    await expect(page.locator("svg.timeline rect.current")).to_have_count(1)
    await page.locator(f"svg.timeline a[href*='{fact.fact_id}'] rect").click()  # its bar (a link's box is mostly empty)
    await expect(page).to_have_url(re.compile(rf"/graph/facts/{fact.fact_id}\?"))
    await page.goto(f"{stack.url}/graph?agent=a1")
    assert stack.daemon.run(app.graph._store.facts("acme", [fact.fact_id]))[fact.fact_id].status is FactStatus.ACTIVE
    # a duplicate entity, folded into the first by an admin: its facts move, its name becomes an alias
    twin = Assertion("ACME Corp", "office in", "Porto", "ACME Corp has an office in Porto.")
    stack.daemon.run(app.graph.assert_human(admin, GraphScope(Scope.TENANT), twin))
    await page.goto(f"{stack.url}/graph?agent=a1")
    options = page.locator("form.merge select[name=source] option")
    source = await options.filter(has_text="ACME Corp (").get_attribute("value")
    target = await options.filter(has_text="Acme (").get_attribute("value")
    assert source and target
    await page.select_option("form.merge select[name=source]", value=source)
    await page.select_option("form.merge select[name=target]", value=target)
    await page.click("form.merge button")
    await expect(page.locator(".note")).to_contain_text("merged into Acme")
    await expect(page.locator(".entities")).not_to_contain_text("ACME Corp")
    porto = page.locator("tr", has_text="ACME Corp has an office in Porto.")
    await expect(porto.locator("td").first).to_have_text("Acme")
    # a merge made by mistake is undone from the note it leaves: the fact and the name go back
    await page.locator("form.undo button", has_text="Undo the merge").click()
    await expect(page.locator(".note")).to_contain_text("ACME Corp is apart from Acme again (facts moved back: 1)")
    await expect(page.locator(".entities")).to_contain_text("ACME Corp")
    await expect(porto.locator("td").first).to_have_text("ACME Corp")
    # later, from the list of merged entities
    await page.select_option("form.merge select[name=source]", value=source)
    await page.select_option("form.merge select[name=target]", value=target)
    await page.click("form.merge button")
    await page.goto(f"{stack.url}/graph?agent=a1")
    folded = page.locator(f"table.merged tr[data-entity='{source}']")
    await expect(folded).to_contain_text("Acme")
    await folded.locator("button", has_text="Undo the merge").click()
    await expect(page.locator(".note")).to_contain_text("ACME Corp is apart from Acme again")
    await expect(page.locator("table.merged")).to_have_count(0)
    # names that came close but were not folded: suggested, with the evidence, until a person decides
    for name in ("Keeper232", "Keeper23"):
        keeps = Assertion(name, "keeps", "the keys", f"{name} keeps the keys.")
        stack.daemon.run(app.graph.assert_human(admin, GraphScope(Scope.TENANT), keeps))
    await page.goto(f"{stack.url}/graph?agent=a1")
    suggested = page.locator("table.suggestions tr", has_text="Keeper232")
    await expect(suggested).to_contain_text("'Keeper23' is")
    await suggested.locator("button", has_text="Different").click()
    await expect(page.locator(".note")).to_contain_text("dismissed")
    await expect(page.locator("table.suggestions tr", has_text="Keeper232")).to_have_count(0)
    # a fact ended by mistake from its row is restored from it
    founded = Assertion("Acme", "founded_in", "1999", "Acme was founded in 1999.")
    ended = stack.daemon.run(app.graph.assert_human(admin, GraphScope(Scope.TENANT), founded)).fact
    await page.goto(f"{stack.url}/graph?agent=a1")
    await page.locator(f"tr[data-fact='{ended.fact_id}'] button[value=end]").click()
    await expect(page.locator(".note")).to_contain_text("ended")
    row = page.locator(f"tr[data-fact='{ended.fact_id}']")
    await expect(row).to_have_attribute("data-status", "invalidated")
    await row.locator("button[value=restore]").click()
    await expect(page.locator(".note")).to_contain_text("restored")
    await expect(page.locator(f"tr[data-fact='{ended.fact_id}']")).to_have_attribute("data-status", "active")
    await page.locator(f"tr[data-fact='{ended.fact_id}'] button[value=pin]").click()  # kept whatever its age
    await expect(page.locator(".note")).to_contain_text("pinned")
    await expect(page.locator(f"tr[data-fact='{ended.fact_id}']")).to_contain_text("active · pinned")
    assert stack.daemon.run(app.graph._store.facts("acme", [ended.fact_id]))[ended.fact_id].pinned
    await page.locator(f"tr[data-fact='{ended.fact_id}'] button[value=unpin]").click()
    await expect(page.locator(f"tr[data-fact='{ended.fact_id}']")).not_to_contain_text("pinned")
    # a person's fact from the form: the right one after ending a wrong one; a bad field is named
    form = page.locator("form.assert")
    sent_as = await form.locator("input[name=request_id]").get_attribute("value")
    for name, value in (("subject", "Acme"), ("predicate", "ceo"), ("object", "Ida"), ("fact", "Ida runs Acme.")):
        await form.locator(f"input[name={name}]").fill(value)
    await form.locator("input[name=valid_from]").fill("2026-01-05")
    await form.locator("button").click()
    await expect(page.locator(".note")).to_contain_text("add: Ida runs Acme.")
    stale = await page.context.new_page()  # the form as a page kept since (another tab, the back button) has it
    await stale.goto(f"{stack.url}/graph?agent=a1")
    await stale.locator("form.assert input[name=request_id]").evaluate("(e, v) => e.value = v", sent_as)
    for name, value in (("subject", "Acme"), ("predicate", "cfo"), ("object", "Bo"), ("fact", "Bo keeps the books.")):
        await stale.locator(f"form.assert input[name={name}]").fill(value)
    await stale.locator("form.assert button").click()
    await expect(stale.locator(".error")).to_contain_text("this form already asserted another fact")
    await stale.close()
    ida = page.locator("tr", has_text="Ida runs Acme.")
    await expect(ida).to_have_attribute("data-status", "active")
    await expect(ida.locator("td").nth(5)).to_contain_text("2026-01-05")
    form = page.locator("form.assert")
    for name, value in (("subject", "Acme"), ("predicate", "!!"), ("object", "Bo"), ("fact", "Bo runs Acme.")):
        await form.locator(f"input[name={name}]").fill(value)
    await form.locator("button").click()
    await expect(page.locator(".error")).to_contain_text("predicate")


async def test_a_read_only_key_is_offered_no_action(browser: Browser, stack: Stack) -> None:
    app = stack.daemon.app
    assert app is not None
    made = app.admin.keys.create("acme", Role.ADMIN, "", "auditor", scope=KeyScope.READ_ONLY)
    stack.tokens["auditor"] = stack.daemon.run(made)[1]
    page = await sign_in(browser, stack, "auditor")
    await expect(page.locator("header .scope")).to_have_text("read-only")
    await page.goto(f"{stack.url}/keys")
    await expect(page.locator("table.keys")).to_contain_text("read_only")
    assert (
        await page.locator("form[action='/keys']").count() == 0
        and await page.locator("button", has_text="Revoke").count() == 0
    )
    await page.goto(f"{stack.url}/memories/{stack.ids['office']}?agent=a1")
    await expect(page.locator("#content")).to_have_text("The office closes at 18:00 on Fridays")
    assert await page.locator("p.actions a", has_text="Forget").count() == 0
    assert await page.locator("p.actions a", has_text="Edit").count() == 0
    assert await page.locator("p.actions button", has_text="Pin").count() == 0
    # a form posted anyway is the daemon's refusal, shown, and nothing changes
    await page.goto(f"{stack.url}/memories/{stack.ids['office']}?agent=a1&action=forget")
    await page.click("form.confirm button.danger")
    await expect(page.locator(".error")).to_contain_text("read-only")
    assert stack.daemon.run(app.memory.archive.get(Actor("acme", "a1"), stack.ids["office"])) is not None


async def test_an_operator_lists_an_agents_conversations_and_opens_one(browser: Browser, stack: Stack) -> None:
    app = stack.daemon.app
    assert app is not None
    for contact, conversation, text in (("c-maria", "chat-maria", "hello from Maria"), ("c-li", "chat-li", "hi, Li")):
        turn = MessageInput("m1", ChatRole.USER, text)
        stack.daemon.run(app.working.conversations.append(Actor("acme", "a1", contact), conversation, [turn]))
    page = await sign_in(browser, stack, "operator")
    await page.goto(f"{stack.url}/conversations?agent=a1")  # every contact's, the latest first
    rows = page.locator("table.conversations tbody tr")
    await expect(rows).to_have_count(2)
    await expect(rows.first).to_contain_text("chat-li")
    await page.click("text=chat-maria")
    await expect(page.locator("table.context")).to_contain_text("hello from Maria")
    agent = await sign_in(browser, stack, "agent")  # an agent key: one contact's at a time
    await agent.goto(f"{stack.url}/conversations?agent=a1&contact=c-li")
    await expect(agent.locator("table.conversations tbody tr")).to_have_count(1)


async def test_a_profile_revision_is_restored_after_seeing_what_changes(browser: Browser, stack: Stack) -> None:
    app = stack.daemon.app
    assert app is not None
    a1 = Actor("acme", "a1")
    for n, text in enumerate(("- likes espresso", "- drinks tea now")):
        edit = ProfileEdit(EditKind.REPLACE_SECTION, section="Preferences", text=text)
        stack.daemon.run(app.working.profile.edit(a1, n, edit))
    page = await sign_in(browser, stack, "agent")
    await page.goto(f"{stack.url}/profiles?agent=a1")
    await page.click("table.revisions a:has-text('Restore…')")  # the one revision that is not current
    await expect(page.locator("form.confirm")).to_contain_text("Make revision 1's document current again?")
    await expect(page.locator("pre.diff")).to_contain_text("+- likes espresso")  # what would come back
    assert stack.daemon.run(app.working.profile.get(a1)).revision == 2  # asked, nothing done yet
    await page.click("form.confirm button")
    await expect(page.locator("p.note")).to_contain_text("restored revision 1")
    current = stack.daemon.run(app.working.profile.get(a1))
    assert (current.revision, current.source) == (3, "restore:1") and "- likes espresso" in current.document
    made = app.admin.keys.create("acme", Role.AGENT, "a1", "reader", scope=KeyScope.READ_ONLY)
    stack.tokens["reader"] = stack.daemon.run(made)[1]
    reader = await sign_in(browser, stack, "reader")
    await reader.goto(f"{stack.url}/profiles?agent=a1")
    await expect(reader.locator("table.revisions a:has-text('Restore…')")).to_have_count(0)
