"""`memoryd mcp`: the memory tools over the Model Context Protocol (the official SDK), stdio or HTTP.

The facade is a client of a running daemon (``memoryd.client``), not a second owner of the store:
a runtime spawns it per agent over stdio, and it must cost a process of grpcio, not a copy of the
embedder and the tables. Every call therefore gets the daemon's validation, errors, keys, rate
limits and audit log unchanged; a failed call comes back as a tool error naming the status and
the field.
"""

from __future__ import annotations

import argparse
import functools
import inspect
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import grpc

from memoryd.client import MemoryClient, MemorydError, PermissionDenied, Unauthenticated, Unavailable, pb
from memoryd.client.errors import from_rpc_error
from memoryd.core.errors import InvalidRequest
from memoryd.core.errors import PermissionDenied as Refused
from memoryd.core.keys import KeyScope, Principal, Role, authorize
from memoryd.core.validation import check_agent_id, check_tenant
from memoryd.rpc.client import AuditServiceStub, apb, kpb

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

SCOPE_HELP = "<scopes>"
"""Where a tool's description lists the scopes: the registrar puts the facade's default first."""
_SCOPES_FOR_ANY = (
    "private (the default: this agent's, seen serving any contact), shared (every agent's), "
    "end_user (the contact's; give end_user_id) or tenant (admin keys)"
)
_SCOPES_SERVING = (
    "end_user (the default: this contact's), private (this agent's, seen serving any contact), "
    "shared (every agent's) or tenant (admin keys)"
)
WHOSE_HELP = "<whose>"
"""Where a tool that changes a memory says whose it may change."""
SERVING_HELP = "<serving>"
"""Where a listing says whom it serves."""
_HELP = {  # marker: (without a contact, serving one)
    SCOPE_HELP: (_SCOPES_FOR_ANY, _SCOPES_SERVING),
    WHOSE_HELP: (
        "A contact's memory needs their end_user_id.",
        "Only this contact's memories change here (a correction and wrong too; useful / not_useful on any).",
    ),
    SERVING_HELP: ("serving end_user_id, if given", "serving this contact"),
}
Registrar = Callable[..., Callable[[Callable[..., Any]], Any]]
"""``server.tool`` as the tool groups call it: ``@tool(description=...)``."""
ROUTING_RULE = (
    "Routing rule: should this influence the agent's behaviour in most future conversations, without "
    "anyone mentioning it? Yes: it belongs in the profile (edit_profile). No: memorize it in the archive."
)
CONTACT_RULE = (
    "Serving one contact: the agent's profile, in every contact's context, is not edited from here, and "
    "only this contact's memories are changed, corrected, reported wrong or forgotten; memorize what is "
    "worth keeping (this contact's by default)."
)


