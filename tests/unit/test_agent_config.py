"""Stored settings: the catalogue's checks, the four levels, tighten-only keys, and the readers that obey them."""

from __future__ import annotations

import pytest

from memoryd.config import load_settings
from memoryd.config.errors import ConfigError
from memoryd.core.agent_config import SETTINGS, Level, StoredConfig, Value, changed, refuse_loosening, resolve
from memoryd.core.errors import InvalidRequest, PermissionDenied, PreconditionFailed
from memoryd.core.job_records import JobState
from memoryd.core.keys import Role
from memoryd.core.models import Actor, MemoryDraft
from tests.unit.conftest import fake_world, runner

OPS = Actor("acme", "ops")
ME = Actor("acme", "a1")


def _defaults() -> dict[str, bool | int | float | str]:
    return {
        key: (s.choices[-1] if s.choices else "" if s.kind is str else True if s.kind is bool else s.high or 1)
        for key, s in SETTINGS.items()
    }


def test_the_most_specific_level_wins_and_each_value_says_where_it_came_from() -> None:
    resolved = resolve(
        _defaults(),
        {"recall.limit": 5, "working.window_messages": 9},
        {"working.window_messages": 7, "working.strategy": "buffer_window"},
        {"working.strategy": "summary_buffer"},
    )
    assert (resolved["recall.limit"].value, resolved["recall.limit"].level) == (5, Level.TENANT)
    assert (resolved["working.window_messages"].value, resolved["working.window_messages"].level) == (
        7,
        Level.DAEMON_AGENT,
    )
    assert resolved["working.strategy"].level is Level.AGENT
    assert resolved["recall.min_score"].level is Level.DEFAULT


@pytest.mark.parametrize(
    ("key", "tenant", "looser", "tighter"),
    [
        ("working.auto_recall", False, True, False),
        ("review.enabled", False, True, False),
        ("working.recall_limit", 3, 8, 2),
        ("working.budget_tokens", 1000, 4000, 500),
        ("review.apply", "rules", "all", "none"),
    ],
)
def test_a_tighten_only_key_is_capped_at_the_tenants_value(key: str, tenant: Value, looser: Value, tighter: Value):
    for daemon_agent, agent in (({key: looser}, {}), ({}, {key: looser})):  # both agent levels are capped
        eff = resolve(_defaults(), {key: tenant}, daemon_agent, agent)[key]
        assert (eff.value, eff.level, eff.capped) == (tenant, Level.TENANT, True)
    eff = resolve(_defaults(), {key: tenant}, {}, {key: tighter})[key]
    assert (eff.value, eff.level, eff.capped) == (tighter, Level.AGENT, False)
    with pytest.raises(PreconditionFailed, match=key):
        refuse_loosening({key: tenant}, {key: looser})
    refuse_loosening({key: tenant}, {key: tighter})
    refuse_loosening({}, {key: looser})  # nothing set by the tenant: nothing to loosen


def test_changes_are_checked_by_name() -> None:
    stored = StoredConfig({"recall.limit": 4}, 1)
    assert changed(stored, {"working.buffer_threshold": 1}, ("recall.limit",), tenant_level=True) == {
        "working.buffer_threshold": 1.0
    }
    bad: list[tuple[dict[str, Value], tuple[str, ...], bool, str]] = [
        ({"recall.limt": 3}, (), True, "recall.limt"),
        ({"recall.limit": 0}, (), True, "recall.limit"),
        ({"recall.limit": 2.5}, (), True, "recall.limit"),
        ({"recall.min_score": float("nan")}, (), True, "recall.min_score"),
        ({"working.auto_recall": 1}, (), True, "working.auto_recall"),
        ({"working.collection": "a b"}, (), True, "working.collection"),
        ({"retention.memories_days": 30}, (), False, "retention.memories_days"),
        ({"recall.limit": 3}, ("recall.limit",), True, "recall.limit"),
        ({}, ("nope",), True, "unset"),
    ]
    for values, unset, tenant_level, named in bad:
        with pytest.raises(InvalidRequest, match=named.replace(".", r"\.")):
            changed(stored, values, unset, tenant_level=tenant_level)


@pytest.mark.parametrize("key", ["memories_days", "conversations_days", "servings_days", "graph_days"])
def test_a_retention_period_that_deletes_is_forever_or_at_least_a_day(key: str) -> None:
    # 0.0001 was accepted and the next daily pass deleted every memory of the tenant: under a day is a typo.
    stored = StoredConfig({}, 0)
    for typo in (0.0001, 0.5, 0.99):
        with pytest.raises(InvalidRequest, match=rf"values\[retention\.{key}\].* 0 or at least 1, got {typo}"):
            changed(stored, {f"retention.{key}": typo}, (), tenant_level=True)
    for kept in (0, 1, 1.5, 365):
        assert changed(stored, {f"retention.{key}": kept}, (), tenant_level=True) == {f"retention.{key}": kept}
    with pytest.raises(ConfigError, match=rf"retention\.tenants\.acme\.{key}: .*at least 1 day"):
        load_settings(None, retention={"tenants": {"acme": {key: 0.01}}})
    with pytest.raises(ConfigError, match=rf"retention\.{key}: .*at least 1 day"):
        load_settings(None, retention={key: 0.5})
    assert load_settings(None, retention={key: 2}).retention.policy_for("acme") is not None


