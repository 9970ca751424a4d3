"""API keys and roles against the real daemon: who may call what, revocation across replicas, TLS."""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import trustme

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.client import MemoryClient, PermissionDenied
from memoryd.config import Settings
from memoryd.core.keys import KeyScope, Role
from memoryd.rpc.client import (
    AuditServiceStub,
    ConfigServiceStub,
    DataServiceStub,
    JobServiceStub,
    KeyServiceStub,
    MemoryServiceStub,
    apb,
    bearer,
    dpb,
    gpb,
    jpb,
    kpb,
    pb,
)
from memoryd.rpc.server import check_listener
from tests.conftest import LiveServer, make_settings
from tests.e2e.helpers import snapshot

pytestmark = pytest.mark.timeout(120)


def _code(call: Callable[[], object]) -> grpc.StatusCode:
    with pytest.raises(grpc.RpcError) as err:
        call()
    return err.value.code()


def _key(server: LiveServer, tenant: str, role: Role, agent: str = "") -> str:
    _, token = server.key(tenant, role, agent, f"{role.label} of {tenant}")
    return str(token)


def _memorize(stub: MemoryServiceStub, token: str, content: str, scope: Any = 0, agent: str = "a1") -> str:
    reply = stub.Memorize(
        pb.MemorizeRequest(agent_id=agent, memory=pb.MemoryInput(content=content, scope=scope)),
        metadata=(bearer(token),),
    )
    return str(reply.memory.id)


@pytest.fixture
def keyed(live_server: LiveServer) -> Iterator[tuple[LiveServer, dict[str, str]]]:
    """A daemon with keys: admin, operator, agent and a pinned agent of acme, an agent of globex."""
    keys = {
        "admin": _key(live_server, "acme", Role.ADMIN),
        "operator": _key(live_server, "acme", Role.OPERATOR),
        "agent": _key(live_server, "acme", Role.AGENT),
        "pinned": _key(live_server, "acme", Role.AGENT, agent="a1"),
        "globex": _key(live_server, "globex", Role.AGENT),
    }
    yield live_server, keys


def test_without_keys_loopback_callers_are_trusted_and_the_first_key_ends_it(live_server: LiveServer) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as ch:
        stub = MemoryServiceStub(ch)
        req = pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="protected mode works"))
        stub.Memorize(req, metadata=(("x-tenant-id", "acme"),))
        only = _key(live_server, "acme", Role.ADMIN)
        time.sleep(1.1)  # another replica notices within auth.cache_seconds; this one at once
        assert _code(lambda: stub.Memorize(req, metadata=(("x-tenant-id", "acme"),))) == grpc.StatusCode.UNAUTHENTICATED
        assert live_server.app is not None  # the only key revoked (leaked): loopback callers are not trusted again
        live_server.run(live_server.app.admin.keys.revoke("acme", only.split("_")[1]))
        time.sleep(1.1)
        assert _code(lambda: stub.Memorize(req, metadata=(("x-tenant-id", "acme"),))) == grpc.StatusCode.UNAUTHENTICATED


