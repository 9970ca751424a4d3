"""memoryd.client against a real daemon: typed calls, paging, errors, retries; and in a bare virtualenv."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.client import (
    Aborted,
    AsyncMemoryClient,
    FailedPrecondition,
    InvalidArgument,
    MemoryClient,
    NotFound,
    Unauthenticated,
    Unavailable,
    gr,
    pb,
)
from memoryd.core.keys import Role
from memoryd.rpc.client import kpb
from memoryd.testing.provider import FakeProvider
from tests.conftest import LiveServer
from tests.e2e.test_degraded_recall import provider, remote  # noqa: F401  # fixtures: a daemon on the fake provider
from tests.jobs.conftest import job_settings

ROOT = Path(__file__).resolve().parents[2]


def test_sync_client_calls_pages_and_maps_errors(live_server: LiveServer) -> None:
    with MemoryClient(f"127.0.0.1:{live_server.port}", tenant="acme") as memory:
        first = memory.memorize("a1", "Caroline prefers espresso", tags=["preferences"])
        assert first.memory.content == "Caroline prefers espresso" and list(first.memory.tags) == ["preferences"]
        for i in range(4):
            memory.memorize("a1", f"note number {i} about the garden")
        hits = memory.recall("a1", "What does Caroline drink?", limit=3)
        assert hits[0].memory.id == first.memory.id and 0 < hits[0].score <= 1
        listed = [m.id for m in memory.list("a1", page_size=2)]  # three pages, followed by the iterator
        assert len(listed) == 5 and listed[0] == first.memory.id
        reply = memory.feedback("a1", first.memory.id, "useful")  # an enum by its short name, as every field's
        assert reply.memory.feedback.useful == 1
        assert memory.update("a1", first.memory.id, salience=0.9).salience == pytest.approx(0.9)
        assert memory.update("a1", first.memory.id, pinned=True).pinned  # kept by retention and reviews
        assert memory.memorize("a1", "The VPN key rotates on Mondays", pinned=True).memory.pinned
        contact = memory.memorize("a1", "Ida's door code is 4471", end_user_id="ida", scope=pb.SCOPE_END_USER).memory
        fixed = memory.feedback(
            "a1", contact.id, pb.FEEDBACK_SIGNAL_CORRECTION, correction="Ida's door code is 4472", end_user_id="ida"
        )  # a contact's memory is seen only serving that contact
        assert (fixed.memory.status, fixed.correction.content) == (
            pb.MEMORY_STATUS_SUPERSEDED,
            "Ida's door code is 4472",
        )
        back = memory.restore("a1", contact.id, end_user_id="ida")  # the correction undone, both kept
        assert back.status == pb.MEMORY_STATUS_ACTIVE
        told = [e.kind for e in memory.history("a1", contact.id, end_user_id="ida").events]
        assert told[0] == "created" and {"superseded", "restored"} <= set(told), told
        assert memory.forget("a1", first.memory.id) == first.memory.id
        with pytest.raises(NotFound):
            memory.get("a1", first.memory.id)
        with pytest.raises(InvalidArgument) as err:
            memory.recall("a1", "")
        assert "query" in err.value.details and err.value.field == "query"  # the status's BadRequest detail
        first_profile = memory.edit_profile("a1", "- likes espresso", section="Preferences")
        memory.replace_section("a1", "Preferences", "- drinks tea now")
        restored = memory.restore_profile("a1", first_profile.revision)
        assert (restored.document, restored.source) == (first_profile.document, f"restore:{first_profile.revision}")
        with pytest.raises(NotFound):
            memory.restore_profile("a1", 99)


def test_keyword_mistakes_are_refused_before_anything_is_stored(live_server: LiveServer) -> None:
    with MemoryClient(f"127.0.0.1:{live_server.port}", tenant="acme") as memory:
        with pytest.raises(TypeError, match="tags: a list is wanted"):
            memory.memorize("a1", "Caroline prefers espresso", tags="preferences")  # not eleven one-letter tags
        assert list(memory.list("a1")) == []
        shared = memory.memorize("a1", "The office opens at 8", scope="shared", tags=["office"]).memory
        assert shared.scope == pb.SCOPE_SHARED and [h.memory.id for h in memory.recall("a2", "office hours")] == [
            shared.id
        ]
        assert list(memory.update("a1", shared.id, tags=["office", "hours"]).tags) == ["office", "hours"]
        memory.memorize("a1", "The canteen opens at 12")
        assert [m.id for m in memory.list("a1", where={"tags": ["hours"], "scopes": ["shared"]})] == [shared.id]
        with pytest.raises(TypeError, match=r"filter\.tags: a list"):
            list(memory.list("a1", where={"tags": "hours"}))


def test_memorize_through_the_client_is_idempotent_by_default(live_server: LiveServer) -> None:
    with MemoryClient(f"127.0.0.1:{live_server.port}", tenant="acme") as memory:
        once = memory.memorize("a1", "the deploy window is Friday", request_id="call-7")
        again = memory.memorize("a1", "the deploy window is Friday", request_id="call-7")
        assert again.memory.id == once.memory.id and not again.deduplicated  # the first result, not a merge


def test_only_unavailable_is_retried(remote: tuple[object, LiveServer], provider: FakeProvider) -> None:  # noqa: F811
    _, server = remote
    target = f"127.0.0.1:{server.port}"
    with MemoryClient(target, tenant="acme", backoff=0.01) as memory:
        memory.memorize("a1", "espresso machine on the third floor")
        provider.script("503", "503")  # the embedder is down for two calls: a vector-only Recall is UNAVAILABLE
        hits = memory.recall("a1", "espresso", arms=pb.RECALL_ARMS_VECTOR)
        assert [h.memory.content for h in hits] == ["espresso machine on the third floor"]
    with MemoryClient(target, tenant="acme", retries=0) as memory:
        provider.script("503")
        with pytest.raises(Unavailable):
            memory.recall("a1", "espresso", arms=pb.RECALL_ARMS_VECTOR)


def test_async_client(live_server: LiveServer) -> None:
    async def run() -> list[str]:
        async with AsyncMemoryClient(f"127.0.0.1:{live_server.port}", tenant="acme") as memory:
            stored = await memory.memorize("a1", "Melanie painted a sunset over the lake")
            hits = await memory.recall("a1", "sunset painting")
            assert hits[0].memory.id == stored.memory.id
            assert (await memory.get("a1", stored.memory.id)).content == stored.memory.content
            assert (await memory.update("a1", stored.memory.id, salience=0.8)).salience == pytest.approx(0.8)
            liked = await memory.feedback("a1", stored.memory.id, pb.FEEDBACK_SIGNAL_USEFUL)
            assert liked.memory.feedback.useful == 1
            assert (await memory.restore("a1", stored.memory.id)).status == pb.MEMORY_STATUS_ACTIVE  # nothing to undo
            told = [e.kind for e in (await memory.history("a1", stored.memory.id)).events]
            assert told[0] == "created" and "feedback" in told and "updated" in told, told
            batch = await memory.memorize_batch(
                "a1", [{"content": "The lake froze in January", "tags": ["lake"]}, pb.MemoryInput(content="Ice")]
            )
            assert [r.memory.content for r in batch] == ["The lake froze in January", "Ice"]
            used = {batch[0].memory.id: True, batch[1].memory.id: False}
            assert await memory.auto_feedback("a1", used, request_id="turn-1") == 2
            assert await memory.auto_feedback("a1", used, request_id="turn-1") == 2  # a retry: the same answer
            assert (await memory.get("a1", batch[0].memory.id)).feedback.used == 1  # and counted once
            edited = await memory.edit_profile("a1", "- paints at dawn", section="Habits")
            assert "- paints at dawn" in edited.document and edited.revision == 1
            await memory.replace_section("a1", "Habits", "- paints at dusk now", expected_revision=1)
            with pytest.raises(Aborted):  # compare-and-swap: revision 1 is no longer current
                await memory.edit_profile("a1", "- stale", expected_revision=1)
            assert (await memory.get_profile("a1")).document.count("paints at dusk") == 1
            return [m.id async for m in memory.list("a1", page_size=1)]

    assert len(asyncio.run(run())) == 3


@pytest.mark.timeout(240)
def test_a_bare_virtualenv_with_the_clients_three_packages_can_use_it(live_server: LiveServer, tmp_path: Path) -> None:
    """Only the client's files and grpcio, protobuf and googleapis-common-protos: none of the server's packages."""
    pins = [
        line.split('"')[1]  # the pin itself, without a comment after it
        for line in (ROOT / "pyproject.toml").read_text().splitlines()
        if line.strip().startswith(('"grpcio==', '"protobuf==', '"googleapis-common-protos=='))
    ]
    assert len(pins) == 3, pins
    site = tmp_path / "src" / "memoryd"
    for part in ("__init__.py", "client", "rpc/__init__.py", "rpc/client.py", "rpc/config_values.py", "rpc/_gen"):
        source, target = ROOT / "memoryd" / part, site / part
        target.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if source.is_dir() else shutil.copy)(source, target)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", *pins], check=True, timeout=200)
    script = textwrap.dedent(
        f"""
        import sys
        from memoryd.client import InvalidArgument, MemoryClient
        with MemoryClient("127.0.0.1:{live_server.port}", tenant="acme") as memory:
            memory.memorize("a1", "written from a bare virtualenv")
            print(memory.recall("a1", "bare virtualenv")[0].memory.content)
            try:
                memory.recall("a1", "")
            except InvalidArgument as err:
                assert err.field == "query", err.field
            else:
                raise SystemExit("an empty query was not refused")
        assert "lancedb" not in sys.modules and "onnxruntime" not in sys.modules
        """
    )
    out = subprocess.run(
        [str(python), "-c", script], cwd=tmp_path / "src", capture_output=True, text=True, timeout=60, check=False
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "written from a bare virtualenv"


def test_profile_edits_through_the_client_are_compare_and_swap(live_server: LiveServer) -> None:
    with MemoryClient(f"127.0.0.1:{live_server.port}", tenant="acme") as memory:
        first = memory.edit_profile("a1", "Answer in French", section="Style")
        assert first.revision == 1 and "## Style" in first.document
        pinned = memory.edit_profile("a1", "Never share the VPN key", pinned=True)
        assert pinned.revision == 2 and "## Pinned" in pinned.document
        with pytest.raises(Aborted):  # based on a revision someone else moved past
            memory.edit_profile("a1", "Use metric units", section="Style", expected_revision=1)
        removed = memory.edit_profile("a1", "Answer in French", section="Style", remove=True)
        assert "Answer in French" not in removed.document and memory.get_profile("a1").revision == 3


def test_settings_through_the_client_resolve_per_agent_and_refuse_loosening(live_server: LiveServer) -> None:
    with MemoryClient(f"127.0.0.1:{live_server.port}", tenant="acme") as memory:
        assert memory.effective_config("a1")["working.auto_recall"] == (False, "default")
        assert memory.set_config("", {"working.auto_recall": False, "recall.limit": 2}) == 1
        assert memory.set_config("a1", {"recall.limit": 3}) == 1
        view = memory.effective_config("a1")
        assert view["recall.limit"] == (3, "agent") and view["working.auto_recall"] == (False, "tenant")
        with pytest.raises(FailedPrecondition) as err:  # the tenant turned it off: tighten-only
            memory.set_config("a1", {"working.auto_recall": True})
        assert "working.auto_recall" in err.value.details
        with pytest.raises(Aborted):
            memory.set_config("a1", {"recall.limit": 4}, expected_version=0)
        for i in range(5):
            memory.memorize("a1", f"garden note {i} about tomatoes")
        assert len(memory.recall("a1", "tomatoes in the garden")) == 3  # the agent's limit, unset in the call
        assert len(memory.recall("a2", "tomatoes in the garden")) == 0  # private to a1; a2's limit would be 2

        async def run() -> dict[str, object]:
            async with AsyncMemoryClient(f"127.0.0.1:{live_server.port}", tenant="acme") as aio:
                return {k: v for k, (v, _) in (await aio.effective_config("a2")).items()}

        assert asyncio.run(run())["recall.limit"] == 2


def test_a_key_names_its_tenant_so_the_client_needs_no_tenant(live_server: LiveServer) -> None:
    app = live_server.app
    assert app is not None
    future = asyncio.run_coroutine_threadsafe(app.admin.keys.create("acme", Role.AGENT, name="bot"), live_server._loop)
    _, token = future.result(timeout=30)
    with MemoryClient(f"127.0.0.1:{live_server.port}", api_key=token) as memory:
        stored = memory.memorize("a1", "Keys carry their tenant")
    with MemoryClient(f"127.0.0.1:{live_server.port}", tenant="acme", api_key=token) as memory:
        assert memory.get("a1", stored.memory.id).content == "Keys carry their tenant"
    with pytest.raises(ValueError, match="tenant is required without an api_key"):
        MemoryClient(f"127.0.0.1:{live_server.port}")


def test_the_graph_namespace_curates_and_undoes(live_server: LiveServer) -> None:
    """An admin script in Python: end a wrong fact and restore it, merge two entities and undo the merge."""
    with MemoryClient(f"127.0.0.1:{live_server.port}", tenant="acme") as memory:
        tea = memory.graph.assert_fact("Nadia Ali", "likes", "tea", "Nadia likes tea.").fact
        coffee = memory.graph.assert_fact("Nadia Aly", "likes", "coffee", "Nadia likes coffee.").fact
        ended = memory.graph.update_fact(tea.id, status=gr.FACT_STATUS_INVALIDATED)
        assert ended.status == gr.FACT_STATUS_INVALIDATED
        assert memory.graph.update_fact(tea.id, status=gr.FACT_STATUS_ACTIVE).status == gr.FACT_STATUS_ACTIVE
        merged = memory.graph.merge(coffee.subject_id, tea.subject_id)
        assert "Nadia Aly" in merged.aliases
        folded = list(memory.graph.entities("a1", merged=True))
        assert [(e.id, e.merged_into) for e in folded] == [(coffee.subject_id, tea.subject_id)]
        undone = memory.graph.unmerge(coffee.subject_id)
        assert (undone.entity.name, undone.facts_moved) == ("Nadia Aly", 1)
        assert not list(memory.graph.entities("a1", merged=True))
        assert {"Nadia Ali", "Nadia Aly"} <= {e.name for e in memory.graph.entities("a1")}
        with pytest.raises(FailedPrecondition):
            memory.graph.unmerge(coffee.subject_id)
        mine = memory.graph.assert_fact(
            "Nadia", "drinks", "mate", "Nadia drinks mate.", scope=pb.SCOPE_PRIVATE, agent_id="a1"
        )
        with pytest.raises(FailedPrecondition) as refused:  # a reason to switch on, without reading the message
            memory.graph.merge(mine.fact.subject_id, tea.subject_id)
        assert (refused.value.reason, refused.value.field) == ("SCOPE_MISMATCH", None)


def test_the_async_client_searches_and_curates_the_graph(live_server: LiveServer) -> None:
    """An asyncio runtime asserts, searches and explains facts; an admin task ends one and merges two names."""

    async def run() -> None:
        async with AsyncMemoryClient(f"127.0.0.1:{live_server.port}", tenant="acme") as memory:
            tea = (await memory.graph.assert_fact("Nadia Ali", "likes", "tea", "Nadia likes tea.")).fact
            coffee = (await memory.graph.assert_fact("Nadia Aly", "drinks", "coffee", "Nadia drinks coffee.")).fact
            found = await memory.graph.search("a1", "what does Nadia like")
            assert tea.id in [f.id for f in found.facts] and "Nadia likes tea." in found.block
            assert (await memory.graph.explain("a1", tea.id)).fact.id == tea.id
            ended = await memory.graph.update_fact(tea.id, status="invalidated")  # a short name, as everywhere
            assert ended.status == gr.FACT_STATUS_INVALIDATED
            assert (await memory.graph.merge(coffee.subject_id, tea.subject_id)).id == tea.subject_id
            assert [e.id async for e in memory.graph.entities("a1", merged=True)] == [coffee.subject_id]
            assert (await memory.graph.unmerge(coffee.subject_id)).facts_moved == 1

    asyncio.run(run())


def test_the_async_client_reads_the_same_status_details(live_server: LiveServer) -> None:
    async def refused() -> InvalidArgument:
        async with AsyncMemoryClient(f"127.0.0.1:{live_server.port}", tenant="acme") as memory:
            try:
                await memory.get("a1", "not an id")
            except InvalidArgument as err:
                return err
        raise AssertionError("not refused")

    err = asyncio.run(refused())
    assert err.field == "memory_id" and err.reason is None and err.retry_after is None


def test_both_clients_follow_and_retry_jobs(
    tmp_path: Path, valkey_server: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    """Compact answers with a job's id; the asyncio client follows it as the blocking one does."""
    with LiveServer(job_settings(tmp_path, valkey_server, None), onnx_embedder) as server:  # a queue, no worker
        target = f"127.0.0.1:{server.port}"

        async def follow() -> tuple[str, str, list[str]]:
            async with AsyncMemoryClient(target, tenant="acme") as memory:
                await memory.conversations.append("a1", "c1", [("m1", "user", "I moved to Oslo in May")])
                job_id = await memory.conversations.compact("a1", "c1")
                waited = await memory.jobs.wait(job_id, timeout=0.3, poll=0.05)  # nothing runs it
                seen = [u.state async for u in memory.jobs.watch(job_id, timeout=0.5)]
                with pytest.raises(FailedPrecondition, match="queued"):
                    await memory.jobs.retry(job_id)  # only a failed or dead job runs again
                assert [j.job_id async for j in memory.jobs.list(state="queued", agent_id="a1")] == [job_id]
                return job_id, waited, seen

        job_id, waited, seen = asyncio.run(follow())
        assert (waited, seen) == ("queued", ["queued"])
        with MemoryClient(target, tenant="acme") as memory:
            assert memory.jobs.get(job_id).job_id == job_id and memory.jobs.state(job_id) == "queued"
            memory.conversations.append("a2", "c2", [("m1", "user", "I moved to Bergen in June")])
            other = memory.conversations.compact("a2", "c2")
            assert [j.job_id for j in memory.jobs.list(page_size=1)] == [other, job_id]  # every page, latest first
            assert [j.job_id for j in memory.jobs.list(agent_id="a2", kind="compact")] == [other]
            assert list(memory.jobs.list(state="failed")) == []
            with pytest.raises(ValueError, match=r"state: 'broken' is not one of queued, running, .*failed"):
                memory.jobs.list(state="broken")  # said at the call, before anything is sent
            with pytest.raises(FailedPrecondition):
                memory.jobs.retry(job_id)
            with pytest.raises(NotFound):
                memory.jobs.retry("compact:nope:1:force")


def test_both_clients_say_whom_the_daemon_sees(live_server: LiveServer) -> None:
    # A runtime could learn its key's tenant, role or pin only from the first refused call.
    target = f"127.0.0.1:{live_server.port}"
    with MemoryClient(target, tenant="acme") as memory:
        before = memory.who_am_i()
        assert (before.tenant_id, before.role, before.key_id, before.protected_mode) == (
            "acme",
            kpb.KEY_ROLE_ADMIN,
            "",
            True,
        )
    assert live_server.app is not None
    key, token = live_server.run(live_server.app.admin.keys.create("acme", Role.AGENT, "a1", "bot"))

    async def asked() -> object:
        async with AsyncMemoryClient(target, api_key=token) as memory:
            return await memory.who_am_i()

    who = asyncio.run(asked())
    assert (who.tenant_id, who.role, who.key_id, who.agent_id, who.protected_mode) == (  # type: ignore[attr-defined]
        "acme",
        kpb.KEY_ROLE_AGENT,
        key.key_id,
        "a1",
        False,
    )
    with MemoryClient(target, tenant="acme") as memory, pytest.raises(Unauthenticated):
        memory.who_am_i()  # keys exist: a call without one is refused
