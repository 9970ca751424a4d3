"""AgentConfigService: stored tenant and agent settings, resolved into what each agent runs with.

Every reader (conversations, compaction, Recall's defaults, retention, the audit batch) asks this
service, so one resolution order holds everywhere (``core.agent_config``). Resolved values are
cached per tenant and agent for ``cache_seconds``: a change made through this process is seen at
once, one made through another replica within that bound.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import replace

from memoryd.core.agent_config import (
    SETTINGS,
    Effective,
    StoredConfig,
    Value,
    Values,
    changed,
    refuse_loosening,
    resolve,
    widens_destruction,
)
from memoryd.core.conversation import Conversation, StorageScope, Strategy, WorkingPolicy
from memoryd.core.errors import Conflict, PermissionDenied
from memoryd.core.event_log import Operation
from memoryd.core.keys import Role
from memoryd.core.models import Actor
from memoryd.core.ports import AgentConfigStore, StoreMaintenance
from memoryd.core.ranking import AgentRecall, FusionWeights
from memoryd.core.retention import RetentionPolicy
from memoryd.core.review import ApplyPolicy
from memoryd.core.validation import check_agent_id, check_range, check_tenant
from memoryd.core.working import apply_overrides
from memoryd.services.event_log import EventLog

MAX_VERSION = 1 << 40
_WORKING = "working."
_TEXT_LANGUAGE = "recall.text_language"


class AgentConfigService:
    """Get, set and resolve the settings of tenants and agents."""

    def __init__(
        self,
        store: AgentConfigStore,
        trail: EventLog,
        defaults: Callable[[str], dict[str, Value]],
        daemon_agents: Mapping[str, Values],
        *,
        cache_seconds: float = 5.0,
        rrf_k: int = 5,
        maintenance: StoreMaintenance | None = None,
    ) -> None:
        self._rrf_k = rrf_k
        self._maintenance = maintenance
        """Where a tenant's ``recall.text_language`` takes effect (its full-text index); None: nowhere."""
        missing = set(SETTINGS) - set(defaults(""))
        if missing:
            raise ValueError(f"no daemon default for {sorted(missing)}")
        self._store = store
        self._trail = trail
        self._defaults = defaults
        self._daemon_agents = {a: dict(v) for a, v in daemon_agents.items()}
        self._cache_seconds = cache_seconds
        self._cache: dict[tuple[str, str], tuple[float, dict[str, Effective], int, int]] = {}

    async def effective(self, tenant_id: str, agent_id: str) -> tuple[dict[str, Effective], int, int]:
        """Every key's resolved value for the agent ("" for the tenant level), the tenant's and the agent's versions."""
        check_tenant(tenant_id)
        if agent_id:
            check_agent_id(agent_id)
        cached = self._cache.get((tenant_id, agent_id))
        now = time.monotonic()
        if cached is not None and now - cached[0] < self._cache_seconds:
            return cached[1], cached[2], cached[3]
        rows = await self._store.configs(tenant_id, ["", agent_id] if agent_id else [""])
        tenant, agent = rows.get("", StoredConfig()), rows.get(agent_id, StoredConfig()) if agent_id else StoredConfig()
        daemon_agent = self._daemon_agents.get(agent_id, {}) if agent_id else {}
        resolved = resolve(self._defaults(tenant_id), tenant.values, daemon_agent, agent.values)
        if len(self._cache) > 100_000:
            self._cache.clear()
        self._cache[(tenant_id, agent_id)] = (now, resolved, tenant.version, agent.version)
        return resolved, tenant.version, agent.version

    async def values(self, tenant_id: str, agent_id: str) -> dict[str, Value]:
        """The resolved values alone."""
        resolved, _, _ = await self.effective(tenant_id, agent_id)
        return {k: e.value for k, e in resolved.items()}

    async def set_tenant(
        self, by: Actor, set_values: Values, unset: tuple[str, ...], expected_version: int, *, careful: bool = False
    ) -> StoredConfig:
        """Change the tenant's stored settings (compare-and-swap on ``expected_version``).

        No change may let memoryd delete more on its own below the admin role (whose erasure it is), nor
        delete or apply more at all with ``careful`` (the caller's key is non-destructive); see
        ``core.agent_config.widens_destruction``.
        """
        return await self._set(by, "", set_values, unset, expected_version, careful)

    async def set_agent(
        self,
        by: Actor,
        agent_id: str,
        set_values: Values,
        unset: tuple[str, ...],
        expected_version: int,
        *,
        careful: bool = False,
    ) -> StoredConfig:
        """Change one agent's stored settings; a tighten-only key may not loosen the tenant's value."""
        check_agent_id(agent_id)
        return await self._set(by, agent_id, set_values, unset, expected_version, careful)

    async def _set(
        self,
        by: Actor,
        agent_id: str,
        set_values: Values,
        unset: tuple[str, ...],
        expected_version: int,
        careful: bool,
    ) -> StoredConfig:
        tenant_id = check_tenant(by.tenant_id)
        check_range(expected_version, "expected_version", 0, MAX_VERSION)
        rows = await self._store.configs(tenant_id, ["", agent_id] if agent_id else [""])
        current = rows.get(agent_id, StoredConfig())
        if expected_version != current.version:
            raise Conflict(
                f"expected_version: the {'agent' if agent_id else 'tenant'} settings are at version "
                f"{current.version}, not {expected_version}; re-read them (GetEffectiveConfig) and retry"
            )
        values = changed(current, set_values, unset, tenant_level=not agent_id)
        tenant = rows.get("", StoredConfig()).values
        if agent_id:
            refuse_loosening(tenant, {k: values[k] for k in set_values})
        self._refuse_widening(by, careful, agent_id, tenant, current.values, values)
        new = StoredConfig(values, current.version + 1, by.agent_id)
        if not await self._store.swap_config(tenant_id, agent_id, new, expected_version):
            raise Conflict("expected_version: the settings changed concurrently; re-read them and retry")
        self._forget(tenant_id, agent_id)
        keys = sorted({*set_values, *unset})
        await self._trail.write(tenant_id, Operation.CONFIG_CHANGE, replace(by, agent_id=agent_id or by.agent_id), keys)
        if _TEXT_LANGUAGE in keys and not agent_id:
            await self._index_in_language(tenant_id)
        return new

    def _refuse_widening(
        self, by: Actor, careful: bool, agent_id: str, tenant: Values, before: Values, after: Values
    ) -> None:
        """PermissionDenied naming the first key whose change lets memoryd delete or apply more than the caller may."""
        if by.role >= Role.ADMIN and not careful:
            return
        daemon_agent = self._daemon_agents.get(agent_id, {}) if agent_id else {}
        defaults = self._defaults(by.tenant_id)

        def effective(level: Values) -> dict[str, Value]:
            resolved = resolve(defaults, tenant if agent_id else level, daemon_agent, level if agent_id else {})
            return {k: e.value for k, e in resolved.items()}

        for key, deletes in widens_destruction(effective(before), effective(after)):
            does = "delete" if deletes else "apply"
            said = f"values[{key}]: {after.get(key, 'its default')!r} lets memoryd {does} more on its own"
            if careful:
                raise PermissionDenied(f"{said}; this key is non-destructive")
            if deletes:
                raise PermissionDenied(f"{said}; that needs an admin key (erasing data is the admin's)")

    async def settings_imported(self, tenant_id: str) -> None:
        """An import wrote the tenant's settings behind this service: resolve them afresh, index in its language."""
        self._forget(tenant_id, "")
        await self._index_in_language(tenant_id)

    async def _index_in_language(self, tenant_id: str) -> None:
        """The tenant's full-text index in its resolved ``recall.text_language`` (recorded, rebuilt if needed)."""
        if self._maintenance is not None:
            language = (await self.values(tenant_id, ""))[_TEXT_LANGUAGE]
            await self._maintenance.use_text_language(tenant_id, str(language))

    def _forget(self, tenant_id: str, agent_id: str) -> None:
        if agent_id:
            self._cache.pop((tenant_id, agent_id), None)
        else:  # the tenant level feeds every agent's resolution
            for key in [k for k in self._cache if k[0] == tenant_id]:
                del self._cache[key]

    async def working_policy(self, tenant_id: str, agent_id: str) -> WorkingPolicy:
        """The agent's working-memory policy."""
        values = await self.values(tenant_id, agent_id)
        fields = {k[len(_WORKING) :]: v for k, v in values.items() if k.startswith(_WORKING)}
        fields["strategy"] = Strategy(str(fields["strategy"]))
        fields["storage_scope"] = StorageScope(str(fields["storage_scope"]))
        return WorkingPolicy(**fields)  # type: ignore[arg-type]  # the catalogue's working keys are its fields

    async def for_conversation(self, tenant_id: str, conv: Conversation) -> WorkingPolicy:
        """The agent's policy with the conversation's own overrides."""
        return apply_overrides(await self.working_policy(tenant_id, conv.agent_id), conv.options)

    async def recall_defaults(self, actor: Actor) -> AgentRecall:
        """The agent's Recall: limit and min_score for a request that leaves them unset, weights and floor."""
        values = await self.values(actor.tenant_id, actor.agent_id)
        return AgentRecall(
            int(values["recall.limit"]),
            float(values["recall.min_score"]),
            FusionWeights(self._rrf_k, float(values["recall.vector_weight"]), float(values["recall.full_text_weight"])),
            float(values["recall.similarity_floor"]),
        )

    async def retention(self, tenant_id: str) -> RetentionPolicy:
        """The tenant's retention days."""
        values = await self.values(tenant_id, "")
        return RetentionPolicy(
            float(values["retention.memories_days"]),
            float(values["retention.conversations_days"]),
            float(values["retention.servings_days"]),
            float(values["retention.graph_days"]),
            float(values["retention.graph_decay_days"]),
            float(values["retention.graph_decay_confidence"]),
        )

    async def review_apply(self, tenant_id: str, agent_id: str) -> ApplyPolicy:
        """Which findings the agent's reviews apply on their own."""
        return ApplyPolicy(str((await self.values(tenant_id, agent_id))["review.apply"]))

    async def check_apply(self, actor: Actor) -> None:
        """PermissionDenied unless ``actor`` may apply findings: operators, or agents where ``review.agents_apply``."""
        if actor.role >= Role.OPERATOR or (await self.values(actor.tenant_id, ""))["review.agents_apply"]:
            return
        raise PermissionDenied(
            "ApplyFindings: an agent key applies findings only where the tenant's review.agents_apply is on"
        )

    async def review_enabled(self, tenant_id: str, agent_id: str) -> bool:
        """Whether the audit batch reviews this agent."""
        return bool((await self.values(tenant_id, agent_id))["review.enabled"])
