"""`memoryd mcp` over stdio, driven by the MCP SDK's own client against a real daemon."""

from __future__ import annotations

import asyncio
import os
import subprocess

import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from memoryd.client import MemoryClient, pb
from memoryd.commands.bench.daemon import free_port
from memoryd.commands.main import main
from memoryd.core.keys import KeyScope, Role
from tests.conftest import LiveServer
from tests.mcp_stdio import facade_command, mcp_session

pytestmark = pytest.mark.timeout(120)


async def test_the_memory_tools_over_stdio(live_server: LiveServer) -> None:
    async with mcp_session(live_server.port) as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        expected = {"recall", "memorize", "update_memory", "feedback", "forget", "list_memories", "get_profile"}
        assert expected | {"review_memories"} <= set(tools)
        assert "Routing rule" in (tools["memorize"].description or "")

        stored = await session.call_tool("memorize", {"content": "Caroline prefers espresso", "tags": ["drinks"]})
        assert not stored.is_error
        memory_id = stored.structured_content["id"]
        found = await session.call_tool("recall", {"query": "What does Caroline drink?", "min_score": 0.3})
        assert not found.is_error and memory_id in str(found.structured_content)
        with MemoryClient(f"127.0.0.1:{live_server.port}", tenant="acme") as other:
            other.memorize("planner", "Caroline drinks her espresso as a double", scope=pb.SCOPE_SHARED)
        both = (await session.call_tool("recall", {"query": "Caroline espresso"})).structured_content["result"]
        authors = {h["content"]: h.get("shared_by", "") for h in both}
        assert authors == {"Caroline prefers espresso": "", "Caroline drinks her espresso as a double": "planner"}
        filed = await session.call_tool(
            "memorize", {"content": "Ticket 9: espresso machine leaks", "collection": "tickets"}
        )
        assert not filed.is_error
        tickets = await session.call_tool("recall", {"query": "espresso", "collection": "tickets"})
        assert [h["content"] for h in tickets.structured_content["result"]] == ["Ticket 9: espresso machine leaks"]
        listed = await session.call_tool("list_memories", {})
        assert "Caroline prefers espresso" in str(listed.structured_content)

        # a contact's memory, corrected serving them: the correction supersedes it, both kept
        code = {"content": "Ida's door code is 4471", "scope": "end_user", "end_user_id": "ida"}
        door = (await session.call_tool("memorize", code)).structured_content["id"]
        fixed = await session.call_tool(
            "feedback", {"memory_id": door, "correction": "Ida's door code is 4472", "end_user_id": "ida"}
        )
        assert not fixed.is_error and fixed.structured_content["correction_id"] != door
        served = await session.call_tool("list_memories", {"end_user_id": "ida"})
        assert "Ida's door code is 4472" in str(served.structured_content)
        allergy = await session.call_tool("memorize", {"content": "Ida is allergic to peanuts", "pinned": True})
        allergy_id = allergy.structured_content["id"]
        unpinned = await session.call_tool("update_memory", {"memory_id": allergy_id, "pinned": False})
        assert not unpinned.is_error and unpinned.structured_content["pinned"] is False
        pinned = await session.call_tool("update_memory", {"memory_id": allergy_id, "pinned": True})
        assert pinned.structured_content["pinned"] is True
        kept = await session.call_tool("list_memories", {"pinned_only": True})
        assert [m["id"] for m in kept.structured_content["result"]] == [allergy_id]
        for limit in (0, -1):  # refused by the tool's own parameter, not the daemon's page_size
            none = await session.call_tool("list_memories", {"limit": limit})
            assert none.is_error and f"INVALID_ARGUMENT: limit: must be at least 1, got {limit}" in str(none.content)
        liked = await session.call_tool("feedback", {"memory_id": memory_id, "signal": "useful"})
        assert not liked.is_error and "correction_id" not in liked.structured_content
        odd = await session.call_tool("feedback", {"memory_id": memory_id, "signal": "great"})
        assert odd.is_error and "signal" in str(odd.content)
        bad = await session.call_tool("forget", {"memory_id": "not-an-id"})  # the daemon's refusal, kept
        assert bad.is_error and "INVALID_ARGUMENT" in str(bad.content) and "memory_id" in str(bad.content)
        gone = await session.call_tool("forget", {"memory_id": memory_id})
        assert not gone.is_error
        again = await session.call_tool("recall", {"query": "What does Caroline drink?", "min_score": 0.3})
        assert memory_id not in str(again.structured_content)

        edited = await session.call_tool("edit_profile", {"line": "Answer in French", "section": "Style"})
        assert not edited.is_error and edited.structured_content["revision"] == 1
        profile = await session.call_tool("get_profile", {})
        assert "## Style" in str(profile.content) and "Answer in French" in str(profile.content)
        removed = await session.call_tool(
            "edit_profile", {"line": "Answer in French", "section": "Style", "remove": True}
        )
        assert not removed.is_error and "Answer in French" not in str(removed.structured_content)
        review = await session.call_tool("review_memories", {})  # no job queue on this daemon: the refusal, kept
        assert review.is_error and "UNAVAILABLE" in str(review.content)
        await _scopes_sections_and_graph(session)