async def test_an_agents_reviews_apply_by_its_resolved_policy() -> None:
    applied: dict[str, object] = {}
    for tenant_policy in ("none", ""):
        async with fake_world(audits={"apply": "all"}) as w:
            for text in ("thanks!", "The VPN needs a hardware key", "The VPN needs a hardware key"):
                await w.app.memory.memorize.memorize_batch(ME, [MemoryDraft(text)], True)
            if tenant_policy:
                await w.app.working.configs.set_tenant(OPS, {"review.apply": tenant_policy}, (), 0)
                with pytest.raises(PreconditionFailed, match=r"review\.apply"):
                    await w.app.working.configs.set_agent(OPS, "a1", {"review.apply": "all"}, (), 0)
            job = await w.app.jobs.review.request(ME)
            assert await runner(w, with_model=False).run("acme", job.key, w.app.jobs.review.run) is None
            done = await w.app.jobs.service.get("acme", job.key)
            assert done.state == JobState.SUCCEEDED, done.last_error
            applied[tenant_policy] = done.result["applied"]
    assert (
        applied["none"] == 0 and isinstance(applied[""], int) and applied[""] > 0
    )  # the daemon says all; the tenant's none wins for its agents


async def test_the_audit_batch_skips_agents_whose_reviews_are_off() -> None:
    async with fake_world() as w:
        for agent in ("a1", "a2"):
            await w.app.memory.memorize.memorize_batch(Actor("acme", agent), [MemoryDraft("thanks!")], True)
        await w.app.working.configs.set_agent(OPS, "a2", {"review.enabled": False}, (), 0)
        batch = await w.app.jobs.review_batch.start("acme")
        await runner(w).run("@system", batch.key, w.app.jobs.review_batch.run)
        asked = await w.app.jobs.review_batch.reviews_of(batch.key)
        assert [key.split(":")[2] for _, key in asked] == ["a1"]


async def test_a_careful_change_may_not_make_memoryd_delete_or_apply_more_not_even_by_unsetting() -> None:
    async with fake_world(retention={"memories_days": 30}, audits={"apply": "none"}) as w:
        configs = w.app.working.configs
        assert await configs.set_tenant(OPS, {"retention.memories_days": 90.0}, (), 0, careful=True)  # later
        with pytest.raises(PermissionDenied, match=r"values\[retention.memories_days\]: 'its default'"):
            await configs.set_tenant(OPS, {}, ("retention.memories_days",), 1, careful=True)  # back to 30 days
        with pytest.raises(PermissionDenied, match=r"values\[retention.conversations_days\]: 5.0"):
            await configs.set_tenant(OPS, {"retention.conversations_days": 5.0}, (), 1, careful=True)
        with pytest.raises(PermissionDenied, match=r"values\[review.apply\]: 'rules'"):
            await configs.set_agent(OPS, "a1", {"review.apply": "rules"}, (), 0, careful=True)
        stored = await configs.set_tenant(OPS, {"retention.graph_decay_days": 1.0}, (), 1, careful=True)
        assert stored.version == 2  # decay archives facts (restorable): no deletion
        assert (await configs.values("acme", ""))["retention.memories_days"] == 90.0  # the refusals stored nothing
        assert await configs.set_tenant(OPS, {}, ("retention.memories_days",), 2)  # a full key may


async def test_below_admin_no_change_may_make_memoryd_delete_more_but_reviews_may_apply() -> None:
    operator = Actor("acme", "ops", role=Role.OPERATOR)  # may not erase a contact: nor purge by retention
    async with fake_world(audits={"apply": "none"}) as w:
        configs = w.app.working.configs
        for key in ("retention.memories_days", "retention.conversations_days", "retention.servings_days"):
            with pytest.raises(PermissionDenied, match=rf"values\[{key}\]: 1.0 .* that needs an admin key"):
                await configs.set_tenant(operator, {key: 1.0}, (), 0)
        assert (await configs.set_tenant(operator, {"review.apply": "all"}, (), 0)).version == 1  # it applies anyway
        assert (await configs.set_tenant(OPS, {"retention.memories_days": 30.0}, (), 1)).version == 2  # an admin
        assert (await configs.set_tenant(operator, {"retention.memories_days": 60.0}, (), 2)).version == 3  # longer
