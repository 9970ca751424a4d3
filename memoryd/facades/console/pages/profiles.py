"""Profiles and conversations: a profile's revisions, a diff of two, restoring one; a conversation's context.

Restoring asks first, showing what would change (the current revision against the one chosen), then
makes that revision's document current as a new revision (EditProfile's restore_revision). The
context is what the model would be sent, with its token breakdown.
"""

from __future__ import annotations

import difflib
from typing import Any

from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from memoryd.facades.console.daemon import Refused
from memoryd.facades.console.web import Console, View, link, page
from memoryd.rpc.client import cpb, ppb

DEFAULT_WINDOW = 8192
"""The window a conversation's context is assembled for unless the page names one (its listing does)."""

REVISIONS = 50
"""Revisions listed on the page (newest first)."""


async def profiles(view: View) -> Response:
    """An agent's profile, its revisions and a diff of two (or, asked to restore one, the current against it)."""
    agent = view.agent
    values: dict[str, Any] = {"agent": agent, "profile": None, "revisions": [], "diff": [], "pair": ()}
    values |= {"restore": "", "done": view.arg("done")}
    if agent:
        got = await view.call(view.daemon.profiles.GetProfile, ppb.GetProfileRequest(agent_id=agent))
        values["profile"] = got.profile
        values["stranger"] = got.profile.revision == 0 and await view.owns_nothing(agent)
        listing = ppb.ListProfileRevisionsRequest(agent_id=agent, page_size=REVISIONS)
        listed = await view.call(view.daemon.profiles.ListProfileRevisions, listing)
        values["revisions"] = list(listed.revisions)
        older, newer = view.whole("from", 0), view.whole("to", 0)  # not a number: refused, not left undiffed
        if restore := view.whole("restore", 0):  # a revision it does not have: GetProfileRevision's NOT_FOUND
            older, newer, values["restore"] = got.profile.revision, restore, restore
        if older and newer:
            documents = []
            for revision in (older, newer):
                request = ppb.GetProfileRevisionRequest(agent_id=agent, revision=revision)
                documents.append((await view.call(view.daemon.profiles.GetProfileRevision, request)).profile.document)
            before, after = documents[0].splitlines(), documents[1].splitlines()
            diff = difflib.unified_diff(before, after, f"revision {older}", f"revision {newer}", lineterm="")
            values["diff"] = list(diff)
            values["pair"] = (older, newer)
    return view.render("profiles.html", **values)


async def conversation(view: View) -> Response:
    """An agent's conversations, latest first (operators: every contact's); one's context as GetContext assembles it."""
    agent, contact, conversation_id = view.agent, view.arg("contact"), view.arg("id")
    context, listed, next_link, stranger = None, None, "", False
    window = view.arg("window") or str(DEFAULT_WINDOW)
    if agent and conversation_id:
        if not window.isdigit() or len(window) > 8:
            raise Refused("INVALID_ARGUMENT", f"context_window_tokens: {window!r} is not a number of tokens")
        request = cpb.GetContextRequest(
            agent_id=agent, end_user_id=contact, conversation_id=conversation_id, context_window_tokens=int(window)
        )
        context = await view.call(view.daemon.conversations.GetContext, request)
    elif agent:
        everyone = view.caller.may("operator") and not contact
        wanted = cpb.ListConversationsRequest(
            agent_id=agent, end_user_id=contact, all_contacts=everyone, page_size=50, page_token=view.arg("page")
        )
        reply = await view.call(view.daemon.conversations.ListConversations, wanted)
        listed = list(reply.conversations)
        stranger = not listed and await view.owns_nothing(agent)
        if reply.next_page_token:
            next_link = link("/conversations", agent=agent, contact=contact, page=reply.next_page_token)
    values: dict[str, Any] = {
        "agent": agent,
        "contact": contact,
        "context": context,
        "conversations": listed,
        "next_link": next_link,
        "window": window,
        "stranger": stranger,
    }
    return view.render("conversation.html", conversation_id=conversation_id, **values)


async def restore(view: View) -> Response:
    """Make the chosen revision's document current again, at the revision the confirmation showed."""
    agent, revision = view.agent, view.whole("revision", 0)
    request = ppb.EditProfileRequest(
        agent_id=agent,
        expected_revision=view.whole("expected", 0),
        restore_revision=ppb.RestoreRevision(revision=revision),
    )
    await view.call(view.daemon.profiles.EditProfile, request)
    return RedirectResponse(link("/profiles", agent=agent, done=f"restored revision {revision}"), 303)


def routes(console: Console) -> list[Route]:
    """The routes of the view."""
    return [
        Route("/profiles", page(console, profiles), methods=["GET"]),
        Route("/profiles", page(console, restore), methods=["POST"]),
        Route("/conversations", page(console, conversation), methods=["GET"]),
    ]
