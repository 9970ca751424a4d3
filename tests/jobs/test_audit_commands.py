"""`memoryd audit` and `memoryd report` against the real parts (LanceDB, Valkey + arq, DuckDB)."""

from __future__ import annotations

import asyncio
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import build_app
from memoryd.commands.audit import run_audit
from memoryd.commands.main import main
from memoryd.commands.reports.command import run_report
from memoryd.config import Settings
from memoryd.core.errors import InvalidRequest
from memoryd.core.job_records import SYSTEM_TENANT, JobKind
from memoryd.core.models import Actor, MemoryFilter, MemoryStatus, RecallQuery
from memoryd.core.review import ApplyPolicy
from tests.jobs.conftest import job_settings, seed


async def planted(env: Settings, embedder: OnnxMiniLMEmbedder) -> None:
    async with build_app(env, embedder=embedder) as app:
        await seed(app, "acme", "a1", "The VPN needs a hardware key", "The VPN needs a hardware key", "thanks!")
        await seed(app, "acme", "a2", "Priya leads the search team in Lisbon")
        await seed(app, "globex", "b1", "The build server is in Frankfurt", "ok")


@pytest.fixture
async def env(tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder) -> Settings:
    """Job settings over a store holding ``planted``'s memories."""
    settings = job_settings(tmp_path, redis_url, None)
    await planted(settings, onnx_embedder)
    return settings


async def audited(env: Settings, **options: Any) -> str:
    """What an audit that succeeded printed."""
    out = io.StringIO()
    assert await run_audit(env, out=out, **options) == 0
    return out.getvalue()


async def statuses(env: Settings, embedder: OnnxMiniLMEmbedder, tenant: str, agent: str) -> list[MemoryStatus]:
    async with build_app(env, embedder=embedder) as app:
        everything = MemoryFilter(statuses=frozenset(MemoryStatus))
        return sorted(r.status for r in await app.memory.store.page(Actor(tenant, agent), everything, "", 100))