def test_roles_decide_what_a_key_may_call(keyed: tuple[LiveServer, dict[str, str]], settings: Settings) -> None:
    server, keys = keyed
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        stub, audits, jobs = MemoryServiceStub(ch), AuditServiceStub(ch), JobServiceStub(ch)
        tenant_row = _memorize(stub, keys["admin"], "The office closes at 6pm on Fridays", pb.SCOPE_TENANT)
        before = snapshot(settings.storage.uri, "acme")
        agent = (bearer(keys["agent"]),)
        # An agent key works the archive, but tenant rows are the admins'.
        _memorize(stub, keys["agent"], "a private note of a1")
        assert _code(lambda: _memorize(stub, keys["agent"], "The office is closed", pb.SCOPE_TENANT)) == (
            grpc.StatusCode.PERMISSION_DENIED
        )
        update = pb.UpdateMemoryRequest(agent_id="a1", memory_id=tenant_row, content="The office never closes")
        assert _code(lambda: stub.UpdateMemory(update, metadata=agent)) == grpc.StatusCode.PERMISSION_DENIED
        forget = pb.ForgetRequest(agent_id="a1", memory_id=tenant_row)
        assert _code(lambda: stub.Forget(forget, metadata=agent)) == grpc.StatusCode.PERMISSION_DENIED
        # Operator methods are not an agent's; reviewing its own archive is (this daemon has no job queue).
        review = apb.ReviewMemoriesRequest(agent_id="a1")
        assert _code(lambda: audits.ReviewMemories(review, metadata=agent)) == grpc.StatusCode.UNAVAILABLE
        someone_else = apb.ReviewMemoriesRequest(agent_id="a2")
        pinned = (bearer(keys["pinned"]),)
        assert _code(lambda: audits.ReviewMemories(someone_else, metadata=pinned)) == grpc.StatusCode.PERMISSION_DENIED
        apply = apb.ApplyFindingsRequest(agent_id="a1", review_id="review:acme:a1:x")
        assert _code(lambda: audits.ApplyFindings(apply, metadata=agent)) == grpc.StatusCode.PERMISSION_DENIED
        servings = apb.ListServingsRequest()  # the served log is an operator's read
        assert _code(lambda: audits.ListServings(servings, metadata=agent)) == grpc.StatusCode.PERMISSION_DENIED
        assert not audits.ListServings(servings, metadata=(bearer(keys["operator"]),)).next_page_token
        assert _code(lambda: jobs.ListJobs(jpb.ListJobsRequest(), metadata=agent)) == grpc.StatusCode.PERMISSION_DENIED
        configs = ConfigServiceStub(ch)
        tighten = gpb.SetTenantConfigRequest(values={"working.auto_recall": gpb.ConfigValue(bool_value=True)})
        assert _code(lambda: configs.SetTenantConfig(tighten, metadata=agent)) == grpc.StatusCode.PERMISSION_DENIED
        own = configs.GetEffectiveConfig(gpb.GetEffectiveConfigRequest(agent_id="a1"), metadata=agent)
        assert own.settings and own.tenant_version == 0  # reading what it runs with is an agent's right
        pinned_elsewhere = gpb.GetEffectiveConfigRequest(agent_id="a2")
        assert _code(lambda: configs.GetEffectiveConfig(pinned_elsewhere, metadata=(bearer(keys["pinned"]),))) == (
            grpc.StatusCode.PERMISSION_DENIED
        )
        assert configs.SetTenantConfig(tighten, metadata=(bearer(keys["operator"]),)).config.version == 1
        # A pinned key acts as its agent only.
        _memorize(stub, keys["pinned"], "pinned writes as a1")
        assert _code(lambda: _memorize(stub, keys["pinned"], "as a2", agent="a2")) == grpc.StatusCode.PERMISSION_DENIED
        # The tenant comes from the key: naming another one is refused, not obeyed.
        other = (bearer(keys["globex"]), ("x-tenant-id", "acme"))
        get = pb.GetMemoryRequest(agent_id="a1", memory_id=tenant_row)
        assert _code(lambda: stub.GetMemory(get, metadata=other)) == grpc.StatusCode.PERMISSION_DENIED
        assert _code(lambda: stub.GetMemory(get, metadata=(bearer(keys["globex"]),))) == grpc.StatusCode.NOT_FOUND
        # Nothing refused changed a row; the two accepted writes were added.
        after = {r["id"]: r for r in snapshot(settings.storage.uri, "acme")}
        assert all(after[r["id"]] == r for r in before) and len(after) == len(before) + 2
        # Unknown, malformed and missing keys.
        bad = pb.GetMemoryRequest(agent_id="a1", memory_id=tenant_row)
        forged = keys["agent"][:-4] + "AAAA"
        attempts: list[tuple[tuple[str, str], ...]] = [
            (bearer(forged),),
            (bearer("not-a-key"),),
            (("authorization", "Basic abc"),),
            (),
        ]
        for metadata in attempts:
            assert _code(functools.partial(stub.GetMemory, bad, metadata=metadata)) == grpc.StatusCode.UNAUTHENTICATED