def build(client: MemoryClient, agent_id: str, contact: str = "", caller: Principal | None = None) -> MCPServer:
    """The MCP server (``mcp.server.mcpserver.MCPServer``) whose tools call the daemon as ``agent_id``.

    With ``contact`` (an end_user_id) every tool serves that contact and none takes an ``end_user_id``:
    a tool's arguments are the model's choice, and one contact's conversation could otherwise have it
    read or write another's memories by naming them. With ``caller`` (the key, as WhoAmI said) a tool
    whose call the key may never make is not offered: a model would spend turns on its refusals.
    """
    from mcp.server.mcpserver import MCPServer  # only this command needs the MCP SDK

    rule = f" serving contact {contact}. {CONTACT_RULE}" if contact else f". {ROUTING_RULE}"
    server = MCPServer("memoryd", instructions=f"Persistent memory for agent {agent_id}{rule}")
    tool = _tools(server, contact, caller)

    @tool(
        method="MemoryService/Recall",
        description=f"Search the archive (hybrid: meaning and words); optionally only some scopes ({SCOPE_NAMES}), "
        f"memories carrying any of the tags, or one collection. {ROUTING_RULE}",
    )
    def recall(
        query: str,
        limit: int = 0,
        min_score: float | None = None,
        end_user_id: str = "",
        collection: str = "",
        scopes: list[str] | None = None,
        tags: list[str] | None = None,
    ) -> list[dict[str, Any]]:
        # limit 0 and no min_score: the agent's settings decide (GetEffectiveConfig).
        extra: dict[str, Any] = {} if min_score is None else {"min_score": min_score}
        if collection or scopes or tags:
            chosen = [_scope(s, "scopes") for s in scopes or ()]
            extra["filter"] = pb.RecallFilter(collection=collection, scopes=chosen, tags=tags or [])
        hits = _call(client.recall, agent_id, query, limit=limit, end_user_id=end_user_id, **extra)
        out = []
        for h in hits:
            if not _shown(h.memory, contact):
                continue
            hit: dict[str, Any] = {"id": h.memory.id, "content": h.memory.content, "score": round(h.score, 4)}
            if h.memory.agent_id != agent_id:  # another agent's shared fact: the model should know whose it is
                hit["shared_by"] = h.memory.agent_id
            out.append(hit)
        return out

    @tool(
        method="MemoryService/Memorize",
        description=f"Store one memory in the archive (deduplicated; corrections are kept). scope: {SCOPE_HELP}. "
        f"pinned: keep it whatever its age (retention and reviews pass it by). {ROUTING_RULE}",
    )
    def memorize(
        content: str,
        tags: list[str] | None = None,
        semantic: bool = False,
        end_user_id: str = "",
        collection: str = "",
        scope: str = "",
        pinned: bool = False,
    ) -> dict[str, Any]:
        kind = pb.MEMORY_TYPE_SEMANTIC if semantic else pb.MEMORY_TYPE_EPISODIC
        where = {"scope": _scope(scope, "scope")} if scope else {}
        reply = _call(
            client.memorize,
            agent_id,
            content,
            tags=tags or [],
            memory_type=kind,
            end_user_id=end_user_id,
            collection=collection,
            pinned=pinned,
            **where,
        )
        return {"id": reply.memory.id, "deduplicated": reply.deduplicated}

    _curation_tools(tool, client, agent_id, contact)
    _profile_tools(tool, client, agent_id)
    _graph_tools(tool, client, agent_id)
    return server


def _curation_tools(tool: Registrar, client: MemoryClient, agent_id: str, contact: str) -> None:
    """Changing, rating, correcting, forgetting and listing memories."""

    def theirs(memory_id: str) -> None:
        """Serving one contact, only what is theirs changes: the agent's other memories reach every contact."""
        from mcp.server.mcpserver.exceptions import ToolError

        if contact and _call(client.get, agent_id, memory_id, end_user_id=contact).end_user_id != contact:
            raise ToolError(
                f"PERMISSION_DENIED: memory_id: {memory_id!r} is not contact {contact!r}'s; a facade serving "
                "one contact changes only that contact's memories"
            )

    @tool(
        method="MemoryService/UpdateMemory",
        description="Change a memory's content (re-embedded) or salience in place (its history keeps the earlier "
        f"text), or pin it (kept whatever its age) or unpin it. {WHOSE_HELP}",
    )
    def update_memory(
        memory_id: str,
        content: str | None = None,
        salience: float | None = None,
        end_user_id: str = "",
        pinned: bool | None = None,
    ) -> dict[str, Any]:
        given = {"content": content, "salience": salience, "pinned": pinned}
        fields = {name: value for name, value in given.items() if value is not None}
        theirs(memory_id)
        memory = _call(client.update, agent_id, memory_id, end_user_id=end_user_id, **fields)
        return {"id": memory.id, "content": memory.content, "salience": memory.salience, "pinned": memory.pinned}

    @tool(
        method="MemoryService/Feedback",
        description=f"Say how a recalled memory did ({', '.join(SIGNALS)}), or give its correction: the right "
        f"text, stored as a new memory that supersedes this one (kept, not deleted). {WHOSE_HELP}",
    )
    def feedback(memory_id: str, signal: str = "", correction: str = "", end_user_id: str = "") -> dict[str, Any]:
        said = _signal(signal or ("correction" if correction else ""))
        if correction or said == pb.FEEDBACK_SIGNAL_WRONG:  # a dispute files a finding a review may archive on
            theirs(memory_id)
        reply = _call(client.feedback, agent_id, memory_id, said, correction=correction, end_user_id=end_user_id)
        out: dict[str, Any] = {"id": reply.memory.id, "salience": round(reply.memory.salience, 4)}
        if reply.HasField("correction"):
            out["correction_id"] = reply.correction.id
        return out

    @tool(method="MemoryService/Forget", description=f"Delete one memory for good (by its full id). {WHOSE_HELP}")
    def forget(memory_id: str, end_user_id: str = "") -> str:
        theirs(memory_id)
        return str(_call(client.forget, agent_id, memory_id, end_user_id=end_user_id))

    @tool(
        method="MemoryService/ListMemories",
        description=f"Page through the visible archive, oldest first ({SERVING_HELP}; pinned_only: "
        "the memories kept whatever their age).",
    )
    def list_memories(limit: int = 50, end_user_id: str = "", pinned_only: bool = False) -> list[dict[str, Any]]:
        if limit < 1:  # the daemon would name its page_size, which the model never gave
            from mcp.server.mcpserver.exceptions import ToolError

            raise ToolError(f"INVALID_ARGUMENT: limit: must be at least 1, got {limit}")
        where = pb.RecallFilter(pinned_only=pinned_only)
        pages = client.list(agent_id, end_user_id=end_user_id, page_size=min(limit, 500), where=where)
        out = []
        for memory in _call(lambda: list(_first(pages, limit))):
            if not _shown(memory, contact):
                continue
            out.append({"id": memory.id, "content": memory.content, "tags": list(memory.tags), "pinned": memory.pinned})
        return out


