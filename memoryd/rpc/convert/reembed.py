"""Converters of the reembed service's messages (``reembed_servicer``: decode → call → encode)."""

from __future__ import annotations

from memoryd.rpc._gen.memoryd.v1 import reembed_pb2 as rpb
from memoryd.services.reembed import TenantProgress


def status(p: TenantProgress, model: str) -> rpb.ReembedStatus:
    """A tenant's re-embed progress on the wire."""
    return rpb.ReembedStatus(model=model, memories=p.total, missing=p.missing, recall_model=p.space)
