"""Converters of the data service's messages (``data_servicer``: decode → call → encode)."""

from __future__ import annotations

from memoryd.core.data_rights import ErasureReceipt
from memoryd.rpc._gen.memoryd.v1 import data_pb2 as dpb


def receipt(r: ErasureReceipt) -> dpb.ErasureReceipt:
    """An ErasureReceipt as a message."""
    return dpb.ErasureReceipt(
        subject=r.subject,
        counts=r.counts,
        memory_ids=list(r.memory_ids),
        conversations=list(r.conversations),
        versions_purged=r.versions_purged,
        persistence_rewritten=r.persistence_rewritten,
        seconds=r.seconds,
        at=r.at,
    )