async def _scopes_sections_and_graph(session: ClientSession) -> None:
    """The tools' scope and filters, replace_section, and the graph tools (over either transport)."""
    shared = await session.call_tool("memorize", {"content": "The canteen serves ramen on Tuesdays", "scope": "shared"})
    private = await session.call_tool("memorize", {"content": "I owe Dana a ramen lunch", "tags": ["debts"]})
    assert not shared.is_error and not private.is_error
    only_shared = await session.call_tool("recall", {"query": "ramen", "scopes": ["shared"], "min_score": 0.3})
    assert [h["content"] for h in only_shared.structured_content["result"]] == ["The canteen serves ramen on Tuesdays"]
    tagged = await session.call_tool("recall", {"query": "ramen", "tags": ["debts"]})
    assert [h["content"] for h in tagged.structured_content["result"]] == ["I owe Dana a ramen lunch"]
    wrong = await session.call_tool("memorize", {"content": "x y z", "scope": "everyone"})
    assert wrong.is_error and "scope" in str(wrong.content) and "everyone" in str(wrong.content)
    replaced = await session.call_tool("replace_section", {"section": "Style", "content": "- be brief\n- cite ids"})
    assert not replaced.is_error and "- be brief\n- cite ids" in replaced.structured_content["document"]
    asserted = await session.call_tool(
        "assert_fact", {"subject": "Dana", "predicate": "works_at", "object": "Acme", "fact": "Dana works at Acme."}
    )
    assert not asserted.is_error and asserted.structured_content["action"] == "add"
    fact_id = asserted.structured_content["fact"]["id"]
    found = await session.call_tool("search_graph", {"query": "Where does Dana work?"})
    assert not found.is_error and fact_id in [f["id"] for f in found.structured_content["facts"]]
    assert "Dana works at Acme." in found.structured_content["block"]
    moved = await session.call_tool(
        "assert_fact", {"subject": "Dana", "predicate": "works_at", "object": "Globex", "fact": "Dana works at Globex."}
    )
    assert moved.structured_content["invalidated"] == [fact_id]
    explained = await session.call_tool("explain_fact", {"fact_id": fact_id})
    assert explained.structured_content["superseded_by"]["fact"] == "Dana works at Globex."


