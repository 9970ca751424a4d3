"""LanceDB is imported with its namespace client's validators deferred: pydantic is left as it was, validation works."""

from __future__ import annotations

import pydantic
import pytest
from pydantic.validate_call_decorator import validate_call

import memoryd.adapters  # noqa: F401 - the package imports lancedb through lance_import


def test_validate_call_is_restored_after_the_import() -> None:
    assert pydantic.validate_call is validate_call


def test_a_deferred_validator_still_validates_on_the_first_call() -> None:
    from lance_namespace_urllib3_client.api.table_api import TableApi
    from lance_namespace_urllib3_client.api_client import ApiClient

    with pytest.raises(pydantic.ValidationError, match="valid string"):
        TableApi(ApiClient()).list_tables(id=5)  # type: ignore[arg-type]  # the wrong type is the point
