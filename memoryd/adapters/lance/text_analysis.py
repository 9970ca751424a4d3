"""The archive's full-text analysis in a tenant's language: the ``search_text`` index's settings, as Lance names them.

English (the default) is stemmed and loses its stop words; another language the index can stem
(``core.query_terms.TEXT_LANGUAGES``, chosen per tenant with ``recall.text_language``) is stemmed by
its own Snowball stemmer and keeps every word: the in-memory copies would otherwise have to repeat
each language's stop-word list, and the gain measured for a language's stemming came without one
(``docs/benchmarks.md``, "Other languages and embedders"). Accents fold and CJK runs are pairs in
every language (``core.query_terms.index_text``). An index says which language it was built in (its
details): the copies tokenize with that one, and the maintenance rebuilds an index whose language is
not its tenant's (``text_languages``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lancedb.index import FTS

from memoryd.core.query_terms import DEFAULT_TEXT_LANGUAGE

_ENGLISH_INDEX = FTS(with_position=True)


def search_text_index(language: str) -> FTS:
    """The ``search_text`` index's settings for a tenant writing in ``language`` (``TEXT_LANGUAGES``)."""
    if language == DEFAULT_TEXT_LANGUAGE:
        return _ENGLISH_INDEX
    return FTS(with_position=True, language=language.capitalize(), remove_stop_words=False)


def tokenizer_options(language: str) -> dict[str, Any]:
    """``lance.tokenize``'s options beyond the defaults for a language other than English (its index's)."""
    return {"language": language.capitalize(), "remove_stop_words": False}


def built_language(details: Mapping[str, Any] | None) -> str:
    """The language a ``search_text`` index was built in, from its details (an index without them: English)."""
    language = (details or {}).get("language")
    return str(language).lower() if language else DEFAULT_TEXT_LANGUAGE
