"""DataService over gRPC: decode, one service call, encode."""

from __future__ import annotations

from memoryd.app import App
from memoryd.core.data_rights import ErasureReceipt
from memoryd.rpc import convert
from memoryd.rpc._gen.memoryd.v1 import data_pb2 as dpb
from memoryd.rpc._gen.memoryd.v1 import data_pb2_grpc as dpb_grpc
from memoryd.rpc.identity import Ctx, caller
from memoryd.rpc.status import translated


def receipt(r: ErasureReceipt) -> dpb.ErasureReceipt:
    """An ErasureReceipt as a message."""
    out = dpb.ErasureReceipt(
        subject=r.subject,
        counts=r.counts,
        memory_ids=list(r.memory_ids),
        conversations=list(r.conversations),
        versions_purged=r.versions_purged,
        persistence_rewritten=r.persistence_rewritten,
        seconds=r.seconds,
    )
    out.at.CopyFrom(convert.to_timestamp(r.at))
    return out


class DataServicer(dpb_grpc.DataServiceServicer):
    """Exports and erasure."""

    def __init__(self, app: App) -> None:
        self._app = app

    @translated
    async def EraseEndUser(self, request: dpb.EraseEndUserRequest, context: Ctx) -> dpb.EraseEndUserResponse:
        """See the proto."""
        done = await self._app.erasure.erase_end_user(caller(context), request.end_user_id)
        return dpb.EraseEndUserResponse(receipt=receipt(done))
