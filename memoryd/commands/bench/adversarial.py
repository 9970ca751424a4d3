"""`memoryd bench adversarial`: keys of three tenants and every role try what the rules forbid.

Setup: three tenants, each with an admin, an operator, an agent key and an agent key pinned to
``a0``; the owners write tenant rows (admin), private, shared and end_user rows of two agents and
two contacts, and conversations. Attack: random attempts, each with one key, replaying ids, page
tokens, conversation ids and key ids harvested from the other tenants, agents and contacts:
reads and writes of other tenants' rows (with and without naming their tenant), of other agents'
private rows, of other contacts' rows, tenant-row writes without admin, pinned keys acting as
other agents, methods above the key's role, exports and erasures of others. Each attempt has one
documented answer; anything else is a failure. Rows returned are checked against who may see
them, and every table of every tenant is compared before and after: nothing may change.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import lancedb

from memoryd.app import App, build_app
from memoryd.commands.arg_types import positive_int
from memoryd.commands.bench.daemon import Daemon
from memoryd.commands.bench.report import environment, table, write_json
from memoryd.config import load_settings
from memoryd.core.keys import KeyScope, Role
from memoryd.rpc.client import (
    AuditServiceStub,
    ConversationServiceStub,
    DataServiceStub,
    JobServiceStub,
    KeyServiceStub,
    MemoryServiceStub,
    apb,
    bearer,
    cpb,
    dpb,
    jpb,
    kpb,
    pb,
)

TENANTS = ("t0", "t1", "t2")
AGENTS = ("a0", "a1")
CONTACTS = ("u0", "u1")
OK, DENIED, NOT_FOUND, UNAUTH = (
    grpc.StatusCode.OK,
    grpc.StatusCode.PERMISSION_DENIED,
    grpc.StatusCode.NOT_FOUND,
    grpc.StatusCode.UNAUTHENTICATED,
)


@dataclass(frozen=True)
class Key:
    """One key of the setup."""

    tenant: str
    role: Role
    token: str
    key_id: str
    pinned: str = ""
    scope: KeyScope = KeyScope.ALL

    @property
    def label(self) -> str:
        """``t0/agent@a0``, ``t0/admin[read_only]``."""
        scoped = f"[{self.scope.value}]" if self.scope is not KeyScope.ALL else ""
        return f"{self.tenant}/{self.role.label}" + (f"@{self.pinned}" if self.pinned else "") + scoped


@dataclass(frozen=True)
class Row:
    """A seeded memory and who may see it."""

    memory_id: str
    tenant: str
    agent: str
    contact: str
    scope: str


@dataclass
class World:
    """What the setup made and harvested."""

    keys: list[Key]
    rows: list[Row] = field(default_factory=list)
    page_tokens: dict[tuple[str, str, str], str] = field(default_factory=dict)
    conversations: list[tuple[str, str, str, str]] = field(default_factory=list)
    """(tenant, agent, contact, conversation id)."""


async def keys_for(app: App) -> list[Key]:
    """The setup's keys, per tenant: admin, operator, agent, agent pinned to a0, read-only admin, careful agent.

    The last two are scoped: a read-only admin and a non-destructive agent.
    """
    out = []
    everything, read_only, careful = KeyScope.ALL, KeyScope.READ_ONLY, KeyScope.NON_DESTRUCTIVE
    made: list[tuple[Role, str, KeyScope]] = [(Role.ADMIN, "", everything), (Role.OPERATOR, "", everything)]
    made += [(Role.AGENT, "", everything), (Role.AGENT, "a0", everything)]
    made += [(Role.ADMIN, "", read_only), (Role.AGENT, "", careful)]
    for tenant in TENANTS:
        for role, pin, scope in made:
            key, token = await app.admin.keys.create(tenant, role, pin, "adversarial", scope=scope)
            out.append(Key(tenant, role, token, key.key_id, pin, scope))
    return out


def create_keys(data_dir: Path) -> list[Key]:
    """The setup's keys, written to the store before the daemon starts."""

    async def make() -> list[Key]:
        settings = load_settings(None, storage={"uri": str(data_dir), "maintenance_enabled": False})
        async with build_app(settings) as app:
            return await keys_for(app)

    return asyncio.run(make())