async def test_audit_runs_the_batch_once_applies_by_policy_and_summarises(
    env: Settings, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    text = await audited(env)
    assert re.search(r"\] 3/3 reviewed · 0 failed · \d+ findings · 0 remaining", text), text
    assert re.search(r"^clutter\s+2\s+2\s", text, re.M) and re.search(r"^duplicate\s+1\s+1\s", text, re.M), text
    assert "3 agents: 3 reviewed (0 unchanged" in text and "usage alarms" in text
    assert await statuses(env, onnx_embedder, "acme", "a1") == [MemoryStatus.ACTIVE] * 3  # proposals only

    # the same period: the same batch, nothing re-run; now apply the certain findings
    assert "--apply rules: 3 findings applied now" in await audited(env, apply=ApplyPolicy.RULES)
    assert await statuses(env, onnx_embedder, "acme", "a1") == [
        MemoryStatus.ACTIVE,
        MemoryStatus.ARCHIVED,
        MemoryStatus.SUPERSEDED,
    ]
    # applying twice changes nothing
    assert "--apply rules: 0 findings applied now" in await audited(env, apply=ApplyPolicy.RULES)
    async with build_app(env, embedder=onnx_embedder) as app:
        batches, _ = await app.jobs.service.list_jobs(SYSTEM_TENANT, JobKind.REVIEW_ALL, None, "", 10, 0)
        assert len(batches) == 1 and batches[0].run == 1


async def test_an_interrupted_audit_is_picked_up_by_the_next_run(env: Settings) -> None:
    first = asyncio.create_task(run_audit(env, tenant_id="acme", with_worker=False, out=io.StringIO()))
    await asyncio.sleep(3)  # queued and followed, but no worker: nothing moves
    first.cancel()
    with pytest.raises(asyncio.CancelledError):
        await first
    text = await audited(env, tenant_id="acme")
    assert "] 2/2 reviewed" in text and "review_all:acme:" in text


async def test_dry_run_and_single_agent_audit(env: Settings, onnx_embedder: OnnxMiniLMEmbedder) -> None:
    text = await audited(env, dry_run=True)
    assert "dry run over 3 agents" in text and re.search(r"^clutter\s+2\s+2$", text, re.M)
    async with build_app(env, embedder=onnx_embedder) as app:
        assert await app.admin.reviews.reviews("acme", "a1", 10) == []  # a dry run stores nothing
        assert (await app.jobs.service.list_jobs("acme", None, None, "", 10, 0))[0] == []
    one = await audited(env, tenant_id="globex", agent_id="b1")
    assert "review of globex/b1: succeeded" in one and re.search(r"^clutter\s+1", one, re.M)
    with pytest.raises(InvalidRequest, match="--agent"):
        await run_audit(env, agent_id="b1")
    with pytest.raises(InvalidRequest, match="--apply"):
        await run_audit(env, dry_run=True, apply=ApplyPolicy.ALL)


async def test_report_prints_writes_json_and_a_self_contained_page(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    env = job_settings(tmp_path, redis_url, None, audits={"never_retrieved_share": 0.5})
    await planted(env, onnx_embedder)
    async with build_app(env, embedder=onnx_embedder) as app:  # retrievals for the Lorenz curve
        await app.memory.recall.recall(RecallQuery(Actor("acme", "a2"), "who leads search", limit=1))
        await app.memory.retrievals.flush()
    out = io.StringIO()
    code = await run_report(
        env, json_path=tmp_path / "r.json", html_path=tmp_path / "r.html", fail_on_alarm=True, out=out
    )
    text = out.getvalue()
    assert code == 1 and "ALARM never retrieved" in text  # most memories were never retrieved
    assert "usage of tenant acme: 4 memories (4 active)" in text and "usage of tenant globex" in text
    body = json.loads((tmp_path / "r.json").read_text())
    assert set(body["tenants"]) == {"acme", "globex"} and body["tenants"]["acme"]["retrievals"] >= 1
    page = (tmp_path / "r.html").read_text()
    assert page.count("<svg") >= 6 and "Lorenz" in page and "never retrieved" in page
    assert not re.search(r"<script|<link|src=|url\([^#]", page)  # nothing loads from anywhere


def test_report_from_the_command_line(
    tmp_path: Path, redis_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # not beside a `make run` of this checkout: its var/up.json names another store
    env = job_settings(tmp_path, redis_url, None)
    data = env.storage.uri
    with pytest.raises(SystemExit) as nowhere:  # no store there yet: refused, not made and reported empty
        main(["report", "--data", data, "--since", "2026-01-01"])
    assert nowhere.value.code == 2 and "holds no memoryd store" in capsys.readouterr().err

    async def open_once() -> None:
        async with build_app(env.without_maintenance()):
            pass

    asyncio.run(open_once())
    with pytest.raises(SystemExit) as done:
        main(["report", "--data", data, "--since", "2026-01-01"])
    assert done.value.code == 0 and "the store holds no memories yet" in capsys.readouterr().out
    with pytest.raises(SystemExit) as unknown:  # a name the store does not know: an error, not zeros
        main(["report", "--data", data, "--tenant", "acme", "--since", "2026-01-01"])
    assert unknown.value.code == "memoryd: --tenant 'acme' is not a tenant of this store (tenants: none yet)"
    with pytest.raises(SystemExit) as bad:
        main(["report", "--data", data, "--since", "last tuesday"])
    assert "--since" in str(bad.value.code)
    with pytest.raises(SystemExit) as later:  # named as the option, not the report's field ("since: ...")
        main(["report", "--data", data, "--since", "2999-01-01"])
    assert later.value.code == "memoryd: --since: '2999-01-01' is in the future"


def test_files_and_counts_a_command_cannot_take_are_one_line_before_any_work(
    tmp_path: Path, redis_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Each was a traceback: `report --html DIR` after building every report, `bench locomo --data DIR`,
    # `bench recall --memories -1` (numpy), `--agents 1,0` (a division by zero), `demo --window -5` (gRPC).
    data = job_settings(tmp_path, redis_url, None).storage.uri
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    for argv, says in (
        (["report", "--data", data, "--html", str(tmp_path)], f"argument --html: {str(tmp_path)!r} is a directory"),
        (
            ["report", "--data", data, "--json", str(blocker / "r.json")],
            f"argument --json: {str(blocker / 'r.json')!r}: {str(blocker)!r} is not a directory",
        ),
        (["bench", "locomo", "--data", str(tmp_path)], f"argument --data: {str(tmp_path)!r} is not a file"),
        (["import", "--tenant", "acme", str(tmp_path / "gone.jsonl")], "does not exist"),
        (["bench", "recall", "--memories", "-1"], "argument --memories: '-1' is not a positive whole number"),
        (["bench", "recall", "--agents", "1,0"], "argument --agents: '0' is not a positive whole number"),
        (["demo", "--window", "lots"], "argument --window: 'lots' is not a whole number"),
        (["bench", "mixed", "--recall-share", "1.5"], "argument --recall-share: '1.5' is not a share from 0 to 1"),
        (["bench", "outage", "--outage", "-3"], "argument --outage: '-3' is negative"),
        (["bench", "writes", "--seconds", "nan"], "argument --seconds: 'nan' is not a finite number"),
        (["up", "--run-dir", str(blocker / "run")], f"--run-dir {str(blocker / 'run')!r}: Not a directory"),
        (
            ["bench", "locomo", "--data", str(blocker), "--conversations", "-2"],
            "argument --conversations: '-2' is negative",
        ),
    ):
        with pytest.raises(SystemExit) as bad:
            main(argv)
        err = capsys.readouterr().err
        last = err.strip().splitlines()[-1]  # after argparse's usage lines
        assert bad.value.code == 2 and last.startswith("memoryd") and last.endswith(says), err
        assert "Traceback" not in err
