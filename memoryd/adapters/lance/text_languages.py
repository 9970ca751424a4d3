"""LanceTextLanguages: each tenant's full-text language, recorded in the store and followed by its index.

``use`` records a tenant's choice (``recall.text_language``) in ``store_meta`` (``text_language:<tenant>``)
and rebuilds the tenant's ``search_text`` index in that language at once (``text_analysis``). A table
made afterwards (a first write, an import, a process that had not read the record) is created with
the default index; the maintenance pass that follows a write to it, or the next full pass, rebuilds it
in the recorded language (``follow``), so every table converges on its tenant's language however it
was made. A rebuild reads every text once; the in-memory copy reloads, in the index's new language.
"""

from __future__ import annotations

import logging
from typing import Any

from memoryd.adapters.lance.archive_tables import ARCHIVE_PREFIX
from memoryd.adapters.lance.db import LanceDatabase, meta_values, put_meta
from memoryd.adapters.lance.errors import map_lance_errors
from memoryd.adapters.lance.text_analysis import built_language, search_text_index

log = logging.getLogger(__name__)
_KEY = "text_language:"


class LanceTextLanguages:
    """The tenants' recorded languages, as this process last read them, and the rebuilds that follow them."""

    def __init__(self, db: LanceDatabase) -> None:
        self._db = db
        self._recorded: dict[str, str] = {}

    async def refresh(self) -> None:
        """Read every tenant's recorded language again (another process may have recorded one)."""
        recorded = await meta_values(self._db, _KEY)
        self._recorded = {tenant: language for tenant, language in recorded.items() if language}

    async def use(self, tenant_id: str, language: str) -> None:
        """Record the tenant's language and rebuild its index in it now (when the tenant has memories)."""
        await put_meta(self._db, _KEY + tenant_id, language)
        self._recorded[tenant_id] = language
        async with map_lance_errors():
            table = await self._db.table_if_exists(ARCHIVE_PREFIX + tenant_id)
            if table is not None:
                await self._rebuilt(ARCHIVE_PREFIX + tenant_id, table, language)

    async def follow(self, name: str, table: Any) -> bool:
        """Rebuild an archive table's index if it is not in its tenant's recorded language; whether it did.

        The record as this process read it may be stale (another process changed it since the last full
        pass): before a rebuild it is read again, so a stale view never turns an index back.
        """
        tenant_id = name[len(ARCHIVE_PREFIX) :] if name.startswith(ARCHIVE_PREFIX) else None
        language = self._recorded.get(tenant_id) if tenant_id is not None else None
        if tenant_id is None or language is None or await self._built_in(table) in (None, language):
            return False
        language = (await meta_values(self._db, _KEY + tenant_id)).get("", language)  # "": this key exactly
        self._recorded[tenant_id] = language
        return await self._rebuilt(name, table, language)

    @staticmethod
    async def _built_in(table: Any) -> str | None:
        """The language of the table's ``search_text`` index (None without one)."""
        index = next((ix for ix in await table.list_indices() if ix.columns == ["search_text"]), None)
        return None if index is None else built_language(index.index_details)

    async def _rebuilt(self, name: str, table: Any, language: str) -> bool:
        if await self._built_in(table) in (None, language):
            return False  # (a table without one gets it at its next write, in the default language, then this)
        async with self._db.rewriting(name):
            await table.create_index("search_text", config=search_text_index(language), replace=True)
        log.info("full-text index rebuilt in the tenant's language", extra={"table": name, "language": language})
        return True
