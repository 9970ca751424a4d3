"""Configuration: one TOML file plus environment variables, read once at the process edge.

Precedence (highest first): explicit overrides (command-line flags), the
product's short env names (``MEMORY_RRF_K``...), ``MEMORYD_<SECTION>__<KEY>``
env vars, the TOML file (``--config`` or ``MEMORYD_CONFIG``), defaults. This is
the only module that reads the environment.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import fields
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict, TomlConfigSettingsSource

from memoryd.config import errors as config_errors
from memoryd.config.models import (
    EmbeddingSettings,
    MemorizeSettings,
    ProfileSettings,
    ProviderSettings,
    RecallSettings,
    ReembedSettings,
)
from memoryd.config.process import (
    AuthSettings,
    LogSettings,
    MetricsSettings,
    RedisSettings,
    ServerSettings,
    StorageSettings,
    TracingSettings,
)
from memoryd.config.work import (
    AgentConfigSettings,
    AuditSettings,
    JobSettings,
    PiiSettings,
    RetentionDays,
    RetentionSettings,
    WorkingOverride,
    WorkingPolicySettings,
    WorkingSettings,
)
from memoryd.core.query_terms import DEFAULT_TEXT_LANGUAGE

PRODUCT_ENV = {
    "MEMORY_RRF_K": ("recall", "rrf_k"),
    "MEMORY_FTS_BOOST": ("recall", "fts_weight"),
    "MEMORY_VECTOR_WEIGHT": ("recall", "vector_weight"),
    "MEMORY_SIMILARITY_THRESHOLD": ("recall", "similarity_threshold"),
    "MEMORY_DEDUP_DISTANCE": ("memorize", "dedup_distance"),
    "MEMORY_MAX_CONTENT_BYTES": ("memorize", "max_content_bytes"),
    "REDIS_URL": ("redis", "dsn"),
    "PROFILE_BUDGET_TOKENS": ("profile", "default_budget_tokens"),
    "MEMORY_EXTRACTION_MODEL": ("provider", "extraction_model"),
}


WORKING_ENV = {
    "COMPACTING_THRESHOLD_PERCENT": "threshold_percent",
    "COMPACTING_KEEP_PERCENT": "keep_percent",
    "COMPACTING_MAX_SUMMARIES": "max_summaries",
    "COMPACTING_SUMMARY_BUDGET_PERCENT": "summary_budget_percent",
}


class _ProductEnvSource(PydanticBaseSettingsSource):
    """Reads the short env names of ``PRODUCT_ENV``."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        """Unused: ``__call__`` reads every mapped name at once."""
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        """Nested section values for every mapped env var that is set."""
        out: dict[str, dict[str, Any]] = {}
        for env, (section, key) in PRODUCT_ENV.items():
            if env in os.environ:
                out.setdefault(section, {})[key] = os.environ[env]
        for env, key in WORKING_ENV.items():
            if env in os.environ:
                out.setdefault("working", {}).setdefault("default", {})[key] = os.environ[env]
        return out


class Settings(BaseSettings):
    """Everything the daemon and workers are configured with."""

    model_config = SettingsConfigDict(env_prefix="MEMORYD_", env_nested_delimiter="__", extra="forbid")

    server: ServerSettings = ServerSettings()
    auth: AuthSettings = AuthSettings()
    storage: StorageSettings = StorageSettings()
    embedding: EmbeddingSettings = EmbeddingSettings()
    reembed: ReembedSettings = ReembedSettings()
    recall: RecallSettings = RecallSettings()
    memorize: MemorizeSettings = MemorizeSettings()
    profile: ProfileSettings = ProfileSettings()
    log: LogSettings = LogSettings()
    tracing: TracingSettings = TracingSettings()
    metrics: MetricsSettings = MetricsSettings()
    redis: RedisSettings = RedisSettings()
    provider: ProviderSettings = ProviderSettings()
    jobs: JobSettings = JobSettings()
    working: WorkingSettings = WorkingSettings()
    audits: AuditSettings = AuditSettings()
    pii: PiiSettings = PiiSettings()
    retention: RetentionSettings = RetentionSettings()
    agent_config: AgentConfigSettings = AgentConfigSettings()

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Overrides, product env names, MEMORYD_ env, then the TOML file."""
        return (init_settings, _ProductEnvSource(settings_cls), env_settings, TomlConfigSettingsSource(settings_cls))

    def with_redis(self, dsn: str) -> Settings:
        """These settings with the job queue at ``dsn`` (a running ``memoryd up``'s embedded Valkey)."""
        return self.model_copy(update={"redis": self.redis.model_copy(update={"dsn": dsn})})

    def without_maintenance(self) -> Settings:
        """These settings with the store's maintenance loop off, for every process but the daemon.

        Two processes compacting the same tables waste the CPU and one of them loses each commit.
        """
        return self.model_copy(update={"storage": self.storage.model_copy(update={"maintenance_enabled": False})})

    def agent_defaults(self, tenant_id: str, calibrated_floor: float) -> dict[str, bool | int | float | str]:
        """The daemon level of every per-agent setting (``core.agent_config.SETTINGS``) for one tenant.

        ``calibrated_floor``: the embedder's similarity floor, the default when none is configured.
        """
        policy = self.working.default.policy()
        out: dict[str, bool | int | float | str] = {
            f"working.{f.name}": (v.value if isinstance(v := getattr(policy, f.name), StrEnum) else v)
            for f in fields(policy)
        }
        retention = self.retention.policy_for(tenant_id)
        out |= {
            "recall.limit": self.recall.default_limit,
            "recall.min_score": self.recall.default_min_score,
            "recall.vector_weight": self.recall.vector_weight,
            "recall.full_text_weight": self.recall.fts_weight,
            "recall.text_language": DEFAULT_TEXT_LANGUAGE,  # per tenant only: its index follows it
            "recall.similarity_floor": (
                calibrated_floor if self.recall.similarity_threshold is None else self.recall.similarity_threshold
            ),
            "review.enabled": True,
            "graph.enabled": False,
            "graph.write_approval": False,
            "graph.max_hops": 2,
            "graph.budget_tokens": 600,
            "review.apply": self.audits.policy_for(tenant_id).value,
            "review.agents_apply": False,
        }
        out |= {f"retention.{f.name}": getattr(retention, f.name) for f in fields(retention)}
        return out


