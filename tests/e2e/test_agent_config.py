"""Per-tenant and per-agent settings over gRPC: the effective view across the hierarchy, tighten-only keys, CAS."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.config import Settings
from memoryd.rpc.client import ConfigServiceStub, MemoryServiceStub, gpb, pb
from memoryd.rpc.config_values import config_value
from tests.conftest import LiveServer, make_settings, tenant

pytestmark = pytest.mark.timeout(120)
T, OTHER = tenant("acme"), tenant("globex")


@pytest.fixture
def configured(tmp_path: Path) -> Settings:
    # The daemon file's per-agent override: one level of the four.
    return make_settings(
        tmp_path / "data", working={"agents": {"bot": {"strategy": "buffer_window", "window_messages": 6}}}
    )


@pytest.fixture
def server(configured: Settings, onnx_embedder: OnnxMiniLMEmbedder) -> Iterator[LiveServer]:
    with LiveServer(configured, onnx_embedder) as live:
        yield live


@pytest.fixture
def stubs(server: LiveServer) -> Iterator[tuple[Any, Any]]:
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        yield ConfigServiceStub(ch), MemoryServiceStub(ch)


_v = config_value


def _view(configs: Any, agent: str, metadata: Any = T) -> tuple[dict[str, tuple[Any, int, bool]], Any]:
    reply = configs.GetEffectiveConfig(gpb.GetEffectiveConfigRequest(agent_id=agent), metadata=metadata)
    out = {}
    for s in reply.settings:
        out[s.key] = (getattr(s.value, s.value.WhichOneof("kind")), s.level, s.capped)
    return out, reply


def _code(call: Callable[[], object]) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as err:
        call()
    return err.value.code(), str(err.value.details())


def test_the_effective_view_resolves_default_tenant_daemon_file_and_agent(stubs: tuple[Any, Any]) -> None:
    configs, _ = stubs
    view, reply = _view(configs, "bot")
    assert reply.tenant_version == 0 and reply.agent_version == 0
    assert view["working.strategy"] == ("buffer_window", gpb.CONFIG_LEVEL_DAEMON_AGENT, False)
    assert view["working.window_messages"] == (6, gpb.CONFIG_LEVEL_DAEMON_AGENT, False)
    assert view["recall.limit"] == (10, gpb.CONFIG_LEVEL_DEFAULT, False)
    assert view["working.strategy"] != _view(configs, "other")[0]["working.strategy"]

    tenant_set = gpb.SetTenantConfigRequest(
        values={"recall.limit": _v(4), "working.strategy": _v("summary_buffer"), "working.buffer_threshold": _v(1)}
    )
    stored = configs.SetTenantConfig(tenant_set, metadata=T).config
    assert stored.version == 1 and stored.values["working.buffer_threshold"].double_value == 1.0  # int → decimal key
    agent_set = gpb.SetAgentConfigRequest(agent_id="bot", values={"recall.limit": _v(7)})
    assert configs.SetAgentConfig(agent_set, metadata=T).config.version == 1

    view, reply = _view(configs, "bot")
    assert (reply.tenant_version, reply.agent_version) == (1, 1)
    assert view["recall.limit"] == (7, gpb.CONFIG_LEVEL_AGENT, False)
    # The daemon file's agent override is more specific than the tenant's value.
    assert view["working.strategy"] == ("buffer_window", gpb.CONFIG_LEVEL_DAEMON_AGENT, False)
    assert view["working.buffer_threshold"] == (1.0, gpb.CONFIG_LEVEL_TENANT, False)
    other, _ = _view(configs, "other")
    assert other["recall.limit"] == (4, gpb.CONFIG_LEVEL_TENANT, False)
    assert other["working.strategy"] == ("summary_buffer", gpb.CONFIG_LEVEL_TENANT, False)
    tenant_level, _ = _view(configs, "")
    assert tenant_level["working.strategy"] == ("summary_buffer", gpb.CONFIG_LEVEL_TENANT, False)
    # Another tenant sees none of it.
    globex, reply = _view(configs, "bot", OTHER)
    assert reply.tenant_version == 0 and globex["recall.limit"] == (10, gpb.CONFIG_LEVEL_DEFAULT, False)
    # Unsetting returns a key to the level above.
    unset = gpb.SetAgentConfigRequest(agent_id="bot", unset=["recall.limit"], expected_version=1)
    configs.SetAgentConfig(unset, metadata=T)
    assert _view(configs, "bot")[0]["recall.limit"] == (4, gpb.CONFIG_LEVEL_TENANT, False)


def test_a_tighten_only_key_cannot_be_loosened_below_the_tenant(stubs: tuple[Any, Any]) -> None:
    configs, _ = stubs
    # The agent turned auto-recall on first; then the tenant turned it off.
    loose = gpb.SetAgentConfigRequest(
        agent_id="a1", values={"working.auto_recall": _v(True), "review.enabled": _v(True)}
    )
    configs.SetAgentConfig(loose, metadata=T)
    assert _view(configs, "a1")[0]["working.auto_recall"] == (True, gpb.CONFIG_LEVEL_AGENT, False)
    off = {"working.auto_recall": _v(False), "review.enabled": _v(False), "working.recall_limit": _v(2)}
    configs.SetTenantConfig(gpb.SetTenantConfigRequest(values=off), metadata=T)
    view, reply = _view(configs, "a1")
    assert view["working.auto_recall"] == (False, gpb.CONFIG_LEVEL_TENANT, True)  # capped: the tenant's stands
    assert view["review.enabled"] == (False, gpb.CONFIG_LEVEL_TENANT, True)
    # Setting a looser value now is refused by name, and nothing is stored.
    again = gpb.SetAgentConfigRequest(
        agent_id="a1", values={"working.auto_recall": _v(True)}, expected_version=reply.agent_version
    )
    code, message = _code(lambda: configs.SetAgentConfig(again, metadata=T))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "working.auto_recall" in message
    more = gpb.SetAgentConfigRequest(
        agent_id="a1", values={"working.recall_limit": _v(5)}, expected_version=reply.agent_version
    )
    code, message = _code(lambda: configs.SetAgentConfig(more, metadata=T))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "working.recall_limit" in message
    assert _view(configs, "a1")[1].agent_version == reply.agent_version
    # Tightening further is an agent's right.
    fewer = gpb.SetAgentConfigRequest(
        agent_id="a1", values={"working.recall_limit": _v(1)}, expected_version=reply.agent_version
    )
    configs.SetAgentConfig(fewer, metadata=T)
    assert _view(configs, "a1")[0]["working.recall_limit"] == (1, gpb.CONFIG_LEVEL_AGENT, False)


def test_bad_settings_are_refused_by_name_and_change_nothing(stubs: tuple[Any, Any]) -> None:
    configs, _ = stubs
    configs.SetTenantConfig(gpb.SetTenantConfigRequest(values={"recall.limit": _v(3)}), metadata=T)
    cases = [
        (gpb.SetTenantConfigRequest(values={"recall.limit": _v(4)}), grpc.StatusCode.ABORTED, "expected_version"),
        (
            gpb.SetTenantConfigRequest(values={"recall.lmit": _v(4)}, expected_version=1),
            grpc.StatusCode.INVALID_ARGUMENT,
            "recall.lmit",
        ),
        (
            gpb.SetTenantConfigRequest(values={"recall.limit": _v(500)}, expected_version=1),
            grpc.StatusCode.INVALID_ARGUMENT,
            "recall.limit",
        ),
        (
            gpb.SetTenantConfigRequest(values={"working.auto_recall": _v("yes")}, expected_version=1),
            grpc.StatusCode.INVALID_ARGUMENT,
            "working.auto_recall",
        ),
        (
            gpb.SetTenantConfigRequest(values={"working.strategy": _v("forever")}, expected_version=1),
            grpc.StatusCode.INVALID_ARGUMENT,
            "working.strategy",
        ),
        (
            gpb.SetTenantConfigRequest(values={"recall.limit": gpb.ConfigValue()}, expected_version=1),
            grpc.StatusCode.INVALID_ARGUMENT,
            "recall.limit",
        ),
    ]
    for request, want, named in cases:
        code, message = _code(functools.partial(configs.SetTenantConfig, request, metadata=T))
        assert (code, named in message) == (want, True), message
    per_agent = gpb.SetAgentConfigRequest(agent_id="a1", values={"retention.memories_days": _v(30)})
    code, message = _code(lambda: configs.SetAgentConfig(per_agent, metadata=T))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "retention.memories_days" in message
    code, _ = _code(lambda: configs.SetAgentConfig(gpb.SetAgentConfigRequest(agent_id=""), metadata=T))
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    view, reply = _view(configs, "a1")
    assert reply.tenant_version == 1 and reply.agent_version == 0 and view["recall.limit"][0] == 3


def test_recall_takes_the_agents_limit_and_min_score_when_the_request_leaves_them_unset(
    stubs: tuple[Any, Any],
) -> None:
    configs, memory = stubs
    items = [pb.MemoryInput(content=f"The garden plan number {i} puts tomatoes in bed {i}") for i in range(8)]
    memory.MemorizeBatch(pb.MemorizeBatchRequest(agent_id="a1", items=items), metadata=T)
    ask = pb.RecallRequest(agent_id="a1", query="tomatoes in the garden bed")
    assert len(memory.Recall(ask, metadata=T).hits) == 8  # the shipped default limit is 10
    configs.SetAgentConfig(gpb.SetAgentConfigRequest(agent_id="a1", values={"recall.limit": _v(3)}), metadata=T)
    assert len(memory.Recall(ask, metadata=T).hits) == 3
    assert len(memory.Recall(pb.RecallRequest(agent_id="a1", query=ask.query, limit=5), metadata=T).hits) == 5
    assert len(memory.Recall(pb.RecallRequest(agent_id="a2", query=ask.query), metadata=OTHER).hits) == 0
    strict = gpb.SetAgentConfigRequest(agent_id="a1", values={"recall.min_score": _v(0.9)}, expected_version=1)
    configs.SetAgentConfig(strict, metadata=T)
    vague = pb.RecallRequest(agent_id="a1", query="tomatoes beside the purple zebra fence")
    kept = memory.Recall(vague, metadata=T).hits
    same = pb.RecallRequest(agent_id="a1", query=vague.query, min_score=0.9)
    assert [h.memory.id for h in kept] == [h.memory.id for h in memory.Recall(same, metadata=T).hits]
    assert len(kept) < 3 and all(h.score >= 0.9 for h in kept)
    explicit = pb.RecallRequest(agent_id="a1", query=vague.query, min_score=0.0)
    assert len(memory.Recall(explicit, metadata=T).hits) == 3  # an explicit 0 keeps all, whatever the setting


def test_an_agents_fusion_weights_apply_to_its_recall_only(stubs: tuple[Any, Any]) -> None:
    configs, memory = stubs
    items = [pb.MemoryInput(content=f"The garden plan number {i} puts tomatoes in bed {i}") for i in range(4)]
    for agent in ("a1", "a2"):
        memory.MemorizeBatch(pb.MemorizeBatchRequest(agent_id=agent, items=items), metadata=T)
    words_only = {"recall.vector_weight": _v(0.0), "recall.full_text_weight": _v(2.0)}
    configs.SetAgentConfig(gpb.SetAgentConfigRequest(agent_id="a1", values=words_only), metadata=T)
    ask = "tomatoes in the garden"
    mine = memory.Recall(pb.RecallRequest(agent_id="a1", query=ask), metadata=T).hits
    theirs = memory.Recall(pb.RecallRequest(agent_id="a2", query=ask), metadata=T).hits
    assert mine and all(h.parts.vector_contribution == 0 and h.parts.full_text_contribution > 0 for h in mine)
    assert any(h.parts.vector_contribution > 0 for h in theirs)
    view, _ = _view(configs, "a2")
    assert (
        view["recall.similarity_floor"][1] == gpb.CONFIG_LEVEL_DEFAULT and -1 <= view["recall.similarity_floor"][0] <= 1
    )


def test_a_tenants_text_language_stems_its_full_text_arm_in_it_and_is_the_tenants_alone(
    stubs: tuple[Any, Any],
) -> None:
    configs, memory = stubs
    for who in (T, OTHER):
        stored = pb.MemoryInput(content="Mi hermana trabajaba en Lisboa")
        memory.Memorize(pb.MemorizeRequest(agent_id="a1", memory=stored), metadata=who)
    ask = pb.RecallRequest(agent_id="a1", query="¿Dónde trabajamos?")

    def found_by_full_text(who: Any) -> bool:
        return any(hit.parts.full_text_rank == 1 for hit in memory.Recall(ask, metadata=who).hits)

    assert not found_by_full_text(T)  # English stems 'trabajamos' and 'trabajaba' apart
    language = {"recall.text_language": _v("spanish")}
    configs.SetTenantConfig(gpb.SetTenantConfigRequest(values=language), metadata=T)
    assert found_by_full_text(T) and not found_by_full_text(OTHER)  # both 'trabaj' in Spanish
    refused = [
        lambda: configs.SetTenantConfig(
            gpb.SetTenantConfigRequest(values={"recall.text_language": _v("klingon")}, expected_version=1), metadata=T
        ),
        lambda: configs.SetAgentConfig(gpb.SetAgentConfigRequest(agent_id="a1", values=language), metadata=T),
    ]
    for call in refused:
        code, message = _code(call)
        assert code == grpc.StatusCode.INVALID_ARGUMENT and "recall.text_language" in message
    assert found_by_full_text(T)
    configs.SetTenantConfig(
        gpb.SetTenantConfigRequest(unset=["recall.text_language"], expected_version=1), metadata=T
    )  # back to the default
    assert not found_by_full_text(T)