def _profile_tools(tool: Registrar, client: MemoryClient, agent_id: str) -> None:
    """The profile and review tools (their stubs on the memory client's channel and metadata)."""

    @tool(method="ProfileService/GetProfile", description=f"The agent's profile: what it always knows. {ROUTING_RULE}")
    def get_profile() -> str:
        return str(_call(client.get_profile, agent_id).document)

    @tool(
        method="ProfileService/EditProfile",
        edits_profile=True,
        description="Add a line to a profile section (or to Pinned), or remove one (remove=true). The edit is "
        f"based on the current revision: a concurrent change is refused, read and retry. {ROUTING_RULE}",
    )
    def edit_profile(line: str, section: str = "Notes", pinned: bool = False, remove: bool = False) -> dict[str, Any]:
        profile = _call(client.edit_profile, agent_id, line, section=section, pinned=pinned, remove=remove)
        return {"revision": profile.revision, "document": profile.document}

    @tool(
        method="ProfileService/EditProfile",
        edits_profile=True,
        description="Replace a whole profile section's body (or Pinned's) with the given lines; empty content "
        f"clears it. Based on the current revision like edit_profile. {ROUTING_RULE}",
    )
    def replace_section(section: str, content: str, pinned: bool = False) -> dict[str, Any]:
        profile = _call(client.replace_section, agent_id, section, content, pinned=pinned)
        return {"revision": profile.revision, "document": profile.document}

    @tool(
        method="AuditService/ReviewMemories",
        description="Ask for a review of the archive (duplicates, contradictions, stale, clutter, disputed).",
    )
    def review_memories() -> str:
        stub = AuditServiceStub(client.channel)

        def ask() -> str:
            reply = stub.ReviewMemories(apb.ReviewMemoriesRequest(agent_id=agent_id), metadata=client.metadata)
            return f"review queued as job {reply.job_id}"

        return str(_call(ask))


def _graph_tools(tool: Registrar, client: MemoryClient, agent_id: str) -> None:
    """The memory graph: search it, explain a fact, assert one."""

    @tool(
        method="GraphService/SearchGraph",
        description="Search the memory graph: dated facts about people and things, and the block to use.",
    )
    def search_graph(query: str, end_user_id: str = "") -> dict[str, Any]:
        found = _call(client.graph.search, agent_id, query, end_user_id=end_user_id)
        return {"block": found.block, "facts": [_fact(f) for f in found.facts]}

    @tool(
        method="GraphService/ExplainFact",
        description="Why a graph fact holds: its sources, what it replaced and what replaced it.",
    )
    def explain_fact(fact_id: str, end_user_id: str = "") -> dict[str, Any]:
        found = _call(client.graph.explain, agent_id, fact_id, end_user_id=end_user_id)
        out = {"fact": _fact(found.fact), "superseded": [_fact(f) for f in found.superseded]}
        if found.HasField("superseded_by"):
            out["superseded_by"] = _fact(found.superseded_by)
        return out

    @tool(
        method="GraphService/AssertFact",
        description="Record a fact in the memory graph: subject, predicate (a word: works_at), object and the fact "
        f"as one sentence. scope: {SCOPE_HELP}. A fact it contradicts is ended, not deleted.",
    )
    def assert_fact(
        subject: str,
        predicate: str,
        object: str,  # noqa: A002  # the tool's argument name, as the proto and the design call it
        fact: str,
        scope: str = "",
        end_user_id: str = "",
    ) -> dict[str, Any]:
        reply = _call(
            client.graph.assert_fact,
            subject,
            predicate,
            object,
            fact,
            scope=_scope(scope or "private", "scope"),
            agent_id=agent_id,
            end_user_id=end_user_id,
        )
        return {"action": reply.action, "fact": _fact(reply.fact), "invalidated": list(reply.invalidated_fact_ids)}


