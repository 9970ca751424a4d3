"""The baseline: the same hybrid recall on SQLite (sqlite-vec KNN + FTS5), as the system memoryd grew from did it.

Kept honest: WAL, a page cache and mmap sized for the data, the agent as the
vec0 partition key (so a KNN scans one agent's vectors only), FTS5 with the
porter stemmer and prefix queries, AND of the terms first with OR as the
fallback, the same candidate depth and the same weighted RRF (``core.ranking``).
Runs in process (no RPC), which favours it slightly.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pysqlite3.dbapi2 as sqlite3  # the stdlib build cannot load extensions
import sqlite_vec

from memoryd.core.models import ArmHit
from memoryd.core.query_terms import full_text_query
from memoryd.core.ranking import Fused, FusionWeights, fuse

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class SqliteHybrid:
    """A hybrid memory index in one SQLite file."""

    def __init__(self, path: Path, dimension: int) -> None:
        self._db = sqlite3.connect(str(path))
        self._db.enable_load_extension(True)
        sqlite_vec.load(self._db)
        self._db.enable_load_extension(False)
        for pragma in (
            "journal_mode=WAL",
            "synchronous=NORMAL",
            "cache_size=-262144",
            "mmap_size=1073741824",
            "temp_store=MEMORY",
        ):
            self._db.execute(f"PRAGMA {pragma}")
        self._db.executescript(f"""
            CREATE TABLE IF NOT EXISTS memories(id INTEGER PRIMARY KEY, agent TEXT NOT NULL, content TEXT NOT NULL);
            CREATE INDEX IF NOT EXISTS memories_agent ON memories(agent);
            CREATE VIRTUAL TABLE IF NOT EXISTS vectors USING vec0(
                agent TEXT PARTITION KEY, embedding float[{dimension}] distance_metric=cosine);
            CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(content, agent UNINDEXED, tokenize='porter unicode61');
        """)

    def load(self, agents: Sequence[str], texts: Sequence[str], vectors: Any) -> None:
        """Bulk insert in one transaction."""
        with self._db:
            self._db.executemany(
                "INSERT INTO memories(id, agent, content) VALUES (?, ?, ?)",
                ((i, a, t) for i, (a, t) in enumerate(zip(agents, texts, strict=True))),
            )
            self._db.executemany(
                "INSERT INTO vectors(rowid, agent, embedding) VALUES (?, ?, ?)",
                ((i, a, _blob(v)) for i, (a, v) in enumerate(zip(agents, vectors, strict=True))),
            )
            self._db.executemany(
                "INSERT INTO fts(rowid, content, agent) VALUES (?, ?, ?)",
                ((i, t, a) for i, (a, t) in enumerate(zip(agents, texts, strict=True))),
            )

    def recall(
        self, agent: str, query: str, vector: Sequence[float], limit: int, depth: int, weights: FusionWeights
    ) -> list[Fused]:
        """Vector kNN + FTS5 (AND, then OR), weighted RRF; ids are the insertion indexes."""
        vec = [
            ArmHit(str(row[0]), 1.0 - row[1], _EPOCH)
            for row in self._db.execute(
                "SELECT rowid, distance FROM vectors WHERE embedding MATCH ? AND k = ? AND agent = ?",
                (_blob(vector), depth, agent),
            )
        ]
        return fuse(vec, self._full_text(agent, query, depth), weights)[:limit]

    def _full_text(self, agent: str, query: str, depth: int) -> list[ArmHit]:
        terms = full_text_query(query).terms
        if not terms:
            return []
        quoted = [f'"{t}"*' for t in terms]
        hits: list[ArmHit] = []
        for joiner in (" AND ", " OR "):
            seen = {h.memory_id for h in hits}
            rows = self._db.execute(
                "SELECT rowid, bm25(fts) FROM fts WHERE fts MATCH ? AND agent = ? ORDER BY bm25(fts) LIMIT ?",
                (joiner.join(quoted), agent, depth),
            ).fetchall()
            hits += [ArmHit(str(r[0]), -r[1], _EPOCH) for r in rows if str(r[0]) not in seen]
            if len(hits) >= depth or len(terms) == 1:
                break
        return hits[:depth]

    def close(self) -> None:
        """Close the database."""
        self._db.close()


def _blob(vector: Any) -> bytes:
    """vec0's wire format: little-endian float32."""
    return np.asarray(vector, dtype=np.float32).tobytes()
