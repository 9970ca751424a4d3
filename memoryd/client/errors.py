"""The client's exception tree: one class per gRPC status a caller handles differently."""

from __future__ import annotations

import grpc


class MemorydError(Exception):
    """A call failed; ``code`` is the gRPC status, ``details`` the server's message (it names the field)."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(f"{code.name}: {details}")
        self.code = code
        self.details = details


class InvalidArgument(MemorydError):
    """The request was wrong; ``details`` names the field. Nothing was stored."""


class NotFound(MemorydError):
    """No such id, or not visible to the caller."""


class PermissionDenied(MemorydError):
    """Visible, but not the caller's to change; or the key's role does not allow the call."""


class AlreadyExists(MemorydError):
    """A request_id reused for another request."""


class FailedPrecondition(MemorydError):
    """The state refuses the call (a budget, another embedding model)."""


class ResourceExhausted(MemorydError):
    """A rate limit or a size limit; ``retry_after`` says how long to wait when the server said."""

    retry_after: float | None = None


class Unauthenticated(MemorydError):
    """No tenant, or a key that is missing, wrong or revoked."""


class Aborted(MemorydError):
    """A concurrent change won (a profile edit on a stale revision): read again and retry."""


class Unavailable(MemorydError):
    """Still unavailable after the client's retries (storage, the embedder or the daemon down)."""


_BY_CODE: dict[grpc.StatusCode, type[MemorydError]] = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidArgument,
    grpc.StatusCode.NOT_FOUND: NotFound,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDenied,
    grpc.StatusCode.ALREADY_EXISTS: AlreadyExists,
    grpc.StatusCode.FAILED_PRECONDITION: FailedPrecondition,
    grpc.StatusCode.RESOURCE_EXHAUSTED: ResourceExhausted,
    grpc.StatusCode.UNAUTHENTICATED: Unauthenticated,
    grpc.StatusCode.UNAVAILABLE: Unavailable,
    grpc.StatusCode.ABORTED: Aborted,
}


def from_rpc_error(err: grpc.RpcError) -> MemorydError:
    """The exception for a failed call (other codes: the base class, ``code`` tells which)."""
    code: grpc.StatusCode = err.code()
    details: str = err.details() or ""
    return _BY_CODE.get(code, MemorydError)(code, details)
