"""Client-side access to the generated stubs for memoryd's own tools (bench, demo).

Other packages must not import ``memoryd.rpc._gen`` directly; this module is
their door.
"""

from __future__ import annotations

from memoryd.rpc._gen.memoryd.v1 import memory_pb2 as pb
from memoryd.rpc._gen.memoryd.v1 import memory_pb2_grpc as pb_grpc
from memoryd.rpc.servicer import TENANT_METADATA_KEY

MemoryServiceStub = pb_grpc.MemoryServiceStub

__all__ = ["TENANT_METADATA_KEY", "MemoryServiceStub", "pb"]
