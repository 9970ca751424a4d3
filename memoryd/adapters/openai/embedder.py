"""Embedder on any OpenAI-compatible ``/v1/embeddings`` endpoint (OpenAI, vLLM, Ollama, TEI...)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import openai

from memoryd.adapters.openai.errors import map_openai_errors
from memoryd.core.embed_roles import EmbedRole, RoleMarking
from memoryd.core.errors import NotReady


class OpenAIEmbedder:
    """Embeddings through the ``openai`` client."""

    def __init__(
        self,
        client: openai.AsyncOpenAI,
        model: str,
        dimension: int,
        send_dimensions: bool,
        batch_size: int = 256,
        roles: RoleMarking | None = None,
    ) -> None:
        self._roles = roles or RoleMarking()
        """The request fields that tell the server a text's role (prefixes are ``adapters.embedding_roles``')."""
        self._client = client
        self._model = model
        self._dimension = dimension
        self._send_dimensions = send_dimensions
        self._batch_size = batch_size

    @classmethod
    def connect(
        cls,
        base_url: str,
        api_key: str,
        timeout: float,
        model: str,
        dimension: int,
        send_dimensions: bool,
        roles: RoleMarking | None = None,
    ) -> OpenAIEmbedder:
        """An embedder with a client of its own on ``base_url`` (one retry of the client's: a query waits on it)."""
        client = openai.AsyncOpenAI(base_url=base_url, api_key=api_key or "none", timeout=timeout, max_retries=1)
        return cls(client, model, dimension, send_dimensions, roles=roles)

    @property
    def model_name(self) -> str:
        """The provider's model name."""
        return self._model

    @property
    def dimension(self) -> int:
        """As configured; every response is checked against it."""
        return self._dimension

    async def aclose(self) -> None:
        """Close the client's connections (the composition root calls it for the clients it built)."""
        await self._client.close()

    async def embed(self, texts: Sequence[str], role: EmbedRole = EmbedRole.DOCUMENT) -> list[list[float]]:
        """Embed in batches; vectors are L2-normalised here whatever the provider returns."""
        out: list[list[float]] = []
        extra_body = dict(self._roles.fields(role)) or None  # e.g. {"input_type": "query"}
        for start in range(0, len(texts), self._batch_size):
            chunk = list(texts[start : start + self._batch_size])
            async with map_openai_errors("embedding provider"):
                if self._send_dimensions:
                    response = await self._client.embeddings.create(
                        model=self._model, input=chunk, dimensions=self._dimension, extra_body=extra_body
                    )
                else:
                    response = await self._client.embeddings.create(
                        model=self._model, input=chunk, extra_body=extra_body
                    )
            vectors = np.array([d.embedding for d in sorted(response.data, key=lambda d: d.index)], dtype=np.float32)
            if vectors.shape != (len(chunk), self._dimension):
                raise NotReady(
                    f"embedding provider returned shape {vectors.shape}, expected ({len(chunk)}, {self._dimension})"
                )
            vectors /= np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)
            out.extend(vectors.tolist())
        return out
