"""The command line's argument shapes: options may come before or after positional arguments."""

from __future__ import annotations

import pytest

from memoryd.commands.main import parser


@pytest.mark.parametrize(
    "argv",
    [
        ["keys", "revoke", "--data", "store", "0123456789abcdef"],
        ["keys", "revoke", "0123456789abcdef", "--data", "store"],
    ],
)
def test_keys_revoke_takes_the_key_id_wherever_it_stands(argv: list[str]) -> None:
    args = parser("keys").parse_args(argv)
    assert (args.action, args.key_id, args.data) == ("revoke", "0123456789abcdef", "store")


def test_keys_create_and_list_keep_their_options() -> None:
    created = parser("keys").parse_args(["keys", "create", "--tenant", "acme", "--role", "admin", "--name", "ops"])
    assert (created.tenant, created.role, created.name) == ("acme", "admin", "ops")
    listed = parser("keys").parse_args(["keys", "list", "--tenant", "acme"])
    assert (listed.action, listed.tenant) == ("list", "acme")
    with pytest.raises(SystemExit):
        parser("keys").parse_args(["keys", "revoke"])  # the key id is required
