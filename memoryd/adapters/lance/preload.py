"""Import LanceDB without building the validators of its REST namespace client, which memoryd never calls.

``lancedb`` imports ``lance_namespace``, whose generated REST client decorates some 370 methods with
pydantic's ``validate_call``, and each decoration builds its validator at import time, paid by
every daemon, worker and CLI start (on 2 cores a daemon served after 5.6–6.4 s, 4.9–5.3 s with
this; ``docs/benchmarks.md``). While LanceDB is imported, ``validate_call`` is wrapped to defer each build to the
method's first call (pydantic's ``defer_build``), then restored: validation itself is unchanged.
"""

from __future__ import annotations

import sys
from typing import Any, cast


def import_lancedb() -> None:
    """Import ``lancedb`` once (idempotent), the namespace client's validators deferred."""
    if "lancedb" in sys.modules:
        return
    import pydantic

    eager = pydantic.validate_call

    def deferred(func: Any = None, /, *, config: Any = None, validate_return: bool = False) -> Any:
        settings = cast(pydantic.ConfigDict, {**(config or {}), "defer_build": True})
        decorate = eager(config=settings, validate_return=validate_return)
        return decorate if func is None else decorate(func)

    pydantic.validate_call = deferred
    try:
        import lancedb  # noqa: F401 - for its side effect: the modules are then cached
    finally:
        pydantic.validate_call = eager
