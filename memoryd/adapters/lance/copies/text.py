"""TextCopy: the full-text arm over an in-memory copy, ranked exactly as the archive's LanceDB index ranks.

Two LanceDB full-text queries (the all-words and any-word tiers) were most of a Recall over a small
visible set (~3 ms each, against ~1 ms for everything else). The copy answers them from memory with
the index's own tokenizer (``lance.tokenize`` with the index's settings) and its BM25, measured on
lance 14 / lancedb 0.40 and checked against the real index by ``tests/integration/test_copy_text.py``:

- a match scores ``sum over the query's clauses and their tokens of idf · tf·(k1+1) / (tf + k1·(1 − b
  + b·len/avglen))`` with k1 = 1.2, b = 0.75 and ``idf = ln(1 + (N − df + 0.5) / (df + 0.5))``; a
  word two clauses share counts twice; an all-words clause whose word is only a stop word matches
  nothing; equal scores come in row-address order;
- rows the index covers are scored with the index's statistics (N, mean length, df), which keep
  counting a row deleted after it was indexed until a compaction rewrites its fragment;
- rows appended since (searched flat) are scored with those statistics plus the flat rows' own, counting
  only the flat rows that pass the query's prefilter (visibility and filter): the same row scores
  differently for two agents until the index covers it;
- a row without a token is no document (N counts it nowhere): a ``prefixes`` text of words of at
  most three letters is empty.

The prefix tier (word beginnings, ``core.query_terms``) asks both indexes: a prefix term's clause is
its ``search_text`` match or its ``prefixes`` match, and LanceDB adds the two scores, each with its
own index's statistics. A copy holds one ``TextCopy`` per index; the ``prefixes`` one tokenizes as that
index does (neither stemmed nor stop words removed), the ``search_text`` one in the language its index
was built in (``text_analysis``: a tenant's ``recall.text_language``).

A copy loaded while a covered fragment holds a deleted row cannot know that row's words: it gets no
text part and the store asks LanceDB until a maintenance pass rewrites the fragment (the pass that
folds a small table's writes does, ``lance_maintenance``; the hourly purge does for every table). This
process's own writes after the load are followed exactly: appended rows are not covered, a deleted
row stays in the statistics only if the index covers it.
"""

from __future__ import annotations

import copy
import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import lance
import numpy as np

from memoryd.adapters.lance.text_analysis import tokenizer_options
from memoryd.core.query_terms import DEFAULT_TEXT_LANGUAGE

K1, B = 1.2, 0.75
"""BM25's constants in LanceDB's inverted index."""

INDEX_STOP_WORDS = """
i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself yourselves he him
his himself she she's her hers herself it it's its itself they them their theirs themselves what which who
whom this that that'll these those am is are was were be been being have has had having do does did doing a
an the and but if or because as until while of at by for with about against between into through during
before after above below to from up down in out on off over under again further then once here there when
where why how all any both each few more most other some such no nor not only own same so than too very s t
can will just don don't should should've now d ll m o re ve y ain aren aren't couldn couldn't didn didn't
doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't ma mightn mightn't mustn mustn't needn needn't
shan shan't shouldn shouldn't wasn wasn't weren weren't won won't wouldn wouldn't
""".split()  # noqa: SIM905  # a word list reads better than 179 quoted strings
"""The English list the index removes after stemming (so 'willing' goes, as 'will', and 'only' stays, as 'onli').
``lance.tokenize``'s own default list is shorter: given this one it tokenizes as the index does."""

_SEPARATOR = "memorydtextseparator"
"""Joins many texts into one tokenizer call (one call per text cost 4× more); a text holding a word
with the same token is found by the count of pieces, and then every text is tokenized alone."""


@lru_cache(maxsize=64)
def _separator_token(prefixes: bool, language: str) -> str:
    """The separator as the index's tokenizer gives it back: the stemmed index makes it 'memorydtextsepar'."""
    (token,) = _tokenize(_SEPARATOR, prefixes, language)
    return token


