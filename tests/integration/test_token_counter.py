"""Token counts match an independent o200k implementation (bpe-openai) on a mixed corpus."""

from __future__ import annotations

import json

import bpe_openai
import pytest

from memoryd.adapters.tiktoken_counter import TiktokenCounter

CORPUS = [
    "Caroline went to the LGBTQ support group on Tuesday and felt welcomed.",
    "def recall(query: str, limit: int = 10) -> list[Hit]:\n    return sorted(hits, key=lambda h: -h.score)[:limit]\n",
    json.dumps({"profile": "## Preferences\n- espresso", "demoted": ["- old line"], "n": [1, 2.5, None]}),
    "日本語のテキストと中文文本，还有한국어 문장도 있습니다。",
    "Emoji 🚀🔥 and accents: naïve café, Zürich, São Paulo.",
    "   leading spaces\n\n\ttabs\r\nwindows newlines   ",
    "<|endoftext|> looks special but is counted as text",
    "x" * 5000,
    "",
]


@pytest.fixture(scope="module")
def counter() -> TiktokenCounter:
    return TiktokenCounter("o200k_base")


def test_counts_match_the_reference_encoding(counter: TiktokenCounter) -> None:
    reference = bpe_openai.get_encoding("o200k_base")
    for text in CORPUS:
        assert counter.count(text) == len(reference.encode(text, disallowed_special=())), text[:40]


def test_unknown_encoding_is_refused() -> None:
    from memoryd.core.errors import NotReady

    with pytest.raises(NotReady):
        TiktokenCounter("cl100k_base")
