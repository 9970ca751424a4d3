"""LanceDB's failures map to memoryd's errors at the adapter seam."""

from __future__ import annotations

import pytest

from memoryd.adapters.lance.errors import map_lance_errors, unreachable_reason
from memoryd.core.errors import Conflict, Unavailable


@pytest.mark.parametrize(
    "message",
    [
        "lance error: Retryable commit conflict for version 7: This Update transaction was preempted by concurrent "
        "transaction Rewrite at version 7. Please retry.",
        "lance error: Too many concurrent writers. Attempted 4 times, but failed on retry_timeout of 30.000 seconds., "
        "/root/.cargo/registry/src/lance-13.0.0/src/io/commit.rs:128:5",
        # two processes created the table at once (seen on object storage, reproduced with 4 connections)
        "lance error: Incompatible transaction: This Update transaction is incompatible with concurrent transaction "
        "Overwrite at version 2., /root/.cargo/registry/src/lance-13.0.0/src/io/commit/conflict_resolver.rs:821:30",
    ],
)
async def test_lance_commit_contention_is_a_retryable_conflict(message: str) -> None:
    with pytest.raises(Conflict) as caught:
        async with map_lance_errors():
            raise RuntimeError(message)
    assert caught.value.retryable and "concurrent" in str(caught.value)


async def test_lance_io_failure_is_unavailable_and_anything_else_propagates() -> None:
    with pytest.raises(Unavailable):
        async with map_lance_errors():
            raise OSError("connection reset by the object store")
    with pytest.raises(RuntimeError, match="schema mismatch"):
        async with map_lance_errors():
            raise RuntimeError("lance error: schema mismatch")


@pytest.mark.parametrize(
    ("dump", "reason"),
    [
        # lancedb 0.x on S3 without credentials (and no instance to ask), as connect_async raised it
        (
            'Invalid input, Failed to connect to namespace: IO { source: Generic { store: "N/A", source: IO { source: '
            '"Failed to get AWS credentials: CredentialsNotLoaded(CredentialsNotLoaded { source: Some(\\"no '
            'providers in chain provided credentials\\") })", location: Location { file: "/root/.cargo/registry/src/'
            'lance-io-13.0.0/src/object_store/providers/aws.rs", line: 607, column: 30 }, backtrace: MaybeBacktrace '
            '} }, location: Location { file: "object_store.rs", line: 1506, column: 92 }, backtrace: MaybeBacktrace }',
            "Failed to get AWS credentials",
        ),
        ('Generic { store: "S3", source: ... <Code>NoSuchBucket</Code><Message>x</Message> }', "NoSuchBucket"),
        ("something else entirely", "something else entirely"),
    ],
)
def test_an_object_stores_dump_is_read_down_to_its_cause(dump: str, reason: str) -> None:
    assert unreachable_reason(dump) == reason