def _tools(server: MCPServer, contact: str, caller: Principal | None) -> Registrar:
    """``server.tool``; serving one ``contact``, each tool's ``end_user_id`` is taken out and fixed to it.

    ``method``: the RPC the tool calls; a ``caller`` that may not call it is not offered the tool.
    """

    def tool(*, method: str, edits_profile: bool = False, **options: Any) -> Callable[[Callable[..., Any]], Any]:
        said = options.get("description", "")
        for marker, (for_any, serving) in _HELP.items():
            said = said.replace(marker, serving if contact else for_any)
        options["description"] = said.replace(ROUTING_RULE, CONTACT_RULE) if contact else said

        def register(fn: Callable[..., Any]) -> Any:
            if contact and edits_profile:  # every contact's context carries the profile: not edited from one
                return fn
            if caller is not None and not _may_call(caller, method):
                return fn
            return server.tool(**options)(_serving(fn, contact) if contact else fn)

        return register

    return tool


def _serving(fn: Callable[..., Any], contact: str) -> Callable[..., Any]:
    """``fn`` without its ``end_user_id`` parameter (the SDK builds the tool's schema from the signature)."""
    signature = inspect.signature(fn, eval_str=True)
    if "end_user_id" not in signature.parameters:
        return fn

    scoped = "scope" in signature.parameters

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        if scoped and not kwargs.get("scope"):
            kwargs["scope"] = "end_user"
        return fn(*args, **{**kwargs, "end_user_id": contact})

    kept = [  # what it writes is the contact's unless the model says otherwise
        p.replace(default="end_user") if p.name == "scope" else p
        for p in signature.parameters.values()
        if p.name != "end_user_id"
    ]
    call.__signature__ = signature.replace(parameters=kept)  # type: ignore[attr-defined]
    return call


def _shown(memory: Any, contact: str) -> bool:
    """Serving one contact, not what the agent wrote serving another (a private row carries their id)."""
    return not contact or memory.end_user_id in ("", contact)


def _fact(f: Any) -> dict[str, Any]:
    out = {"id": f.id, "fact": f.fact, "subject": f.subject, "predicate": f.predicate, "object": f.object}
    if f.HasField("valid_from"):
        out["valid_from"] = f.valid_from.ToDatetime().date().isoformat()
    if f.HasField("valid_to"):
        out["valid_to"] = f.valid_to.ToDatetime().date().isoformat()
    return out


_SCOPES = {
    "private": pb.SCOPE_PRIVATE,
    "shared": pb.SCOPE_SHARED,
    "end_user": pb.SCOPE_END_USER,
    "tenant": pb.SCOPE_TENANT,
}
SCOPE_NAMES = ", ".join(_SCOPES)
SIGNALS = {
    "useful": pb.FEEDBACK_SIGNAL_USEFUL,
    "not_useful": pb.FEEDBACK_SIGNAL_NOT_USEFUL,
    "wrong": pb.FEEDBACK_SIGNAL_WRONG,
    "correction": pb.FEEDBACK_SIGNAL_CORRECTION,
}


def _scope(name: str, field: str) -> Any:
    from mcp.server.mcpserver.exceptions import ToolError

    if name not in _SCOPES:
        raise ToolError(f"INVALID_ARGUMENT: {field}: {name!r} is not one of {SCOPE_NAMES}")
    return _SCOPES[name]


def _signal(name: str) -> Any:
    from mcp.server.mcpserver.exceptions import ToolError

    if name not in SIGNALS:
        raise ToolError(f"INVALID_ARGUMENT: signal: {name!r} is not one of {', '.join(SIGNALS)}")
    return SIGNALS[name]


def _first(items: Any, n: int) -> Any:
    for i, item in enumerate(items):
        if i >= n:
            return
        yield item


