from __future__ import annotations

from pathlib import Path

import pytest

from memoryd.config import load_settings
from memoryd.config.errors import ConfigError


def test_precedence_overrides_then_product_env_then_prefixed_env_then_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "memoryd.toml"
    config.write_text(
        '[server]\nport = 6000\nhost = "0.0.0.0"\n[recall]\nrrf_k = 10\nfts_weight = 0.7\n'
        "[memorize]\ndedup_distance = 0.2\n"
    )
    monkeypatch.setenv("MEMORY_RRF_K", "33")
    monkeypatch.setenv("MEMORYD_RECALL__FTS_WEIGHT", "0.5")
    monkeypatch.setenv("MEMORYD_RECALL__RRF_K", "44")
    settings = load_settings(config, server={"port": 7000})
    assert settings.server.port == 7000 and settings.server.host == "0.0.0.0"
    assert settings.recall.rrf_k == 33  # the product name beats the prefixed one
    assert settings.recall.fts_weight == 0.5
    assert settings.memorize.dedup_distance == 0.2


def test_defaults_match_the_documented_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMORYD_CONFIG", raising=False)
    s = load_settings()
    assert (s.recall.rrf_k, s.recall.fts_weight, s.recall.vector_weight, s.recall.similarity_threshold) == (
        5,
        1.25,
        1.0,
        None,  # the embedder's calibrated floor
    )
    assert (s.memorize.dedup_distance, s.memorize.max_content_bytes) == (None, 16384)
    assert (s.server.host, s.server.port) == ("127.0.0.1", 50051)
    # a table too large for the in-memory copy is never searched by reading every vector: its index
    # is built while the copy still answers its Recalls
    assert s.storage.ann_min_rows < s.storage.copy_max_rows


