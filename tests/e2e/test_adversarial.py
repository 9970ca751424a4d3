"""The adversarial suite at a small size: keys of three tenants and every role attack each other's rows."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from memoryd.commands.bench.adversarial import attack, fingerprint, keys_for, seed
from memoryd.config import Settings
from tests.conftest import LiveServer

pytestmark = pytest.mark.timeout(180)


def test_no_key_reaches_or_changes_what_the_rules_forbid(live_server: LiveServer, settings: Settings) -> None:
    assert live_server.app is not None
    keys = live_server.run(keys_for(live_server.app))
    data = Path(settings.storage.uri)
    with grpc.insecure_channel(f"127.0.0.1:{live_server.port}") as channel:
        world = seed(channel, keys)
        before = fingerprint(data)
        outcome = attack(channel, world, calls=400, seed_value=11)
        after = fingerprint(data)
    assert outcome.wrong_status == [] and outcome.leaked_rows == []
    assert before == after and before  # every archive, conversation and key table unchanged
    assert len(outcome.attempts) >= 15  # every kind of attempt ran
    # scoped keys among the attackers: a read-only admin's write, a non-destructive agent's forget
    assert outcome.attempts["read_only_write"] and outcome.attempts["non_destructive_forget"]