def test_admins_manage_keys_and_no_key_grants_more_than_its_own_role(keyed: tuple[LiveServer, dict[str, str]]) -> None:
    server, keys = keyed
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        admin_keys, stub = KeyServiceStub(ch), MemoryServiceStub(ch)
        admin = (bearer(keys["admin"]),)
        made = admin_keys.CreateKey(kpb.CreateKeyRequest(role=kpb.KEY_ROLE_AGENT, name="bot"), metadata=admin)
        assert made.token.startswith("mdk_") and made.key.tenant_id == "acme"
        _memorize(stub, made.token, "written with a key made over the API")
        listed = admin_keys.ListKeys(kpb.ListKeysRequest(), metadata=admin).keys
        assert made.key.key_id in {k.key_id for k in listed} and all(k.tenant_id == "acme" for k in listed)
        system = kpb.CreateKeyRequest(role=kpb.KEY_ROLE_SYSTEM)
        assert _code(lambda: admin_keys.CreateKey(system, metadata=admin)) == grpc.StatusCode.PERMISSION_DENIED
        operator = (bearer(keys["operator"]),)
        agent_req = kpb.CreateKeyRequest(role=kpb.KEY_ROLE_AGENT)
        assert _code(lambda: admin_keys.CreateKey(agent_req, metadata=operator)) == grpc.StatusCode.PERMISSION_DENIED
        glob = server.run(server.app.admin.keys.list("globex"))[0].key_id  # type: ignore[union-attr]
        revoke_other = kpb.RevokeKeyRequest(key_id=glob)
        assert _code(lambda: admin_keys.RevokeKey(revoke_other, metadata=admin)) == grpc.StatusCode.NOT_FOUND
        admin_keys.RevokeKey(kpb.RevokeKeyRequest(key_id=made.key.key_id), metadata=admin)
        assert _code(lambda: _memorize(stub, made.token, "after revocation")) == grpc.StatusCode.UNAUTHENTICATED


def test_a_revocation_reaches_another_replica_within_two_seconds(
    keyed: tuple[LiveServer, dict[str, str]], settings: Settings, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    server, keys = keyed
    replica = LiveServer(settings.without_maintenance(), onnx_embedder)
    replica.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{replica.port}") as ch:
            stub = MemoryServiceStub(ch)
            _memorize(stub, keys["agent"], "the replica knows the key")  # now cached there
            key_id = keys["agent"].split("_")[1]
            server.run(server.app.admin.keys.revoke("acme", key_id))  # type: ignore[union-attr]
            revoked_at, refused_after = time.monotonic(), None
            while time.monotonic() - revoked_at < 5:
                try:
                    _memorize(stub, keys["agent"], "still accepted?")
                except grpc.RpcError as exc:
                    assert exc.code() == grpc.StatusCode.UNAUTHENTICATED
                    refused_after = time.monotonic() - revoked_at
                    break
                time.sleep(0.05)
            assert refused_after is not None and refused_after < 2.0
    finally:
        replica.stop()


def test_tls_and_client_certificates(tmp_path: Path, onnx_embedder: OnnxMiniLMEmbedder) -> None:
    ca = trustme.CA()
    cert = ca.issue_cert("localhost", "127.0.0.1")
    client = ca.issue_cert("client.memoryd.test")
    paths = {}
    for name, blob in [("cert", cert.cert_chain_pems[0]), ("key", cert.private_key_pem), ("ca", ca.cert_pem)]:
        paths[name] = tmp_path / f"{name}.pem"
        blob.write_to_path(str(paths[name]))
    settings = make_settings(
        tmp_path / "data",
        server={
            "tls_cert_file": str(paths["cert"]),
            "tls_key_file": str(paths["key"]),
            "tls_client_ca_file": str(paths["ca"]),
        },
    )
    from memoryd.rpc.server import credentials

    server = LiveServer(settings, onnx_embedder, tls=credentials(settings.server))
    server.start()
    try:
        token = _key(server, "acme", Role.AGENT)
        roots = ca.cert_pem.bytes()
        req = pb.MemorizeRequest(agent_id="a1", memory=pb.MemoryInput(content="over mutual TLS"))
        with_cert = grpc.ssl_channel_credentials(
            roots, client.private_key_pem.bytes(), client.cert_chain_pems[0].bytes()
        )
        with grpc.secure_channel(f"localhost:{server.port}", with_cert) as ch:
            assert MemoryServiceStub(ch).Memorize(req, metadata=(bearer(token),)).memory.content == "over mutual TLS"
        with grpc.secure_channel(f"localhost:{server.port}", grpc.ssl_channel_credentials(roots)) as ch:
            assert _code(lambda: MemoryServiceStub(ch).Memorize(req, metadata=(bearer(token),), timeout=5)) == (
                grpc.StatusCode.UNAVAILABLE
            )
        with grpc.insecure_channel(f"127.0.0.1:{server.port}") as ch:
            assert _code(lambda: MemoryServiceStub(ch).Memorize(req, metadata=(bearer(token),), timeout=5)) == (
                grpc.StatusCode.UNAVAILABLE
            )
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("host", "keys", "tls", "insecure", "refused"),
    [
        ("127.0.0.1", False, False, False, None),
        ("::1", False, False, False, None),
        ("0.0.0.0", False, False, False, "without API keys"),
        ("10.1.2.3", True, False, False, "without TLS"),
        ("0.0.0.0", True, True, False, None),
        ("0.0.0.0", False, False, True, None),
    ],
)
def test_memoryd_refuses_to_listen_beyond_loopback_unprotected(
    tmp_path: Path, host: str, keys: bool, tls: bool, insecure: bool, refused: str | None
) -> None:
    server = {"host": host} | ({"tls_cert_file": "c.pem", "tls_key_file": "k.pem"} if tls else {})
    settings = make_settings(tmp_path, server=server, auth={"insecure": insecure})
    if refused is None:
        check_listener(settings, keys_required=keys)
    else:
        with pytest.raises(SystemExit, match=refused):
            check_listener(settings, keys_required=keys)


