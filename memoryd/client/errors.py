"""The client's exception tree: one class per gRPC status a caller handles differently."""

from __future__ import annotations

from typing import Any

import grpc
from google.rpc import error_details_pb2, status_pb2


class MemorydError(Exception):
    """A call failed; ``code`` is the gRPC status, ``details`` the server's message (it names the field).

    From the status's standard details: ``field``, the request field an INVALID_ARGUMENT is about;
    ``reason``, the code a refusal opens with (``"ENTITY_NAME_TAKEN"``, ``"FACT_SUPERSEDED"``…) to
    switch on; ``retry_after``, the seconds to wait before a retry when the server said.
    """

    def __init__(
        self,
        code: grpc.StatusCode,
        details: str,
        *,
        field: str | None = None,
        reason: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(f"{code.name}: {details}")
        self.code = code
        self.details = details
        self.field = field
        self.reason = reason
        self.retry_after = retry_after


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


_DETAILS_KEY = "grpc-status-details-bin"


def from_rpc_error(err: grpc.RpcError) -> MemorydError:
    """The exception for a failed call (other codes: the base class, ``code`` tells which)."""
    code: grpc.StatusCode = err.code()
    details: str = err.details() or ""
    found: dict[str, Any] = {}
    trailing: Any = err.trailing_metadata() if hasattr(err, "trailing_metadata") else None
    raw = next((item[1] for item in trailing or () if item[0] == _DETAILS_KEY), None)
    if isinstance(raw, bytes):
        for detail in status_pb2.Status.FromString(raw).details:
            if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad = error_details_pb2.BadRequest()
                detail.Unpack(bad)
                found["field"] = bad.field_violations[0].field if bad.field_violations else None
            elif detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                found["reason"] = info.reason
            elif detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
                retry = error_details_pb2.RetryInfo()
                detail.Unpack(retry)
                found["retry_after"] = retry.retry_delay.ToMilliseconds() / 1000
    return _BY_CODE.get(code, MemorydError)(code, details, **found)