def test_unknown_keys_and_bad_values_are_one_line_naming_the_file_and_key(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[server]\nprot = 1\n")
    with pytest.raises(ConfigError) as err:
        load_settings(bad)
    assert str(err.value) == f"config file {str(bad)!r}: server.prot: unknown key (did you mean 'server.port'?)"
    with pytest.raises(ConfigError, match=r"recall.fts_weight: Input should be greater than or equal to 0"):
        load_settings(None, recall={"fts_weight": -1})
    with pytest.raises(ConfigError, match=r"storage.ann_min_rows: Input should be a valid integer"):
        load_settings(None, storage={"ann_min_rows": "lots"})
    with pytest.raises(ConfigError, match=r"missing.toml': does not exist"):
        load_settings(tmp_path / "missing.toml")
    with pytest.raises(ConfigError, match=r"redis.dsn: .*must be a redis://, rediss:// or unix:// URL") as refused:
        load_settings(None, redis={"dsn": "ops:hunter2@queue.internal:6379"})
    assert "hunter2" not in str(refused.value)
    for uri in ("ftp://host/memoryd", "gs://bucket/x", "s3://", "file:///srv/memoryd"):
        with pytest.raises(ConfigError, match=r"storage.uri: .*give a directory's path or s3://bucket/prefix"):
            load_settings(None, storage={"uri": uri})
    with pytest.raises(ConfigError, match=r"storage.s3_endpoint: .*'minio:9000' is not an http:// or https://"):
        load_settings(None, storage={"uri": "s3://b/x", "s3_endpoint": "minio:9000"})  # was a Rust panic
    broken = tmp_path / "broken.toml"
    broken.write_text("[storage\nuri =\n")
    with pytest.raises(ConfigError, match=r"broken.toml': not valid TOML: Expected"):
        load_settings(broken)


def test_the_command_line_prints_a_config_mistake_as_one_line_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from memoryd.commands.main import main

    bad = tmp_path / "bad.toml"
    bad.write_text("[storage]\nurii = 'x'\n")
    for argv in (["report", "--config", str(bad)], ["import", str(tmp_path / "none.jsonl"), "--tenant", "t"]):
        with pytest.raises(SystemExit) as done:
            main(argv)
        assert done.value.code == 2
        err = capsys.readouterr().err
        last = err.strip().splitlines()[-1]  # a bad argument's line follows argparse's usage lines
        assert "Traceback" not in err and ("does not exist" in last or "urii" in last), err
        assert last.startswith("memoryd: ") or last.startswith("memoryd import: error: ")


def test_no_test_can_reach_beyond_loopback() -> None:
    import socket

    with pytest.raises(ConnectionRefusedError, match="loopback"):
        socket.getaddrinfo("api.openai.com", 443)
    with socket.socket() as s, pytest.raises(ConnectionRefusedError, match="loopback"):
        s.connect(("203.0.113.7", 443))


def test_the_shell_environment_never_reaches_a_test() -> None:
    import os

    from tests.conftest import SUITE_EMBEDDER

    found = [n for n in os.environ if n.startswith(("MEMORY", "COMPACTING_")) or n == "REDIS_URL"]
    assert found == [SUITE_EMBEDDER] and os.environ[SUITE_EMBEDDER] == "onnx"  # the suite's own, nothing else


def test_read_consistency_defaults_to_the_kind_of_store_and_a_set_value_wins() -> None:
    assert load_settings(None, storage={"uri": "var/data"}).storage.read_consistency() == 0.0
    assert load_settings(None, storage={"uri": "s3://bucket/prefix"}).storage.read_consistency() == 1.0
    chosen = {"uri": "s3://bucket/prefix", "read_consistency_seconds": 0}
    assert load_settings(None, storage=chosen).storage.read_consistency() == 0.0
    with pytest.raises(ConfigError, match="read_consistency_seconds"):
        load_settings(None, storage={"read_consistency_seconds": -1})


def test_the_copies_old_setting_names_still_work_for_one_release_with_a_warning(tmp_path: Path) -> None:
    old = tmp_path / "old.toml"
    old.write_text("[storage]\nhot_max_rows = 5000\nhot_tables = 8\n")
    with pytest.warns(FutureWarning, match=r"storage\.hot_\w+ is now storage\.copy_\w+") as seen:
        settings = load_settings(old)
    assert any("storage.hot_max_rows is now storage.copy_max_rows" in str(w.message) for w in seen)
    assert (settings.storage.copy_max_rows, settings.storage.copy_tables) == (5000, 8)
    both = tmp_path / "both.toml"
    both.write_text("[storage]\nhot_total_rows = 1\ncopy_total_rows = 2\n")
    with pytest.warns(FutureWarning):
        assert load_settings(both).storage.copy_total_rows == 2  # the new name wins


def test_a_tenants_retention_days_override_only_what_it_sets(tmp_path: Path) -> None:
    # A tenant keeping memories a year must still drop servings after the section's week: a day the
    # tenant leaves out is the section's, not the built-in default (30 days of servings).
    config = tmp_path / "memoryd.toml"
    config.write_text(
        "[retention]\nservings_days = 7\nconversations_days = 14\n"
        "[retention.tenants.acme]\nmemories_days = 365\nservings_days = 0\n"
    )
    retention = load_settings(config).retention
    acme, other = retention.policy_for("acme"), retention.policy_for("globex")
    assert (acme.memories_days, acme.servings_days, acme.conversations_days) == (365, 0, 14)
    assert (other.memories_days, other.servings_days, other.conversations_days) == (0, 7, 14)
    assert acme.graph_decay_days == other.graph_decay_days == 180
    with pytest.raises(ConfigError, match=r"retention.tenants.acme.tenants: unknown key"):
        load_settings(None, retention={"tenants": {"acme": {"tenants": {}}}})


def test_a_memoryd_variable_that_names_no_section_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # A typo in a section's name was read by nobody: the setting silently kept its default.
    monkeypatch.delenv("MEMORYD_CONFIG", raising=False)
    monkeypatch.setenv("MEMORYD_RECAL__DEFAULT_LIMIT", "5")
    with pytest.raises(ConfigError, match=r"^environment: MEMORYD_RECAL__DEFAULT_LIMIT: names no section .*RECALL__"):
        load_settings()
    monkeypatch.delenv("MEMORYD_RECAL__DEFAULT_LIMIT")
    for other in ("MEMORYD_API_KEY", "MEMORYD_TENANT"):  # read by the clients, not settings
        monkeypatch.setenv(other, "x")
    monkeypatch.setenv("MEMORYD_RECALL__DEFAULT_LIMIT", "5")
    assert load_settings().recall.default_limit == 5


def test_an_endpoint_that_is_not_an_http_url_is_refused_at_load() -> None:
    # It loaded, and every model call (or embedding) failed later, job by job.
    with pytest.raises(ConfigError, match=r"provider.base_url: .*'api.openai.com/v1' is not an http:// or https://"):
        load_settings(None, provider={"base_url": "api.openai.com/v1", "extraction_model": "m"})
    with pytest.raises(ConfigError, match=r"embedding.base_url: .*is not an http"):
        load_settings(None, embedding={"provider": "openai", "base_url": "localhost:8000/v1"})
    assert load_settings(None, provider={"base_url": "http://127.0.0.1:8000/v1"}).provider.base_url
