"""ProfileService over gRPC: decode, one service call, encode."""

from __future__ import annotations

from memoryd.app import App
from memoryd.core.errors import InvalidRequest
from memoryd.core.models import EditKind, Profile, ProfileEdit
from memoryd.core.profile_doc import prompt_block
from memoryd.rpc import convert
from memoryd.rpc._gen.memoryd.v1 import profile_pb2 as ppb
from memoryd.rpc._gen.memoryd.v1 import profile_pb2_grpc as ppb_grpc
from memoryd.rpc.identity import Ctx, actor
from memoryd.rpc.status import translated


def _profile(p: Profile, encoding: str) -> ppb.Profile:
    out = ppb.Profile(
        agent_id=p.agent_id,
        document=p.document,
        token_count=p.token_count,
        budget_tokens=p.budget_tokens,
        revision=p.revision,
        prompt_block=prompt_block(p.document),
        encoding=encoding,
        source=p.source,
    )
    if p.updated_at is not None:
        out.updated_at.CopyFrom(convert.to_timestamp(p.updated_at))
    return out


def _edit(request: ppb.EditProfileRequest) -> ProfileEdit:
    kind = request.WhichOneof("edit") or ""
    if kind == "append":
        return ProfileEdit(EditKind.APPEND, request.append.section, request.append.line, request.append.pinned)
    if kind == "replace_section":
        r = request.replace_section
        return ProfileEdit(EditKind.REPLACE_SECTION, r.section, r.content, r.pinned)
    if kind == "remove_line":
        return ProfileEdit(
            EditKind.REMOVE_LINE, request.remove_line.section, request.remove_line.line, request.remove_line.pinned
        )
    if kind == "set_budget":
        return ProfileEdit(EditKind.SET_BUDGET, budget_tokens=request.set_budget.budget_tokens)
    return ProfileEdit(None)


def _before(token: str) -> int:
    if not token:
        return 0
    if not (token.isascii() and token.isdigit()):  # ('²' is a digit to isdigit, not to int)
        raise InvalidRequest("page_token", "is not a token this server issued")
    return int(token)


class ProfileServicer(ppb_grpc.ProfileServiceServicer):
    """Thin shell over ``App.profile``."""

    def __init__(self, app: App) -> None:
        self._app = app

    @translated
    async def GetProfile(self, request: ppb.GetProfileRequest, context: Ctx) -> ppb.GetProfileResponse:
        """See the proto."""
        profile = await self._app.profile.get(actor(context, request.agent_id, ""))
        return ppb.GetProfileResponse(profile=_profile(profile, self._app.profile.encoding))

    @translated
    async def EditProfile(self, request: ppb.EditProfileRequest, context: Ctx) -> ppb.EditProfileResponse:
        """See the proto."""
        who = actor(context, request.agent_id, "")
        profile = await self._app.profile.edit(who, request.expected_revision, _edit(request))
        return ppb.EditProfileResponse(profile=_profile(profile, self._app.profile.encoding))

    @translated
    async def ListProfileRevisions(
        self, request: ppb.ListProfileRevisionsRequest, context: Ctx
    ) -> ppb.ListProfileRevisionsResponse:
        """See the proto."""
        who = actor(context, request.agent_id, "")
        page = await self._app.profile.revisions(who, request.page_size or 20, _before(request.page_token))
        more = bool(page) and page[-1].revision > 1
        return ppb.ListProfileRevisionsResponse(
            revisions=[_profile(p, self._app.profile.encoding) for p in page],
            next_page_token=str(page[-1].revision) if more else "",
        )

    @translated
    async def GetProfileRevision(
        self, request: ppb.GetProfileRevisionRequest, context: Ctx
    ) -> ppb.GetProfileRevisionResponse:
        """See the proto."""
        profile = await self._app.profile.revision(actor(context, request.agent_id, ""), request.revision)
        return ppb.GetProfileRevisionResponse(profile=_profile(profile, self._app.profile.encoding))

    @translated
    async def RegenerateProfile(
        self, request: ppb.RegenerateProfileRequest, context: Ctx
    ) -> ppb.RegenerateProfileResponse:
        """See the proto."""
        job = await self._app.jobs.bootstrap.regenerate(actor(context, request.agent_id, ""))
        return ppb.RegenerateProfileResponse(job_id=job.key)
