"""DataService over gRPC: decode, one service call, encode."""

from __future__ import annotations

from collections.abc import AsyncIterator

from memoryd.app import App
from memoryd.core.data_rights import json_line
from memoryd.core.errors import InvalidRequest
from memoryd.rpc._gen.memoryd.v1 import data_pb2 as dpb
from memoryd.rpc._gen.memoryd.v1 import data_pb2_grpc as dpb_grpc
from memoryd.rpc.convert import data as wire
from memoryd.rpc.identity import Ctx, caller
from memoryd.rpc.status import translated, translated_stream


class DataServicer(dpb_grpc.DataServiceServicer):
    """Exports and erasure."""

    def __init__(self, app: App) -> None:
        self._app = app

    @translated
    async def EraseEndUser(self, request: dpb.EraseEndUserRequest, context: Ctx) -> dpb.EraseEndUserResponse:
        """See the proto."""
        done = await self._app.admin.erasure.erase_end_user(caller(context), request.end_user_id)
        return dpb.EraseEndUserResponse(receipt=wire.receipt(done))

    @translated_stream
    async def ExportTenant(
        self, request: dpb.ExportTenantRequest, context: Ctx
    ) -> AsyncIterator[dpb.ExportTenantResponse]:
        """See the proto."""
        async for record in self._app.admin.exports.export(caller(context), None, request.include_embeddings):
            yield dpb.ExportTenantResponse(line=json_line(record))

    @translated_stream
    async def ExportEndUser(
        self, request: dpb.ExportEndUserRequest, context: Ctx
    ) -> AsyncIterator[dpb.ExportEndUserResponse]:
        """See the proto."""
        if not request.end_user_id:
            raise InvalidRequest("end_user_id", "is required")
        records = self._app.admin.exports.export(caller(context), request.end_user_id, request.include_embeddings)
        async for record in records:
            yield dpb.ExportEndUserResponse(line=json_line(record))
