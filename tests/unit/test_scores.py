"""Readable Recall scores and feedback bounds (pure)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memoryd.core.calibration import calibration_for
from memoryd.core.feedback import SHIFT_BOUND, STEPS, FeedbackSummary, Signal, bounded, shifted_salience
from memoryd.core.query_terms import full_text_query
from memoryd.core.ranking import Fused, coverage_order
from memoryd.core.scores import full_text_evidence, relevance, vector_evidence

MINILM = calibration_for("all-MiniLM-L6-v2-int8")


def test_vector_evidence_runs_from_the_noise_level_to_a_strong_match() -> None:
    assert vector_evidence(MINILM.noise_similarity, MINILM) == 0.0
    assert vector_evidence(0.0, MINILM) == 0.0 and vector_evidence(-0.4, MINILM) == 0.0
    assert vector_evidence(MINILM.strong_similarity, MINILM) == pytest.approx(1.0)
    assert vector_evidence(0.99, MINILM) == 1.0
    middle = (MINILM.noise_similarity + MINILM.strong_similarity) / 2
    assert vector_evidence(middle, MINILM) == pytest.approx(0.5)


def test_full_text_evidence_is_the_share_of_query_terms_found() -> None:
    terms = full_text_query("When did Caroline go to the LGBTQ support group?").terms
    assert terms == ("caroline", "go", "lgbtq", "support", "group")
    assert full_text_evidence(terms, "Caroline: I went to a LGBTQ support group yesterday") == pytest.approx(0.8)
    assert full_text_evidence(terms, "Melanie painted a lake") == 0.0
    assert full_text_evidence((), "anything") == 0.0


def test_full_text_evidence_matches_stems_and_prefixes_like_the_index() -> None:
    assert full_text_evidence(("espres",), "an espresso please") == 1.0  # a prefix of a word
    assert full_text_evidence(("dogs",), "she walks the dog") == 1.0  # one stem
    assert full_text_evidence(("painted",), "I paint on Sundays") == 1.0
    assert full_text_evidence(("cart",), "the car broke") == 0.0  # another stem
    assert full_text_evidence(("car",), "a career in nursing") == 1.0  # but a prefix (as the prefix tier finds)
    assert full_text_evidence(("go",), "we went home") == 0.0  # stems, not lemmas


def test_relevance_is_either_arm_and_agreement_adds() -> None:
    assert relevance(0.0, 0.0) == 0.0 and relevance(1.0, 0.0) == 1.0 and relevance(0.0, 1.0) == 1.0
    assert relevance(0.5, 0.5) == pytest.approx(0.75)
    assert relevance(0.5, 0.5) > relevance(0.5, 0.0)


def test_an_uncalibrated_model_has_no_floor() -> None:
    assert calibration_for("some-remote-model").similarity_floor == 0.0


def test_feedback_shift_is_bounded_and_shifts_salience_within_0_1() -> None:
    shift = 0.0
    for _ in range(20):
        shift = bounded(shift + STEPS[Signal.EXPLICIT_POSITIVE])
    assert shift == SHIFT_BOUND
    assert bounded(-3.0) == -SHIFT_BOUND
    assert shifted_salience(0.9, FeedbackSummary({Signal.USEFUL: 9}, 0.25)) == 1.0
    assert shifted_salience(0.1, FeedbackSummary({Signal.WRONG: 3}, -0.25)) == 0.0
    assert shifted_salience(0.3, FeedbackSummary()) == 0.3


def _scored(memory_id: str, fused: float, t: float, v: float = 0.0) -> tuple[Fused, float, float]:
    return Fused(memory_id.rjust(32, "0"), datetime(2026, 1, 1, tzinfo=UTC), fused), v, t


def test_coverage_rerank_lets_query_words_and_strong_paraphrases_outrank_mere_fusion() -> None:
    loud = _scored("a", fused=0.30, t=0.2)  # both arms like it; it holds one of five words
    exact = _scored("b", fused=0.20, t=1.0)  # holds every word
    paraphrase = _scored("c", fused=0.20, t=0.0, v=1.0)  # no word, but the embedder is sure
    filler = _scored("d", fused=0.0, t=1.0)  # a fill-in from under the floor
    ranked = coverage_order([loud, exact, paraphrase, filler], floor=0.25, vector_share=0.5)
    assert [f.memory_id[-1] for f, _, _ in ranked] == ["b", "c", "a", "d"]
    # 0.20 × 1.25 = 0.25 > 0.20 × 0.75 = 0.15 > 0.30 × 0.45 = 0.135; fill-ins always last
    unaided = coverage_order([loud, exact, paraphrase], floor=0.25, vector_share=0.0)
    assert [f.memory_id[-1] for f, _, _ in unaided] == ["b", "a", "c"]


def test_the_stemmer_is_the_c_one_and_stems_as_the_python_one() -> None:
    # snowballstemmer hands out PyStemmer's C stemmer when it is installed; both are English Snowball
    import snowballstemmer
    from snowballstemmer.english_stemmer import EnglishStemmer

    fast, reference = snowballstemmer.stemmer("english"), EnglishStemmer()
    assert type(fast).__module__ == "Stemmer"
    words = (  # noqa: SIM905  # a word list reads better as text
        "caroline went running ran runs generously happiness adoption adopted agencies agency's don't "
        "it's i'm willingness only very naive café zürich 2023 7th lgbtq counselling counseling "
        "painted paintings potteries sympathetic volunteered volunteering festivals camping"
    ).split()
    assert [fast.stemWord(w) for w in words] == [reference.stemWord(w) for w in words]
