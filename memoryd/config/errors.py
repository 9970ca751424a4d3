"""Configuration mistakes as one line: the file, the key, the problem (``memoryd`` exits 2 on them).

A missing or malformed file, an unknown or mistyped key and a value out of bounds printed 25-43
lines of pydantic or tomllib traceback; the line names what to fix, and a near miss of a key
("urii") the key that was meant.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from memoryd.core.errors import MemorydError


class ConfigError(MemorydError):
    """The configuration (file, environment or flags) cannot be used as given."""


def missing_file(path: Path) -> ConfigError:
    """The config file named does not exist."""
    return ConfigError(f"config file {str(path)!r}: does not exist")


def not_toml(path: Path | None, exc: tomllib.TOMLDecodeError) -> ConfigError:
    """The config file does not parse."""
    return ConfigError(f"config file {str(path)!r}: not valid TOML: {exc}")


def invalid(path: Path | None, exc: ValidationError, model: type[BaseModel]) -> ConfigError:
    """Every problem pydantic found, each as ``key: problem``, in one line."""
    where = f"config file {str(path)!r}" if path is not None else "configuration"
    problems = [_problem(error, model) for error in exc.errors()]
    return ConfigError(f"{where}: " + "; ".join(problems))


def _problem(error: Any, model: type[BaseModel]) -> str:
    location = [str(part) for part in error["loc"]]
    key = ".".join(location)
    if error["type"] == "extra_forbidden":
        known = _known_keys(model, location[:-1])
        near = difflib.get_close_matches(location[-1], known, n=1)
        hint = f" (did you mean {'.'.join([*location[:-1], near[0]])!r}?)" if near else ""
        return f"{key}: unknown key{hint}"
    return f"{key}: {error['msg']}"


def _known_keys(model: type[BaseModel], section: list[str]) -> list[str]:
    current: Any = model
    for part in section:
        field = current.model_fields.get(part) if isinstance(current, type) and issubclass(current, BaseModel) else None
        if field is None:
            return []
        current = field.annotation
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return []


OTHER_VARIABLES = frozenset({"MEMORYD_CONFIG", "MEMORYD_API_KEY", "MEMORYD_TENANT"})
"""``MEMORYD_`` variables that are not settings: the config file, and a client's key and tenant."""


def unknown_variable(environ: Mapping[str, str], model: type[BaseModel]) -> ConfigError | None:
    """A ``MEMORYD_`` variable naming no section of ``model`` (pydantic-settings would ignore it silently)."""
    sections = {name.upper() for name in model.model_fields}
    for name in sorted(environ):
        upper = name.upper()
        if not upper.startswith("MEMORYD_") or upper in OTHER_VARIABLES:
            continue
        section = upper.removeprefix("MEMORYD_").split("__", 1)[0]
        if section not in sections:
            near = difflib.get_close_matches(section, sections, n=1)
            hint = f" (did you mean MEMORYD_{near[0]}__...?)" if near else ""
            return ConfigError(f"environment: {name}: names no section of the configuration{hint}")
    return None