def visible(row: Row, tenant: str, agent: str, contact: str) -> bool:
    """The visibility rule, restated independently of the server's code."""
    if row.tenant != tenant:
        return False
    if row.scope in ("tenant", "shared"):
        return True
    if row.scope == "private":
        return row.agent == agent
    return bool(contact) and row.contact == contact


_SCOPES = {"private": pb.SCOPE_PRIVATE, "shared": pb.SCOPE_SHARED, "end_user": pb.SCOPE_END_USER}


def seed(channel: grpc.Channel, keys: list[Key]) -> World:
    """The owners' rows, page tokens and conversations (each tenant writes only its own)."""
    world = World(keys)
    memory, convs = MemoryServiceStub(channel), ConversationServiceStub(channel)
    for tenant in TENANTS:
        admin = _key(keys, tenant, Role.ADMIN)
        agent = _key(keys, tenant, Role.AGENT)
        reply = memory.Memorize(
            pb.MemorizeRequest(
                agent_id="a0", memory=pb.MemoryInput(content=f"{tenant} office rule", scope=pb.SCOPE_TENANT)
            ),
            metadata=(bearer(admin.token),),
        )
        world.rows.append(Row(reply.memory.id, tenant, "a0", "", "tenant"))
        for a in AGENTS:
            for c in CONTACTS:
                for scope, code in _SCOPES.items():
                    text = f"{tenant} {a} {c} {scope} secret {random.random():.6f}"
                    reply = memory.Memorize(
                        pb.MemorizeRequest(agent_id=a, end_user_id=c, memory=pb.MemoryInput(content=text, scope=code)),
                        metadata=(bearer(agent.token),),
                    )
                    world.rows.append(Row(reply.memory.id, tenant, a, c, scope))
                page = memory.ListMemories(
                    pb.ListMemoriesRequest(agent_id=a, end_user_id=c, page_size=2), metadata=(bearer(agent.token),)
                )
                world.page_tokens[(tenant, a, c)] = page.next_page_token
                conversation = f"conv-{tenant}-{a}-{c}"
                convs.AppendMessages(
                    cpb.AppendMessagesRequest(
                        agent_id=a,
                        end_user_id=c,
                        conversation_id=conversation,
                        messages=[cpb.MessageInput(message_id="m1", role=cpb.ROLE_USER, content=f"{tenant} {c} hello")],
                    ),
                    metadata=(bearer(agent.token),),
                )
                world.conversations.append((tenant, a, c, conversation))
    return world


def _key(keys: list[Key], tenant: str, role: Role, pinned: str = "") -> Key:
    return next(k for k in keys if k.tenant == tenant and k.role is role and k.pinned == pinned)


@dataclass
class Outcome:
    """The tally of an attack run."""

    attempts: Counter[str] = field(default_factory=Counter)
    wrong_status: list[str] = field(default_factory=list)
    leaked_rows: list[str] = field(default_factory=list)


Attempt = Callable[[random.Random, "Stubs", World, Key], tuple[str, Callable[[], Any], set[grpc.StatusCode], Any]]


@dataclass
class Stubs:
    """One stub per service on one channel."""

    memory: Any
    convs: Any
    jobs: Any
    audits: Any
    keys: Any
    data: Any


def _foreign_row(rng: random.Random, world: World, key: Key, agent: str, contact: str) -> Row:
    """A row the key's caller may not see acting as (agent, contact)."""
    hidden = [r for r in world.rows if not visible(r, key.tenant, agent, contact)]
    return rng.choice(hidden)


def _acting(rng: random.Random, key: Key) -> tuple[str, str]:
    return (key.pinned or rng.choice(AGENTS)), rng.choice(CONTACTS)


