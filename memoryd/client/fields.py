"""Requests from keyword arguments, with the mistakes Python callers make named instead of stored.

Protobuf's constructors take a string where a list of strings is wanted and keep its letters
(``tags="prefs"`` stores five one-letter tags), know enum values only by their full labels
(``SCOPE_SHARED``), and want a wrapper message where a list would do (``UpdateMemoryRequest.tags``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar, cast

from google.protobuf.descriptor import Descriptor, EnumDescriptor
from google.protobuf.message import Message

M = TypeVar("M", bound=Message)


def build(message_type: type[M], fields: Mapping[str, Any], keywords: Sequence[str] = ()) -> M:
    """``message_type(**fields)``, after checking each field the caller named.

    An enum takes its full label, its short name in any case (``"shared"`` for ``SCOPE_SHARED``)
    or its number; a wrapper of one list (``TagList``) takes the list itself. ``keywords``: the
    calling method's own keyword arguments, offered when a mistyped field is close to one
    (``end_user=`` for ``memorize(..., end_user_id=)``).
    """
    descriptor = cast(Descriptor, message_type.DESCRIPTOR)
    for name in fields:
        if name not in descriptor.fields_by_name:
            raise TypeError(_unknown(descriptor, name, keywords))
    return message_type(**_checked(descriptor, fields))


def _checked(descriptor: Descriptor, fields: Mapping[str, Any], within: str = "") -> dict[str, Any]:
    return {name: _value(descriptor, name, value, within + name) for name, value in fields.items()}


def _unknown(descriptor: Descriptor, name: str, keywords: Sequence[str] = ()) -> str:
    fields = sorted(descriptor.fields_by_name)
    close = difflib.get_close_matches(name.rsplit(".", 1)[-1], [*fields, *keywords], n=1, cutoff=0.75)
    hint = f"did you mean {close[0]!r}{' (a keyword of the call)' if close[0] in keywords else ''}? " if close else ""
    return f"{descriptor.name} has no field {name!r}; {hint}its fields: {', '.join(fields)}"


def _value(descriptor: Descriptor, key: str, value: Any, name: str) -> Any:
    """``value`` for the field ``key`` of ``descriptor``; ``name`` is its path from the request, for messages."""
    field = descriptor.fields_by_name.get(key)
    if field is None:
        raise TypeError(_unknown(descriptor, name))
    if field.is_repeated:
        if isinstance(value, str | bytes):
            raise TypeError(f"{name}: a list is wanted, not one string: {name}=[{value!r}]")
        if field.enum_type is not None:
            return [_enum(field.enum_type, name, item) for item in value]
        if field.message_type is not None and not field.message_type.GetOptions().map_entry:
            return [_message(field.message_type, f"{name}[{i}]", item) for i, item in enumerate(value)]
        return value
    if field.enum_type is not None:
        return _enum(field.enum_type, name, value)
    if field.message_type is not None:
        return _message(field.message_type, name, value)
    return value


def _message(descriptor: Descriptor, name: str, value: Any) -> Any:
    if isinstance(value, str | bytes):
        wanted = "a list" if _wraps_one_list(descriptor) else f"a {descriptor.name}"
        raise TypeError(f"{name}: {wanted} is wanted, not a string")
    if isinstance(value, Mapping):
        return _checked(descriptor, value, name + ".")
    if isinstance(value, list | tuple) and _wraps_one_list(descriptor):
        (only,) = descriptor.fields
        return _checked(descriptor, {only.name: value}, name + ".")
    return value


def _wraps_one_list(descriptor: Descriptor) -> bool:
    return len(descriptor.fields) == 1 and descriptor.fields[0].is_repeated


def _enum(enum: EnumDescriptor, name: str, value: Any) -> Any:
    if not isinstance(value, str) or value in enum.values_by_name:
        return value
    prefix = re.sub(r"(?<!^)(?=[A-Z])", "_", enum.name).upper() + "_"
    label = prefix + value.strip().upper().replace("-", "_").replace(" ", "_")
    if label in enum.values_by_name and not label.endswith("_UNSPECIFIED"):
        return label
    choices = ", ".join(v.name.removeprefix(prefix).lower() for v in enum.values if not v.name.endswith("_UNSPECIFIED"))
    raise ValueError(f"{name}: {value!r} is not one of {choices}")
