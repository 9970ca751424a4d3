"""The archive's and profiles' requests, built once for both clients from what their methods take.

A Memorize, MemorizeBatch, Feedback or AutoFeedback without a request id gets a fresh one here, so
the client's own retries of it count once; keyword fields go through ``fields.build``.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from memoryd.client.fields import build
from memoryd.rpc.client import pb, ppb

Item = pb.MemoryInput | Mapping[str, Any]
"""One memory of a batch: the message, or its fields by name."""
Where = pb.RecallFilter | Mapping[str, Any] | None
"""A listing's filter: the message, or its fields by name (``{"pinned_only": True}``)."""


def memorize_request(
    agent_id: str, content: str, end_user_id: str, request_id: str, fields: dict[str, Any]
) -> pb.MemorizeRequest:
    """Memorize of one text with MemoryInput's other fields by name."""
    return pb.MemorizeRequest(
        agent_id=agent_id,
        end_user_id=end_user_id,
        memory=build(pb.MemoryInput, {"content": content, **fields}, keywords=("end_user_id", "request_id")),
        # A retried Memorize must not store twice: the server keeps the first result under this key.
        request_id=request_id or uuid.uuid4().hex,
    )


def batch_request(
    agent_id: str, items: Sequence[Item], end_user_id: str, skip_deduplication: bool, request_id: str
) -> pb.MemorizeBatchRequest:
    """MemorizeBatch of messages or their fields."""
    return pb.MemorizeBatchRequest(
        agent_id=agent_id,
        end_user_id=end_user_id,
        items=[build(pb.MemoryInput, i) if isinstance(i, Mapping) else i for i in items],
        skip_deduplication=skip_deduplication,
        request_id=request_id or uuid.uuid4().hex,  # all or nothing, and once
    )


def auto_feedback_request(
    agent_id: str, used: Mapping[str, bool], end_user_id: str, request_id: str
) -> pb.AutoFeedbackRequest:
    """AutoFeedback of which recalled memories (id → used) the runtime used."""
    return pb.AutoFeedbackRequest(
        agent_id=agent_id,
        end_user_id=end_user_id,
        results=[pb.UsedResult(id=i, used=u) for i, u in used.items()],
        request_id=request_id or uuid.uuid4().hex,
    )


def line_edit(line: str, section: str, pinned: bool, remove: bool) -> dict[str, Any]:
    """EditProfile's oneof for one line added to or removed from a section (or ``## Pinned``)."""
    if remove:
        return {"remove_line": ppb.RemoveLine(section="" if pinned else section, line=line, pinned=pinned)}
    return {"append": ppb.AppendLine(section=section, line=line, pinned=pinned)}


def recall_request(agent_id: str, query: str, limit: int, fields: dict[str, Any]) -> pb.RecallRequest:
    """Recall with RecallRequest's other fields by name."""
    return build(pb.RecallRequest, {"agent_id": agent_id, "query": query, "limit": limit, **fields})


def update_request(agent_id: str, memory_id: str, end_user_id: str, fields: dict[str, Any]) -> pb.UpdateMemoryRequest:
    """UpdateMemory of the fields named (tags as a list)."""
    return build(
        pb.UpdateMemoryRequest, {"agent_id": agent_id, "end_user_id": end_user_id, "memory_id": memory_id, **fields}
    )


def feedback_request(
    agent_id: str, memory_id: str, signal: Any, correction: str, end_user_id: str, request_id: str
) -> pb.FeedbackRequest:
    """Feedback: a signal (its short name, e.g. ``"useful"``, as every enum), or a correction to store."""
    fields = {
        "agent_id": agent_id,
        "end_user_id": end_user_id,
        "memory_id": memory_id,
        "signal": signal,
        "correction": correction,
        "request_id": request_id or uuid.uuid4().hex,  # a retry after a lost reply counts once
    }
    return build(pb.FeedbackRequest, fields)


def list_request(agent_id: str, end_user_id: str, page_size: int, token: str, where: Where) -> pb.ListMemoriesRequest:
    """One page of ListMemories."""
    return build(
        pb.ListMemoriesRequest,
        {
            "agent_id": agent_id,
            "end_user_id": end_user_id,
            "page_size": page_size,
            "page_token": token,
            "filter": where,
        },
    )