def read_hidden(rng: random.Random, s: Stubs, w: World, key: Key) -> tuple[str, Callable[[], Any], set[Any], Any]:
    """GetMemory of a row the caller may not see: NOT_FOUND; naming its tenant: PERMISSION_DENIED."""
    agent, contact = _acting(rng, key)
    row = _foreign_row(rng, w, key, agent, contact)
    meta = [bearer(key.token)]
    expected = {NOT_FOUND}
    if row.tenant != key.tenant and rng.random() < 0.5:
        meta.append(("x-tenant-id", row.tenant))
        expected = {DENIED}
    req = pb.GetMemoryRequest(agent_id=agent, end_user_id=contact, memory_id=row.memory_id)
    return "get_hidden", lambda: s.memory.GetMemory(req, metadata=tuple(meta)), expected, None


def write_hidden(rng: random.Random, s: Stubs, w: World, key: Key) -> tuple[str, Callable[[], Any], set[Any], Any]:
    """UpdateMemory or Forget of a row the caller may not see: NOT_FOUND."""
    agent, contact = _acting(rng, key)
    row = _foreign_row(rng, w, key, agent, contact)
    if rng.random() < 0.5:
        req = pb.UpdateMemoryRequest(agent_id=agent, end_user_id=contact, memory_id=row.memory_id, content="pwned")
        return "update_hidden", lambda: s.memory.UpdateMemory(req, metadata=(bearer(key.token),)), {NOT_FOUND}, None
    forget = pb.ForgetRequest(agent_id=agent, end_user_id=contact, memory_id=row.memory_id)
    return "forget_hidden", lambda: s.memory.Forget(forget, metadata=(bearer(key.token),)), {NOT_FOUND}, None


def tenant_rows_without_admin(
    rng: random.Random, s: Stubs, w: World, key: Key
) -> tuple[str, Callable[[], Any], set[Any], Any]:
    """Writes of tenant rows by a key below admin: PERMISSION_DENIED (admins are skipped: allowed)."""
    agent, contact = _acting(rng, key)
    own = next(r for r in w.rows if r.tenant == key.tenant and r.scope == "tenant")
    choice = rng.randrange(3)
    meta = (bearer(key.token),)
    if choice == 0:
        req = pb.MemorizeRequest(agent_id=agent, memory=pb.MemoryInput(content="new rule", scope=pb.SCOPE_TENANT))
        return "tenant_write", lambda: s.memory.Memorize(req, metadata=meta), {DENIED}, None
    if choice == 1:
        upd = pb.UpdateMemoryRequest(agent_id=agent, end_user_id=contact, memory_id=own.memory_id, content="changed")
        return "tenant_update", lambda: s.memory.UpdateMemory(upd, metadata=meta), {DENIED}, None
    forget = pb.ForgetRequest(agent_id=agent, end_user_id=contact, memory_id=own.memory_id)
    return "tenant_forget", lambda: s.memory.Forget(forget, metadata=meta), {DENIED}, None


def replay_page_token(rng: random.Random, s: Stubs, w: World, key: Key) -> tuple[str, Callable[[], Any], set[Any], Any]:
    """ListMemories with another caller's page token: OK, and only rows the caller may see."""
    agent, contact = _acting(rng, key)
    token = rng.choice(list(w.page_tokens.values()))
    req = pb.ListMemoriesRequest(agent_id=agent, end_user_id=contact, page_size=50, page_token=token)
    check = ("list", key.tenant, agent, contact)
    return "list_replayed_token", lambda: s.memory.ListMemories(req, metadata=(bearer(key.token),)), {OK}, check


def recall_everything(rng: random.Random, s: Stubs, w: World, key: Key) -> tuple[str, Callable[[], Any], set[Any], Any]:
    """Recall for words of every tenant's rows: OK, only visible rows."""
    agent, contact = _acting(rng, key)
    req = pb.RecallRequest(agent_id=agent, end_user_id=contact, query=f"{rng.choice(TENANTS)} secret rule", limit=50)
    check = ("recall", key.tenant, agent, contact)
    return "recall", lambda: s.memory.Recall(req, metadata=(bearer(key.token),)), {OK}, check


