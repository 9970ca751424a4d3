"""A Recall's trace (``core.recall_trace``) as a message."""

from __future__ import annotations

from dataclasses import asdict

from memoryd.core.recall_trace import RecallTrace
from memoryd.rpc._gen.memoryd.v1 import memory_pb2 as pb


def recall_trace(trace: RecallTrace) -> pb.RecallTrace:
    """The trace on the wire: its settings, every candidate, the explained ids."""
    return pb.RecallTrace(
        **asdict(trace.settings),
        vector_candidates=trace.vector_candidates,
        full_text_candidates=trace.full_text_candidates,
        candidates=[pb.TraceCandidate(**asdict(c)) for c in trace.candidates],
        explained=[pb.ExplainedMemory(memory_id=m, outcome=why) for m, why in trace.explained],
    )
