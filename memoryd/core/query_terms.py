"""Turn user text into full-text terms, and content into its word prefixes.

A query is user text: quotes, operators and punctuation must never become
phrase or boolean syntax. We therefore split it into plain words here and the
store builds query *objects* from them, never a query string.

LanceDB's full-text index has no word-prefix query, so prefix matching is done
at write time: ``word_prefixes`` lists the proper prefixes (3..15 chars) of
each word of a memory, and the store indexes them in a second, unstemmed
column. A query term then matches a memory if it is one of its words (stemmed
by the index) or a prefix of one of them.

Chinese and Japanese write no spaces: a run of their characters would be one token (a whole clause),
matched only by the same clause. ``words`` cuts such runs into overlapping pairs of characters
("我的猫叫小白" → 我的 的猫 猫叫 叫小 小白), and ``index_text`` writes the indexed text the same way,
so a question shares pairs with its answer whatever the tenant's language: no segmenter, and a
tenant mixing languages works. Accented Latin letters are folded ("Málaga" → "malaga") as the index
folds them. Stemming is the index's, in the tenant's ``recall.text_language`` (English by default).
"""

from __future__ import annotations

import re
import unicodedata

from memoryd.core.models import FullTextQuery

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+")
"""Kana, Han ideographs and Hangul syllables: scripts cut into character pairs."""
_LATIN_FOLDS = {"ß": "ss", "æ": "ae", "ø": "o", "œ": "oe", "đ": "d", "ł": "l", "þ": "th", "ð": "d"}


def _latin_fold_table() -> dict[int, str]:
    """Lowercase accented Latin letters (U+00C0–U+024F) to their ASCII base, as the index's folding does."""
    table: dict[int, str] = {}
    for code in range(0xC0, 0x250):
        char = chr(code)
        if char != char.lower():
            continue
        base = _LATIN_FOLDS.get(char) or "".join(c for c in unicodedata.normalize("NFKD", char) if c.isascii())
        if base and base != char:
            table[code] = base
    return table


_FOLD = _latin_fold_table()

TEXT_LANGUAGES = (
    "english", "arabic", "danish", "dutch", "finnish", "french", "german", "greek", "hungarian", "italian",
    "norwegian", "portuguese", "romanian", "russian", "spanish", "swedish", "tamil", "turkish",
)  # fmt: skip
"""The languages a tenant's full-text index can stem (``recall.text_language``); the first is the default.

CJK needs none of them: its runs are pairs whatever the language (above)."""
DEFAULT_TEXT_LANGUAGE = TEXT_LANGUAGES[0]

MIN_PREFIX = 3
"""Shorter query terms only match whole words: 'ca' would match half the archive."""
MAX_PREFIX = 15
MAX_TERMS = 32
MAX_TERM_CHARS = 40
"""The index tokenizer drops longer tokens, so such a term could never match."""

# The English stop words the store's full-text tokenizer removes. A stop word
# required in the AND tier would make it match nothing, so they are dropped
# from queries. tests/integration checks this list against the real tokenizer.
FTS_STOP_WORDS = frozenset(
    """
    i me my myself we our ours you your yours yourself he him his himself she her hers herself it its
    itself they them their theirs what which who whom this that these those am is are was were be been
    being have has had having do did doing a an the and but if or as until while of at by for with
    about against between into through after below to from up down in out on off over under again
    further then here there when where how all both each few more most other some such no nor not own
    same so than too s t can will just don should now d ll m o re ve y ain aren couldn didn doesn hadn
    hasn haven isn ma mightn mustn needn shan shouldn wasn weren won wouldn
    """.split()  # noqa: SIM905  # a word list reads better than 140 quoted strings
)


def words(text: str) -> list[str]:
    """Lowercased, folded words of the text, in order (letters and digits only); CJK runs as character pairs."""
    if text.isascii():
        return [w.lower() for w in _WORD.findall(text)]
    out: list[str] = []
    for word in _WORD.findall(text.lower().translate(_FOLD)):
        if _CJK_RUN.search(word) is None:
            out.append(word)
            continue
        at = 0
        for run in _CJK_RUN.finditer(word):
            if run.start() > at:
                out.append(word[at : run.start()])
            out += _pairs(run.group())
            at = run.end()
        if at < len(word):
            out.append(word[at:])
    return out


def _pairs(run: str) -> list[str]:
    """A CJK run as its overlapping character pairs (a lone character as itself)."""
    return [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]


def index_text(text: str) -> str:
    """The text the full-text index should see: CJK runs written as their pairs, each a word of its own."""
    if text.isascii():
        return text
    return _CJK_RUN.sub(lambda run: f" {' '.join(_pairs(run.group()))} ", text)


def full_text_query(text: str) -> FullTextQuery:
    """The plain terms of a user query; empty when it has no searchable word."""
    terms: list[str] = []
    for word in words(text):
        if word in FTS_STOP_WORDS or len(word) > MAX_TERM_CHARS or word in terms:
            continue
        terms.append(word)
        if len(terms) == MAX_TERMS:
            break
    prefix_terms = tuple(t for t in terms if MIN_PREFIX <= len(t) <= MAX_PREFIX)
    return FullTextQuery(terms=tuple(terms), prefix_terms=prefix_terms)


def word_prefixes(text: str) -> str:
    """Space-separated proper prefixes of each word, for the prefix index column."""
    seen: set[str] = set()
    out: list[str] = []
    for word in words(text):
        if len(word) > MAX_TERM_CHARS:
            continue
        for end in range(MIN_PREFIX, min(len(word), MAX_PREFIX + 1)):
            prefix = word[:end]
            if prefix not in seen:
                seen.add(prefix)
                out.append(prefix)
    return " ".join(out)


_QUESTION_LEAD = re.compile(
    r"^\s*(?:(?:what|when|where|who|whom|whose|which|why|how)(?:\s+(?:many|much|long|often|old|far|kind|type|sort))?"
    r"(?:\s+of)?\s+)?(?:(?:do|does|did|is|are|was|were|has|have|had|can|could|would|will|should|might)\s+)?",
    re.IGNORECASE,
)


def statement_form(text: str) -> str:
    """A question turned into the statement it asks about, for the vector arm.

    Symmetric embedders put a question near other questions ("What did you find?")
    rather than near the statement that answers it; dropping the interrogative lead
    and the question mark moves it toward the answer. Non-questions come back as is.
    """
    stripped = text.strip()
    if not stripped.endswith("?") and not _QUESTION_LEAD.match(stripped).group(0):  # type: ignore[union-attr]
        return stripped
    body = _QUESTION_LEAD.sub("", stripped, count=1).rstrip(" ?")
    return body or stripped
