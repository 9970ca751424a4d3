"""The embedded default embedder: real ONNX model, shipped tokenizer, no network."""

from __future__ import annotations

import asyncio
import math
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from memoryd.adapters import inference_lanes
from memoryd.adapters.onnx_embedder import DIMENSION, OnnxMiniLMEmbedder
from memoryd.core.errors import NotReady
from memoryd.core.vectors import cosine


async def test_vectors_are_unit_length_and_semantic(onnx_embedder: OnnxMiniLMEmbedder) -> None:
    texts = [
        "I drink espresso every morning",
        "Coffee is how I start my day",
        "The tax return is due in April",
        "x" * 5000,
    ]
    vectors = await onnx_embedder.embed(texts)
    assert [len(v) for v in vectors] == [DIMENSION] * 4
    assert all(math.isclose(math.sqrt(sum(x * x for x in v)), 1.0, rel_tol=1e-4) for v in vectors)
    assert cosine(vectors[0], vectors[1]) > cosine(vectors[0], vectors[2]) + 0.2


async def test_batching_by_length_does_not_change_results(onnx_embedder: OnnxMiniLMEmbedder) -> None:
    texts = ["short", "a much longer sentence about hiking in the mountains with friends", "mid length text"]
    together = await onnx_embedder.embed(texts)
    alone = [(await onnx_embedder.embed([t]))[0] for t in texts]
    assert all(cosine(a, b) > 0.9999 for a, b in zip(together, alone, strict=True))


def test_weights_with_the_wrong_checksum_are_refused(tmp_path: Path) -> None:
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not the model")
    with pytest.raises(NotReady, match="sha256"):
        OnnxMiniLMEmbedder(model_path=fake)


async def test_calls_arriving_during_an_inference_share_the_next_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # Sixteen concurrent Recalls each embedding their query: the first runs at once on its own, the
    # fifteen that came while it ran share one inference, each answered with its own text's vector.
    onnx_embedder = OnnxMiniLMEmbedder(threads=1)  # one run per inference: the runs counted are the inferences
    texts = [f"question {i}: when did Caroline go hiking with friend number {i}?" for i in range(16)]
    alone = [(await onnx_embedder.embed([t]))[0] for t in texts]
    session = onnx_embedder._session
    batches: list[int] = []
    run = session.run

    def counted(names: list[str], feeds: dict[str, Any]) -> Any:
        batches.append(len(feeds["input_ids"]))
        return run(names, feeds)

    monkeypatch.setattr(session, "run", counted)
    answers = await asyncio.gather(*(onnx_embedder.embed([t]) for t in texts), onnx_embedder.embed([]))
    assert batches == [1, 15]
    assert answers[-1] == [] and all(cosine(a[0], b) > 0.9999 for a, b in zip(answers, alone, strict=False))
    batches.clear()
    first = asyncio.ensure_future(onnx_embedder.embed(texts[:1]))
    await asyncio.sleep(0)  # the first inference is under way
    doomed = asyncio.ensure_future(onnx_embedder.embed(["a caller that gives up"]))
    rest = [asyncio.ensure_future(onnx_embedder.embed([t])) for t in texts[1:4]]
    await asyncio.sleep(0)
    doomed.cancel()  # not embedded: the next inference holds the three others only
    got = [await first, *[await r for r in rest]]
    assert batches == [1, 3] and all(cosine(a[0], b) > 0.9999 for a, b in zip(got, alone, strict=False))
    assert [len(await onnx_embedder.embed([t])) for t in texts[:2]] == [1, 1] and batches[2:] == [1, 1]  # idle again


