"""memoryd's Python client: typed sync and async calls over the generated stubs.

It needs only ``grpcio`` and ``protobuf`` (none of the server's dependencies)::

    from memoryd.client import MemoryClient

    with MemoryClient("127.0.0.1:50051", tenant="acme", api_key="mdk_...") as memory:
        memory.memorize("assistant", "Caroline prefers espresso", tags=["preferences"])
        for hit in memory.recall("assistant", "What does Caroline drink?", min_score=0.5):
            print(round(hit.score, 2), hit.memory.content)

Every call carries the tenant (and the key) as metadata and a deadline; only UNAVAILABLE is
retried, with exponential backoff and jitter (a Memorize gets a ``request_id`` when it has none,
so its retry cannot store twice); errors arrive as the small exception tree of ``errors``.
"""

from memoryd.client.errors import (
    Aborted,
    AlreadyExists,
    FailedPrecondition,
    InvalidArgument,
    MemorydError,
    NotFound,
    PermissionDenied,
    ResourceExhausted,
    Unauthenticated,
    Unavailable,
)
from memoryd.client.jobs import JobUpdate
from memoryd.client.memory import AsyncMemoryClient, ClientClosed, MemoryClient
from memoryd.rpc.client import gr, pb

__all__ = [
    "Aborted",
    "AlreadyExists",
    "AsyncMemoryClient",
    "ClientClosed",
    "FailedPrecondition",
    "InvalidArgument",
    "JobUpdate",
    "MemoryClient",
    "MemorydError",
    "NotFound",
    "PermissionDenied",
    "ResourceExhausted",
    "Unauthenticated",
    "Unavailable",
    "gr",
    "pb",
]