def test_tls_files_that_cannot_be_read_are_one_line_naming_the_setting(tmp_path: Path) -> None:
    from memoryd.config.errors import ConfigError
    from memoryd.rpc.server import credentials

    (tmp_path / "c.pem").write_text("a certificate")  # unreadable key, then a missing client CA: a traceback each
    settings = make_settings(tmp_path, server={"tls_cert_file": str(tmp_path / "c.pem"), "tls_key_file": "/no/k.pem"})
    with pytest.raises(ConfigError, match=r"^server.tls_key_file '/no/k.pem': No such file or directory$"):
        credentials(settings.server)
    (tmp_path / "k.pem").write_text("a key")
    server = {"tls_cert_file": str(tmp_path / "c.pem"), "tls_key_file": str(tmp_path / "k.pem")}
    settings = make_settings(tmp_path, server=server | {"tls_client_ca_file": str(tmp_path)})
    with pytest.raises(ConfigError, match=r"^server.tls_client_ca_file .*: Is a directory$"):
        credentials(settings.server)
    # files that are not PEM: grpc took them and failed at bind, said as "address in use"
    with pytest.raises(ConfigError, match=r"^server.tls_cert_file, tls_key_file: not a certificate chain"):
        credentials(make_settings(tmp_path, server=server).server)
    cert = trustme.CA().issue_cert("localhost")
    cert.cert_chain_pems[0].write_to_path(str(tmp_path / "c.pem"))
    cert.private_key_pem.write_to_path(str(tmp_path / "k.pem"))
    assert credentials(make_settings(tmp_path, server=server).server) is not None
    settings = make_settings(tmp_path, server=server | {"tls_client_ca_file": str(tmp_path / "k.pem")})
    with pytest.raises(ConfigError, match=r"^server.tls_client_ca_file: not PEM certificates"):
        credentials(settings.server)


def test_whoami_describes_the_caller_of_every_role_and_protected_mode(live_server: LiveServer) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as ch:
        stub = KeyServiceStub(ch)
        trusted = stub.WhoAmI(kpb.WhoAmIRequest(), metadata=(("x-tenant-id", "acme"),))
        assert (trusted.tenant_id, trusted.role, trusted.key_id, trusted.protected_mode) == (
            "acme",
            kpb.KEY_ROLE_ADMIN,
            "",
            True,
        )
        pinned, operator = _key(live_server, "acme", Role.AGENT, agent="a1"), _key(live_server, "globex", Role.OPERATOR)
        me = stub.WhoAmI(kpb.WhoAmIRequest(), metadata=(bearer(pinned),))
        assert (me.tenant_id, me.role, me.agent_id, me.protected_mode) == ("acme", kpb.KEY_ROLE_AGENT, "a1", False)
        assert pinned.startswith(f"mdk_{me.key_id}_")
        them = stub.WhoAmI(kpb.WhoAmIRequest(), metadata=(bearer(operator),))
        assert (them.tenant_id, them.role, them.agent_id) == ("globex", kpb.KEY_ROLE_OPERATOR, "")
        # keys exist now: no credentials is no answer
        assert _code(lambda: stub.WhoAmI(kpb.WhoAmIRequest(), metadata=(("x-tenant-id", "acme"),))) == (
            grpc.StatusCode.UNAUTHENTICATED
        )