def pinned_as_other(rng: random.Random, s: Stubs, w: World, key: Key) -> tuple[str, Callable[[], Any], set[Any], Any]:
    """A pinned key acting as another agent: PERMISSION_DENIED (unpinned keys: skipped)."""
    req = pb.RecallRequest(agent_id="a1", query="secret")
    return "pinned_other_agent", lambda: s.memory.Recall(req, metadata=(bearer(key.token),)), {DENIED}, None


def foreign_conversation(
    rng: random.Random, s: Stubs, w: World, key: Key
) -> tuple[str, Callable[[], Any], set[Any], Any]:
    """GetContext of another agent's or contact's conversation of the same tenant: NOT_FOUND."""
    agent, contact = _acting(rng, key)
    theirs = [c for t, a, u, c in w.conversations if t == key.tenant and (a, u) != (agent, contact)]
    req = cpb.GetContextRequest(
        agent_id=agent, end_user_id=contact, conversation_id=rng.choice(theirs), context_window_tokens=4096
    )
    return "conversation_other", lambda: s.convs.GetContext(req, metadata=(bearer(key.token),)), {NOT_FOUND}, None


def above_role(rng: random.Random, s: Stubs, w: World, key: Key) -> tuple[str, Callable[[], Any], set[Any], Any]:
    """A method above the key's role: PERMISSION_DENIED."""
    meta = (bearer(key.token),)
    calls: list[tuple[Role, str, Callable[[], Any]]] = [
        (Role.OPERATOR, "list_jobs", lambda: s.jobs.ListJobs(jpb.ListJobsRequest(), metadata=meta)),
        (
            Role.OPERATOR,
            "apply_findings",
            lambda: s.audits.ApplyFindings(
                apb.ApplyFindingsRequest(agent_id="a0", review_id="review:t0:a0:0"), metadata=meta
            ),
        ),
        (Role.OPERATOR, "export", lambda: list(s.data.ExportTenant(dpb.ExportTenantRequest(), metadata=meta))),
        (Role.ADMIN, "list_keys", lambda: s.keys.ListKeys(kpb.ListKeysRequest(), metadata=meta)),
        (Role.ADMIN, "audit_log", lambda: s.audits.ListAuditEvents(apb.ListAuditEventsRequest(), metadata=meta)),
        (Role.ADMIN, "erase", lambda: s.data.EraseEndUser(dpb.EraseEndUserRequest(end_user_id="u0"), metadata=meta)),
    ]
    above = [(name, call) for needed, name, call in calls if key.role < needed]
    name, call = rng.choice(above)
    return f"above_role:{name}", call, {DENIED}, None


def foreign_keys(rng: random.Random, s: Stubs, w: World, key: Key) -> tuple[str, Callable[[], Any], set[Any], Any]:
    """An admin revoking another tenant's key: NOT_FOUND."""
    victim = rng.choice([k for k in w.keys if k.tenant != key.tenant])
    req = kpb.RevokeKeyRequest(key_id=victim.key_id)
    return "revoke_foreign_key", lambda: s.keys.RevokeKey(req, metadata=(bearer(key.token),)), {NOT_FOUND}, None


def export_contact(rng: random.Random, s: Stubs, w: World, key: Key) -> tuple[str, Callable[[], Any], set[Any], Any]:
    """An operator exporting a contact id that exists in every tenant: OK, and only its own tenant's rows."""
    req = dpb.ExportEndUserRequest(end_user_id=rng.choice(CONTACTS))
    check = ("export", key.tenant, "", "")
    return "export_contact", lambda: list(s.data.ExportEndUser(req, metadata=(bearer(key.token),))), {OK}, check