async def test_the_tools_over_streamable_http(live_server: LiveServer) -> None:
    port = free_port()
    facade = subprocess.Popen(
        [*facade_command(live_server.port), "--transport", "http", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        await _listening(port)
        async with (
            streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write, *_),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            stored = await session.call_tool("memorize", {"content": "the standup moved to 9:30"})
            assert not stored.is_error
            found = await session.call_tool("recall", {"query": "standup time"})
            assert "the standup moved to 9:30" in str(found.structured_content)
            await _scopes_sections_and_graph(session)
    finally:
        facade.terminate()
        facade.wait(timeout=30)


async def _listening(port: int, timeout: float = 30.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        except OSError:
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.2)


def runtime_feedback(port: int, memory_id: str) -> tuple[int, int]:
    """A memory's useful and wrong counts, as the daemon keeps them."""
    with MemoryClient(f"127.0.0.1:{port}", tenant="acme") as runtime:
        counts = runtime.get("a1", memory_id).feedback
        return counts.useful, counts.wrong


async def test_a_facade_serving_one_contact_lets_no_tool_name_another(live_server: LiveServer) -> None:
    """The model chooses a tool's arguments: told to, it read and wrote any contact's memories by naming them."""
    with MemoryClient(f"127.0.0.1:{live_server.port}", tenant="acme") as runtime:
        runtime.memorize("a1", "Omar's door code is 9911", scope=pb.SCOPE_END_USER, end_user_id="omar")
        runtime.memorize("a1", "Omar's alarm code is 5522", end_user_id="omar")  # private, written serving him
        policy = runtime.memorize("a1", "Refunds are accepted within 30 days").memory.id  # the agent's own
    async with mcp_session(live_server.port, "", "--end-user", "ida") as session:
        for name, arguments in (
            ("forget", {"memory_id": policy}),
            ("update_memory", {"memory_id": policy, "content": "Refunds are accepted within 365 days"}),
            ("feedback", {"memory_id": policy, "correction": "Refunds are accepted within 365 days"}),
            ("feedback", {"memory_id": policy, "signal": "wrong"}),  # a dispute: a review may archive the policy
        ):
            refused = await session.call_tool(name, arguments)
            assert refused.is_error and "PERMISSION_DENIED" in str(refused.content), (name, refused.content)
        rated = await session.call_tool("feedback", {"memory_id": policy, "signal": "useful"})
        assert not rated.is_error, rated.content
        assert runtime_feedback(live_server.port, policy) == (1, 0)  # rated; never disputed
        tools = (await session.list_tools()).tools
        assert tools and not [t.name for t in tools if "end_user_id" in t.input_schema.get("properties", {})]
        said = {t.name: t.description or "" for t in tools}
        assert "get_profile" in said and not {"edit_profile", "replace_section"} & set(said)  # every contact's
        assert not [name for name, text in said.items() if "edit_profile" in text]
        for name in ("update_memory", "feedback", "forget"):  # not "needs their end_user_id": it has none
            assert "Only this contact's memories change here" in said[name]
        assert not [name for name, text in said.items() if "end_user_id" in text]
        assert "serving this contact" in said["list_memories"]
        assert all("scope: end_user (the default: this contact's)" in said[t] for t in ("memorize", "assert_fact"))
        stored = await session.call_tool("memorize", {"content": "Ida's door code is 4471"})  # hers by default
        assert not stored.is_error, stored.content
        asked = await session.call_tool("recall", {"query": "door code", "end_user_id": "omar"})
        found = [h["content"] for h in asked.structured_content["result"]]
        assert "Ida's door code is 4471" in found and not [f for f in found if "9911" in f]  # "omar" is ignored
        listed = await session.call_tool("list_memories", {"end_user_id": "omar"})
        assert "9911" not in str(listed.structured_content) and "4471" in str(listed.structured_content)
        claim = {"subject": "Ida", "predicate": "lives_in", "object": "Oslo", "fact": "Ida lives in Oslo."}
        asserted = await session.call_tool("assert_fact", claim)  # hers by default, like a memory
        assert not asserted.is_error, asserted.content
        alarm = await session.call_tool("recall", {"query": "Omar's alarm code"})
        assert "5522" not in str(alarm.structured_content) and "5522" not in str(listed.structured_content)
    with MemoryClient(f"127.0.0.1:{live_server.port}", tenant="acme") as runtime:
        assert runtime.get("a1", policy).content == "Refunds are accepted within 30 days"
        search = runtime.graph.search
        seen = {who: [f.fact for f in search("a1", "Ida Oslo", end_user_id=who).facts] for who in ("ida", "omar")}
        assert seen == {"ida": ["Ida lives in Oslo."], "omar": []}
        ida = next(m for m in runtime.list("a1", end_user_id="ida") if m.end_user_id == "ida")
        assert (ida.content, ida.end_user_id, ida.scope) == ("Ida's door code is 4471", "ida", pb.SCOPE_END_USER)


def test_a_facade_for_a_contact_no_call_could_name_does_not_start() -> None:
    with pytest.raises(SystemExit) as refused:
        main(["mcp", "--target", "127.0.0.1:1", "--tenant", "acme", "--agent", "a1", "--end-user", "ida lee"])
    assert refused.value.code == "memoryd mcp: --end-user 'ida lee': required, 1-128 chars of [A-Za-z0-9._:@-]"


@pytest.mark.parametrize(
    ("tenant", "agent", "said"),
    [
        ("acme", "bad agent", "memoryd mcp: --agent 'bad agent': required, 1-128 chars of [A-Za-z0-9._:@-]"),
        ("ac/me", "a1", "memoryd mcp: --tenant 'ac/me': must be 1-64 chars of [A-Za-z0-9._-]"),
    ],
)
def test_a_facade_for_an_agent_or_tenant_no_call_could_name_does_not_start(tenant: str, agent: str, said: str) -> None:
    # It started and answered every tool call with the daemon's INVALID_ARGUMENT instead.
    with pytest.raises(SystemExit) as refused:
        main(["mcp", "--target", "127.0.0.1:1", "--tenant", tenant, "--agent", agent])
    assert refused.value.code == said


def test_an_http_facade_on_a_port_that_cannot_be_is_argparses_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # 99999 was an OverflowError traceback from bind().
    with pytest.raises(SystemExit) as refused:
        main(["mcp", "--tenant", "acme", "--agent", "a1", "--transport", "http", "--port", "99999"])
    assert refused.value.code == 2
    assert capsys.readouterr().err.strip().endswith("argument --port: '99999' is not a port (1-65535)")


def test_a_facade_whose_key_the_daemon_refuses_does_not_start(live_server: LiveServer) -> None:
    # It started, and a runtime learnt of the key's tenant or pin only as every tool call failed.
    assert live_server.app is not None
    create = live_server.app.admin.keys.create
    pinned = live_server.run(create("acme", Role.AGENT, "a2", "a2's"))[1]
    other_tenant = live_server.run(create("globex", Role.ADMIN, "", "globex"))[1]
    refused = {
        pinned: "memoryd mcp: --agent 'a1': the key (MEMORYD_API_KEY) is pinned to agent 'a2'",
        other_tenant: "memoryd mcp: --tenant 'acme': PERMISSION_DENIED: x-tenant-id: does not match the tenant",
        "": "memoryd mcp: MEMORYD_API_KEY: UNAUTHENTICATED: authorization: ",  # keys exist: none is refused
    }
    for key, said in refused.items():
        env = {**os.environ, "MEMORYD_API_KEY": key}
        started = subprocess.run(
            facade_command(live_server.port), env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True
        )
        assert started.returncode == 1 and started.stderr.startswith(said), started.stderr
        assert len(started.stderr.strip().splitlines()) == 1  # one line, no traceback


async def test_a_facade_offers_only_the_tools_its_key_may_call(live_server: LiveServer) -> None:
    # A read-only key was offered memorize and forget, an agent key assert_fact (admins'): each call a
    # refusal the model spent a turn on.
    assert live_server.app is not None
    create = live_server.app.admin.keys.create
    reads = {"recall", "list_memories", "get_profile", "search_graph", "explain_fact"}
    writes = {"memorize", "update_memory", "feedback", "edit_profile", "replace_section", "review_memories"}
    offered = {
        (Role.AGENT, KeyScope.READ_ONLY): reads,
        (Role.AGENT, KeyScope.NON_DESTRUCTIVE): reads | writes,
        (Role.AGENT, KeyScope.ALL): reads | writes | {"forget"},
        (Role.ADMIN, KeyScope.ALL): reads | writes | {"forget", "assert_fact"},
    }
    for (role, scope), tools in offered.items():
        key = live_server.run(create("acme", role, "a1" if role is Role.AGENT else "", "mcp", scope=scope))[1]
        async with mcp_session(live_server.port, key) as session:
            assert {t.name for t in (await session.list_tools()).tools} == tools, (role, scope)
            if scope is KeyScope.READ_ONLY:
                assert (await session.call_tool("recall", {"query": "anything"})).is_error is False


async def test_a_facade_given_only_a_key_acts_on_the_keys_tenant(live_server: LiveServer) -> None:
    # --tenant was required although the key names its tenant: one more setting to get wrong.
    assert live_server.app is not None
    token = live_server.run(live_server.app.admin.keys.create("globex", Role.AGENT, "a1", "bot"))[1]
    async with mcp_session(live_server.port, token, tenant="") as session:
        stored = await session.call_tool("memorize", {"content": "Globex invoices in euros"})
        assert stored.is_error is False, stored.content
    with MemoryClient(f"127.0.0.1:{live_server.port}", api_key=token) as memory:
        assert [m.content for m in memory.list("a1")] == ["Globex invoices in euros"]
    with pytest.raises(SystemExit) as unnamed:
        main(["mcp", "--target", "127.0.0.1:1", "--agent", "a1"])
    assert str(unnamed.value.code).startswith("memoryd mcp: give --tenant (or MEMORYD_TENANT), or a key")