def test_scoped_keys_narrow_their_role_and_cannot_widen_themselves(live_server: LiveServer) -> None:
    assert live_server.app is not None
    create = live_server.app.admin.keys.create
    reader = live_server.run(create("acme", Role.ADMIN, "", "dashboard", scope=KeyScope.READ_ONLY))[1]
    careful = live_server.run(create("acme", Role.ADMIN, "", "careful admin", scope=KeyScope.NON_DESTRUCTIVE))[1]
    agent = live_server.run(create("acme", Role.AGENT, "", "bot", scope=KeyScope.NON_DESTRUCTIVE))[1]
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as ch:
        memory, keys = MemoryServiceStub(ch), KeyServiceStub(ch)
        kept = _memorize(memory, agent, "the bot may write this")
        me = keys.WhoAmI(kpb.WhoAmIRequest(), metadata=(bearer(reader),))
        assert me.scope == kpb.KEY_SCOPE_READ_ONLY and me.role == kpb.KEY_ROLE_ADMIN
        # a read-only admin reads everything and writes nothing
        assert keys.ListKeys(kpb.ListKeysRequest(), metadata=(bearer(reader),)).keys
        got = memory.GetMemory(pb.GetMemoryRequest(agent_id="a1", memory_id=kept), metadata=(bearer(reader),))
        assert got.memory.content == "the bot may write this"
        for call in (
            lambda: _memorize(memory, reader, "no"),
            lambda: keys.CreateKey(kpb.CreateKeyRequest(role=kpb.KEY_ROLE_AGENT), metadata=(bearer(reader),)),
        ):
            with pytest.raises(grpc.RpcError) as err:
                call()
            assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED and "read-only" in str(err.value.details())
        # a non-destructive key writes but never forgets, revokes or widens itself
        forget = pb.ForgetRequest(agent_id="a1", memory_id=kept)
        assert _code(lambda: memory.Forget(forget, metadata=(bearer(agent),))) == grpc.StatusCode.PERMISSION_DENIED
        reader_id = reader.split("_")[1]
        revoke = kpb.RevokeKeyRequest(key_id=reader_id)
        assert _code(lambda: keys.RevokeKey(revoke, metadata=(bearer(careful),))) == grpc.StatusCode.PERMISSION_DENIED
        wider = kpb.CreateKeyRequest(role=kpb.KEY_ROLE_AGENT, scope=kpb.KEY_SCOPE_ALL)
        assert _code(lambda: keys.CreateKey(wider, metadata=(bearer(careful),))) == grpc.StatusCode.PERMISSION_DENIED
        narrower = kpb.CreateKeyRequest(role=kpb.KEY_ROLE_AGENT, scope=kpb.KEY_SCOPE_READ_ONLY)
        made = keys.CreateKey(narrower, metadata=(bearer(careful),)).key
        assert made.scope == kpb.KEY_SCOPE_READ_ONLY
        # nothing the refused calls touched changed
        assert memory.GetMemory(pb.GetMemoryRequest(agent_id="a1", memory_id=kept), metadata=(bearer(careful),)).memory
        listed = {k.key_id: k for k in keys.ListKeys(kpb.ListKeysRequest(), metadata=(bearer(careful),)).keys}
        assert not listed[reader_id].HasField("revoked_at") and listed[reader_id].scope == kpb.KEY_SCOPE_READ_ONLY
        bad = kpb.CreateKeyRequest(role=kpb.KEY_ROLE_AGENT, scope=9)  # type: ignore[arg-type]
        assert _code(lambda: keys.CreateKey(bad, metadata=(bearer(careful),))) == grpc.StatusCode.INVALID_ARGUMENT


