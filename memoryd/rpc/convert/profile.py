"""Converters of the profile service's messages (``profile_servicer``: decode → call → encode)."""

from __future__ import annotations

from memoryd.core.errors import InvalidRequest
from memoryd.core.models import EditKind, Profile, ProfileEdit
from memoryd.core.profile_doc import prompt_block
from memoryd.rpc._gen.memoryd.v1 import profile_pb2 as ppb


def profile(p: Profile, encoding: str) -> ppb.Profile:
    """A profile on the wire, in ``encoding``'s token counts."""
    return ppb.Profile(
        agent_id=p.agent_id,
        document=p.document,
        token_count=p.token_count,
        budget_tokens=p.budget_tokens,
        revision=p.revision,
        prompt_block=prompt_block(p.document),
        encoding=encoding,
        source=p.source,
        updated_at=p.updated_at,
    )


def edit(request: ppb.EditProfileRequest) -> ProfileEdit:
    """The one edit an EditProfileRequest holds, as a core value (INVALID_ARGUMENT when it holds none)."""
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
    if kind == "restore_revision":
        return ProfileEdit(EditKind.RESTORE_REVISION, revision=request.restore_revision.revision)
    return ProfileEdit(None)


def before(token: str) -> int:
    """The revision a ListProfileRevisions page token names (0: from the newest)."""
    if not token:
        return 0
    if not (token.isascii() and token.isdigit()):  # ('²' is a digit to isdigit, not to int)
        raise InvalidRequest("page_token", "is not a token this server issued")
    return int(token)
