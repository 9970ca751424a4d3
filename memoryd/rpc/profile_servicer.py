"""ProfileService over gRPC: decode, one service call, encode."""

from __future__ import annotations

from memoryd.app import App
from memoryd.rpc._gen.memoryd.v1 import profile_pb2 as ppb
from memoryd.rpc._gen.memoryd.v1 import profile_pb2_grpc as ppb_grpc
from memoryd.rpc.convert import profile as wire
from memoryd.rpc.identity import Ctx, actor
from memoryd.rpc.status import translated


class ProfileServicer(ppb_grpc.ProfileServiceServicer):
    """Thin shell over ``App.profile``."""

    def __init__(self, app: App) -> None:
        self._app = app

    @translated
    async def GetProfile(self, request: ppb.GetProfileRequest, context: Ctx) -> ppb.GetProfileResponse:
        """See the proto."""
        profile = await self._app.working.profile.get(actor(context, request.agent_id, ""))
        return ppb.GetProfileResponse(profile=wire.profile(profile, self._app.working.profile.encoding))

    @translated
    async def EditProfile(self, request: ppb.EditProfileRequest, context: Ctx) -> ppb.EditProfileResponse:
        """See the proto."""
        who = actor(context, request.agent_id, "")
        profile = await self._app.working.profile.edit(who, request.expected_revision, wire.edit(request))
        return ppb.EditProfileResponse(profile=wire.profile(profile, self._app.working.profile.encoding))

    @translated
    async def ListProfileRevisions(
        self, request: ppb.ListProfileRevisionsRequest, context: Ctx
    ) -> ppb.ListProfileRevisionsResponse:
        """See the proto."""
        who = actor(context, request.agent_id, "")
        page = await self._app.working.profile.revisions(who, request.page_size or 20, wire.before(request.page_token))
        more = bool(page) and page[-1].revision > 1
        return ppb.ListProfileRevisionsResponse(
            revisions=[wire.profile(p, self._app.working.profile.encoding) for p in page],
            next_page_token=str(page[-1].revision) if more else "",
        )

    @translated
    async def GetProfileRevision(
        self, request: ppb.GetProfileRevisionRequest, context: Ctx
    ) -> ppb.GetProfileRevisionResponse:
        """See the proto."""
        profile = await self._app.working.profile.revision(actor(context, request.agent_id, ""), request.revision)
        return ppb.GetProfileRevisionResponse(profile=wire.profile(profile, self._app.working.profile.encoding))

    @translated
    async def RegenerateProfile(
        self, request: ppb.RegenerateProfileRequest, context: Ctx
    ) -> ppb.RegenerateProfileResponse:
        """See the proto."""
        job = await self._app.jobs.bootstrap.regenerate(actor(context, request.agent_id, ""))
        return ppb.RegenerateProfileResponse(job_id=job.key)
