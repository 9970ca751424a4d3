"""The PII floor: a deterministic redactor for identifiers that must not be kept by accident.

It finds e-mail addresses, phone numbers, payment-card numbers (Luhn-valid), IBANs (mod-97
valid), long digit identifiers and secrets shaped like API keys or tokens, and replaces each with
its type in brackets (``[email]``, ``[phone]``, ``[card]``, ``[iban]``, ``[id]``, ``[secret]``).
It is a floor, not a classifier: names and addresses pass. Checksums keep dates, prices, times
and version numbers out; ``bench pii`` measures detection and false positives on planted text.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum


class PiiPolicy(StrEnum):
    """What a tenant does with identifiers in text callers write directly."""

    OFF = "off"
    REDACT = "redact"
    BLOCK = "block"


_SECRETS = [
    r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}",  # OpenAI / Anthropic-style keys
    r"\bgh[pousr]_[A-Za-z0-9]{30,}",  # GitHub tokens
    r"\bgithub_pat_[A-Za-z0-9_]{30,}",
    r"\bxox[abprs]-[A-Za-z0-9-]{10,}",  # Slack
    r"\bAKIA[0-9A-Z]{16}\b",  # AWS access key id
    r"\bAIza[0-9A-Za-z_-]{35}",  # Google API key
    r"\bmdk_[0-9a-f]{16}_[A-Za-z0-9_-]{20,}",  # memoryd's own keys
    r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",  # JWT
    r"(?i)\b(?:api[_-]?key|access[_-]?token|secret|password|passwd)\b\s*[:=]\s*[^\s,;]{6,}",
    r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----",
]
_EMAIL = r"(?<![\w.+-])[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b"
_IBAN = r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b"
_CARD = r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])"
_PHONE = r"(?<![\w+])(?:\+\d{1,3}[ .-]?\d{1,4}|(?:\(\d{1,4}\)[ .-]?)?\d{2,4})(?:[ .-]\d{2,5}){1,4}(?![\w-])"
_PLUS_PHONE = r"(?<![\w+])\+\d{8,15}(?!\w)"
_LONG_DIGITS = r"(?<![\w.,-])\d{9,}(?!\w|[.,]\d)"


def _digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def luhn_valid(number: str) -> bool:
    """The Luhn checksum of a digit string."""
    total = 0
    for i, ch in enumerate(reversed(number)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def iban_valid(text: str) -> bool:
    """The ISO 13616 mod-97 check of an IBAN (spaces ignored)."""
    compact = text.replace(" ", "")
    if not 15 <= len(compact) <= 34:
        return False
    moved = compact[4:] + compact[:4]
    number = "".join(str(int(c, 36)) for c in moved)
    return int(number) % 97 == 1


def _card(match: str) -> bool:
    digits = _digits(match)
    return 13 <= len(digits) <= 19 and luhn_valid(digits) and len(set(digits)) > 1


_DATE_LIKE = re.compile(r"^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4})$")


def _phone(match: str) -> bool:
    """8-15 digits, grouped like a number people dial (not a date, a time or a range of years)."""
    digits = _digits(match)
    if not 8 <= len(digits) <= 15 or _DATE_LIKE.match(match.strip()):
        return False
    groups = re.split(r"[ .()-]+", match.strip("+ "))
    if all(len(g) == 4 and g[:2] in ("19", "20") for g in groups):
        return False  # "1998 2004": years
    return match.startswith("+") or match.startswith("(") or len(digits) >= 9


@dataclass(frozen=True, slots=True)
class _Pattern:
    label: str
    regex: re.Pattern[str]
    accept: Callable[[str], bool] = field(default=lambda _: True)


_PATTERNS = [
    *(_Pattern("secret", re.compile(p)) for p in _SECRETS),
    _Pattern("email", re.compile(_EMAIL)),
    _Pattern("iban", re.compile(_IBAN), iban_valid),
    _Pattern("card", re.compile(_CARD), _card),
    _Pattern("phone", re.compile(_PLUS_PHONE), _phone),
    _Pattern("phone", re.compile(_PHONE), _phone),
    _Pattern("id", re.compile(_LONG_DIGITS)),
]
LABELS = ("secret", "email", "iban", "card", "phone", "id")


@dataclass(frozen=True, slots=True)
class Redaction:
    """A text with its identifiers replaced, and how many of each kind."""

    text: str
    counts: dict[str, int]

    @property
    def total(self) -> int:
        """Identifiers replaced."""
        return sum(self.counts.values())


def redact(text: str) -> Redaction:
    """Replace every identifier the floor knows with ``[type]``; earlier patterns win overlaps."""
    counts: Counter[str] = Counter()
    for pattern in _PATTERNS:
        if not pattern.regex.search(text):
            continue

        def swap(m: re.Match[str], p: _Pattern = pattern) -> str:
            if "[" in m.group(0) or not p.accept(m.group(0)):
                return m.group(0)
            counts[p.label] += 1
            return f"[{p.label}]"

        text = pattern.regex.sub(swap, text)
    return Redaction(text, dict(counts))
