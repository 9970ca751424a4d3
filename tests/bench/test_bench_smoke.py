"""The benchmarks run at tiny sizes inside the suite, so they cannot rot."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from memoryd.core.conversation import WorkingPolicy
from memoryd.core.working import summary_cap

# Slow end to end: an explicit limit of its own instead of the suite's 60 s default.
pytestmark = pytest.mark.timeout(240)

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "locomo_tiny.json"


def bench(tmp_path: Path, name: str, *args: str) -> tuple[str, dict[str, Any]]:
    """Run ``memoryd bench NAME ARGS --json``; its stdout and JSON record (the run must succeed)."""
    out = tmp_path / f"{name}.json"
    result = subprocess.run(
        [sys.executable, "-m", "memoryd", "bench", name, *args, "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "LANCEDB_LOG": "error"},
        check=False,
    )
    assert result.returncode == 0, result.stderr + result.stdout
    return result.stdout, json.loads(out.read_text())


def test_bench_recall_smoke(tmp_path: Path) -> None:
    # The tiny tables get the ANN index too (--ann-min-rows), so the smoke covers that path.
    stdout, record = bench(
        tmp_path,
        "recall",
        "--memories",
        "300",
        "--agents",
        "1,3",
        "--queries",
        "12",
        "--single-writes",
        "4",
        "--concurrency",
        "1,2",
        "--baseline",
        "sqlite",
        "--ann-min-rows",
        "100",
        "--copy-max-rows",
        "0",  # the tables are tiny: turn the in-memory path off so Recall goes through the ANN index
        "--keep-latencies",
        "--modes",
        "precomputed_query_vector,server_embeds_query",
    )
    assert "vs sqlite p50/p99" in stdout and "baseline (in process)" in stdout
    assert "baseline, the model embeds the query" in stdout
    assert [s["agents"] for s in record["shapes"]] == [1, 3]
    for shape in record["shapes"]:
        modes = {(r["mode"], r["concurrency"]) for r in shape["recall"]}
        assert modes == {(m, c) for m in ("server_embeds_query", "precomputed_query_vector") for c in (1, 2)}
        assert all(r["n"] == 12 and 0 < r["p50"] <= r["p99"] for r in shape["recall"])
        # the kept latencies are rounded to the microsecond, the percentiles are not
        assert all(len(r["latencies_ms"]) == 12 and max(r["latencies_ms"]) >= r["p99"] - 5e-4 for r in shape["recall"])
        assert shape["vector_index"] == "IVF_HNSW_SQ" and 0.5 <= shape["ann_recall_at_10"] <= 1.0
        assert shape["sqlite"]["n"] == 12 and shape["sqlite"]["p50"] > 0
        # the server-embedded Recall's baseline: the same model embeds each query, then SQLite searches
        embedded = shape["sqlite"]["with_query_embedding"]
        assert embedded["n"] == 12 and embedded["p50"] > shape["sqlite"]["p50"]
        reads = shape["reads"]
        assert reads["list_page_of_20"]["n"] == reads["get_memory"]["n"] == 12 and reads["get_memory"]["p50"] > 0
        assert reads["get_profile"]["n"] == 12 and reads["get_profile"]["p50"] > 0
    assert "ListMemories (a page of 20)" in stdout and "GetMemory p50" in stdout and "GetProfile p50" in stdout
    assert record["memorize"]["single"]["per_second"] > 0 and record["daemon_peak_rss_mb"] > 0
    assert record["grpc_round_trip_ms"]["n"] == 12 and "gRPC round trip alone" in stdout
    memorize = record["memorize"]
    assert memorize["concurrent_8"]["per_second"] > 0 and memorize["embedder_alone"]["texts_per_second_8"] > 0
    assert "of the embedder alone" in stdout and "commits per memory" in stdout
    assert 0 < memorize["footprint"]["commits_per_memory"] <= 1 and memorize["footprint"]["bytes_per_memory"] > 0
    assert memorize["footprint"]["commits_per_second"] > 0 and "commits/s" in stdout
    assert record["environment"]["cores"] and record["environment"]["versions"]["lancedb"]


def test_bench_locomo_smoke_on_both_write_protocols(tmp_path: Path) -> None:
    # Three variants of the default configuration (one daemon) and one of another (a daemon of its own).
    arms = ("--only", "default", "--only", "full_text arm", "--only", "vector arm", "--only", "baseline: bm25 OR")
    stdout, record = bench(tmp_path, "locomo", "--data", str(FIXTURE), *arms, "--protocol", "both")
    by_protocol = record["protocols"]
    assert set(by_protocol) == {"batch", "single"} and "protocol single" in stdout
    for protocol, result in by_protocol.items():
        assert result["config"]["protocol"] == protocol
        assert result["config"]["questions"] == 6 and result["config"]["turns"] == 10
        variants = result["variants"]
        assert list(variants) == ["default", "full_text arm", "vector arm", "baseline: bm25 OR"]  # as listed
        assert variants["full_text arm"]["arms"] == "full_text" and variants["full_text arm"]["overall"]["n"] == 6
        # The tiny conversations share almost no words between questions of different turns: the
        # full-text arm and the fused default find the evidence of most questions.
        assert variants["default"]["overall"]["hit@10"] >= 0.8
        assert variants["baseline: bm25 OR"]["env"]["MEMORYD_RECALL__FULL_TEXT_MODE"] == "or"
    assert "R@10" in stdout and "single-hop" in stdout


def test_bench_multilingual_smoke_measures_each_language_with_each_embedder(tmp_path: Path) -> None:
    stdout, record = bench(tmp_path, "multilingual", "--languages", "zh", "--embedders", "onnx,e5")
    zh = record["sets"]["zh"]
    assert set(zh) == {"onnx", "e5"} and zh["e5"]["config"]["questions"] >= 50
    for provider in ("onnx", "e5"):
        assert list(zh[provider]["variants"]) == ["default", "full_text arm", "vector arm"]
    # Chinese runs indexed as character pairs: the full-text arm finds evidence (a run as one token found none)
    assert zh["onnx"]["variants"]["full_text arm"]["overall"]["R@10"] > 0.3
    assert "embedder" in stdout and "zh" in stdout
    unknown = subprocess.run(
        [sys.executable, "-m", "memoryd", "bench", "multilingual", "--languages", "fr"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert unknown.returncode != 0 and unknown.stderr.strip().endswith("no shipped set for 'fr' (shipped: es, de, zh)")


def test_bench_autorecall_smoke_compares_both_rules_on_the_same_replies(tmp_path: Path) -> None:
    stdout, record = bench(tmp_path, "autorecall", "--data", str(FIXTURE), "--thresholds", "0,0.7,1.01")
    assert record["config"]["questions"] == record["config"]["foreign_questions"] == 6
    assert record["config"]["ordinary_turns"] == 2
    for rule in ("raw cosine", "calibrated score"):
        everything, default, nothing = (record["rules"][rule][t] for t in ("0", "0.7", "1.01"))
        assert everything["questions_injected"] == 1.0 and nothing["questions_injected"] == 0.0
        assert everything["questions_with_evidence"] >= default["questions_with_evidence"]
        assert nothing["ordinary_injected"] == nothing["foreign_injected"] == 0.0
        assert 0 < everything["memories_per_injection"] <= 5
    # every tiny question shares its evidence's words: the calibrated score injects where raw cosine may not
    calibrated, raw = record["rules"]["calibrated score"]["0.7"], record["rules"]["raw cosine"]["0.7"]
    assert calibrated["questions_with_evidence"] >= raw["questions_with_evidence"]
    assert "ordinary turns injected" in stdout


def test_bench_calibrate_smoke(tmp_path: Path) -> None:
    stdout, record = bench(tmp_path, "calibrate", "--data", str(FIXTURE))
    assert record["model"] == "all-MiniLM-L6-v2-int8" and record["gold_pairs"] >= 6
    gold, noise = record["percentiles"]["gold"], record["percentiles"]["random"]
    assert gold["50"] > noise["50"]  # answers sit closer to their questions than random turns do
    assert record["shipped"]["similarity_floor"] == 0.17 and "gold kept" in stdout


def test_bench_faults_smoke(tmp_path: Path) -> None:
    stdout, record = bench(tmp_path, "faults", "--kills", "2", "--writers", "4", "--between", "1.0")
    assert record["config"]["kills"] == 2 and record["acknowledged"] > 0
    assert record["lost"] == 0 and record["duplicates"] == 0  # kill -9 twice: every acknowledged write stored once
    assert record["appends_acknowledged"] > 0 and record["appends_lost"] == record["appends_duplicated"] == 0
    assert record["stored"] >= record["acknowledged"] and "acknowledged writes lost" in stdout
    assert record["behind"] == record["appends_behind"] == 0


def test_faults_reconciles_every_replica_after_the_consistency_interval() -> None:
    from memoryd.commands.bench.faults_bench import reconcile

    acked = {"a", "b", "c", "d"}
    # "c" missed one replica's first listing (written through the other in the last second): late, not lost
    first = [{"a", "b", "d"}, {"a", "b", "c", "d"}]
    assert reconcile(acked, first, [acked, acked]) == {"lost": 0, "behind": 0, "late": 1}
    # "d" is in no final listing: lost; "b" only on one replica after the interval: a replica behind
    assert reconcile(acked, first, [{"a", "b", "c"}, {"a", "c"}]) == {"lost": 1, "behind": 1, "late": 1}


def test_bench_outage_smoke(tmp_path: Path) -> None:
    stdout, record = bench(
        tmp_path,
        "outage",
        *("--agents", "4", "--conversations", "1", "--outage", "4", "--backoff-cap", "2", "--breaker-cooldown", "2"),
    )
    assert record["jobs"] == {"succeeded": 6}  # the batch, four agents, one compaction: each once
    assert record["provider_requests"] > 5  # the failures during the outage, then the answers
    assert record["profiles_written"] == 4 and record["profiles_replaced_by_failures"] == 0
    assert record["duplicates"] == 0 and record["breaker_closed_at_end"] and "duplicate memories" in stdout


def test_bench_valkey_smoke(tmp_path: Path) -> None:
    stdout, record = bench(tmp_path, "valkey", "--agents", "8", "--latency", "1.0", "--kill-after", "0.25")
    assert record["valkey_restarts"] == 1 and record["succeeded_before_kill"] < 8  # killed mid-batch
    assert record["jobs"] == {"succeeded": 8} and record["duplicate_revisions"] == 0  # every job once
    assert record["agents_with_a_profile"] == 8 and "duplicate revisions" in stdout


def test_bench_reembed_smoke(tmp_path: Path) -> None:
    stdout, record = bench(tmp_path, "reembed", "--memories", "300", "--batch", "32")
    assert record["switched"] and record["rows_lost"] == record["rows_missing"] == 0
    assert record["recall_errors"] == record["recall_misses"] == 0 and record["recall_after_ms"]["n"] == 50
    assert record["rows_per_second"] > 0 and "during the fill" in stdout


def test_bench_jobs_smoke(tmp_path: Path) -> None:
    stdout, record = bench(
        tmp_path, "jobs", "--agents", "20", "--tenants", "3", "--probes", "10", "--latency", "0.05", "--slots", "4"
    )
    assert "ratio of ideal" in stdout
    assert record["enqueue_to_start_ms"]["n"] == 10 and 0 < record["enqueue_to_start_ms"]["p50"] < 1000
    boot = record["bootstrap"]
    assert boot["succeeded"] == boot["model_calls"] == 20 and boot["batch_state"] == "succeeded"
    assert boot["ideal_agents_per_second"] == 80 and 0 < boot["ratio_of_ideal"] <= 1
    assert (
        boot["job_start_to_finish_ms"]["n"] == 20 and boot["job_start_to_finish_ms"]["p50"] >= 50
    )  # the model's 50 ms
    assert boot["attempts_per_job"] == 1
    assert boot["cpu_ms_per_agent"]["this_process"] > 0 and boot["cpu_ms_per_agent"]["valkey"] > 0
    assert boot["batch_start_to_first_job_ms"] > 0 and boot["last_job_to_batch_done_ms"] >= 0


def test_bench_jobs_in_worker_processes_smoke(tmp_path: Path) -> None:
    # the workers as an operator runs them: `memoryd worker` processes sharing the slots (and the scripted
    # provider in the bench's own threads, as it ran before it had a process of its own)
    stdout, record = bench(
        tmp_path, "jobs", "--agents", "12", "--tenants", "2", "--probes", "4", "--latency", "0.05", "--slots", "4",
        "--processes", "2", "--provider-here",
    )  # fmt: skip
    boot = record["bootstrap"]
    assert boot["succeeded"] == boot["model_calls"] == 12 and boot["batch_state"] == "succeeded"
    assert record["config"]["processes"] == 2 and "ratio of ideal" in stdout
    assert boot["cpu_ms_per_agent"]["this_process"] is None  # the workers' CPU is in their own processes


def test_bench_dedup_smoke(tmp_path: Path) -> None:
    stdout, record = bench(tmp_path, "dedup")
    assert "near misses merged" in stdout
    assert record["rule"]["near_misses_merged"] == 0.0 and record["rule"]["restatements_merged"] > 0.2
    assert record["distance_admitting_every_rule_restatement"] <= record["dedup_distance"]


def test_bench_names_smoke(tmp_path: Path) -> None:
    stdout, record = bench(tmp_path, "names")
    assert "resolved into one entity without a person" in stdout
    assert record["resolved_without_a_person"]["alike"] == 0  # a letter, word or title apart: never folded alone
    shipped = record["suggested"][str(record["entity_duplicate"])]
    assert shipped["unrelated"] <= 0.01 and shipped["variants"] >= 0.5  # the calibrated similarity of this embedder


def test_bench_mixed_smoke(tmp_path: Path) -> None:
    stdout, record = bench(
        tmp_path,
        "mixed",
        "--memories",
        "100",
        "--clients",
        "4",
        "--seconds",
        "3",
        "--idle",
        "1",
        "--other-forgets",
        "4",
        "--tenants",
        "3",
        "--copy-tables",
        "2",
        "--keep-latencies",
    )
    assert len(record["recall"]["latencies_ms"]) == record["recall"]["n"] and "latencies_ms" not in record["windows"][0]
    assert record["errors"] == 0 and record["recall"]["n"] > 0 and record["memorize"]["n"] > 0
    assert "in each of 3 tenants, the daemon keeping 2 in memory" in stdout
    assert record["other_forgotten"] > 0 and "memories another daemon forgot" in stdout
    assert len(record["rss_mb"]) >= 3 and record["rss_summary"]["max"] >= record["rss_summary"]["start"] > 0
    assert "daemon RSS MiB" in stdout
    windows = record["windows"]  # the load in slices of time: every call is in one of them
    assert len(windows) == 4 and sum(w["recall"]["n"] + w["memorize"]["n"] for w in windows) == (
        record["recall"]["n"] + record["memorize"]["n"]
    )
    assert record["archive_versions"] > 1 and "archive table versions on disk" in stdout


def test_bench_writes_smoke_with_a_remote_embedder(tmp_path: Path) -> None:
    stdout, record = bench(
        tmp_path,
        "writes",
        "--clients",
        "1,4",
        "--seconds",
        "2",
        "--embedder-latency-ms",
        "20",
        "--restate-share",
        "0.5",
    )
    assert [level["clients"] for level in record["levels"]] == [1, 4]
    # every call waited for the endpoint's 20 ms; the daemon's CPU was measured
    assert all(level["calls"] > 0 and level["p50"] >= 20 for level in record["levels"])
    assert all(level["daemon_cpu_ms_per_call"] > 0 for level in record["levels"])
    assert "remote embedder answering after 20 ms, 50% restatements" in stdout


def test_bench_writes_smoke_with_the_local_model_beside_the_embedder_alone(tmp_path: Path) -> None:
    stdout, record = bench(tmp_path, "writes", "--clients", "1,2", "--seconds", "1")
    levels = record["levels"]
    assert [level["clients"] for level in levels] == [1, 2] and all(level["calls"] > 0 for level in levels)
    assert all(level["embedder_alone_texts_per_second"] > 0 for level in levels)
    assert "(all-MiniLM-L6-v2-int8, 0% restatements)" in stdout and "embedder alone, batches of clients" in stdout
    assert "texts/s (" in stdout  # each level's share of the embedder alone


def test_bench_audit_smoke(tmp_path: Path) -> None:
    stdout, record = bench(tmp_path, "audit", "--sizes", "500", "--report-rows", "5000", "--report-runs", "2")
    assert "kind (rules only)" in stdout and "usage report: memories" in stdout
    quality = record["quality"]["per_kind"]
    assert set(quality) == {"duplicate", "contradiction", "stale", "clutter"}
    for kind, figures in quality.items():  # the shipped planted archive: a regression guard on the rules
        assert figures["planted"] > 0 and figures["precision"] >= 0.8 and figures["recall"] >= 0.9, (kind, figures)
    generation = record["candidate_generation"][0]
    assert generation["memories"] == 500 and generation["seconds"] > 0 and generation["findings"] > 0
    model = record["model"]
    assert model["model_calls"] >= 1 and model["tokens_in"] > 0 and model["judged"] >= 1
    assert model["per_1000_memories"]["model_calls"] == pytest.approx(
        model["model_calls"] * 1000 / model["memories_reviewed"]
    )
    report = record["usage_report"]
    assert report["memories"] == 5000 and report["ms"]["n"] == 2 and 0 < report["gini"] < 1


def test_bench_pii_smoke(tmp_path: Path) -> None:
    stdout, record = bench(tmp_path, "pii")
    assert "detection" in stdout and record["sentences"] == 180 and record["latency_ms"]["n"] == 180
    assert set(record["by_type"]) == {"secret", "email", "iban", "card", "phone", "id"}


def test_bench_adversarial_smoke(tmp_path: Path) -> None:
    stdout, record = bench(tmp_path, "adversarial", "--calls", "150")
    assert "rows leaked" in stdout and sum(record["attempts"].values()) == 150
    assert record["wrong_status"] == [] and record["leaked_rows"] == [] and record["tables_changed"] == []


def test_bench_graph_smoke_counts_the_extraction_prompt_with_its_known_facts(tmp_path: Path) -> None:
    stdout, record = bench(tmp_path, "graph", "--locomo", str(FIXTURE), "--facts", "300", "--queries", "20")
    cost = record["extraction"]
    assert cost["messages"] == 10 and cost["compactions"] == 0  # ten turns plan no compaction
    # the bound counts the known facts shown beside a summary at its cap, as the extraction job sends them
    assert cost["prompt_tokens_per_call_at_most"] > summary_cap(WorkingPolicy(), 8192) + 15 * 10
    (search,) = record["search"]
    assert search["facts"] == 300 and search["n"] == 20 and search["p99"] >= search["p50"] > 0
    assert "calls per 1,000 messages" in stdout


def test_bench_console_smoke_times_every_page_and_counts_its_calls(tmp_path: Path) -> None:
    args = ("--memories", "600", "--agents", "3", "--findings", "9", "--facts", "20", "--jobs", "6", "--requests", "2")
    stdout, record = bench(tmp_path, "console", *args)
    pages = record["pages"]
    assert len(pages) == 16 and "goal" in stdout
    assert all(p["p50"] > 0 and p["n"] == 2 for p in pages.values())
    assert pages["overview"]["calls"] == 6 and pages["memories, first page"]["calls"] == 1
    assert pages["review (findings)"]["path"].startswith("/reviews/review:bench:agent-00:")
    assert pages["job"]["path"].startswith("/jobs/regenerate:bench:agent-")  # a failed one, found on the page
    # each seeded agent's planted twins found by its review; its regeneration failed, the idle ones' succeeded
    jobs = record["seeded"]["jobs"]
    assert record["seeded"]["findings"] >= 9 and jobs["failed"] >= 3  # (the start's bootstraps fail alike)
    assert jobs["succeeded"] >= 3 + 3  # the idle agents' regenerations and the reviews
    assert all("'profile'" in error for error in jobs["failed_examples"].values())


def test_bench_recall_refuses_an_unknown_mode_in_one_line() -> None:
    command = [sys.executable, "-m", "memoryd", "bench", "recall", "--modes", "precomputed_query_vector,fast"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "memoryd bench recall: error: argument --modes: unknown mode fast "
        "(modes: server_embeds_query, precomputed_query_vector)"
    )