def load_settings(config_file: Path | None = None, **overrides: Any) -> Settings:
    """Settings from the TOML file (argument, else ``MEMORYD_CONFIG``), the env, then overrides.

    ``overrides`` are whole or partial sections, e.g. ``server={"port": 0}``.
    """
    path = config_file or (Path(os.environ["MEMORYD_CONFIG"]) if os.environ.get("MEMORYD_CONFIG") else None)
    if (mistyped := config_errors.unknown_variable(os.environ, Settings)) is not None:
        raise mistyped
    if path is not None and not path.is_file():
        raise config_errors.missing_file(path)

    class _FromFile(Settings):
        model_config = SettingsConfigDict(**{**Settings.model_config, "toml_file": path})

    try:
        return _FromFile(**overrides)
    except tomllib.TOMLDecodeError as exc:
        raise config_errors.not_toml(path, exc) from None
    except ValidationError as exc:
        raise config_errors.invalid(path, exc, Settings) from None


__all__ = [
    "PRODUCT_ENV",
    "WORKING_ENV",
    "AgentConfigSettings",
    "AuditSettings",
    "AuthSettings",
    "EmbeddingSettings",
    "JobSettings",
    "LogSettings",
    "MemorizeSettings",
    "MetricsSettings",
    "PiiSettings",
    "ProfileSettings",
    "ProviderSettings",
    "RecallSettings",
    "RedisSettings",
    "ReembedSettings",
    "RetentionDays",
    "RetentionSettings",
    "ServerSettings",
    "Settings",
    "StorageSettings",
    "TracingSettings",
    "WorkingOverride",
    "WorkingPolicySettings",
    "WorkingSettings",
    "load_settings",
]