def index_tokens(
    texts: Sequence[str], *, prefixes: bool = False, language: str = DEFAULT_TEXT_LANGUAGE
) -> list[list[str]]:
    """Each text's tokens as the ``search_text`` index in ``language`` (or the ``prefixes`` index) makes them."""
    tokens, spans = _token_runs(texts, prefixes, language)
    return [tokens[start:end] for start, end in spans]


def _token_runs(texts: Sequence[str], prefixes: bool, language: str) -> tuple[list[str], list[tuple[int, int]]]:
    """The texts' tokens in one list, and each text's span of it (slices, not a list per token)."""
    if not texts:
        return [], []
    tokens = _tokenize(f" {_SEPARATOR} ".join(texts), prefixes, language)
    separator = _separator_token(prefixes, language)
    cuts = [at for at, token in enumerate(tokens) if token == separator]
    if len(cuts) == len(texts) - 1:
        return tokens, list(zip([0, *(at + 1 for at in cuts)], [*cuts, len(tokens)], strict=True))
    tokens, spans = [], []
    for text in texts:
        alone = _tokenize(text, prefixes, language)
        spans.append((len(tokens), len(tokens) + len(alone)))
        tokens += alone
    return tokens, spans


def _tokenize(text: str, prefixes: bool, language: str) -> list[str]:
    if prefixes:  # the ``prefixes`` index: neither stemmed nor stop words removed, in every language
        return [token.text for token in lance.tokenize(text, stem=False, remove_stop_words=False)]
    if language == DEFAULT_TEXT_LANGUAGE:
        return [token.text for token in lance.tokenize(text, custom_stop_words=INDEX_STOP_WORDS)]
    return [token.text for token in lance.tokenize(text, **tokenizer_options(language))]


@lru_cache(maxsize=8192)
def term_tokens(term: str, prefixes: bool = False, language: str = DEFAULT_TEXT_LANGUAGE) -> tuple[str, ...]:
    """A query word's tokens for the ``search_text`` index (none for a stop word) or the ``prefixes`` one."""
    return tuple(_tokenize(term, prefixes, language))


