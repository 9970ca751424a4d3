"""Readable Recall scores: each hit's evidence on a 0-1 scale that means the same for every query. Pure.

Fused RRF sums rank well but say nothing absolute (the top hit of any query scores about 0.03),
so a caller cannot threshold them. Each arm's evidence is put on a fixed scale instead:

- vector: the cosine similarity placed between the embedder's noise level (0: as close as three
  quarters of unrelated pairs) and a strong match (1: as close as the best tenth of true answers),
  both measured per embedder (``core.calibration``);
- full text: the share of the query's search terms the memory contains, as words (compared by
  their English Snowball stems, as the full-text index compares them) or word prefixes (stop
  words are not terms).

The relevance is ``1 - (1 - v)(1 - t)``: either arm's strong evidence is enough, and agreement adds.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from functools import lru_cache

import snowballstemmer

from memoryd.core.calibration import EmbedderCalibration
from memoryd.core.query_terms import MIN_PREFIX, words

_STEMMER = snowballstemmer.stemmer("english")


@lru_cache(maxsize=1 << 16)
def _stem(word: str) -> str:
    """The word's English Snowball stem, memoised.

    The stemmer is pure Python (about 10 µs a word) and a Recall scores some 40 memories of 20 words.
    """
    return str(_STEMMER.stemWord(word))


def vector_evidence(similarity: float, scale: EmbedderCalibration) -> float:
    """Cosine similarity on the embedder's 0 (noise) .. 1 (strong match) scale."""
    span = scale.strong_similarity - scale.noise_similarity
    return max(0.0, min(1.0, (similarity - scale.noise_similarity) / span)) if span > 0 else 0.0


def full_text_evidence(terms: Sequence[str], content: str) -> float:
    """The share of ``terms`` that ``content`` contains as a word (same stem) or a word prefix."""
    if not terms:
        return 0.0
    have, stems, ordered = _vocabulary(content)
    found = 0
    for term, stem, prefix in _stemmed(tuple(terms)):  # a Recall scores some 70 candidates for one query
        if term in have or stem in stems:
            found += 1
        elif prefix:
            at = bisect_left(ordered, term)  # the first word not before the term: a word it prefixes, if any
            found += at < len(ordered) and ordered[at].startswith(term)
    return found / len(terms)


@lru_cache(maxsize=256)
def _stemmed(terms: tuple[str, ...]) -> tuple[tuple[str, str, bool], ...]:
    """Each query term, its stem, and whether it is long enough to match as a prefix (memoised per query)."""
    return tuple((term, _stem(term), len(term) >= MIN_PREFIX) for term in terms)


@lru_cache(maxsize=1 << 14)
def _vocabulary(content: str) -> tuple[frozenset[str], frozenset[str], tuple[str, ...]]:
    """A memory's words, their stems, and its words in order for prefix lookups (memoised: memories recur)."""
    have = frozenset(words(content))
    return have, frozenset(_stem(word) for word in have), tuple(sorted(have))


def relevance(vector: float, full_text: float) -> float:
    """Either arm's evidence is enough; agreement adds."""
    return 1.0 - (1.0 - vector) * (1.0 - full_text)