async def test_a_failed_inference_fails_each_of_its_callers_and_the_next_runs(
    onnx_embedder: OnnxMiniLMEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = onnx_embedder._session
    run = session.run
    failures = iter([RuntimeError("onnxruntime: out of memory")] * 2)

    def flaky(names: list[str], feeds: dict[str, Any]) -> Any:
        for exc in failures:
            raise exc
        return run(names, feeds)

    monkeypatch.setattr(session, "run", flaky)
    outcomes = await asyncio.gather(*(onnx_embedder.embed([f"text {i}"]) for i in range(3)), return_exceptions=True)
    assert all(isinstance(o, RuntimeError) for o in outcomes)  # the first alone, then the two that waited
    assert len((await onnx_embedder.embed(["after the failure"]))[0]) == DIMENSION


async def test_an_inference_runs_in_parts_on_several_threads_with_the_same_vectors(
    onnx_embedder: OnnxMiniLMEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = [f"note {i}: {'a longer sentence about the trip ' * (i % 4)}to Lisbon with Maria" for i in range(9)]
    single = OnnxMiniLMEmbedder(threads=1).embed_sync(texts)
    session = onnx_embedder._session
    run = session.run
    runs: list[tuple[int, int]] = []  # (texts, thread)
    both_started = threading.Barrier(2, timeout=10)  # the two runs overlap, or this times out
    pairing = True

    def traced(names: list[str], feeds: dict[str, Any]) -> Any:
        runs.append((len(feeds["input_ids"]), threading.get_ident()))
        if pairing:
            both_started.wait()
        return run(names, feeds)

    monkeypatch.setattr(session, "run", traced)
    parts = onnx_embedder.embed_sync(texts)
    assert sorted(n for n, _ in runs) == [4, 5] and len({t for _, t in runs}) == 2
    assert all(cosine(a, b) > 0.9999 for a, b in zip(parts, single, strict=True))
    runs.clear()
    pairing = False
    assert len(onnx_embedder.embed_sync(texts[:2])) == 2 and [n for n, _ in runs] == [2]  # two texts: one run


async def test_a_query_does_not_wait_for_an_inference_of_writes(
    onnx_embedder: OnnxMiniLMEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    queries = onnx_embedder.for_queries()
    assert (queries.model_name, queries.dimension) == (onnx_embedder.model_name, DIMENSION)
    expected = (await onnx_embedder.embed(["when did Maria go to Lisbon?"]))[0]
    session = onnx_embedder._session
    run = session.run
    release = threading.Event()

    def held(names: list[str], feeds: dict[str, Any]) -> Any:
        if len(feeds["input_ids"]) == 1 and feeds["input_ids"].shape[1] > 12:  # the write's long text waits
            assert release.wait(10)
        return run(names, feeds)

    monkeypatch.setattr(session, "run", held)
    write = asyncio.ensure_future(onnx_embedder.embed(["Maria flew to Lisbon in May with her two sisters and a dog"]))
    await asyncio.sleep(0.05)
    (vector,) = await asyncio.wait_for(queries.embed(["when did Maria go to Lisbon?"]), 5)
    assert cosine(vector, expected) > 0.9999 and not write.done()
    release.set()
    assert len((await write)[0]) == DIMENSION


def test_a_failed_run_on_a_helper_thread_fails_the_inference(
    onnx_embedder: OnnxMiniLMEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    caller = threading.get_ident()
    session = onnx_embedder._session
    run = session.run

    def failing_elsewhere(names: list[str], feeds: dict[str, Any]) -> Any:
        if threading.get_ident() != caller:
            raise RuntimeError("onnxruntime: out of memory")
        time.sleep(0.2)  # the helper takes the other run meanwhile
        return run(names, feeds)

    monkeypatch.setattr(session, "run", failing_elsewhere)
    with pytest.raises(RuntimeError, match="out of memory"):
        onnx_embedder.embed_sync([f"text number {i} about a trip" for i in range(8)])


async def test_queries_under_load_wait_briefly_for_company_and_a_lone_caller_never_does(
    onnx_embedder: OnnxMiniLMEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Under load the first query back after a shared inference ran alone while the others queued behind
    # it; it now waits ``QUERY_LINGER_SECONDS`` for them, or until as many wait as that inference ran. A
    # caller alone, or one after the lane has been quiet for a moment, starts at once. (The linger is
    # stretched here so the schedule is not a race.)
    monkeypatch.setattr(inference_lanes, "QUERY_LINGER_SECONDS", 1.0)
    queries = onnx_embedder.for_queries()
    session = onnx_embedder._session
    run = session.run
    release = threading.Event()
    release.set()
    inferences: list[int] = []

    def traced(names: list[str], feeds: dict[str, Any]) -> Any:
        inferences.append(len(feeds["input_ids"]))
        assert release.wait(10)
        return run(names, feeds)

    monkeypatch.setattr(session, "run", traced)

    async def alone(text: str) -> float:
        start = time.monotonic()
        await queries.embed([text])
        return time.monotonic() - start

    assert max([await alone("first question"), await alone("second question")]) < 0.5  # one caller: no linger
    release.clear()
    held = asyncio.ensure_future(queries.embed(["a"]))
    await asyncio.sleep(0.05)
    waiting = [asyncio.ensure_future(queries.embed([text])) for text in ("b", "c")]
    await asyncio.sleep(0.05)
    release.set()
    await asyncio.gather(held, *waiting)  # "a" alone, then "b" and "c" together: the lane is shared
    first = asyncio.ensure_future(queries.embed(["d"]))
    await asyncio.sleep(0.05)
    assert not first.done()  # lingering for company
    start = time.monotonic()
    await asyncio.gather(first, queries.embed(["e"]))
    assert time.monotonic() - start < 0.5  # as many as the last shared inference ran: the linger ends
    assert inferences == [1, 1, 1, 2, 2]  # "d" and "e" in one inference
    assert await alone("f") >= 0.9  # right after: lingers, and nobody comes
    assert await alone("g") < 0.5  # an inference of one ended the shared spell: at once
    await asyncio.sleep(0.1)
    assert await alone("later") < 0.5 and inferences[-3:] == [1, 1, 1]