def _call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    from mcp.server.mcpserver.exceptions import ToolError  # the SDK shows a ToolError's message to the model

    try:
        return fn(*args, **kwargs)
    except MemorydError as exc:  # the daemon's refusal, as the tool's error (status and field kept)
        raise ToolError(str(exc)) from None
    except grpc.RpcError as err:  # the same from the other services' stubs
        raise ToolError(str(from_rpc_error(err))) from None


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `memoryd mcp`."""
    p = sub.add_parser("mcp", help="the memory tools over MCP (stdio or streamable HTTP), calling a daemon")
    p.add_argument("--target", default="127.0.0.1:50051", help="the daemon's HOST:PORT")
    p.add_argument(
        "--tenant", default=os.environ.get("MEMORYD_TENANT", ""), help="or MEMORYD_TENANT (with a key: the key's)"
    )
    p.add_argument("--agent", required=True, help="the agent the tools act as")
    p.add_argument("--end-user", default="", help="the one contact the tools serve (no tool may name another)")
    p.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    p.add_argument("--port", type=_port, default=8765, help="HTTP transport: the port (path /mcp)")
    p.set_defaults(run=_run)


def _caller(client: MemoryClient, tenant: str, agent_id: str) -> Principal | None:
    """The facade's key as the daemon sees it (None: the daemon does not answer yet); SystemExit when refused.

    A key of another tenant, one pinned to another agent, or none where keys exist failed each tool
    call alone, after the runtime had started the facade as working; a daemon not up yet is only said
    (a runtime may start its tools before the stack), and every tool is offered.
    """
    try:
        who = client.who_am_i()
    except Unavailable as exc:
        print(f"memoryd mcp: the daemon does not answer yet ({exc}); tools fail until it does", file=sys.stderr)
        return None
    except Unauthenticated as exc:
        raise SystemExit(f"memoryd mcp: MEMORYD_API_KEY: {exc}") from None
    except PermissionDenied as exc:
        raise SystemExit(f"memoryd mcp: --tenant {tenant!r}: {exc}") from None
    if who.role == kpb.KEY_ROLE_SYSTEM and not tenant:
        raise SystemExit("memoryd mcp: give --tenant: a system key acts on the tenant each call names")
    if who.agent_id and who.agent_id != agent_id:
        pinned = f"the key (MEMORYD_API_KEY) is pinned to agent {who.agent_id!r}"
        raise SystemExit(f"memoryd mcp: --agent {agent_id!r}: {pinned}")
    role = Role[kpb.KeyRole.Name(who.role).removeprefix("KEY_ROLE_")]  # by name: rpc.convert would load numpy
    scope = str(kpb.KeyScope.Name(who.scope)).removeprefix("KEY_SCOPE_").lower()
    scoped = KeyScope(scope) if scope in {s.value for s in KeyScope} else KeyScope.ALL  # unspecified: all
    return Principal(who.tenant_id, role, who.key_id, who.agent_id, scoped)


def _may_call(caller: Principal, method: str) -> bool:
    try:
        authorize(caller, method)
    except Refused:
        return False
    return True


def _port(value: str) -> int:
    if not value.isdigit() or not 1 <= int(value) <= 65535:
        raise argparse.ArgumentTypeError(f"{value!r} is not a port (1-65535)")
    return int(value)


def _run(args: argparse.Namespace) -> int:
    api_key = os.environ.get("MEMORYD_API_KEY", "")  # never on the command line, where ps shows it
    if not args.tenant and not api_key:
        raise SystemExit("memoryd mcp: give --tenant (or MEMORYD_TENANT), or a key in MEMORYD_API_KEY (it names one)")
    checks: list[tuple[str, str, Callable[[str], str]]] = [("--agent", args.agent, check_agent_id)]
    if args.tenant:
        checks.append(("--tenant", args.tenant, check_tenant))
    if args.end_user:
        checks.append(("--end-user", args.end_user, check_agent_id))
    for option, value, check in checks:
        try:  # said at the start, not by every tool call after it
            check(value)
        except InvalidRequest as exc:
            raise SystemExit(f"memoryd mcp: {option} {value!r}: {exc.problem}") from None
    with MemoryClient(args.target, tenant=args.tenant, api_key=api_key) as client:
        server = build(client, args.agent, args.end_user, _caller(client, args.tenant, args.agent))
        if args.transport == "stdio":
            server.run("stdio")
        else:
            server.run("streamable-http", host="127.0.0.1", port=args.port)
    return 0
