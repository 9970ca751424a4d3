"""Stored settings' values on the wire: Python values to ``ConfigValue`` and back.

Shared by the server's converters (``convert.config``) and the Python client, so it imports only
the generated messages (through ``rpc.client``): the client package must stay free of the server.
"""

from __future__ import annotations

from memoryd.rpc.client import gpb

Setting = bool | int | float | str


def config_value(value: Setting) -> gpb.ConfigValue:
    """A Python value as a ``ConfigValue`` (bool before int: ``True`` is an int too)."""
    if isinstance(value, bool):
        return gpb.ConfigValue(bool_value=value)
    if isinstance(value, int):
        return gpb.ConfigValue(int_value=value)
    if isinstance(value, float):
        return gpb.ConfigValue(double_value=value)
    if isinstance(value, str):
        return gpb.ConfigValue(string_value=value)
    raise TypeError(f"a setting is a bool, int, float or str, not {type(value).__name__}")


def python_value(value: gpb.ConfigValue) -> Setting:
    """A ``ConfigValue`` as a Python value."""
    kind = value.WhichOneof("kind")
    if kind is None:
        raise ValueError("the ConfigValue holds no value")
    out: Setting = getattr(value, kind)
    return out
