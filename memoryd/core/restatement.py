"""When is a new text only a restatement of a stored one? Pure, deterministic, no model.

Insert-time deduplication may merge two texts only when they say the same thing, and an
embedding cannot tell that: with the embedded MiniLM, "Chen prefers Slack over email" and
its reverse score 0.99, a phone number with two digits changed 0.99, "left" vs "right" 0.98,
while true paraphrases ("based in" / "lives in") score 0.89 (``memoryd bench dedup``). A
correction ("Bob is not allergic to peanuts", "the order number is 99017") must survive as
a new memory, so the decision is lexical: two texts restate each other when their
*statement keys* are equal — the same words in the same order once case, punctuation,
articles, contractions, a few fillers and the present-tense copula are set aside. Any
difference in a number, a date or time, a negation, a name, a sign or symbol ("-$200",
"UTC-2", "< 3.11", "O-", "👎"), a question mark ("Is the launch on Friday?" asks what "The launch
is on Friday" states), a capital written past a word's first letter ("ABC", "5 MW" / "5 mW") or
any other content word makes them different memories;
rewordings the rule cannot prove equal stay two rows, which the review job (with a model) may
merge later. Merging less is the safe side: a kept duplicate costs a row, a wrong merge loses
what a user said.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections import Counter

_CONTRACTIONS = (
    (re.compile(r"\bcan['’]t\b"), "can not"),
    (re.compile(r"\bcannot\b"), "can not"),
    (re.compile(r"\bwon['’]t\b"), "will not"),
    (re.compile(r"\bshan['’]t\b"), "shall not"),
    (re.compile(r"n['’]t\b"), " not"),
    (re.compile(r"['’]re\b"), " are"),
    (re.compile(r"['’]m\b"), " am"),
    (re.compile(r"['’]ll\b"), " will"),
    (re.compile(r"['’]ve\b"), " have"),
    (re.compile(r"['’]d\b"), " would"),
    # "'s" is a possessive or "is"; both are set aside below, so "Bob's allergic" = "Bob is allergic".
    (re.compile(r"['’]s\b"), ""),
)
# Tokens. Words keep their combining marks ("कि" and "की" are two words) and drop inner hyphens
# ("Wi-Fi" = "wifi"). Numbers keep their inner separators ("555-0142", "7:30", "3.5") and a clock
# time its am/pm ("2am" is one token, never "2" plus the filler "am"); thousands commas are dropped
# so "1,250" and "1250" are one number, while "1,250" and "1,520" stay two. Signs and symbols are
# content, one token each: currency and units ("$", "°"), operators ("<", ">=", "+"), "%", "#",
# fractions and superscripts ("½", "²"), emoji ("👍" / "👎"), and a hyphen that is a sign: before a
# number or a symbol ("-5", "UTC-2", "-$200") or closing a token ("O-"). A question mark is content
# too (one token for a run of them; Spanish's opening "¿" adds nothing its closing one does not say),
# though not a fact marker: a question beside its answer is no contradiction. The rest of punctuation
# is set aside.
_HYPHENS = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2212": "-", "？": "?", "؟": "?", "¿": " "})
_KEPT_PUNCTUATION = frozenset("%‰‱#&@*/\\§¶†‡′″‴")
_FORMATTING = frozenset("`")  # Markdown's code marks, not content
_WORD, _DIGIT, _SYMBOL, _HYPHEN, _QUESTION, _OTHER = "w", "d", "s", "-", "?", " "


@functools.lru_cache(maxsize=8192)
def _kind(char: str) -> str:
    category = unicodedata.category(char)
    if category == "Nd":
        return _DIGIT
    if char == "-":
        return _HYPHEN
    if char == "?":
        return _QUESTION
    if "\ufe00" <= char <= "\ufe0f" or "\U000e0100" <= char <= "\U000e01ef":
        return _OTHER  # variation selectors: "👍\ufe0f" is "👍"
    if category[0] in "LM":
        return _WORD
    if char in _FORMATTING:
        return _OTHER
    if category[0] == "S" or category in ("No", "Nl") or char in _KEPT_PUNCTUATION:
        return _SYMBOL
    return _OTHER


def _tokens(text: str) -> list[str]:
    kinds = [_kind(char) for char in text]
    tokens: list[str] = []
    i, n = 0, len(text)
    while i < n:
        kind = kinds[i]
        if kind == _DIGIT or (text[i] == "." and i + 1 < n and kinds[i + 1] == _DIGIT):
            end = _number_end(text, kinds, i)
            tokens.append(text[i:end].replace(" ", ""))
        elif kind == _WORD:
            end = i
            while end < n and (
                kinds[end] == _WORD or (kinds[end] == _HYPHEN and end + 1 < n and kinds[end + 1] == _WORD)
            ):
                end += 1
            tokens.append(text[i:end].replace("-", ""))
        else:
            end = i + 1
            if kind == _SYMBOL or (kind == _HYPHEN and _is_sign(kinds, i)):
                tokens.append(text[i])
            elif kind == _QUESTION and tokens[-1:] != ["?"]:
                tokens.append("?")
        i = end
    return tokens


def _number_end(text: str, kinds: list[str], start: int) -> int:
    n, end = len(text), start + 1
    while end < n and (kinds[end] == _DIGIT or (text[end] in ".:/-" and end + 1 < n and kinds[end + 1] == _DIGIT)):
        end += 1
    clock = _CLOCK.match(text, end)
    return clock.end() if clock else end


_CLOCK = re.compile(r" ?[ap]m\b")


def _is_sign(kinds: list[str], at: int) -> bool:
    """A hyphen before a number or a symbol ("-5", "UTC-2", "-$200"), or closing a token ("O-"), not a dash."""
    after = kinds[at + 1] if at + 1 < len(kinds) else _OTHER
    before = kinds[at - 1] if at else _OTHER
    return after in (_DIGIT, _SYMBOL) or (before in (_WORD, _DIGIT, _SYMBOL) and after not in (_WORD, _HYPHEN))


_FILLERS = frozenset(
    {
        "a",
        "an",
        "the",  # articles
        "is",
        "are",
        "am",  # the present-tense copula ("Jordan is a vegetarian" = "Jordan is vegetarian");
        # tense is kept: "was" and "were" are content ("the report is due" differs from "was due")
        "also",
        "currently",
        "really",
        "just",
        "actually",
        "please",
        "very",
    }
)


@functools.lru_cache(maxsize=4096)
def statement_key(text: str) -> tuple[str, ...]:
    """The words, numbers, signs and symbols that carry the statement, lower-cased, in order.

    See the module docstring. Memoised: a group of writes compares each new text with every close
    one (and the stored rows near it), so the same texts come back many times within a group.
    """
    lowered = unicodedata.normalize("NFC", text).lower().translate(_HYPHENS)
    for pattern, replacement in _CONTRACTIONS:
        lowered = pattern.sub(replacement, lowered)
    lowered = re.sub(r"(?<=\d),(?=\d{3}\b)", "", lowered)
    return tuple(token for token in _tokens(lowered) if token not in _FILLERS)


def is_restatement(new: str, existing: str) -> bool:
    """Whether ``new`` says nothing ``existing`` does not (and the other way round)."""
    key = statement_key(new)
    return bool(key) and key == statement_key(existing) and cased_codes(new) == cased_codes(existing)


_RUN = re.compile(r"\w+(?:[-.:/]\w+)*")


_CLOCK_RUN = re.compile(r"(?:\d+(?:[.:]\d+)?)?[ap]m", re.IGNORECASE)


def cased_codes(text: str) -> tuple[str, ...]:
    """The runs whose case is content, as written and in order (keys, passwords, units, booking codes).

    Those are the runs mixing digits with upper- and lower-case letters ("Xk9p-2Lm", "Ab12") and
    those with a capital past the first letter of a word ("ABC", "XyZ", "MW" and "mW", "5K" and
    "5k"): such capitals are written on purpose, unlike a first letter's, which a sentence or a
    hurried typist sets either way ("Bob" and "bob" are one word). The statement key lower-cases,
    so a correction that changes only such a case ("the door code is xK9p") would otherwise restate
    the memory it corrects. A clock's "PM" is no code ("3PM" is "3pm").
    """
    runs = _RUN.findall(unicodedata.normalize("NFC", text))
    return tuple(r for r in runs if not _CLOCK_RUN.fullmatch(r) and (_mixes_case_and_digits(r) or _inner_capital(r)))


def _mixes_case_and_digits(run: str) -> bool:
    return any(c.isdigit() for c in run) and any(c.isupper() for c in run) and any(c.islower() for c in run)


def _inner_capital(run: str) -> bool:
    """A capital after a letter or digit of its word ("ABC", "iPhone", "5K"; not "Wi-Fi")."""
    return any(c.isupper() and before.isalnum() for before, c in itertools.pairwise(run))


# Whole words only: a language that negates inside a word (Turkish "-me", Japanese "-nai") or writes no
# spaces (Chinese "不") differs from the affirmative in that word or run anyway, so no merge rule is fooled.
_NEGATIONS = frozenset({
    "not", "no", "never", "none", "nobody", "nothing", "nowhere", "neither", "nor", "without",  # en
    "nicht", "kein", "keine", "keinen", "keinem", "keiner", "keines", "nie", "niemals", "nichts", "niemand",  # de
    "ne", "pas", "jamais", "aucun", "aucune", "rien",  # fr
    "nunca", "jamás", "ninguno", "ninguna", "ningún", "nada", "nadie", "tampoco",  # es
    "non", "nessuno", "nessuna", "niente", "nulla",  # it ("mai", never, is French for May)
    "não", "nenhum", "nenhuma", "ninguém",  # pt
    "niet", "geen", "nooit", "niets",  # nl ("niemand" above)
    "inte", "ej", "aldrig", "ingen", "inget", "inga", "ikke", "aldri",  # sv, da, no
    "nigdy", "żaden", "żadna", "żadne", "nikt",  # pl ("nie" above)
    "не", "нет", "никогда", "ничего", "никто", "ні", "ніколи",  # ru, uk
    "değil", "asla",  # tr
})  # fmt: skip
_TIME_WORDS = frozenset({
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december", "today", "tomorrow", "yesterday", "tonight", "morning", "afternoon", "evening",
    "night", "noon", "midnight", "spring", "summer", "autumn", "fall", "winter", "weekend", "weekday",
    # Weekdays and months in lower case elsewhere (German's are capitalised, so names already), but those
    # that are also names or words ("Mei", "Mai", "Julio", "Domingo", "Avril", "Mars", "mayo"): a person
    # taken for a date would make two people's facts one fact that changed.
    "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche", "janvier", "février",
    "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre",  # fr
    "lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "enero", "febrero", "marzo",
    "junio", "septiembre", "octubre", "noviembre", "diciembre",  # es
    "lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "gennaio", "febbraio",
    "aprile", "maggio", "giugno", "luglio", "settembre", "ottobre", "dicembre",  # it
    "segundafeira", "terçafeira", "quartafeira", "quintafeira", "sextafeira", "janeiro", "fevereiro", "março",
    "junho", "julho", "setembro", "outubro", "dezembro",  # pt (weekdays as the key joins them)
    "maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag", "januari", "februari",
    "maart", "oktober",  # nl
})  # fmt: skip
_CAPITALISED = re.compile(r"(?<![\w'’-])[^\W\d_][\w'’-]*")  # the runs starting with a letter; capitals kept below
_POSSESSIVE = re.compile(r"['’]s$")
# Capitalised only because they open a sentence: not names.
_SENTENCE_WORDS = frozenset({
    "the", "a", "an", "i", "we", "you", "he", "she", "they", "it", "this", "that", "these", "those", "my", "our",
    "your", "his", "her", "their", "its", "there", "here", "when", "what", "where", "who", "why", "how", "which",
    "yes", "no", "not", "and", "but", "or", "so", "if", "then", "also", "please", "thanks", "ok", "okay", "user",
    "customer", "client", "team", "agent", "assistant", "some", "all", "every", "each", "one", "after", "before",
    "in", "on", "at", "for", "from", "to", "with", "by", "as", "is", "are", "was", "were", "do", "does", "did",
})  # fmt: skip


def fact_markers(text: str) -> dict[str, frozenset[str]]:
    """The parts of a text that make two similar texts different facts.

    ``number``: numbers (times and ids included); ``time``: weekday, month and relative-time words;
    ``negation``: how many negations it holds (as a one-element set); ``symbol``: its signs and
    symbols with their order ("$", "-", "<", "%", "👎"); ``name``: capitalised words other than the
    common ones a sentence opens with.
    """
    key = statement_key(text)
    return {
        "number": frozenset(w for w in key if _is_number(w)),
        "time": frozenset(w for w in key if w in _TIME_WORDS),
        "negation": frozenset({str(sum(1 for w in key if w in _NEGATIONS))}),
        # In order, as one string: "> = 3" and "= > 3" are different conditions.
        "symbol": frozenset({" ".join(w for w in key if _is_symbol(w))}),
        # A capitalised run's words as the statement key has them ("Mary-Jane" → "maryjane", "Bob's" → "bob",
        # "Room4B" → "room", "b"), so a text never differs from itself in a name.
        "name": frozenset(
            w
            for run in _CAPITALISED.findall(text)
            if run[0].isupper()
            for w in statement_key(run)
            if _kind(w[0]) == _WORD and w not in _SENTENCE_WORDS and w not in _TIME_WORDS  # "Monday": a time
        ),
    }


def differing_markers(a: str, b: str) -> list[str]:
    """Which kinds of fact marker differ between two texts, in a fixed order ([] when none).

    Beside ``fact_markers``' kinds: ``case``, a run whose case is content (``cased_codes``: "ABC" /
    "abc", "5 MW" / "5 mW"), and ``question``, one text asking what the other states ("Is the launch
    on Friday?"). A question differs from its statement but contradicts nothing: ``conflicting_markers``
    and ``contradicting`` leave it out.
    """
    left, right = fact_markers(a), fact_markers(b)
    differ = [kind for kind in ("number", "time", "negation", "symbol") if left[kind] != right[kind]]
    if set(cased_codes(a)) != set(cased_codes(b)):
        differ.append("case")
    # A name differs only when the other text lacks the word altogether ("Dune" and "dune" are one name).
    words_a, words_b = set(statement_key(a)), set(statement_key(b))
    if (left["name"] - words_b) | (right["name"] - words_a):
        differ.append("name")
    if ("?" in words_a) != ("?" in words_b):
        differ.append("question")
    return differ


def contradicting(differ: list[str]) -> list[str]:
    """The marker kinds that make two statements of one fact contradict: all but a question's."""
    return [kind for kind in differ if kind != "question"]


def says_nothing_new(new: str, existing: str) -> bool:
    """Whether the two texts differ in no fact marker and in no word but common ones, either way.

    A model may call a text a restatement (or a correction) of a memory; it is merged only when this
    holds, so what differs ("dislikes" for "likes", another day, another name) is kept as a memory of
    its own. Both ways: a correction may take a word out ("Ich wohne in Berlin" for "Ich wohne nicht
    in Berlin", "lives in Oslo" for "used to live in Oslo"), and the shorter text is then the news.
    """
    if differing_markers(new, existing):
        return False
    words_new, words_old = ({_plain(w) for w in statement_key(t)} - _SENTENCE_WORDS for t in (new, existing))
    return words_new == words_old


def _plain(word: str) -> str:
    """A word without a plural's or possessive's ending ("mondays", "alice's": "monday", "alice")."""
    word = _POSSESSIVE.sub("", word)
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def conflicting_markers(a: str, b: str) -> list[str]:
    """The marker kinds in which two texts state one fact differently ([] when they are not one fact).

    Two texts contradict each other only when they say the same thing of the same subject and
    differ in a fact marker: once the marker words are set aside (numbers, time words, negations,
    signs and symbols, names), at most one other word may differ ("no longer prefers" / "prefers"); and a different
    name opening both texts is a different subject, not a contradiction ("Sofia is allergic to
    peanuts" and "Ingrid is allergic to peanuts" are two facts).
    """
    differ = contradicting(differing_markers(a, b))
    if not differ:
        return []
    key_a, key_b = statement_key(a), statement_key(b)
    names = fact_markers(a)["name"] | fact_markers(b)["name"]
    if key_a and key_b and key_a[0] != key_b[0] and key_a[0] in names and key_b[0] in names:
        return []  # another subject
    rest_a = [w for w in key_a if not _is_marker(w, names)]
    rest_b = [w for w in key_b if not _is_marker(w, names)]
    extra = Counter(rest_a)
    extra.subtract(Counter(rest_b))
    return differ if sum(abs(n) for n in extra.values()) <= 1 else []


def _is_marker(word: str, names: frozenset[str]) -> bool:
    return _is_number(word) or _is_symbol(word) or word in _TIME_WORDS or word in _NEGATIONS or word in names


def _is_number(token: str) -> bool:
    return _kind(token[0]) == _DIGIT or (token[0] == "." and len(token) > 1)


def _is_symbol(token: str) -> bool:
    return len(token) == 1 and _kind(token) in (_SYMBOL, _HYPHEN)