def scoped_write(rng: random.Random, s: Stubs, w: World, key: Key) -> tuple[str, Callable[[], Any], set[Any], Any]:
    """A write the key's scope refuses (its own agent's row, which its role alone would allow): PERMISSION_DENIED."""
    meta = (bearer(key.token),)
    if key.scope is KeyScope.READ_ONLY:
        req = pb.MemorizeRequest(agent_id="a0", memory=pb.MemoryInput(content="a read-only key writes"))
        return "read_only_write", lambda: s.memory.Memorize(req, metadata=meta), {DENIED}, None
    own = rng.choice([r for r in w.rows if r.tenant == key.tenant and visible(r, key.tenant, r.agent, r.contact)])
    forget = pb.ForgetRequest(agent_id=own.agent, end_user_id=own.contact, memory_id=own.memory_id)
    return "non_destructive_forget", lambda: s.memory.Forget(forget, metadata=meta), {DENIED}, None


_WRITES = {"update_hidden", "forget_hidden", "tenant_write", "tenant_update", "revoke_foreign_key"}
_DESTRUCTIVE = {"forget_hidden", "revoke_foreign_key"}


def _scoped(key: Key, name: str, expected: set[Any]) -> set[Any]:
    """A scoped key is refused before anything else is looked at: the write its scope forbids is DENIED."""
    if key.scope is KeyScope.READ_ONLY and name in _WRITES:
        return {DENIED}
    if key.scope is KeyScope.NON_DESTRUCTIVE and name in _DESTRUCTIVE:
        return {DENIED}
    return expected


def forged_key(rng: random.Random, s: Stubs, w: World, key: Key) -> tuple[str, Callable[[], Any], set[Any], Any]:
    """Another key's id with this key's secret: UNAUTHENTICATED."""
    victim = rng.choice([k for k in w.keys if k.key_id != key.key_id])
    forged = f"mdk_{victim.key_id}_{key.token.split('_', 2)[2]}"
    req = pb.RecallRequest(agent_id="a0", query="secret")
    return "forged_key", lambda: s.memory.Recall(req, metadata=(bearer(forged),)), {UNAUTH}, None


ATTEMPTS: list[tuple[Attempt, Callable[[Key], bool]]] = [
    (read_hidden, lambda k: True),
    (write_hidden, lambda k: True),
    (tenant_rows_without_admin, lambda k: k.role < Role.ADMIN),
    (replay_page_token, lambda k: True),
    (recall_everything, lambda k: True),
    (pinned_as_other, lambda k: bool(k.pinned)),
    (foreign_conversation, lambda k: True),
    (above_role, lambda k: k.role < Role.ADMIN),
    (foreign_keys, lambda k: k.role >= Role.ADMIN),
    (export_contact, lambda k: k.role >= Role.OPERATOR),
    (forged_key, lambda k: True),
    (scoped_write, lambda k: k.scope is not KeyScope.ALL),
]


def _rows_of_reply(kind: str, reply: Any) -> list[tuple[str, str]]:
    """(memory id, content) of a reply's rows."""
    if kind == "list":
        return [(m.id, m.content) for m in reply.memories]
    if kind == "recall":
        return [(h.memory.id, h.memory.content) for h in reply.hits]
    out = []
    for line in reply:
        record = json.loads(line.line)
        if record.get("type") == "memory":
            out.append((record["row"]["id"], record["row"]["content"]))
    return out


