"""Agent runtimes in other languages are our users: a Node.js client drives the daemon."""

from __future__ import annotations

import asyncio
import json
import shutil
import socket
import subprocess
from pathlib import Path
from typing import Any

import grpc
import trustme

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.app import build_app
from memoryd.core.keys import Role
from memoryd.rpc.server import credentials
from memoryd.workers.settings import running_workers
from tests.conftest import LiveServer, make_settings
from tests.jobs.conftest import job_settings

ROOT = Path(__file__).resolve().parents[2]


def node() -> str:
    found = shutil.which("node")
    assert found, "Node.js is required"
    return found


def run_node(script: str, *args: str) -> Any:
    """Run ``tests/polyglot/<script>`` with Node and read the JSON it prints."""
    out = subprocess.run(
        [node(), str(ROOT / "tests" / "polyglot" / script), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stderr  # the script's own error, not only its exit status
    return json.loads(out.stdout)


def test_node_client_memorizes_and_recalls(live_server: LiveServer) -> None:
    assert (ROOT / "node_modules" / "@grpc" / "grpc-js").exists(), "run `make install` (npm ci)"
    result = run_node("client.js", f"127.0.0.1:{live_server.port}")
    memory = result["mem"]["ok"]["memory"]
    assert memory["content"] == "Node runtimes can store memories too" and memory["scope"] == "SCOPE_PRIVATE"
    hits = result["recall"]["ok"]["hits"]
    assert hits[0]["memory"]["id"] == memory["id"] and hits[0]["score"] > 0
    assert result["bad"]["code"] == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert "memory.content" in result["bad"]["details"]


def test_node_client_uses_an_api_key_over_tls(tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder) -> None:
    ca = trustme.CA()
    cert = ca.issue_cert("localhost", "127.0.0.1")
    paths = {name: tmp_path / f"{name}.pem" for name in ("cert", "key", "ca")}
    cert.cert_chain_pems[0].write_to_path(str(paths["cert"]))
    cert.private_key_pem.write_to_path(str(paths["key"]))
    ca.cert_pem.write_to_path(str(paths["ca"]))
    settings = make_settings(
        tmp_path / "data", server={"tls_cert_file": str(paths["cert"]), "tls_key_file": str(paths["key"])}
    )
    server = LiveServer(settings, onnx_embedder, tls=credentials(settings.server))
    server.start()
    try:
        _, token = server.key("node-tls", Role.AGENT, "node-agent", "node runtime")
        result = run_node("client.js", f"localhost:{server.port}", str(paths["ca"]), token)
    finally:
        server.stop()
    memory = result["mem"]["ok"]["memory"]
    assert memory["content"] == "Node runtimes can store memories too"
    assert result["recall"]["ok"]["hits"][0]["memory"]["id"] == memory["id"]
    assert result["bad"]["code"] == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert result["forged"]["code"] == grpc.StatusCode.UNAUTHENTICATED.value[0]


async def run_node_with_workers(script: str, tmp_path: Path, redis_url: str, embedder: OnnxMiniLMEmbedder) -> Any:
    """Run ``tests/polyglot/<script>`` against a daemon whose jobs run (workers in this loop); its JSON."""
    env = job_settings(tmp_path, redis_url, None)
    server = LiveServer(env, embedder)
    server.start()
    try:
        async with build_app(env, embedder=embedder) as app, running_workers(env, app):
            proc = await asyncio.create_subprocess_exec(
                node(),
                str(ROOT / "tests" / "polyglot" / script),
                f"127.0.0.1:{server.port}",
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
            out, err = await asyncio.wait_for(proc.communicate(), timeout=90)
        assert proc.returncode == 0, err.decode()
    finally:
        server.stop()
    return json.loads(out)


async def test_node_operator_tool_reviews_applies_restores_and_reports(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    r = await run_node_with_workers("audit.js", tmp_path, redis_url, onnx_embedder)
    ids = [x["memory"]["id"] for x in r["planted"]["ok"]["results"]]
    assert r["states"][-1] == "JOB_STATE_SUCCEEDED"
    kinds = sorted(f["kind"] for f in r["got"]["ok"]["findings"])
    assert kinds == ["FINDING_KIND_CLUTTER", "FINDING_KIND_DUPLICATE"]
    assert sorted(r["dup"]["memory_ids"]) == sorted(ids[:2]) and r["dup"]["action"] == "FINDING_ACTION_MERGE"
    assert r["applied"]["ok"]["findings"][0]["status"] == "FINDING_STATUS_APPLIED"
    [loser] = [m for m in r["superseded"]["ok"]["memories"]]
    assert loser["status"] == "MEMORY_STATUS_SUPERSEDED" and loser["superseded_by"] == r["dup"]["survivor_id"]
    assert r["restored"]["ok"]["memory"]["status"] == "MEMORY_STATUS_ACTIVE"
    report = r["report"]["ok"]["report"]
    assert report["memories"] == "3" and report["by_status"] == {"active": "3"}  # int64 as strings in JSON
    assert [x["review_id"] for x in r["listed"]["ok"]["reviews"]] == [r["got"]["ok"]["review"]["review_id"]]
    assert r["bad"]["code"] == grpc.StatusCode.INVALID_ARGUMENT.value[0] and "agent_id" in r["bad"]["details"]


async def test_the_typescript_client_compacts_ends_and_watches_a_conversation(
    tmp_path: Path, redis_url: str, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    assert (ROOT / "clients" / "typescript" / "dist" / "index.js").exists(), "run `make install` (it builds it)"
    r = await run_node_with_workers("ts_conversation.js", tmp_path, redis_url, onnx_embedder)
    assert (r["compact"], r["compacted"]) == ("compact:c1:12:force", "compaction_finished")
    assert (r["end"], r["ended"]) == ("compact:c1:12:end", "compaction_finished")
    assert r["listed"] == [["c1", 12, 12]] and r["quiet"] == []
    assert r["missing"] == {"class": "NotFound", "isNotFound": True}
    assert r["endEvents"][-1] == "JOB_STATE_SUCCEEDED" and r["endEvents"][0] == "JOB_STATE_QUEUED"
    assert r["job"] == ["compact:c1:12:force", "compact", "agent", "JOB_STATE_SUCCEEDED"]
    assert sorted(r["jobs"]) == sorted(["compact:c1:12:force", "compact:c1:12:end"])  # pages of one, followed
    assert r["succeeded"].count("compact") == 2
    assert (r["retry"], r["unknown"], r["badState"]) == ("FailedPrecondition", "NotFound", "TypeError")
    assert r["windowed"] == [
        f"turn {i} about the garden and the raised beds we plan to build this spring" for i in range(8, 12)
    ]
    assert r["mistyped"].startswith("TypeError: ConversationOptions has no field 'options.windowMessage'; did you mean")


def test_node_runtime_asserts_and_searches_the_memory_graph(live_server: LiveServer) -> None:
    result = run_node("graph.js", f"127.0.0.1:{live_server.port}")
    assert result["omar"]["ok"]["action"] == "supersede"
    assert result["omar"]["ok"]["invalidated_fact_ids"] == [result["nadia"]["ok"]["fact"]["id"]]
    assert [f["object"] for f in result["then"]["ok"]["facts"]] == ["Nadia"]
    assert [f["object"] for f in result["now"]["ok"]["facts"]] == ["Omar"]
    assert result["now"]["ok"]["block"].endswith("- [since 2026-10-01] Omar handles billing at Acme from October.")
    history = result["history"]["ok"]
    assert history["fact"]["status"] == "FACT_STATUS_INVALIDATED"
    assert history["superseded_by"]["id"] == result["omar"]["ok"]["fact"]["id"]
    assert (
        result["bad"]["code"] == grpc.StatusCode.INVALID_ARGUMENT.value[0] and "predicate" in result["bad"]["details"]
    )


def test_the_typescript_client_calls_the_daemon_with_typed_errors_and_retries_only_unavailable(
    live_server: LiveServer,
) -> None:
    assert (ROOT / "clients" / "typescript" / "dist" / "index.js").exists(), "run `make install` (it builds it)"
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))  # bound, never listening: a refused connection
        result = run_node("ts_client.js", f"127.0.0.1:{live_server.port}", str(closed.getsockname()[1]))
    assert result["who"] == ["ts-tenant", "KEY_ROLE_ADMIN", True]  # protected mode: a loopback admin
    assert result["stored"]["content"] == "TypeScript runtimes share memories too" and result["stored"]["tags"] == [
        "ts"
    ]
    assert result["again"] == result["repeat"]  # a request id given once stores once
    assert result["hits"][0][0] == result["stored"]["id"] and 0 < result["hits"][0][1] <= 1
    assert len(result["listed"]) == 2  # two pages of one, followed by the async iterator
    assert result["seqs"] == [1] and result["context"][-1] == "hello from node"
    assert (result["updated"]["tags"], result["updated"]["collection"]) == (["infra"], "ops")
    superseded, text, collection = result["correction"]
    assert (superseded, text, collection) == ("MEMORY_STATUS_SUPERSEDED", "The staging host is db-4", "ops")
    assert len(result["forgotten"]) == 32
    assert result["restored"] == "MEMORY_STATUS_ACTIVE"
    assert result["history"][0] == "created" and {"updated", "superseded", "restored"} <= set(result["history"])
    assert result["pinnedOnly"] == [True]
    assert result["shared"] == ["SCOPE_SHARED", ["office"]]
    assert result["mistakes"] == [
        "TypeError: scope: 'team' is not one of private, shared, tenant, end_user",  # not sent as a private memory
        'TypeError: tags: a list is wanted, not "prefs"',
        "TypeError: MemoryInput has no field 'colour'; its fields: category, collection, content, decayFactor, "
        "embedding, memoryType, occurredAt, pinned, salience, scope, sourceContext, sourceId, subject, tags",
        "TypeError: MemoryInput has no field 'endUser'; did you mean 'endUserId' (an option of the call)? its "
        "fields: category, collection, content, decayFactor, embedding, memoryType, occurredAt, pinned, salience, "
        "scope, sourceContext, sourceId, subject, tags",
        'TypeError: items[1].tags: a list is wanted, not "x"',  # the whole batch refused, nothing sent
        "TypeError: signal: 'helpful' is not one of useful, not_useful, wrong, explicit_positive, explicit_negative, "
        "correction, used, unused",  # not sent as 0 and refused as a missing signal
    ]
    assert result["liked"] == 1  # a signal by its short name
    assert result["graph"] == ["add", ["Omar"], True]
    assert result["profile"] == [1, True, "Aborted", 2, False]
    assert result["batch"] == [["Deploys freeze on Fridays", "SCOPE_SHARED"], ["Ops rota is weekly", "SCOPE_PRIVATE"]]
    assert result["recorded"] == [2, 2] and result["usedOnce"] == 1  # a retry gets the answer, counted once
    assert result["neverStored"] == 0
    assert result["invalid"] == {
        "class": "InvalidArgument",
        "details": result["invalid"]["details"],
        "field": "query",
        "isInvalid": True,
        "isNotFound": False,
    }
    assert "query" in result["invalid"]["details"]
    assert result["missing"]["class"] == "NotFound" and result["missing"]["isNotFound"]
    assert result["missing"]["field"] is None  # a NOT_FOUND carries no field violation
    assert result["retriedOnRefusals"] == 0
    assert result["down"] == {"class": "Unavailable", "isUnavailable": True, "retries": 2}
    assert "tenant is required" in result["noTenant"]


def test_the_typescript_client_types_are_those_of_the_protos(tmp_path: Path) -> None:
    """The committed generated types match the protos (regenerated into a temporary directory)."""
    npx = shutil.which("npx")
    assert npx
    client = ROOT / "clients" / "typescript"
    package = json.loads((client / "package.json").read_text())
    command = package["scripts"]["gen"].replace("--outDir src/gen", f"--outDir {tmp_path}").split()
    subprocess.run([npx, "--no-install", *command], cwd=client, capture_output=True, text=True, timeout=120, check=True)
    fresh = {p.relative_to(tmp_path): p.read_text() for p in tmp_path.rglob("*.ts")}
    committed = {p.relative_to(client / "src" / "gen"): p.read_text() for p in (client / "src" / "gen").rglob("*.ts")}
    assert fresh == committed, "run `npm run gen` in clients/typescript"


def test_a_packed_typescript_client_carries_its_protos(tmp_path: Path, live_server: LiveServer) -> None:
    """`npm pack`, installed in another project: it found its protos only beside the repository's `proto/`."""
    npm = shutil.which("npm")
    assert npm, "run `make install` (it needs Node.js and npm)"
    client = ROOT / "clients" / "typescript"
    subprocess.run([npm, "pack", "--pack-destination", str(tmp_path)], cwd=client, check=True, capture_output=True)
    [tarball] = tmp_path.glob("memoryd-client-*.tgz")
    assert not (client / "proto").exists()  # the copy is the package's, not left in the repository
    project = tmp_path / "project"
    installed = project / "node_modules" / "@memoryd"
    installed.mkdir(parents=True)
    subprocess.run(["tar", "xzf", str(tarball), "-C", str(installed)], check=True)
    (installed / "package").rename(installed / "client")
    script = project / "main.js"
    script.write_text(
        'const { MemoryClient } = require("@memoryd/client");\n'
        "(async () => {\n"
        '  const memory = new MemoryClient(process.argv[2], { tenant: "packed" });\n'
        '  const stored = await memory.memorize("agent", "A packed client stores memories");\n'
        '  const hits = await memory.recall("agent", "What does a packed client do?");\n'
        "  console.log(JSON.stringify([stored.memory.id, hits.map((h) => h.memory.id)]));\n"
        "  memory.close();\n"
        "})();\n"
    )
    # Its dependencies (grpc-js, proto-loader, protobufjs) from the repository's install: nothing downloads.
    env = {"PATH": str(Path(node()).parent), "NODE_PATH": str(ROOT / "node_modules")}
    out = subprocess.run(
        [node(), str(script), f"127.0.0.1:{live_server.port}"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    stored, hits = json.loads(out.stdout)
    assert hits[0] == stored
