"""Client-side access to the generated stubs for memoryd's own tools (bench, demo).

Other packages must not import ``memoryd.rpc._gen`` directly; this module is
their door.
"""

from __future__ import annotations

from typing import Any

from memoryd.rpc._gen.memoryd.v1 import audit_pb2 as apb
from memoryd.rpc._gen.memoryd.v1 import audit_pb2_grpc as apb_grpc
from memoryd.rpc._gen.memoryd.v1 import config_pb2 as gpb
from memoryd.rpc._gen.memoryd.v1 import config_pb2_grpc as gpb_grpc
from memoryd.rpc._gen.memoryd.v1 import conversation_pb2 as cpb
from memoryd.rpc._gen.memoryd.v1 import conversation_pb2_grpc as cpb_grpc
from memoryd.rpc._gen.memoryd.v1 import data_pb2 as dpb
from memoryd.rpc._gen.memoryd.v1 import data_pb2_grpc as dpb_grpc
from memoryd.rpc._gen.memoryd.v1 import graph_pb2 as gr
from memoryd.rpc._gen.memoryd.v1 import graph_pb2_grpc as gr_grpc
from memoryd.rpc._gen.memoryd.v1 import jobs_pb2 as jpb
from memoryd.rpc._gen.memoryd.v1 import jobs_pb2_grpc as jpb_grpc
from memoryd.rpc._gen.memoryd.v1 import keys_pb2 as kpb
from memoryd.rpc._gen.memoryd.v1 import keys_pb2_grpc as kpb_grpc
from memoryd.rpc._gen.memoryd.v1 import memory_pb2 as pb
from memoryd.rpc._gen.memoryd.v1 import memory_pb2_grpc as pb_grpc
from memoryd.rpc._gen.memoryd.v1 import profile_pb2 as ppb
from memoryd.rpc._gen.memoryd.v1 import profile_pb2_grpc as ppb_grpc
from memoryd.rpc._gen.memoryd.v1 import reembed_pb2 as rpb
from memoryd.rpc._gen.memoryd.v1 import reembed_pb2_grpc as rpb_grpc

TENANT_METADATA_KEY = "x-tenant-id"
"""The call metadata key that names the tenant (the server reads it in ``memoryd.rpc.identity``)."""

MemoryServiceStub: Any = pb_grpc.MemoryServiceStub
"""The generated stub class (untyped: grpc_tools emits no annotations for it)."""

ProfileServiceStub: Any = ppb_grpc.ProfileServiceStub
JobServiceStub: Any = jpb_grpc.JobServiceStub
ConversationServiceStub: Any = cpb_grpc.ConversationServiceStub
AuditServiceStub: Any = apb_grpc.AuditServiceStub
KeyServiceStub: Any = kpb_grpc.KeyServiceStub
DataServiceStub: Any = dpb_grpc.DataServiceStub
ConfigServiceStub: Any = gpb_grpc.ConfigServiceStub
GraphServiceStub: Any = gr_grpc.GraphServiceStub
ReembedServiceStub: Any = rpb_grpc.ReembedServiceStub


def bearer(token: str) -> tuple[str, str]:
    """The call metadata entry that carries an API key."""
    return ("authorization", f"Bearer {token}")


__all__ = [
    "TENANT_METADATA_KEY",
    "AuditServiceStub",
    "ConfigServiceStub",
    "ConversationServiceStub",
    "DataServiceStub",
    "GraphServiceStub",
    "JobServiceStub",
    "KeyServiceStub",
    "MemoryServiceStub",
    "ProfileServiceStub",
    "ReembedServiceStub",
    "apb",
    "bearer",
    "cpb",
    "dpb",
    "gpb",
    "gr",
    "jpb",
    "kpb",
    "pb",
    "ppb",
    "rpb",
]