def test_a_non_destructive_key_cannot_let_retention_or_reviews_do_what_it_may_not(live_server: LiveServer) -> None:
    assert live_server.app is not None
    create = live_server.app.admin.keys.create
    careful = live_server.run(create("acme", Role.ADMIN, "", "careful", scope=KeyScope.NON_DESTRUCTIVE))[1]
    full = live_server.run(create("acme", Role.ADMIN, "", "full"))[1]
    operator = live_server.run(create("acme", Role.OPERATOR, "", "ops"))[1]
    target = f"127.0.0.1:{live_server.port}"
    with MemoryClient(target, tenant="acme", api_key=careful) as memory:
        kept = memory.memorize("a1", "The vault code is 5522").memory.id
        for key, value in (
            ("retention.memories_days", 1.0),  # the next pass would delete all but a day: Forget, many times
            ("retention.servings_days", 1.0),  # the record of what was served to whom
            ("review.apply", "all"),  # reviews would apply findings: ApplyFindings
            ("review.agents_apply", True),
        ):
            with pytest.raises(PermissionDenied, match=rf"values\[{key}\]: .* this key is non-destructive"):
                memory.set_config("", {key: value})
        with pytest.raises(PermissionDenied, match=r"values\[review.apply\]"):
            memory.set_config("a1", {"review.apply": "all"})  # an agent's level too
        with pytest.raises(PermissionDenied, match=r"values\[retention.memories_days\]"):
            memory.set_config("", {"retention.memories_days": 400.0})  # 0 keeps forever: any day count deletes
        assert memory.effective_config()["retention.memories_days"][0] == 0.0  # nothing was stored
        with MemoryClient(target, tenant="acme", api_key=full) as admin:
            assert admin.set_config("", {"retention.memories_days": 400.0}) == 1
        assert memory.set_config("", {"retention.memories_days": 800.0}) == 2  # keeping longer deletes less
        with pytest.raises(PermissionDenied, match=r"values\[retention.memories_days\]"):
            memory.set_config("", {"retention.memories_days": 30.0})  # sooner than now
        assert memory.set_config("", {}, unset=("retention.memories_days",)) == 3  # the daemon's: forever
        assert memory.get("a1", kept).content == "The vault code is 5522"
    with MemoryClient(target, tenant="acme", api_key=operator) as ops:  # an operator erases no contact: nor this
        with pytest.raises(PermissionDenied, match=r"values\[retention.memories_days\]: .* needs an admin key"):
            ops.set_config("", {"retention.memories_days": 1.0})
        assert ops.set_config("", {"review.apply": "all"}) >= 1  # applying findings is an operator's anyway


def test_the_security_event_log_leaves_a_tenant_only_in_an_admins_export(live_server: LiveServer) -> None:
    assert live_server.app is not None
    create = live_server.app.admin.keys.create
    admin = live_server.run(create("acme", Role.ADMIN, "", "admin"))[1]
    operator = live_server.run(create("acme", Role.OPERATOR, "", "ops"))[1]
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as ch:
        _memorize(MemoryServiceStub(ch), admin, "The office opens at 8")
        data = DataServiceStub(ch)

        def export(token: str) -> list[dict[str, Any]]:
            lines = data.ExportTenant(dpb.ExportTenantRequest(), metadata=(bearer(token),))
            return [json.loads(reply.line) for reply in lines]

        everything, operators = export(admin), export(operator)
    kinds = {r["type"] for r in everything}
    assert {"memory", "audit_event"} <= kinds and "left_out" not in everything[0]
    assert operators[0]["left_out"] == ["audit_event"]  # ListAuditEvents is the admin's: so is its export
    assert [r for r in operators[1:] if r["type"] == "audit_event"] == []
    assert [r for r in operators[1:]] == [r for r in everything[1:] if r["type"] != "audit_event"]


def test_an_agent_key_reads_its_own_servings_in_a_history_not_the_served_log(live_server: LiveServer) -> None:
    assert live_server.app is not None
    create = live_server.app.admin.keys.create
    operator = live_server.run(create("acme", Role.OPERATOR, "", "ops"))[1]
    pinned = live_server.run(create("acme", Role.AGENT, "a1", "a1's runtime"))[1]
    target = f"127.0.0.1:{live_server.port}"
    with (
        MemoryClient(target, tenant="acme", api_key=operator) as ops,
        MemoryClient(target, tenant="acme", api_key=pinned) as a1,
    ):
        shared = a1.memorize("a1", "The office wifi password is heron-42", scope="shared").memory.id
        ops.recall("a2", "wifi password", end_user_id="omar")  # another agent serving another contact
        a1.recall("a1", "wifi password", end_user_id="ida")
        a1.recall("a1", "wifi password", end_user_id="zoe")

        def served(client: MemoryClient, contact: str) -> list[tuple[str, str]]:
            history = client.history("a1", shared, end_user_id=contact)
            return sorted((e.agent_id, e.end_user_id) for e in history.events if e.kind == "served")

        assert served(ops, "") == [("a1", "ida"), ("a1", "zoe"), ("a2", "omar")]  # the served log is theirs
        assert served(a1, "") == [("a1", "ida"), ("a1", "zoe")]  # was omar's too: who a2 serves, and when
        assert served(a1, "ida") == [("a1", "ida")]  # serving one contact: not whom else it was served to
        assert a1.history("a1", shared, end_user_id="ida").servings_total == 1