class Vocabulary:
    """One tenant's token ids, shared by its copies, and the token ids of the texts its last load held.

    A reload after another process's write meets mostly the same texts: they are not tokenized again.
    Loads run in a worker thread while the event loop appends rows, hence the lock.
    """

    def __init__(self, *, prefixes: bool = False, language: str = DEFAULT_TEXT_LANGUAGE) -> None:
        self.prefixes = prefixes
        """The tokens of the ``prefixes`` index instead of ``search_text``'s."""
        self.language = language
        """The language the ``search_text`` index was built in (``text_analysis``)."""
        self.ids: dict[str, int] = {}
        self._texts: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        """Texts whose token ids are kept."""
        return len(self._texts)

    def term_tokens(self, term: str) -> tuple[str, ...]:
        """A query word's tokens as this vocabulary's index makes them."""
        return term_tokens(term, self.prefixes, self.language)

    def encode(self, texts: Sequence[str], *, load: bool = False) -> list[np.ndarray]:
        """Each text's token ids; ``load``: these are a whole table's texts (the cache keeps only them)."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._texts]
        tokenized = _token_runs(missing, self.prefixes, self.language)
        with self._lock:
            known = {t: self._texts[t] for t in texts if t in self._texts}
            asked = set(missing)
            late = list(dict.fromkeys(t for t in texts if t not in known and t not in asked))
            # ``late``: cached when looked at, dropped since by a load in another thread.
            runs = _token_runs(late, self.prefixes, self.language)
            for some, (tokens, spans) in ((missing, tokenized), (late, runs)):
                ids = self.ids
                coded = np.array([ids.setdefault(token, len(ids)) for token in tokens], dtype=np.int32)
                # copies: a slice would keep the whole call's array alive while any one of its texts is kept
                known.update((text, coded[start:end].copy()) for text, (start, end) in zip(some, spans, strict=True))
            if load:
                self._texts = known
            else:
                self._texts.update(known)
        return [known[t] for t in texts]


_ROW_BITS = 32
"""A copy holds far fewer rows than 2**32; token ids are below 2**31."""


@dataclass(frozen=True)
class _Segment:
    """Postings of some rows: (token, row, frequency) sorted by token, then row."""

    tokens: np.ndarray
    rows: np.ndarray
    frequencies: np.ndarray

    @classmethod
    def of(cls, encoded: Sequence[np.ndarray], first_row: int) -> _Segment:
        if not any(len(e) for e in encoded):
            empty = np.zeros(0, dtype=np.int32)
            return cls(empty, empty, empty)
        rows = np.repeat(np.arange(first_row, first_row + len(encoded), dtype=np.int64), [len(e) for e in encoded])
        # One integer per (token, row), sorted by token then row: np.unique over pairs (axis=1) was
        # 28 % of the daemon's Python under the mixed load. Kept as 32-bit integers (a copy holds far
        # fewer rows and tokens): half the memory, and the prefixes index has twice the tokens.
        keys, counts = np.unique(np.concatenate(encoded).astype(np.int64) << _ROW_BITS | rows, return_counts=True)
        tokens, at = (keys >> _ROW_BITS).astype(np.int32), (keys & (1 << _ROW_BITS) - 1).astype(np.int32)
        return cls(tokens, at, counts.astype(np.int32))

    def __len__(self) -> int:
        return len(self.tokens)

    def merged(self, later: _Segment) -> _Segment:
        tokens = np.concatenate([self.tokens, later.tokens])
        rows = np.concatenate([self.rows, later.rows])
        order = np.lexsort((rows, tokens))
        return _Segment(tokens[order], rows[order], np.concatenate([self.frequencies, later.frequencies])[order])

    def of_token(self, token: int) -> tuple[np.ndarray, np.ndarray]:
        lo, hi = np.searchsorted(self.tokens, np.array([token, token + 1], dtype=self.tokens.dtype))
        return self.rows[lo:hi], self.frequencies[lo:hi]


class _Postings:
    """Token postings and row lengths of a chain of copies (a load, then this process's appends).

    Appended texts wait as text until a full-text query needs them: a bulk import pays no tokenizing
    (it cost 30 ms per 1,000 rows, 15 % of the import). They then become one segment; segments merge
    when the newer one is at least half the older one, so a search looks at a handful. A copy reads
    only rows below its own count, so the copies of a chain share one instance.
    """

    def __init__(self, vocabulary: Vocabulary, texts: Sequence[str]) -> None:
        self.vocabulary = vocabulary
        encoded = vocabulary.encode(texts, load=True)
        self.segments = [_Segment.of(encoded, 0)]
        self._lengths = np.array([len(e) for e in encoded], dtype=np.int64)
        self._done = len(encoded)
        self._pending: list[str] = []

    @property
    def rows(self) -> int:
        """Rows held, tokenized or not (the newest copy's count)."""
        return self._done + len(self._pending)

    def appended(self, n: int, texts: Sequence[str]) -> _Postings:
        """With ``texts`` as rows ``n``…: in place when the copy at ``n`` rows is the newest user."""
        out = self if self.rows == n else self._first(n)
        out._pending.extend(texts)
        return out

    def _first(self, n: int) -> _Postings:
        """A separate instance holding only rows below ``n`` (a sibling copy appended to the same copy)."""
        self.materialize()
        out = copy.copy(self)
        keep = [s.rows < n for s in self.segments]
        out.segments = [
            _Segment(s.tokens[k], s.rows[k], s.frequencies[k]) for s, k in zip(self.segments, keep, strict=True)
        ]
        out._lengths, out._done, out._pending = self._lengths[:n].copy(), n, []
        return out

    def materialize(self) -> None:
        """Tokenize the texts appended since the last query."""
        if not self._pending:
            return
        encoded = self.vocabulary.encode(self._pending)
        self.segments.append(_Segment.of(encoded, self._done))
        self._lengths = np.concatenate([self._lengths[: self._done], [len(e) for e in encoded]]).astype(np.int64)
        self._done += len(encoded)
        self._pending = []
        while len(self.segments) > 1 and len(self.segments[-2]) <= 2 * len(self.segments[-1]):
            later = self.segments.pop()
            self.segments[-1] = self.segments[-1].merged(later)

    def lengths(self, n: int) -> np.ndarray:
        """Tokens per row of the first ``n`` rows (tokenized: ``materialize`` first)."""
        return self._lengths[:n]

    def of_token(self, token: int, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The rows (below ``n``) holding ``token`` and how often, in row order."""
        found = [s.of_token(token) for s in self.segments]
        rows = np.concatenate([r for r, _ in found])
        frequencies = np.concatenate([f for _, f in found])
        if len(rows) and rows[-1] >= n:  # rows ascend across segments: newer copies' rows come last
            keep = rows < n
            rows, frequencies = rows[keep], frequencies[keep]
        return rows, frequencies


_KEPT_QUERIES = 4
"""Queries whose clause scores a copy keeps: enough for the tiers of a few Recalls interleaved, at
most ~0.6 MB a copy of 10,000 rows (a float and a match flag per row and clause)."""


@dataclass(frozen=True)
class TextCopy:
    """One copy's full-text part: its rows of the chain's postings and which of them the index covers."""

    postings: _Postings
    rows: int
    covered_at_load: np.ndarray
    """Per row of the load, whether the index covers it (its statistics then count the row, deleted or
    not); rows appended since are never covered."""

    @classmethod
    def build(cls, vocabulary: Vocabulary, texts: Sequence[str], covered: np.ndarray) -> TextCopy:
        """From a load's ``search_text`` column and which of its rows the index covers."""
        return cls(_Postings(vocabulary, texts), len(texts), covered.astype(bool))

    @cached_property
    def covered(self) -> np.ndarray:
        """Per row, whether the index covers it."""
        return np.concatenate([self.covered_at_load, np.zeros(self.rows - len(self.covered_at_load), dtype=bool)])

    @cached_property
    def _index_size(self) -> tuple[int, int]:
        """The rows the index covers and their tokens (deleted rows included: its statistics count them).

        A row without a token is no document to BM25 (LanceDB counts none: a ``prefixes`` text of
        short words only is empty).
        """
        loaded = self.postings.lengths(len(self.covered_at_load))
        return int((self.covered_at_load & (loaded > 0)).sum()), int(loaded[self.covered_at_load].sum())

    def appended(self, texts: Sequence[str]) -> TextCopy:
        """Rows added by this process's commit (the index does not cover them until it is folded)."""
        return TextCopy(self.postings.appended(self.rows, texts), self.rows + len(texts), self.covered_at_load)

    def scores(self, terms: Sequence[str], live: np.ndarray, flat: np.ndarray, require_all: bool) -> np.ndarray:
        """Each row's BM25 score for the terms (one clause each); -inf where the row does not match or is not live.

        ``live``: the rows that may match (the live rows, or those a searcher sees).

        ``flat``: the rows not covered by the index that pass the query's prefilter (LanceDB scans them).
        """
        total, hits = self._term_scores(tuple(terms), flat)
        if not terms:
            matched = np.zeros(self.rows, dtype=bool)
        else:
            matched = np.logical_and.reduce(hits) if require_all else np.logical_or.reduce(hits)
        return np.where(matched & live, total, -np.inf)

    @cached_property
    def _recent(self) -> dict[tuple[tuple[str, ...], bytes], tuple[np.ndarray, list[np.ndarray]]]:
        """The last few queries' summed clause scores and per-clause matches (see ``_term_scores``)."""
        return {}

    def _term_scores(self, terms: tuple[str, ...], flat: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        """Per row, the clauses' BM25 scores summed, and per clause which rows it matches.

        Both are the same for a Recall's all-words and any-word tiers (only the match rule differs),
        which ask one after the other: the second reuses the first's (a few kept, the oldest out).
        """
        key = (terms, flat.tobytes())
        if (kept := self._recent.get(key)) is not None:
            return kept
        self.postings.materialize()
        n, lengths = self.rows, self.postings.lengths(self.rows)
        n_index, len_index = self._index_size
        flat_lengths = lengths[np.flatnonzero(flat)]
        n_all, len_all = n_index + int(np.count_nonzero(flat_lengths)), len_index + int(flat_lengths.sum())
        avg_all = len_all / max(n_all, 1)
        total = np.zeros(n)
        hits = []
        for term in terms:
            hit = np.zeros(n, dtype=bool)
            for token in self.postings.vocabulary.term_tokens(term):
                token_id = self.postings.vocabulary.ids.get(token)
                if token_id is None:
                    continue
                token_part = self._token(token_id)
                if len(token_part.covered):  # the covered rows with the index's statistics
                    total[token_part.covered] += token_part.covered_scores
                    hit[token_part.covered] = True
                in_flat = flat[token_part.loose]
                if found := int(np.count_nonzero(in_flat)):  # the flat ones with all of them (disjoint)
                    at, f = token_part.loose[in_flat], token_part.loose_frequencies[in_flat].astype(np.float64)
                    df = token_part.covered_df + found
                    idf = math.log1p((n_all - df + 0.5) / (df + 0.5))
                    total[at] += idf * f * (K1 + 1) / (f + K1 * (1 - B + B * lengths[at] / avg_all))
                    hit[at] = True
            hits.append(hit)
        if len(self._recent) >= _KEPT_QUERIES:
            del self._recent[next(iter(self._recent))]
        self._recent[key] = (total, hits)
        return total, hits

    @cached_property
    def _tokens(self) -> dict[int, _TokenPart]:
        """The tokens searched in this copy (``_token``), the oldest out past ``_KEPT_TOKENS``."""
        return {}

    def _token(self, token_id: int) -> _TokenPart:
        """A token's rows: the covered ones with their BM25 part, the others with their frequencies.

        The covered rows' part uses the index's statistics only, so it is the same for every query of
        this copy: computed once, not per query (a common token's postings at 10,000 rows cost ~80 µs
        a query).
        """
        if (kept := self._tokens.get(token_id)) is not None:
            return kept
        rows, tf = self.postings.of_token(token_id, self.rows)
        in_index = self.covered[rows]
        df = int(np.count_nonzero(in_index))
        n_index, len_index = self._index_size
        at, f = rows[in_index], tf[in_index].astype(np.float64)
        idf = math.log1p((n_index - df + 0.5) / (df + 0.5))
        avg = len_index / max(n_index, 1)
        lengths = self.postings.lengths(self.rows)
        part = _TokenPart(
            at, idf * f * (K1 + 1) / (f + K1 * (1 - B + B * lengths[at] / avg)), df, rows[~in_index], tf[~in_index]
        )
        if len(self._tokens) >= _KEPT_TOKENS:
            del self._tokens[next(iter(self._tokens))]
        self._tokens[token_id] = part
        return part


_KEPT_TOKENS = 2048
"""Tokens whose rows a copy keeps: the queries of a busy tenant use a few hundred words; at most
the copy's postings (~12 bytes a row of a token: ~2 MB at 10,000 rows of some fifteen tokens)."""


@dataclass(frozen=True)
class _TokenPart:
    """One token's rows in one copy (``TextCopy._token``)."""

    covered: np.ndarray
    covered_scores: np.ndarray
    """The covered rows' BM25 part for this token, by the index's statistics."""
    covered_df: int
    loose: np.ndarray
    """The rows the index does not cover (appended since it was folded, or not yet indexed)."""
    loose_frequencies: np.ndarray
