"""ReembedService over gRPC: decode, one service call, encode (the caller's own tenant only)."""

from __future__ import annotations

from memoryd.app import App
from memoryd.core.errors import InvalidRequest, NotReady
from memoryd.rpc._gen.memoryd.v1 import reembed_pb2 as rpb
from memoryd.rpc._gen.memoryd.v1 import reembed_pb2_grpc as rpb_grpc
from memoryd.rpc.convert import reembed as wire
from memoryd.rpc.identity import Ctx, caller
from memoryd.rpc.status import translated
from memoryd.services.reembed import Reembed

_NOT_CONFIGURED = "this daemon has no re-embed target: configure [reembed] (enabled = true, model, ...) and restart it"


class ReembedServicer(rpb_grpc.ReembedServiceServicer):
    """Re-embedding, per tenant."""

    def __init__(self, app: App) -> None:
        self._app = app

    def _job(self) -> tuple[Reembed, str]:
        target = self._app.memory.spaces.target
        if self._app.memory.reembed is None or target is None:
            raise NotReady(_NOT_CONFIGURED)
        return self._app.memory.reembed, target.model_name

    @translated
    async def Reembed(self, request: rpb.ReembedRequest, context: Ctx) -> rpb.ReembedResponse:
        """See the proto."""
        job, _ = self._job()
        if not request.model:
            raise InvalidRequest("model", "is required")
        record = await job.start(self._app.jobs.service, caller(context).tenant_id, request.model)
        return rpb.ReembedResponse(job_id=record.key)

    @translated
    async def GetReembedStatus(
        self, request: rpb.GetReembedStatusRequest, context: Ctx
    ) -> rpb.GetReembedStatusResponse:
        """See the proto."""
        job, model = self._job()
        return rpb.GetReembedStatusResponse(
            status=wire.status(await job.tenant_status(caller(context).tenant_id), model)
        )

    @translated
    async def SwitchRecallModel(
        self, request: rpb.SwitchRecallModelRequest, context: Ctx
    ) -> rpb.SwitchRecallModelResponse:
        """See the proto."""
        job, model = self._job()
        progress = await job.switch_tenant(caller(context).tenant_id, request.back)
        return rpb.SwitchRecallModelResponse(status=wire.status(progress, model))
