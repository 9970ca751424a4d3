"""The embedded default embedder: real ONNX model, shipped tokenizer, no network."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from memoryd.adapters.onnx_embedder import DIMENSION, OnnxMiniLMEmbedder
from memoryd.core.errors import NotReady
from memoryd.core.vectors import cosine


async def test_vectors_are_unit_length_and_semantic(onnx_embedder: OnnxMiniLMEmbedder) -> None:
    texts = [
        "I drink espresso every morning",
        "Coffee is how I start my day",
        "The tax return is due in April",
        "x" * 5000,
    ]
    vectors = await onnx_embedder.embed(texts)
    assert [len(v) for v in vectors] == [DIMENSION] * 4
    assert all(math.isclose(math.sqrt(sum(x * x for x in v)), 1.0, rel_tol=1e-4) for v in vectors)
    assert cosine(vectors[0], vectors[1]) > cosine(vectors[0], vectors[2]) + 0.2


async def test_batching_by_length_does_not_change_results(onnx_embedder: OnnxMiniLMEmbedder) -> None:
    texts = ["short", "a much longer sentence about hiking in the mountains with friends", "mid length text"]
    together = await onnx_embedder.embed(texts)
    alone = [(await onnx_embedder.embed([t]))[0] for t in texts]
    assert all(cosine(a, b) > 0.9999 for a, b in zip(together, alone, strict=True))


def test_weights_with_the_wrong_checksum_are_refused(tmp_path: Path) -> None:
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not the model")
    with pytest.raises(NotReady, match="sha256"):
        OnnxMiniLMEmbedder(model_path=fake)
