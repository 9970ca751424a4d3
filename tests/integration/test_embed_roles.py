"""Embedding roles: only search queries are embedded as queries; the marks a model wants reach it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from memoryd.adapters.embedding_roles import RoleMarkedEmbedder
from memoryd.adapters.openai.embedder import OpenAIEmbedder
from memoryd.app import build_app
from memoryd.config import load_settings
from memoryd.config.errors import ConfigError
from memoryd.core.embed_roles import PRESETS, EmbedRole, marking
from memoryd.core.graph import GraphScope
from memoryd.core.models import Actor, MemoryDraft, RecallQuery, Scope
from memoryd.services.graph import Assertion
from memoryd.testing.provider import FakeProvider
from tests.conftest import make_settings
from tests.fakes import HashEmbedder

ME = Actor("acme", "a1", "u1")
ADMIN = Actor("acme", "ops")


class TargetEmbedder(HashEmbedder):
    """The re-embed's target model (another name, the same hashing)."""

    model_name = "hash-64-next"


def queries(embedder: HashEmbedder) -> list[tuple[str, ...]]:
    return [texts for role, texts in embedder.roles if role is EmbedRole.QUERY]


async def test_only_search_queries_are_embedded_as_queries_in_every_operation(tmp_path: Path) -> None:
    model, target = HashEmbedder(), TargetEmbedder()
    settings = make_settings(tmp_path / "data", reembed={"refresh_seconds": 0.01})
    async with build_app(settings, embedder=model, reembed_target=target) as app:
        drafts = [MemoryDraft("Nadia handles billing at Acme"), MemoryDraft("Nadia handles billing at Acme.")]
        await app.memory.memorize.memorize_batch(ME, drafts, skip_deduplication=False)  # dedup compares documents
        claim = Assertion("Acme", "billing contact", "Nadia", "Nadia handles billing at Acme.")
        await app.graph.assert_human(ADMIN, GraphScope(Scope.END_USER, "", "u1"), claim)
        # writes and their dual write to the target space, dedup, the graph's names and sentences (a review's
        # neighbours are found among the stored vectors: it embeds nothing)
        assert queries(model) == [] and queries(target) == [] and model.roles
        await app.memory.recall.recall(RecallQuery(ME, "who handles billing?"))
        await app.graph.search(ME, "billing contact at Acme")
        assert queries(model) == [("who handles billing?",), ("billing contact at Acme",)]
        assert app.memory.reembed is not None
        await app.memory.reembed.run(target.model_name, ["acme"], batch=16)  # stored texts: documents
        assert queries(target) == [] and target.roles
        await asyncio.sleep(0.05)  # past refresh_seconds: the tenant's Recall moved to the new space
        await app.memory.recall.recall(RecallQuery(ME, "who handles billing now?"))
        assert queries(target) == [("who handles billing now?",)]


async def test_a_marked_model_gets_each_roles_prefix_and_an_endpoint_its_request_field() -> None:
    inner = HashEmbedder()
    e5 = RoleMarkedEmbedder(inner, marking("auto", "intfloat/multilingual-e5-small"))
    await e5.embed(["when is the standup?"], EmbedRole.QUERY)
    await e5.embed(["The standup is at 9:30"])
    assert [texts for _, texts in inner.roles] == [
        ("query: when is the standup?",),
        ("passage: The standup is at 9:30",),
    ]
    with FakeProvider(dimension=8) as provider:
        endpoint = OpenAIEmbedder.connect(provider.base_url, "", 5, "nv-embed", 8, False, PRESETS["input_type"])
        try:
            await endpoint.embed(["when is the standup?"], EmbedRole.QUERY)
            await endpoint.embed(["The standup is at 9:30"], EmbedRole.DOCUMENT)
        finally:
            await endpoint.aclose()
        assert [r["body"].get("input_type") for r in provider.requests] == ["query", "passage"]


def test_presets_follow_the_model_name_and_an_unknown_preset_is_one_clear_error() -> None:
    assert marking("auto", "all-MiniLM-L6-v2") == PRESETS["none"]
    assert marking("auto", "BAAI/bge-small-en-v1.5").query_prefix.startswith("Represent this sentence")
    assert marking("auto", "nomic-embed-text-v1.5").document_prefix == "search_document: "
    assert marking("e5", "anything", query_prefix="").query_prefix == ""  # an explicit prefix overrides
    with pytest.raises(ConfigError, match=r"embedding: .*unknown embedding role preset 'e6'"):
        load_settings(None, embedding={"roles": "e6"})
