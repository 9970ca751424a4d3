"""PiiFloor: where the redactor runs, and what a tenant's policy does with callers' own text.

Everything memoryd derives itself — compaction summaries, memories the maintenance call
extracts, profile rewrites, review merges — is redacted before it is stored, always: no policy can
make memoryd invent a copy of a card number. Text a caller writes directly (Memorize,
UpdateMemory, AppendMessages, EditProfile, and the messages compaction files as they were) follows
the tenant's ``pii.policy``: ``off`` (the default: it is the caller's data), ``redact``, or
``block`` (INVALID_ARGUMENT naming the field and the kinds found, never the text). Replacements
are counted by kind; no log line ever holds the original.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from memoryd.core.errors import InvalidRequest
from memoryd.core.pii import PiiPolicy, redact


class PiiFloor:
    """The redactor's one door."""

    def __init__(self, policy_for: Callable[[str], PiiPolicy]) -> None:
        self._policy_for = policy_for
        self.redacted: Counter[str] = Counter()
        """Identifiers replaced since the process started, by kind."""

    def derived(self, text: str) -> str:
        """Text memoryd produced: always redacted."""
        result = redact(text)
        self.redacted.update(result.counts)
        return result.text

    def direct(self, tenant_id: str, text: str, field: str) -> str:
        """Text a caller wrote: as the tenant's policy says."""
        policy = self._policy_for(tenant_id)
        if policy is PiiPolicy.OFF or not text:
            return text
        result = redact(text)
        if not result.total:
            return text
        if policy is PiiPolicy.BLOCK:
            kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(result.counts.items()))
            raise InvalidRequest(field, f"holds identifiers ({kinds}); this tenant's pii.policy is block")
        self.redacted.update(result.counts)
        return result.text
