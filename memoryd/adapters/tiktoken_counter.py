"""TokenCounter on tiktoken with rank files shipped inside memoryd (no download, ever).

tiktoken's own loader fetches rank files from the network at first use, which
fails offline. The o200k_base ranks ship here (``assets/o200k_base.tiktoken.gz``,
MIT, as published with tiktoken) and are checked against the sha256 tiktoken
itself pins for the uncompressed file before the encoding is built.
"""

from __future__ import annotations

import binascii
import gzip
import hashlib
from pathlib import Path

import tiktoken

from memoryd.core.errors import NotReady

_ASSETS = Path(__file__).parent / "assets"

# name -> (sha256 of the uncompressed rank file, split pattern, special tokens), as in tiktoken_ext.openai_public.
_ENCODINGS = {
    "o200k_base": (
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        "|".join(
            [
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""\p{N}{1,3}""",
                r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
                r"""\s*[\r\n]+""",
                r"""\s+(?!\S)""",
                r"""\s+""",
            ]
        ),
        {"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
    ),
}


class TiktokenCounter:
    """Exact counts in a shipped encoding (default o200k_base)."""

    def __init__(self, encoding: str = "o200k_base") -> None:
        if encoding not in _ENCODINGS:
            raise NotReady(f"token encoding {encoding!r} is not shipped; available: {sorted(_ENCODINGS)}")
        expected_sha, pattern, specials = _ENCODINGS[encoding]
        raw = gzip.decompress((_ASSETS / f"{encoding}.tiktoken.gz").read_bytes())
        if hashlib.sha256(raw).hexdigest() != expected_sha:
            raise NotReady(f"rank file for {encoding!r} does not match its pinned sha256")
        fields = raw.split()  # "<base64 token> <rank>" per line; split at once: half the time of per line
        ranks = dict(zip(map(binascii.a2b_base64, fields[0::2]), map(int, fields[1::2]), strict=True))
        self._encoding = tiktoken.Encoding(
            name=encoding, pat_str=pattern, mergeable_ranks=ranks, special_tokens=specials
        )

    @property
    def encoding(self) -> str:
        """The encoding name."""
        return self._encoding.name

    def count(self, text: str) -> int:
        """Tokens in ``text``; special-token strings are counted as ordinary text."""
        return len(self._encoding.encode_ordinary(text))
