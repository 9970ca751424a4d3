"""Identifiers and hashes. Pure functions; time and randomness are passed in."""

from __future__ import annotations

import hashlib
import json


def new_memory_id(unix_ms: int, random_bits: int) -> str:
    """A 32-hex-char id that sorts by creation time (UUIDv7 layout, no dashes).

    Time-ordered ids let ListMemories page by ``id > cursor`` and keep pages
    stable while new rows arrive.
    """
    ts = unix_ms & ((1 << 48) - 1)
    rand = random_bits & ((1 << 74) - 1)
    value = (ts << 80) | (0x7 << 76) | ((rand >> 62) << 64) | (0b10 << 62) | (rand & ((1 << 62) - 1))
    return f"{value:032x}"


def content_hash(content: str) -> str:
    """sha256 hex of the UTF-8 content."""
    return hashlib.sha256(content.encode("utf-8")).hexdigest()


def request_fingerprint(parts: object) -> str:
    """16 hex chars naming everything a request asked to store (``parts``: plain values, JSON-able).

    A retry under the same request id must ask for the same: a reused id with another text, scope,
    tag, contact, collection or set of items is a new request, never the first call's answer.
    """
    canonical = json.dumps(parts, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]
