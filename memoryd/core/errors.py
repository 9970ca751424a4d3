"""The one exception tree of memoryd.

Adapters translate vendor errors into these; ``memoryd.rpc.status`` maps them
to gRPC status codes in a single table; jobs read ``retryable``::

    MemorydError                    retryable = False, spends_attempt = True, retry_after = None
    ├── InvalidRequest              INVALID_ARGUMENT  (names the field)
    ├── Unauthenticated             UNAUTHENTICATED   (no or bad tenant identity)
    ├── NotFound                    NOT_FOUND         (unknown or invisible id)
    ├── PermissionDenied            PERMISSION_DENIED (visible, but not yours to change)
    ├── Conflict                    ABORTED           retryable = True, spends_attempt = False (lost a
    │                                                 compare-and-swap: re-read and go again; a job re-plans)
    ├── AlreadyExists               ALREADY_EXISTS    (an idempotency key reused for another request)
    ├── PreconditionFailed          FAILED_PRECONDITION (e.g. an edit over the token budget)
    ├── NotReady                    FAILED_PRECONDITION (e.g. store built with another embedder)
    │   └── ProviderMissing         FAILED_PRECONDITION (no model configured; jobs wait)
    ├── LimitExceeded               RESOURCE_EXHAUSTED
    ├── ModelOutputInvalid          INTERNAL          (a model answered, but not as asked; permanent)
    └── Unavailable                 UNAVAILABLE       retryable = True (store, embedder, provider down)
        └── RateLimited             RESOURCE_EXHAUSTED retryable = True, honours ``retry_after``

Anything else is a bug: INTERNAL, logged once with its traceback. ``JobRunner`` reads only
these attributes: not retryable → the job fails; retryable → another attempt after
``retry_after`` or backoff; retryable without ``spends_attempt`` → run again soon without
counting an attempt (a re-plan). ``ProviderMissing`` parks the job until a model is configured.
"""

from __future__ import annotations


class MemorydError(Exception):
    """Root of every error memoryd raises on purpose."""

    retryable: bool = False
    """Whether the same call may succeed if simply tried again later."""
    spends_attempt: bool = True
    """Whether a job retrying after this error counts an attempt toward its limit."""
    retry_after: float | None = None
    """Seconds the failing dependency asked us to wait, when it said."""


class InvalidRequest(MemorydError):
    """The request is malformed; ``field`` names the offending field path."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


class Unauthenticated(MemorydError):
    """The call carries no usable identity (tenant)."""


class NotFound(MemorydError):
    """The thing does not exist, or the caller may not see it."""


class PermissionDenied(MemorydError):
    """The caller sees the thing but may not change it."""


class Conflict(MemorydError):
    """A concurrent change won; re-read and try again (nothing failed: a job re-plans without spending an attempt)."""

    retryable = True
    spends_attempt = False


class AlreadyExists(MemorydError):
    """The key is taken by something else (e.g. a request_id reused for a different request)."""


class PreconditionFailed(MemorydError):
    """The request is well-formed but the current state refuses it (e.g. over budget)."""


class NotReady(MemorydError):
    """The system is not in a state where the call can succeed."""


class LimitExceeded(MemorydError):
    """A size or rate limit was hit."""


class ModelOutputInvalid(MemorydError):
    """The model's answer failed validation (not JSON, wrong shape); retrying the same call won't help."""

    tokens: tuple[int, int] = (0, 0)
    """The prompt and completion tokens the provider reported for the answer (the call was paid for)."""


class Unavailable(MemorydError):
    """A dependency (storage, embedder, provider) is temporarily unreachable."""

    retryable = True

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RateLimited(Unavailable):
    """The provider throttled us (HTTP 429)."""


class ProviderMissing(NotReady):
    """No model provider is configured; model-bound work waits until one is."""