def attack(channel: grpc.Channel, world: World, calls: int, seed_value: int) -> Outcome:
    """Run ``calls`` random attempts; every answer and every returned row is checked."""
    rng = random.Random(seed_value)
    stubs = Stubs(
        MemoryServiceStub(channel),
        ConversationServiceStub(channel),
        JobServiceStub(channel),
        AuditServiceStub(channel),
        KeyServiceStub(channel),
        DataServiceStub(channel),
    )
    by_id = {r.memory_id: r for r in world.rows}
    outcome = Outcome()
    for _ in range(calls):
        key = rng.choice(world.keys)
        attempt = rng.choice([a for a, applies in ATTEMPTS if applies(key)])
        name, call, expected, check = attempt(rng, stubs, world, key)
        expected = _scoped(key, name, expected)
        outcome.attempts[name] += 1
        try:
            reply, code = call(), OK
        except grpc.RpcError as exc:
            reply, code = None, exc.code()
        if code not in expected:
            outcome.wrong_status.append(f"{name} with {key.label}: {code.name}, expected {[c.name for c in expected]}")
            continue
        if check is not None and reply is not None:
            kind, tenant, agent, contact = check
            for memory_id, content in _rows_of_reply(kind, reply):
                row = by_id.get(memory_id)
                if row is None:
                    continue  # a row this run wrote itself (none do) or created meanwhile
                allowed = row.tenant == tenant if kind == "export" else visible(row, tenant, agent, contact)
                if not allowed:
                    outcome.leaked_rows.append(f"{name} with {key.label}: {memory_id} ({content[:40]})")
    return outcome


def fingerprint(data_dir: Path) -> dict[str, str]:
    """A hash of every row of every archive and conversation table (what an attack must not change)."""
    db = lancedb.connect(str(data_dir))
    out = {}
    for name in db.list_tables(limit=10_000).tables:
        if not name.startswith(("memories_", "conversation_items_", "conversations_", "api_keys")):
            continue
        rows = db.open_table(name).to_arrow().drop_columns(["last_used_at"] if name == "api_keys" else []).to_pylist()
        rows.sort(key=lambda r: json.dumps(r, sort_keys=True, default=str))
        out[name] = hashlib.sha256(json.dumps(rows, sort_keys=True, default=str).encode()).hexdigest()
    return out


def run(data_dir: Path, calls: int, seed_value: int) -> dict[str, Any]:
    """Setup, attack, compare; the record (the daemon runs as a child process)."""
    keys = create_keys(data_dir)
    with Daemon(data_dir) as daemon, grpc.insecure_channel(daemon.address) as channel:
        world = seed(channel, keys)
        before = fingerprint(data_dir)
        started = time.perf_counter()
        outcome = attack(channel, world, calls, seed_value)
        seconds = time.perf_counter() - started
        after = fingerprint(data_dir)
    changed = sorted(t for t in before.keys() | after.keys() if before.get(t) != after.get(t))
    return {
        "calls": calls,
        "seconds": round(seconds, 1),
        "keys": len(keys),
        "rows_seeded": len(world.rows),
        "attempts": dict(outcome.attempts),
        "wrong_status": outcome.wrong_status,
        "leaked_rows": outcome.leaked_rows,
        "tables_changed": changed,
    }


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `bench adversarial`."""
    p = sub.add_parser("adversarial", help="three tenants' keys of every role attack each other's rows")
    p.add_argument("--calls", type=positive_int, default=10_000)
    p.add_argument("--seed", type=int, default=7)
    p.set_defaults(run=_main)


def _main(args: argparse.Namespace) -> int:
    data_dir = Path(tempfile.mkdtemp(prefix="memoryd-adversarial-"))
    try:
        record = run(data_dir, args.calls, args.seed)
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
    rows = [[name, n] for name, n in sorted(record["attempts"].items())]
    print(table(rows, ["attempt", "calls"]))
    print(
        f"\n{record['calls']} calls in {record['seconds']} s, {record['keys']} keys, {record['rows_seeded']} rows: "
        f"{len(record['wrong_status'])} wrong statuses, {len(record['leaked_rows'])} rows leaked, "
        f"{len(record['tables_changed'])} tables changed"
    )
    for line in (record["wrong_status"] + record["leaked_rows"])[:20]:
        print("  " + line)
    write_json(args.json, {"bench": "adversarial", "environment": environment(), **record})
    failed = record["wrong_status"] or record["leaked_rows"] or record["tables_changed"]
    return 1 if failed else 0
